// Which language the console speaks. Pure functions (no DOM access), so they are unit-tested in Node.

/** The languages the console speaks, in the order the switch shows them. */
export const LANGUAGES = ['zh-CN', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's own name: the switch shows them as-is, whatever the current language. */
export const LANGUAGE_NAMES: Record<Language, string> = { 'zh-CN': '中文', en: 'English' };

/** The value for <html lang>. */
export const HTML_LANG: Record<Language, string> = { 'zh-CN': 'zh-CN', en: 'en' };

/** Where the user's choice is kept (localStorage). Only this value is stored: never a key or any other data. */
export const LANGUAGE_STORAGE_KEY = 'callout.language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** zh, zh-CN, zh-Hans, zh-TW… → zh-CN (the only Chinese we speak); anything else → null. */
export function languageFromTag(tag: string): Language | null {
  const lower = tag.trim().toLowerCase();
  if (lower === 'zh' || lower.startsWith('zh-') || lower.startsWith('zh_')) return 'zh-CN';
  if (lower === 'en' || lower.startsWith('en-') || lower.startsWith('en_')) return 'en';
  return null;
}

/**
 * The starting language: the user's saved choice when there is one, else the first OS/browser
 * language we speak (zh* → zh-CN), else English.
 */
export function initialLanguage(saved: string | null | undefined, preferred: readonly string[]): Language {
  if (isLanguage(saved)) return saved;
  for (const tag of preferred) {
    const lang = languageFromTag(tag);
    if (lang) return lang;
  }
  return 'en';
}
