// One language's texts, loaded when that language is spoken, in two parts: the base pack (the
// shell's dictionary, the shared message catalog's core, Ant Design's texts) before the first
// screen, and each feature's dictionary (with the catalog's feature sections, for the features
// whose screens say them) with the first screen that needs it. Switching language loads the new
// language's base and the features already in use, then switches.
import type { ConfigProviderProps } from 'antd';
import type { CoreMessages, FeatureMessages } from '../../../common/messages';
import type { Dictionary } from './dictionary-en';
import { featureMessages, featureTexts, type Feature } from './feature-texts';
import type { Language } from './language';

export { FEATURES, saysFeatureMessages, type Feature } from './feature-texts';

export interface BasePack {
  /** The shell's dictionary (i18next's default namespace, without the features' parts). */
  translation: Partial<Dictionary>;
  /** The shared message catalog's core, what any screen may say (the 'msg' namespace). */
  msg: CoreMessages;
  /** Ant Design's own texts (pagination, pickers, empty states...). */
  antd: NonNullable<ConfigProviderProps['locale']>;
}

type Loader<T> = () => Promise<{ default: T }>;

const BASE: Record<Language, Loader<BasePack>> = {
  en: () => import('./pack-en'),
  'zh-CN': () => import('./pack-zh-CN'),
};

const cache = new Map<string, Promise<unknown>>();
const loaded = new Map<Language, BasePack>();

function once<T>(key: string, load: Loader<T>): Promise<T> {
  let p = cache.get(key) as Promise<T> | undefined;
  if (!p) {
    p = load().then((m) => m.default);
    p.catch(() => cache.delete(key));
    cache.set(key, p);
  }
  return p;
}

/** Loads a language's base pack (once). */
export async function loadBase(lang: Language): Promise<BasePack> {
  const pack = await once(`${lang}`, BASE[lang]);
  loaded.set(lang, pack);
  return pack;
}

/** Loads one feature's texts in a language (once). */
export function loadFeature<F extends Feature>(lang: Language, feature: F): Promise<Dictionary[F]> {
  return once(`${lang}:${feature}`, () => featureTexts(lang, feature));
}

/** Loads the message catalog's feature sections in a language (once; added to the 'msg' namespace). */
export function loadFeatureMessages(lang: Language): Promise<FeatureMessages> {
  return once(`${lang}:msg`, () => featureMessages(lang));
}

/** A base pack already loaded (the language being spoken always is), or undefined. */
export function loadedBase(lang: Language): BasePack | undefined {
  return loaded.get(lang);
}
