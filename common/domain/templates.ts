/**
 * Voice templates and their variable marker 【变量】 (spec sections 1 and 2.2).
 *
 * A template is registered and approved in the provider console; a text can be sent only if it is
 * consistent with an approved template, i.e. it is the template with every marker replaced by some
 * non-empty content.
 */

import { checkContent, type ContentCheck } from './units';

/** The literal variable marker of the provider's templates. */
export const MARKER = '【变量】';

export interface ParsedTemplate {
  /** The template content as given. */
  content: string;
  /** The literal text around the markers; `literals.length === markerCount + 1`, entries may be ''. */
  literals: string[];
  markerCount: number;
}

export function parseTemplate(content: string): ParsedTemplate {
  const literals = content.split(MARKER);
  return { content, literals, markerCount: literals.length - 1 };
}

/** Number of 【变量】 markers in `content`. */
export function countMarkers(content: string): number {
  return content.split(MARKER).length - 1;
}

/** Zero-based indexes of the markers whose value is missing or blank after trim. */
export function missingValues(content: string, values: readonly string[]): number[] {
  const { markerCount } = parseTemplate(content);
  const missing: number[] = [];
  for (let i = 0; i < markerCount; i++) {
    const v = values[i];
    if (v === undefined || v.trim() === '') missing.push(i);
  }
  return missing;
}

/**
 * Replaces the i-th marker with `values[i]`, verbatim (no `$&` or other replacement patterns are
 * interpreted, and a value that itself contains 【变量】 is inserted as is). Values beyond the
 * number of markers are ignored; callers check {@link missingValues} first (a missing value is
 * filled as empty text).
 */
export function fillTemplate(content: string, values: readonly string[]): string {
  const { literals, markerCount } = parseTemplate(content);
  let out = literals[0] ?? '';
  for (let i = 0; i < markerCount; i++) out += (values[i] ?? '') + (literals[i + 1] ?? '');
  return out;
}

export type TemplateCheck = { ok: true; length: number; units: number; markerCount: number } | Extract<ContentCheck, { ok: false }>;

/**
 * Checks a template's own content: 1..500 code points, markers counted as their 4 characters;
 * a template of only whitespace is empty. `units` is what the template costs with its markers
 * as written; a filled text's units come from {@link unitsFor} on the filled text.
 */
export function validateTemplate(content: string): TemplateCheck {
  const check = checkContent(content);
  if (!check.ok) return check;
  return { ...check, markerCount: countMarkers(content) };
}

function normalizeLineEndings(s: string): string {
  return s.replace(/\r\n/g, '\n');
}

/** Index just after the code point that starts at `i` (keeps surrogate pairs together). */
function nextCodePoint(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return i + 2;
  }
  return i + 1;
}

/**
 * If `text` is `templateContent` with every marker replaced by one or more characters (any
 * characters, line breaks included), returns the values, one per marker; otherwise null.
 *
 * - Literal parts match exactly (regular-expression metacharacters have no special meaning).
 * - "\r\n" and "\n" are treated as equal, in both arguments; the values returned use "\n".
 * - When several splits are possible, each marker takes the shortest value that still lets the rest
 *   match, from left to right (leftmost literal occurrence first); the last marker takes what is left.
 *   So for adjacent markers 【变量】【变量】 the first value is one character and the second the rest.
 * - A template without markers matches only the identical text.
 *
 * Runs in O(text length × template length) at worst, without backtracking: the first literal must be
 * a prefix, the last a suffix, and each middle literal is taken at its earliest occurrence that leaves
 * at least one character for the marker before it (which is optimal for this kind of pattern).
 */
export function matchTemplate(text: string, templateContent: string): string[] | null {
  const t = normalizeLineEndings(text);
  const { literals } = parseTemplate(normalizeLineEndings(templateContent));
  const markerCount = literals.length - 1;
  const first = literals[0] ?? '';
  if (markerCount === 0) return t === first ? [] : null;

  const last = literals[markerCount] ?? '';
  if (!t.startsWith(first) || !t.endsWith(last)) return null;
  const end = t.length - last.length;
  let pos = first.length;
  if (end <= pos) return null;

  const values: string[] = [];
  for (let i = 1; i < markerCount; i++) {
    const lit = literals[i] ?? '';
    // the marker before `lit` needs at least one code point
    const from = nextCodePoint(t, pos);
    const at = lit === '' ? from : t.indexOf(lit, from);
    // the earliest occurrence is the best one: if it leaves no room, no later one can
    if (at < 0 || at + lit.length >= end) return null;
    values.push(t.slice(pos, at));
    pos = at + lit.length;
  }
  if (end <= pos) return null;
  values.push(t.slice(pos, end));
  return values;
}

/** True when `text` is consistent with `templateContent` (see {@link matchTemplate}). */
export function textMatchesTemplate(text: string, templateContent: string): boolean {
  return matchTemplate(text, templateContent) !== null;
}

/** Every template that `text` is consistent with, in input order, with the captured values. */
export function findMatchingTemplates<T extends { content: string }>(text: string, templates: readonly T[]): Array<{ template: T; values: string[] }> {
  const out: Array<{ template: T; values: string[] }> = [];
  for (const template of templates) {
    const values = matchTemplate(text, template.content);
    if (values !== null) out.push({ template, values });
  }
  return out;
}
