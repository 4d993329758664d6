// What the call says (issue 25, item 6): the route's approved template with its 【变量】 markers filled
// from the alert group. Pure.
//
// A route maps each marker (by the template's marker name, or by its 1-based number "1", "2" ...) to an
// expression: literal text with `{{name}}` placeholders (the same `{{ }}` reading as saved requests'
// variables, common/domain/variables.ts):
//   {{labels.X}}       a label of the group (its common labels, else its first firing alert's)
//   {{annotations.X}}  an annotation (the group's common annotations, else its first firing alert's)
//   {{count}}          how many alerts the post carries (and Alertmanager left out)
//   {{firing}}         how many of them fire;  {{resolved}}: how many are resolved
//   {{status}}         the group's status, in words the call can say (告警 / 已恢复 by default)
//   {{title}}          the group's title;  {{severity}}: its severity
//
// The check, before a route is saved (against a sample alert) and for every alert before it is called:
// every marker has a value, the text is 1..500 characters (and its units), the text still matches the
// approved template (the provider refuses any other), and warnings for what speech reads badly.

import { fillTemplate, matchTemplate, parseTemplate } from '../domain/templates';
import { checkContent, textLength, unitsFor } from '../domain/units';
import { fillVariables, variablesIn } from '../domain/variables';
import type { AlertGroup } from './types';

export const SIMPLE_NAMES = ['count', 'firing', 'resolved', 'status', 'title', 'severity'] as const;

/** The words `{{status}}` says; a route may give its own. */
export const DEFAULT_STATUS_WORDS = { firing: '告警', resolved: '已恢复' } as const;

/** Is `name` a name an expression may use? */
export function isKnownName(name: string): boolean {
  return (SIMPLE_NAMES as readonly string[]).includes(name) || /^(labels|annotations)\.[^.].*$/.test(name);
}

function own(o: Record<string, string>, k: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

/** The value of one name for a group, or undefined when the group has none. */
export function valueOf(name: string, group: AlertGroup, statusWords: { firing: string; resolved: string } = DEFAULT_STATUS_WORDS): string | undefined {
  const first = group.alerts.find((a) => a.status === 'firing') ?? group.alerts[0];
  if (name.startsWith('labels.')) {
    const k = name.slice('labels.'.length);
    return own(group.commonLabels, k) ?? (first ? own(first.labels, k) : undefined);
  }
  if (name.startsWith('annotations.')) {
    const k = name.slice('annotations.'.length);
    return own(group.commonAnnotations, k) ?? (first ? own(first.annotations, k) : undefined);
  }
  switch (name) {
    case 'count':
      return String(group.alerts.length + group.truncatedAlerts);
    case 'firing':
      return String(group.alerts.filter((a) => a.status === 'firing').length);
    case 'resolved':
      return String(group.alerts.filter((a) => a.status === 'resolved').length);
    case 'status':
      return statusWords[group.status];
    case 'title':
      return group.title || undefined;
    case 'severity':
      return group.severity ?? undefined;
    default:
      return undefined;
  }
}

export const SAY_CODES = [
  'marker-unmapped',
  'unknown-name',
  'value-missing',
  'value-empty',
  'marker-unknown',
  'empty',
  'too-long',
  'template-mismatch',
  'ip-address',
  'url',
  'long-digits',
  'english-punctuation',
  'value-stand-in',
] as const;

/** A problem or a warning: `paging.say.<code>` in the catalog. */
export type SayIssue =
  /** A marker has no expression in the route. */
  | { code: 'marker-unmapped'; params: { marker: string } }
  /** An expression uses a name that is not one of the names above. */
  | { code: 'unknown-name'; params: { marker: string; name: string } }
  /** The group has no value for this name (the marker would be said without it). */
  | { code: 'value-missing'; params: { marker: string; name: string } }
  /** The marker's value is empty: the provider refuses an empty marker. */
  | { code: 'value-empty'; params: { marker: string } }
  /** The route maps a marker the template does not have. */
  | { code: 'marker-unknown'; params: { marker: string } }
  | { code: 'empty'; params: { length: number; max: number } }
  | { code: 'too-long'; params: { length: number; max: number } }
  /** The filled text no longer matches the approved template (the provider would refuse it). */
  | { code: 'template-mismatch'; params: Record<string, never> }
  // Warnings: the call still goes, but speech reads these badly.
  | { code: 'ip-address'; params: { marker: string; text: string } }
  | { code: 'url'; params: { marker: string; text: string } }
  | { code: 'long-digits'; params: { marker: string; text: string } }
  | { code: 'english-punctuation'; params: { marker: string; chars: string } }
  /** A value missing in the group was said as the route's stand-in text. */
  | { code: 'value-stand-in'; params: { marker: string; name: string } };

export interface SayTemplate {
  content: string;
  /** One name per marker, in order (may be shorter, or empty: markers are then named "1", "2" ...). */
  markerNames?: readonly string[];
}

export interface SayOptions {
  /** Say this for a value the group lacks (e.g. '未知'); without it a missing value is an error. */
  missing?: string;
  statusWords?: { firing: string; resolved: string };
}

export interface SayResult {
  /** True when the text can be sent: no errors (warnings may remain). */
  ok: boolean;
  text: string;
  /** The value of each marker, in order. */
  values: string[];
  length: number;
  units: number;
  errors: SayIssue[];
  warnings: SayIssue[];
}

/** The name a marker goes by: the template's name for it, else its 1-based number. */
export function markerName(template: SayTemplate, index: number): string {
  const n = template.markerNames?.[index]?.trim();
  return n ? n : String(index + 1);
}

// IPv4 (with a port), or IPv6 written in full or with '::' (a time such as 10:30:00 is not one).
const IP =
  /\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b|\b(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}\b|\b[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*::(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*\b)?|::[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*\b/i;
const URL_RE = /\b(?:https?|ftp):\/\/\S+|\bwww\.\S+/i;
const LONG_DIGITS = /\d{7,}/;
const CJK = /[\u3400-\u4dbf\u4e00-\u9fff]/;
// ASCII punctuation that reads oddly (or aloud) in Chinese speech; '.' between digits (3.5) is fine.
const ENGLISH_PUNCT = /[,;:!?()[\]"]|\.(?!\d)/g;

/** Warnings for one value: what speech reads badly. */
export function speechWarnings(marker: string, value: string, chineseContext: boolean): SayIssue[] {
  const out: SayIssue[] = [];
  const url = URL_RE.exec(value);
  if (url) out.push({ code: 'url', params: { marker, text: url[0].slice(0, 80) } });
  const withoutUrls = value.replace(new RegExp(URL_RE.source, 'gi'), ' ');
  const ip = IP.exec(withoutUrls);
  if (ip) out.push({ code: 'ip-address', params: { marker, text: ip[0] } });
  const plain = withoutUrls.replace(new RegExp(IP.source, 'gi'), ' ');
  const digits = LONG_DIGITS.exec(plain);
  if (digits) out.push({ code: 'long-digits', params: { marker, text: digits[0].slice(0, 40) } });
  if (chineseContext || CJK.test(value)) {
    // 3.5 and 10:30 read well: a point or a colon between digits is not punctuation here.
    const found = new Set(plain.replace(/\d[.:]\d/g, '').match(ENGLISH_PUNCT) ?? []);
    if (found.size > 0) out.push({ code: 'english-punctuation', params: { marker, chars: [...found].join(' ') } });
  }
  return out;
}

/** Checks a route's expressions against the template, without an alert: unmapped markers and unknown names. */
export function variableIssues(template: SayTemplate, variables: Record<string, string>): SayIssue[] {
  const { markerCount } = parseTemplate(template.content);
  const out: SayIssue[] = [];
  const names = Array.from({ length: markerCount }, (_, i) => markerName(template, i));
  for (const marker of names) {
    const expr = Object.prototype.hasOwnProperty.call(variables, marker) ? variables[marker] : undefined;
    if (expr === undefined || expr.trim() === '') {
      out.push({ code: 'marker-unmapped', params: { marker } });
      continue;
    }
    for (const name of variablesIn(expr)) if (!isKnownName(name)) out.push({ code: 'unknown-name', params: { marker, name } });
  }
  for (const marker of Object.keys(variables)) if (!names.includes(marker)) out.push({ code: 'marker-unknown', params: { marker } });
  return out;
}

/**
 * The text a call says for `group`: the template with each marker's expression evaluated, checked.
 * `ok` is false when it cannot be sent (a marker unmapped or empty, a value missing without a stand-in,
 * over 500 characters, or no longer the approved template's text).
 */
export function sayText(template: SayTemplate, variables: Record<string, string>, group: AlertGroup, options: SayOptions = {}): SayResult {
  const { markerCount } = parseTemplate(template.content);
  const errors: SayIssue[] = variableIssues(template, variables).filter((i) => i.code !== 'marker-unknown');
  const warnings: SayIssue[] = [];
  const chinese = CJK.test(template.content);
  const values: string[] = [];
  for (let i = 0; i < markerCount; i++) {
    const marker = markerName(template, i);
    const expr = Object.prototype.hasOwnProperty.call(variables, marker) ? (variables[marker] ?? '') : '';
    const lookup = (name: string) => (isKnownName(name) ? valueOf(name, group, options.statusWords) : undefined);
    const { missing } = fillVariables(expr, lookup);
    const filled = fillVariables(expr, (name) => lookup(name) ?? options.missing ?? '')
      .text.replace(/\s+/g, ' ')
      .trim();
    for (const name of missing) {
      if (!isKnownName(name)) continue; // reported as unknown-name
      if (options.missing !== undefined) warnings.push({ code: 'value-stand-in', params: { marker, name } });
      else errors.push({ code: 'value-missing', params: { marker, name } });
    }
    if (expr.trim() !== '' && filled === '' && missing.length === 0) errors.push({ code: 'value-empty', params: { marker } });
    warnings.push(...speechWarnings(marker, filled, chinese));
    values.push(filled);
  }
  const text = fillTemplate(template.content, values);
  const check = checkContent(text);
  if (!check.ok) errors.push({ code: check.error, params: { length: check.length, max: check.max } });
  // The provider matches the text, not our values: an empty value (or a changed template) fails here.
  if (matchTemplate(text, template.content) === null) errors.push({ code: 'template-mismatch', params: {} });
  return { ok: errors.length === 0, text, values, length: textLength(text), units: unitsFor(text), errors, warnings };
}
