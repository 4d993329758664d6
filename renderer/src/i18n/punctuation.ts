// Punctuation put together in code follows the language: "All (20)" in English, "全部（20）" in
// Chinese (full-width parentheses, no space) — one rule for every screen (glossary: punctuation).
import type { Language } from './language';

/** `text` followed by `aside` in parentheses, as the language writes them. */
export function withAside(lang: Language, text: string, aside: string): string {
  return lang === 'zh-CN' ? `${text}（${aside}）` : `${text} (${aside})`;
}

/**
 * A provider's own message beside Callout's reading of its code, unless it only says the same
 * thing again ("结果码 2 · 提交成功", not "结果码 2 · 提交成功（提交成功）").
 */
export function withProviderMessage(lang: Language, meaning: string, providerMsg: string | null | undefined): string {
  const own = providerMsg?.trim();
  if (!own) return meaning;
  const bare = (s: string) => s.replace(/[\s。.！!：:，,]/g, '');
  return bare(meaning).includes(bare(own)) ? meaning : withAside(lang, meaning, own);
}
