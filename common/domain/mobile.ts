/**
 * Mainland China mobile numbers (spec: "mainland numbers only"; architecture: 11 digits 1[3-9]xxxxxxxxx).
 *
 * Accepted input forms, all normalised to the bare 11 digits that are sent to the provider:
 *   13812345678 · 138 1234 5678 · 138-1234-5678 · 138.1234.5678 · (138) 1234 5678
 *   +8613812345678 · +86 138 1234 5678 · (+86) 13812345678 · 008613812345678 · 8613812345678
 * Full-width digits (０-９), full-width plus and parentheses are folded to ASCII first.
 * Separators removed: any whitespace (incl. U+3000 and NBSP), dashes (- ‐ ‑ ‒ – — − －), dots (. ．) and
 * parentheses (ASCII and full-width).
 */

export type MobileError = 'empty' | 'invalid-characters' | 'wrong-length' | 'landline' | 'not-mainland-mobile';

export type MobileResult = { ok: true; mobile: string } | { ok: false; error: MobileError };

/** The shape of a normalised mainland mobile number. */
export const MAINLAND_MOBILE_RE = /^1[3-9]\d{9}$/;

const SEPARATORS = /[\s\-\u2010\u2011\u2012\u2013\u2014\u2212\uff0d.\uff0e()\uff08\uff09]/g;

function foldFullWidth(input: string): string {
  return input.replace(/[\uff10-\uff19\uff0b]/g, (ch) => (ch === '\uff0b' ? '+' : String.fromCharCode(ch.charCodeAt(0) - 0xff10 + 0x30)));
}

/**
 * Normalises user input to the 11 digits of a mainland mobile number, or says what is wrong.
 *
 * Prefix rules: `+86` (a `+` must be followed by 86, anything else is a foreign number);
 * `0086` when 11 digits follow; `86` only when the whole is 13 digits and a 1 follows the 86.
 */
export function normalizeMobile(input: string): MobileResult {
  if (input.trim() === '') return { ok: false, error: 'empty' };
  const compact = compactNumber(input);
  if (compact === '') return { ok: false, error: 'empty' };
  if (!/^\+?\d+$/.test(compact)) return { ok: false, error: 'invalid-characters' };
  const national = nationalPart(compact, false);
  if (national === null) return { ok: false, error: 'not-mainland-mobile' };
  if (isLandline(compact, national)) return { ok: false, error: 'landline' };
  if (national.length !== 11) return { ok: false, error: 'wrong-length' };
  if (!MAINLAND_MOBILE_RE.test(national)) return { ok: false, error: 'not-mainland-mobile' };
  return { ok: true, mobile: national };
}

/**
 * A mainland landline (or a 400/800 service number): a trunk 0, an area code and 7–8 digits
 * (0755-12345678, 010 1234 5678), the same after +86 without the 0 (+86 755 1234 5678), or a
 * 10-digit 400/800 number. Callout calls mobiles only, so these get their own answer instead of
 * "wrong number of digits".
 */
function isLandline(compact: string, national: string): boolean {
  if (/^0[1-9]\d{8,10}$/.test(national)) return true;
  if (/^[48]00\d{7}$/.test(national)) return true;
  const prefixed = national !== compact;
  return prefixed && /^[2-9]\d{8,10}$/.test(national);
}

/** Full-width digits and plus folded, separators removed. */
function compactNumber(input: string): string {
  return foldFullWidth(input).replace(SEPARATORS, '');
}

/**
 * The one rule for a country prefix, on a compact number (digits, optionally a leading +): `+86`
 * (a `+` followed by anything else is a foreign number: null); `0086` followed by the national
 * digits (exactly 11 of them for a whole number; any for a partial one typed in a search); `86`
 * when the whole is 13 digits and a 1 follows.
 */
function nationalPart(compact: string, partial: boolean): string | null {
  if (compact.startsWith('+')) return compact.startsWith('+86') ? compact.slice(3) : null;
  if (compact.startsWith('0086') && (partial ? compact.length > 4 : compact.length === 15)) return compact.slice(4);
  if (compact.length === 13 && compact.startsWith('861')) return compact.slice(2);
  return compact;
}

/**
 * The national digits of something typed as (part of) a phone number, for searching: separators
 * and a country prefix removed by the same rule as {@link normalizeMobile}. Null when it is not a
 * number (letters, a foreign + prefix).
 */
export function mobileDigits(input: string): string | null {
  const compact = compactNumber(input.trim());
  if (!/^\+?\d+$/.test(compact)) return null;
  const national = nationalPart(compact, true);
  return national || null;
}

/**
 * Masks a number for logs and notifications: '13812345678' → '138****5678'.
 * Input is normalised first when possible (so '+86 138-1234-5678' also gives '138****5678').
 * Anything else of 11 or more characters keeps its first 3 and last 4 characters; shorter strings
 * show at most half of their characters (the last ones mostly), so that little leaks from a typo.
 */
export function maskMobile(m: string): string {
  const normalized = normalizeMobile(m);
  const chars = Array.from(normalized.ok ? normalized.mobile : m.trim());
  const n = chars.length;
  let head: number;
  let tail: number;
  if (n >= 11) {
    head = 3;
    tail = 4;
  } else {
    const visible = Math.floor(n / 2);
    head = Math.floor(visible / 2);
    tail = visible - head;
  }
  return chars.slice(0, head).join('') + '*'.repeat(n - head - tail) + chars.slice(n - tail).join('');
}
