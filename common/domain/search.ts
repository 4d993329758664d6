// How a typed query matches a name or a text, everywhere people search by name (the quick-dial
// palette, contacts, templates, History's name suggestions): one rule, for main and the renderer.
//
// Case and width are ignored (NFKC, lower case). A query of Latin letters also matches Chinese by
// its pinyin, with pinyin-pro (its dictionary and its polyphone handling): the full syllables
// ("wanggong", "wang gong"), the initials ("wg"), or any mix of syllable beginnings ("wangg",
// "wgong"), over consecutive characters: 王工 is found by "wg", "wang" or "wanggong". Latin names
// match by their words' initials too ("Zhang San" → "zs").
import { match as pinyinMatch } from 'pinyin-pro';

/** How a query matched: the text itself, its word initials, or its pinyin. */
export type TextMatch = 'exact' | 'prefix' | 'text' | 'initials' | 'pinyin';

export const fold = (s: string) => s.normalize('NFKC').toLowerCase();

const HAN = /[\u3400-\u9fff]/;
const MAX_PINYIN_QUERY = 80;
/** Latin letters and spaces only: what a pinyin query looks like. */
const PINYIN_QUERY = /^[a-z][a-z\s']*$/;

/** Latin word initials ("Zhang San" → "zs"). */
function initials(text: string): string {
  return fold(text)
    .split(/[\s._-]+/)
    .filter(Boolean)
    .map((w) => w[0])
    .join('');
}

/** Where `query` matches `text`, or null. An empty query matches nothing (callers decide what "no query" shows). */
export function matchText(text: string, query: string): TextMatch | null {
  const q = fold(query.trim());
  if (q === '') return null;
  const s = fold(text);
  if (s === q) return 'exact';
  if (s.startsWith(q)) return 'prefix';
  if (s.includes(q)) return 'text';
  const compact = q.replace(/\s+/g, '');
  if (compact.length >= 2 && initials(text).startsWith(compact)) return 'initials';
  // Pinyin of a name or a template is short: a longer query is not pinyin (and would only cost time).
  if (compact.length <= MAX_PINYIN_QUERY && PINYIN_QUERY.test(q) && HAN.test(text)) {
    const hit = pinyinMatch(text, compact, { precision: 'start', continuous: true, space: 'ignore', insensitive: true, v: true });
    if (hit && hit.length > 0) return 'pinyin';
  }
  return null;
}

/** True when `query` is empty or matches one of `texts`. */
export function matchesAny(texts: readonly (string | null | undefined)[], query: string): boolean {
  if (query.trim() === '') return true;
  return texts.some((t) => !!t && matchText(t, query) !== null);
}
