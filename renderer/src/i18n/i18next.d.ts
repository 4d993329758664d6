// Typed translation keys: t('profiles.titel') is a compile error, so no raw key reaches the screen.
import 'i18next';
import type { Dictionary } from './dictionaries';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Dictionary };
    returnNull: false;
  }
}
