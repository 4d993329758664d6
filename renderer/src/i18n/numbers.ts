// How a count reads in each language: "2,000" in English; "2000" in Chinese, which groups digits
// only from 10,000 up ("12,345") — one rule for every screen (glossary: numbers).
import type { Language } from './language';

const FORMATS: Record<Language, Intl.NumberFormat> = {
  en: new Intl.NumberFormat('en-US'),
  'zh-CN': new Intl.NumberFormat('zh-CN', { useGrouping: 'min2' }),
};

export function formatCount(lang: Language, n: number): string {
  return FORMATS[lang].format(n);
}
