// Each feature's texts, one chunk per feature and language (features/<feature>/locales/<lang>.json),
// loaded with the first screen that needs them (packs.ts). Kept apart from the base packs so that
// tests and tools can load them without Ant Design.
import type { FeatureMessages } from '../../../common/messages';
import type { Dictionary } from './dictionary-en';
import type { Language } from './language';

/** The features that bring their own texts (under their key of the dictionary). */
export const FEATURES = [
  'onboarding',
  'send',
  'templates',
  'history',
  'signature',
  'bulk',
  'dial',
  'dialects',
  'sandbox',
  'workbench',
  'oncall',
] as const satisfies readonly (keyof Dictionary)[];
export type Feature = (typeof FEATURES)[number];

type Loader<T> = () => Promise<{ default: T }>;

const FEATURE_TEXTS: { [L in Language]: { [F in Feature]: Loader<Dictionary[F]> } } = {
  en: {
    onboarding: () => import('../features/onboarding/locales/en.json'),
    send: () => import('../features/send/locales/en.json'),
    templates: () => import('../features/templates/locales/en.json'),
    history: () => import('../features/history/locales/en.json'),
    signature: () => import('../features/signature/locales/en.json'),
    bulk: () => import('../features/bulk/locales/en.json'),
    dial: () => import('../features/dial/locales/en.json'),
    dialects: () => import('../features/dialects/locales/en.json'),
    sandbox: () => import('../features/sandbox/locales/en.json'),
    workbench: () => import('../features/workbench/locales/en.json'),
    oncall: () => import('../features/oncall/locales/en.json'),
  },
  'zh-CN': {
    onboarding: () => import('../features/onboarding/locales/zh-CN.json'),
    send: () => import('../features/send/locales/zh-CN.json'),
    templates: () => import('../features/templates/locales/zh-CN.json'),
    history: () => import('../features/history/locales/zh-CN.json'),
    signature: () => import('../features/signature/locales/zh-CN.json'),
    bulk: () => import('../features/bulk/locales/zh-CN.json'),
    dial: () => import('../features/dial/locales/zh-CN.json'),
    dialects: () => import('../features/dialects/locales/zh-CN.json'),
    sandbox: () => import('../features/sandbox/locales/zh-CN.json'),
    workbench: () => import('../features/workbench/locales/zh-CN.json'),
    oncall: () => import('../features/oncall/locales/zh-CN.json'),
  },
};

/** Imports one feature's texts in a language (a chunk of its own in the built console). */
export function featureTexts<F extends Feature>(lang: Language, feature: F): Promise<{ default: Dictionary[F] }> {
  return (FEATURE_TEXTS[lang][feature] as Loader<Dictionary[F]>)();
}

/**
 * The features whose screens say only what any screen may say (the message catalog's core, in the
 * base pack): the first screen's and the guide's button. Every other feature's texts come with the
 * catalog's feature sections (common/messages/features/: a signature's diagnosis, a capture's
 * checks, a dialect's name, an import's issues, a dial's results), which its screens say.
 */
const CORE_MESSAGES_ONLY: readonly Feature[] = ['onboarding', 'send'];

/** Whether a feature's screens say the catalog's feature sections (they are loaded with its texts). */
export function saysFeatureMessages(feature: Feature): boolean {
  return !CORE_MESSAGES_ONLY.includes(feature);
}

const FEATURE_MESSAGES: { [L in Language]: Loader<FeatureMessages> } = {
  en: () => import('../../../common/messages/features/en.json'),
  'zh-CN': () => import('../../../common/messages/features/zh-CN.json'),
};

/** Imports the catalog's feature sections in a language (a chunk of their own in the built console). */
export function featureMessages(lang: Language): Promise<{ default: FeatureMessages }> {
  return FEATURE_MESSAGES[lang]();
}
