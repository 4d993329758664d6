// i18next for the renderer: both languages bundled (the renderer's dictionary and the shared message
// catalog, see dictionaries.ts), the starting language from the saved choice or the OS languages,
// switchable at run time (the choice is saved in localStorage).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { resources } from './dictionaries';
import { HTML_LANG, initialLanguage, isLanguage, LANGUAGE_STORAGE_KEY, type Language } from './language';

export * from './language';

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

let started = false;

/** Initialises i18next once (synchronously: the dictionaries are bundled). */
export function startI18n(): typeof i18next {
  if (started) return i18next;
  started = true;
  const lng = initialLanguage(savedLanguage(), navigator.languages?.length ? navigator.languages : [navigator.language]);
  void i18next.use(initReactI18next).init({
    resources,
    lng,
    fallbackLng: 'en',
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
}

/** The language i18next currently speaks, as one of ours. */
export function currentLanguage(lng: string = i18next.language): Language {
  return isLanguage(lng) ? lng : 'en';
}

/** Switches the language now and remembers the choice. */
export async function setLanguage(lang: Language): Promise<void> {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    // Storage may be unavailable; the switch still applies to this session.
  }
  await i18next.changeLanguage(lang);
}
