// Both languages at once, for the tests and tools that compare or render them side by side. The
// console itself never imports this file: it loads one language at a time (packs.ts).
import { MESSAGES, MESSAGES_NS } from '../../../common/messages';
import { EN } from './dictionary-en';
import { ZH_CN } from './dictionary-zh-CN';

export { EN, ZH_CN };
export type { Dictionary } from './dictionary-en';

export const resources = {
  'zh-CN': { translation: ZH_CN, [MESSAGES_NS]: MESSAGES['zh-CN'] },
  en: { translation: EN, [MESSAGES_NS]: MESSAGES.en },
} as const;
