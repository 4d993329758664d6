/**
 * Content length and billing units (spec sections 1, 2.2 and 8).
 *
 * Length is counted in Unicode code points, not UTF-16 code units: an emoji is one character,
 * and 【变量】 is four. One unit covers 70 characters; a unit is charged only when the call is answered.
 */

export const CONTENT_MIN = 1;
export const CONTENT_MAX = 500;
export const CHARS_PER_UNIT = 70;
/** Seconds of speech one unit's 70 characters take (spec: "one unit covers 70 characters (about 20 seconds of speech)"). */
export const SPEECH_SECONDS_PER_UNIT = 20;

export type ContentCheck = { ok: true; length: number; units: number } | { ok: false; error: 'empty' | 'too-long'; length: number; max: number };

export type ContentError = Extract<ContentCheck, { ok: false }>['error'];

/** Length in Unicode code points ('😀' is 1, '【变量】' is 4). A lone surrogate counts as 1. */
export function textLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Units needed to send `s`: ceil(length / 70); 0 for ''. */
export function unitsFor(s: string): number {
  return Math.ceil(textLength(s) / CHARS_PER_UNIT);
}

/** About how long the provider takes to read `length` characters aloud (70 characters ≈ 20 s), in seconds. */
export function speechSecondsFor(length: number): number {
  return (Math.max(0, length) * SPEECH_SECONDS_PER_UNIT) / CHARS_PER_UNIT;
}

/**
 * Checks a voice text against the provider's 1..500 character rule.
 * A text made only of whitespace counts as empty. The length reported is that of the text as given.
 */
export function checkContent(s: string): ContentCheck {
  const length = textLength(s);
  if (s.trim() === '') return { ok: false, error: 'empty', length, max: CONTENT_MAX };
  if (length > CONTENT_MAX) return { ok: false, error: 'too-long', length, max: CONTENT_MAX };
  return { ok: true, length, units: Math.ceil(length / CHARS_PER_UNIT) };
}
