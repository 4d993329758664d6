// Typed translation keys: t('profiles.titel') is a compile error, so no raw key reaches the screen.
import 'i18next';
import type en from './en.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    returnNull: false;
  }
}
