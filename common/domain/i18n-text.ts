/** The two languages the console speaks. */
export type Lang = 'zh-CN' | 'en';

/** Every supported language, in display order. */
export const LANGS: readonly Lang[] = ['zh-CN', 'en'];
