// The words of the exchanges' search index (migration 0027): what the index holds of a text, and
// what a search asks it for. Pure: no database.
//
// The index holds a call's trigrams (three characters in a row, ASCII letters folded to lower case
// as the search's own check does), each once, as a token of hexadecimal digits, but not the
// trigrams every call holds (COMMON_GRAMS): the field names, headers and URL of the provider's
// protocol. They pick out nothing, and each cost a byte or more a call. A search asks the index for
// its words' other trigrams; a word made only of common ones (`Content-Type`, `account`) is nearly
// always in every call too, and is checked on the text of the exchanges walked, as a word of one
// or two characters is. Either way every exchange holding the words is found: the index only
// narrows the candidates.

/**
 * The trigrams that 99% or more of the calls hold in a store of 50,000 calls shaped as the Sandbox's
 * (the bench's `history-real`): the provider's JSON keys, headers and URL. None holds a digit:
 * numbers and dates are what people look for, and a year in every call today is rare in the next.
 * Trigrams most calls hold but not all (a state such as "answered", a reply's words) are kept: a
 * store whose calls mostly fail finds them rare. Fixed: a store's index is made with this list, and
 * searched with it (a new list needs a migration that remakes the index).
 */
export const COMMON_GRAMS: ReadonlySet<string> = new Set([
  '\n[[',
  '\n{"',
  ' ch',
  '","',
  '":"',
  '"[r',
  '"],',
  '"]]',
  '"ac',
  '"ap',
  '"cl',
  '"co',
  '"fo',
  '"ho',
  '"js',
  '"mo',
  '"pa',
  '"}\n',
  ',"a',
  ',"c',
  ',"f',
  ',"m',
  ',"p',
  ',["',
  '-ap',
  '-le',
  '-ty',
  '.co',
  '.ex',
  '//a',
  '/ap',
  '/js',
  '/vm',
  '/vo',
  ':"[',
  ':"j',
  '://',
  '; c',
  '=ut',
  '["a',
  '["c',
  '["h',
  '[["',
  '[re',
  ']\n{',
  ']",',
  '],[',
  ']]\n',
  'acc',
  'act',
  'amp',
  'api',
  'app',
  'ars',
  'ass',
  'at"',
  'ati',
  'bil',
  'cat',
  'cce',
  'cco',
  'ce/',
  'cep',
  'cha',
  'clo',
  'com',
  'con',
  'cou',
  'cte',
  'cti',
  'd":',
  'd]"',
  'dac',
  'e",',
  'e":',
  'e"]',
  'e.c',
  'e/v',
  'ect',
  'ed]',
  'eda',
  'eng',
  'ent',
  'ept',
  'et=',
  'exa',
  'for',
  'gth',
  'h",',
  'har',
  'hos',
  'htt',
  'i",',
  'i.e',
  'ica',
  'ice',
  'ile',
  'ion',
  'jso',
  'le"',
  'le.',
  'len',
  'lic',
  'los',
  'm\n[',
  'm"]',
  'm/v',
  'mat',
  'mob',
  'mpl',
  'n",',
  'n"]',
  'n"}',
  'n/j',
  'n; ',
  'nec',
  'ngt',
  'nne',
  'nt"',
  'nt-',
  'nte',
  'obi',
  'oic',
  'om"',
  'om/',
  'on"',
  'on/',
  'on;',
  'onn',
  'ont',
  'ord',
  'orm',
  'ose',
  'ost',
  'oun',
  'pas',
  'pe"',
  'pi"',
  'pi.',
  'ple',
  'pli',
  'ppl',
  'ps:',
  'pt"',
  'rd"',
  'red',
  'rma',
  'rse',
  's:/',
  'se"',
  'set',
  'son',
  'ssw',
  'st"',
  'swo',
  't",',
  't":',
  't-l',
  't-t',
  't=u',
  'ted',
  'ten',
  'tf-',
  'th"',
  'tio',
  'tps',
  'ttp',
  'typ',
  'unt',
  'utf',
  'vm\n',
  'voi',
  'wor',
  'xam',
  'ype',
  '{"a',
  '。",',
]);

/** At most this many trigrams a search asks the index for (all of them required). */
const MAX_GRAMS = 64;

/** SQLite's LIKE folds the case of ASCII letters only: so do the index and the check of a candidate's text. */
export function asciiFold(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** The distinct trigrams of a text (by code point, ASCII-folded) that are not common. */
function grams(text: string, into: Set<string>, max = Infinity): Set<string> {
  const chars = [...asciiFold(text)];
  for (let i = 0; i + 3 <= chars.length && into.size < max; i++) {
    const g = chars[i]! + chars[i + 1]! + chars[i + 2]!;
    if (!COMMON_GRAMS.has(g)) into.add(g);
  }
  return into;
}

/** A trigram as one token of the index's tokenizer (`ascii`: runs of letters and digits). */
function token(gram: string): string {
  return Buffer.from(gram, 'utf8').toString('hex');
}

/** What the index holds of a text (SQL: `callout_words(text)`): its trigrams' tokens, each once. */
export function indexWords(text: string): string {
  return [...grams(text, new Set())].map(token).join(' ');
}

/**
 * The index's query for the words (each of 3+ characters): every trigram they hold that is not
 * common, all required. Null when they hold none: the index cannot narrow the search.
 */
export function wordsQuery(words: readonly string[]): string | null {
  const found = new Set<string>();
  for (const w of words) grams(w, found, MAX_GRAMS);
  return found.size ? [...found].map(token).join(' AND ') : null;
}
