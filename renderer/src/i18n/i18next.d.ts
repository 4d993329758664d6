// Typed translation keys: t('profiles.titel') is a compile error, so no raw key reaches the screen.
// The message catalog is the 'msg' namespace: t('state.answered', { ns: 'msg' }).
import 'i18next';
import type { MESSAGES_NS, MessageCatalog } from '../../../common/messages';
import type { Dictionary } from './dictionaries';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Dictionary } & Record<typeof MESSAGES_NS, MessageCatalog>;
    returnNull: false;
  }
}
