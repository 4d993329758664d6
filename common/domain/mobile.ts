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

import type { LocalizedText } from './i18n-text';

export type MobileError = 'empty' | 'invalid-characters' | 'wrong-length' | 'not-mainland-mobile';

export type MobileResult = { ok: true; mobile: string } | { ok: false; error: MobileError };

/** The shape of a normalised mainland mobile number. */
export const MAINLAND_MOBILE_RE = /^1[3-9]\d{9}$/;

export const MOBILE_ERRORS: Record<MobileError, LocalizedText> = {
  empty: {
    'zh-CN': '请输入手机号码：以 13–19 开头的 11 位中国大陆手机号，可带 +86、空格或短横线。',
    en: 'Enter a mobile number: 11 digits starting with 13–19 (mainland China); +86, spaces and dashes are fine.',
  },
  'invalid-characters': {
    'zh-CN': '号码中有无效字符：请只填写以 13–19 开头的 11 位手机号数字，可带 +86 前缀、空格、短横线、点或括号。',
    en: 'The number contains characters that are not allowed: enter only the 11 digits of a mainland mobile number starting with 13–19; a +86 prefix, spaces, dashes, dots and parentheses are fine.',
  },
  'wrong-length': {
    'zh-CN': '号码位数不对：中国大陆手机号为 11 位数字（以 13–19 开头），可带 +86 前缀。',
    en: 'Wrong number of digits: a mainland mobile number has 11 digits starting with 13–19, optionally after +86.',
  },
  'not-mainland-mobile': {
    'zh-CN': '这不是中国大陆手机号：只能呼叫以 13–19 开头的 11 位手机号，不支持座机和境外号码。',
    en: 'Not a mainland China mobile number: only 11-digit numbers starting with 13–19 can be called; landlines and foreign numbers are not supported.',
  },
};

/** Hint shown next to a number field. */
export const MOBILE_HINT: LocalizedText = {
  'zh-CN': '请输入以 13–19 开头的 11 位中国大陆手机号，可带 +86、空格或短横线。',
  en: 'Enter an 11-digit mainland mobile number starting with 13–19; +86, spaces and dashes are fine.',
};

const SEPARATORS = /[\s\-\u2010\u2011\u2012\u2013\u2014\u2212\uff0d.\uff0e()\uff08\uff09]/g;

function foldFullWidth(input: string): string {
  return input.replace(/[\uff10-\uff19\uff0b]/g, (ch) =>
    ch === '\uff0b' ? '+' : String.fromCharCode(ch.charCodeAt(0) - 0xff10 + 0x30),
  );
}

/**
 * Normalises user input to the 11 digits of a mainland mobile number, or says what is wrong.
 *
 * Prefix rules: `+86` (a `+` must be followed by 86, anything else is a foreign number);
 * `0086` when 11 digits follow; `86` only when the whole is 13 digits and a 1 follows the 86.
 */
export function normalizeMobile(input: string): MobileResult {
  if (input.trim() === '') return { ok: false, error: 'empty' };
  const compact = foldFullWidth(input).replace(SEPARATORS, '');
  if (compact === '') return { ok: false, error: 'empty' };
  if (!/^\+?\d+$/.test(compact)) return { ok: false, error: 'invalid-characters' };

  let national: string;
  if (compact.startsWith('+')) {
    if (!compact.startsWith('+86')) return { ok: false, error: 'not-mainland-mobile' };
    national = compact.slice(3);
  } else if (compact.length === 15 && compact.startsWith('0086')) {
    national = compact.slice(4);
  } else if (compact.length === 13 && compact.startsWith('861')) {
    national = compact.slice(2);
  } else {
    national = compact;
  }

  if (national.length !== 11) return { ok: false, error: 'wrong-length' };
  if (!MAINLAND_MOBILE_RE.test(national)) return { ok: false, error: 'not-mainland-mobile' };
  return { ok: true, mobile: national };
}

/** True when `input` normalises to a valid mainland mobile number. */
export function isValidMobile(input: string): boolean {
  return normalizeMobile(input).ok;
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
