/** The two languages the console speaks. */
export type Lang = 'zh-CN' | 'en';

/** A user-facing text in every supported language. */
export interface LocalizedText {
  'zh-CN': string;
  en: string;
}

/** Every supported language, in display order. */
export const LANGS: readonly Lang[] = ['zh-CN', 'en'];

/** Picks the text for `lang`. */
export function pickText(text: LocalizedText, lang: Lang): string {
  return text[lang];
}
