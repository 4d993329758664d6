// i18next for the renderer: the starting language from the saved choice or the OS languages, and
// only that language's texts loaded (packs.ts): its base before the first screen, each feature's
// dictionary with the screen that needs it. Switching language loads the other language's base and
// the features in use, then switches (the choice is saved in localStorage).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MESSAGES_NS } from '../../../common/messages';
import { HTML_LANG, initialLanguage, isLanguage, LANGUAGE_STORAGE_KEY, type Language } from './language';
import { loadBase, loadedBase, loadFeature, loadFeatureMessages, saysFeatureMessages, type BasePack, type Feature } from './packs';

export * from './language';
export type { Feature } from './packs';

function savedLanguage(): string | null {
  try {
    return window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    return null;
  }
}

function applyToDocument(lang: Language): void {
  document.documentElement.lang = HTML_LANG[lang];
}

/** The language being spoken, or being switched to (what texts are loaded for). */
let speaking: Language | null = null;
let started: Promise<typeof i18next> | null = null;
/** The features whose texts the console has needed so far (a language switch loads them too). */
const inUse = new Set<Feature>();

/** The language to start in: the saved choice, else the first OS language we speak. */
export function startingLanguage(): Language {
  return initialLanguage(savedLanguage(), navigator.languages?.length ? navigator.languages : [navigator.language]);
}

/**
 * Loads the language's base and the given features' texts (with the catalog's feature sections if
 * one of them says them), and adds them to i18next (once it has started).
 */
async function addTexts(lang: Language, features: Iterable<Feature>): Promise<void> {
  const list = [...features];
  const [base, messages, ...parts] = await Promise.all([
    loadBase(lang),
    list.some(saysFeatureMessages) ? loadFeatureMessages(lang) : null,
    ...list.map((f) => loadFeature(lang, f)),
  ]);
  await (started ?? startI18n(lang));
  if (!i18next.hasResourceBundle(lang, MESSAGES_NS)) i18next.addResourceBundle(lang, MESSAGES_NS, base.msg);
  if (messages) i18next.addResourceBundle(lang, MESSAGES_NS, messages, true, false);
  i18next.addResourceBundle(lang, 'translation', base.translation, true, false);
  list.forEach((f, i) => i18next.addResourceBundle(lang, 'translation', { [f]: parts[i] }, true, true));
}

/** Loads the starting language's base texts and initialises i18next (once). */
export function startI18n(lng: Language = startingLanguage()): Promise<typeof i18next> {
  speaking ??= lng;
  started ??= (async () => {
    const base = await loadBase(lng);
    await i18next.use(initReactI18next).init({
      resources: { [lng]: { translation: base.translation, [MESSAGES_NS]: base.msg } },
      lng,
      // Both languages have every key (test/unit/i18n): nothing to fall back to.
      fallbackLng: false,
      supportedLngs: ['zh-CN', 'en'],
      load: 'currentOnly',
      initAsync: false,
      returnNull: false,
      returnEmptyString: false,
      interpolation: { escapeValue: false },
    });
    applyToDocument(lng);
    i18next.on('languageChanged', (next) => {
      if (isLanguage(next)) applyToDocument(next);
    });
    return i18next;
  })();
  return started;
}

/** Loads the texts of these features in the language spoken (a screen's, before it shows). */
export function loadTexts(features: readonly Feature[]): Promise<void> {
  for (const f of features) inUse.add(f);
  return addTexts(speaking ?? startingLanguage(), features);
}

/** The language i18next currently speaks, as one of ours. */
export function currentLanguage(lng: string = i18next.language): Language {
  return isLanguage(lng) ? lng : 'en';
}

/** Ant Design's texts for a language whose base is loaded (the current one always is). */
export function antdLocale(lang: Language): BasePack['antd'] | undefined {
  return loadedBase(lang)?.antd;
}

/** Loads the language's texts (the base and the features in use), switches to it now, and remembers the choice. */
export async function setLanguage(lang: Language): Promise<void> {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    // Storage may be unavailable; the switch still applies to this session.
  }
  speaking = lang;
  await addTexts(lang, inUse);
  // Features needed meanwhile (a screen opened during the load) were loaded for `lang` too.
  await i18next.changeLanguage(lang);
}
