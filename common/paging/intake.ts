// Alert intake (issue 25, item 1): what a monitoring system posts, read into one AlertGroup.
//
// Three shapes, told apart by what they carry:
// - Prometheus Alertmanager's webhook (`version` "4", `alerts[]`, `groupKey`, `truncatedAlerts` ...);
// - Grafana's webhook contact point: the same shape plus `orgId`, `title`, `state`, `message`, and per
//   alert `values`, `silenceURL`, `dashboardURL`, `panelURL` (its `version` is "1");
// - our own plain JSON for scripts: `title`, `severity`, `labels`, `key`, `status` (no `alerts`).
//
// Pure: no I/O, no clock. A body is the raw text (a post, a paste, a file) or an already parsed value.
// Whatever it holds, the answer is a group or one error { code: 'alert-post-invalid', params: { field,
// problem, limit? } } that the receiver turns into a 4xx (see intakeHttpStatus): never a throw.

import type { Alert, AlertGroup, AlertSource } from './types';

/**
 * Bounds on one post. Why these numbers: Alertmanager's `max_alerts` is 0 (all) by default and a group
 * rarely holds more than a few hundred alerts; 1,000 alerts of 100 labels still parse in milliseconds.
 * Prometheus label values are short (host names, job names); annotations carry sentences.
 */
export const INTAKE_LIMITS = {
  /** Characters of the raw text (the receiver also bounds the body's bytes before reading it). */
  textChars: 4 * 1024 * 1024,
  /** Alerts in one post. */
  alerts: 1_000,
  /** Labels, or annotations, or Grafana values, of one alert or one group. */
  entries: 100,
  /** A label's or an annotation's name. */
  nameChars: 256,
  /** A label's value. */
  labelChars: 4_096,
  /** An annotation's value, a Grafana message, a URL, any other string. */
  stringChars: 16_384,
  /** A group key (Alertmanager's groupKey holds the group's labels). */
  keyChars: 4_096,
  /** Nesting of objects and arrays (Alertmanager's own is 4 deep). */
  depth: 10,
  /** Objects, arrays and values in the whole body. */
  nodes: 500_000,
} as const;

/** Titles are cut to this many characters for lists (never rejected for length). */
export const TITLE_CHARS = 200;

export const INTAKE_PROBLEMS = [
  'content-type',
  'too-large',
  'not-json',
  'too-deep',
  'too-many-nodes',
  'not-object',
  'unknown-shape',
  'unsupported-version',
  'missing',
  'wrong-type',
  'empty',
  'too-many',
  'too-long',
  'invalid-status',
  'invalid-time',
] as const;
export type IntakeProblem = (typeof INTAKE_PROBLEMS)[number];

export interface IntakeError {
  code: 'alert-post-invalid';
  /** `field`: where, as a path (`alerts[3].labels.instance`); `limit`: the bound that was passed. */
  params: { field: string; problem: IntakeProblem; limit?: number };
}

export type IntakeResult = { ok: true; group: AlertGroup } | { ok: false; error: IntakeError };

/** The HTTP status a receiver answers for an intake error: 415 wrong content type, 413 too large, else 400/422. */
export function intakeHttpStatus(error: IntakeError): 400 | 413 | 415 | 422 {
  switch (error.params.problem) {
    case 'content-type':
      return 415;
    case 'too-large':
    case 'too-many-nodes':
      return 413;
    case 'not-json':
    case 'too-deep':
      return 400;
    default:
      return 422;
  }
}

class Invalid {
  constructor(readonly params: IntakeError['params']) {}
}

function invalid(field: string, problem: IntakeProblem, limit?: number): never {
  throw new Invalid(limit === undefined ? { field: clip(field), problem } : { field: clip(field), problem, limit });
}

/** A field path in an error stays short (a hostile label name could be long). */
function clip(field: string): string {
  return field.length > 120 ? `${field.slice(0, 117)}...` : field;
}

/** JSON media types: application/json, application/<x>+json, and text/plain (curl's and a paste's). */
export function isJsonContentType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type) || type === 'text/plain';
}

/** Nesting depth of a JSON text, counted without parsing it (brackets inside strings do not count). */
function textDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Checks depth and size of a parsed value, iteratively (a hostile value cannot overflow the stack). */
function checkShape(value: unknown): void {
  const stack: Array<[unknown, number]> = [[value, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (++nodes > INTAKE_LIMITS.nodes) invalid('$', 'too-many-nodes', INTAKE_LIMITS.nodes);
    if (v === null || typeof v !== 'object') continue;
    if (depth > INTAKE_LIMITS.depth) invalid('$', 'too-deep', INTAKE_LIMITS.depth);
    const children = Array.isArray(v) ? v : Object.values(v as object);
    if (children.length > INTAKE_LIMITS.nodes) invalid('$', 'too-many-nodes', INTAKE_LIMITS.nodes);
    for (const child of children) stack.push([child, depth + 1]);
  }
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o: Obj, k: string) => Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined && o[k] !== null;

/** Sets an own property, even one named `__proto__` (plain assignment would change the prototype). */
function setOwn(o: Record<string, string>, k: string, v: string): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function str(o: Obj, k: string, field: string, max: number = INTAKE_LIMITS.stringChars): string | null {
  if (!has(o, k)) return null;
  const v = o[k];
  if (typeof v !== 'string') invalid(field, 'wrong-type');
  if (v.length > max) invalid(field, 'too-long', max);
  return v;
}

/** A string map (labels, annotations): string names and values, bounded. */
function stringMap(o: Obj, k: string, field: string, valueMax: number): Record<string, string> {
  const out: Record<string, string> = {};
  if (!has(o, k)) return out;
  const m = o[k];
  if (!isObj(m)) invalid(field, 'wrong-type');
  const entries = Object.entries(m);
  if (entries.length > INTAKE_LIMITS.entries) invalid(field, 'too-many', INTAKE_LIMITS.entries);
  for (const [name, value] of entries) {
    const at = `${field}.${name}`;
    if (name === '') invalid(`${field}.""`, 'empty');
    if (name.length > INTAKE_LIMITS.nameChars) invalid(`${field}.${name.slice(0, 40)}`, 'too-long', INTAKE_LIMITS.nameChars);
    if (typeof value !== 'string') invalid(at, 'wrong-type');
    if (value.length > valueMax) invalid(at, 'too-long', valueMax);
    setOwn(out, name, value);
  }
  return out;
}

const FIRING = new Set(['firing', 'alerting', 'problem', 'triggered', 'trigger', 'critical', 'error']);
const RESOLVED = new Set(['resolved', 'ok', 'normal', 'recovered', 'closed']);

function status(v: string | null, field: string, fallback: 'firing' | 'resolved' | null): 'firing' | 'resolved' {
  if (v === null) {
    if (fallback === null) invalid(field, 'missing');
    return fallback;
  }
  const k = v.trim().toLowerCase();
  if (FIRING.has(k)) return 'firing';
  if (RESOLVED.has(k)) return 'resolved';
  return invalid(field, 'invalid-status');
}

/** RFC 3339 to epoch ms; Alertmanager's zero time (0001-01-01T00:00:00Z) and '' mean none. */
function time(v: string | null, field: string): number | null {
  if (v === null || v.trim() === '' || v.startsWith('0001-01-01')) return null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(v.trim())) invalid(field, 'invalid-time');
  // Date.parse takes at most milliseconds: Go writes nanoseconds.
  const ms = Date.parse(v.trim().replace(/(\.\d{3})\d+/, '$1'));
  if (Number.isNaN(ms)) invalid(field, 'invalid-time');
  return ms;
}

// FNV-1a, 64 bits, as Prometheus computes a label set's fingerprint (common/model: labelSetToFingerprint).
const FNV_OFFSET = 14695981039346656037n;
const FNV_PRIME = 1099511628211n;
const MASK64 = (1n << 64n) - 1n;
const utf8 = new TextEncoder();

/**
 * The fingerprint of a label set, the same as Alertmanager's: names sorted, each name and value
 * followed by the byte 0xff, FNV-1a 64, 16 hex digits.
 */
export function labelsFingerprint(labels: Record<string, string>): string {
  let h = FNV_OFFSET;
  const add = (b: number) => {
    h = ((h ^ BigInt(b)) * FNV_PRIME) & MASK64;
  };
  for (const name of Object.keys(labels).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const b of utf8.encode(name)) add(b);
    add(0xff);
    for (const b of utf8.encode(labels[name]!)) add(b);
    add(0xff);
  }
  return h.toString(16).padStart(16, '0');
}

/** The labels every alert has with the same value. */
function commonOf(alerts: readonly Alert[]): Record<string, string> {
  const out: Record<string, string> = {};
  const [first, ...rest] = alerts;
  if (!first) return out;
  for (const [k, v] of Object.entries(first.labels))
    if (rest.every((a) => Object.prototype.hasOwnProperty.call(a.labels, k) && a.labels[k] === v)) setOwn(out, k, v);
  return out;
}

function cutTitle(s: string): string {
  const chars = [...s.trim()];
  return chars.length > TITLE_CHARS ? `${chars.slice(0, TITLE_CHARS - 1).join('')}…` : chars.join('');
}

function titleFrom(labels: Record<string, string>, fallback: string): string {
  const parts = [labels.alertname, labels.instance].filter((s): s is string => typeof s === 'string' && s.trim() !== '');
  return cutTitle(parts.length > 0 ? parts.join(' ') : fallback);
}

function severityOf(...candidates: Array<string | null | undefined>): string | null {
  for (const c of candidates) if (typeof c === 'string' && c.trim() !== '') return c.trim().toLowerCase();
  return null;
}

function parseAlert(a: unknown, i: number, grafana: boolean): Alert {
  const f = `alerts[${i}]`;
  if (!isObj(a)) invalid(f, 'wrong-type');
  const labels = stringMap(a, 'labels', `${f}.labels`, INTAKE_LIMITS.labelChars);
  const alert: Alert = {
    status: status(str(a, 'status', `${f}.status`), `${f}.status`, 'firing'),
    labels,
    annotations: stringMap(a, 'annotations', `${f}.annotations`, INTAKE_LIMITS.stringChars),
    startsAt: time(str(a, 'startsAt', `${f}.startsAt`), `${f}.startsAt`),
    endsAt: time(str(a, 'endsAt', `${f}.endsAt`), `${f}.endsAt`),
    fingerprint: str(a, 'fingerprint', `${f}.fingerprint`, 128)?.trim() || labelsFingerprint(labels),
    generatorURL: str(a, 'generatorURL', `${f}.generatorURL`) || null,
  };
  if (grafana) {
    if (has(a, 'values')) {
      const v = a.values;
      if (!isObj(v)) invalid(`${f}.values`, 'wrong-type');
      const entries = Object.entries(v);
      if (entries.length > INTAKE_LIMITS.entries) invalid(`${f}.values`, 'too-many', INTAKE_LIMITS.entries);
      const values: Record<string, number | string> = {};
      for (const [k, x] of entries) {
        if (k.length > INTAKE_LIMITS.nameChars) invalid(`${f}.values`, 'too-long', INTAKE_LIMITS.nameChars);
        if (typeof x !== 'number' && typeof x !== 'string') invalid(`${f}.values.${k}`, 'wrong-type');
        if (typeof x === 'string' && x.length > INTAKE_LIMITS.labelChars) invalid(`${f}.values.${k}`, 'too-long', INTAKE_LIMITS.labelChars);
        Object.defineProperty(values, k, { value: x, enumerable: true, writable: true, configurable: true });
      }
      alert.values = values;
    }
    alert.silenceURL = str(a, 'silenceURL', `${f}.silenceURL`) || null;
    alert.dashboardURL = str(a, 'dashboardURL', `${f}.dashboardURL`) || null;
    alert.panelURL = str(a, 'panelURL', `${f}.panelURL`) || null;
  }
  return alert;
}

/** A group of Alertmanager's or Grafana's shape. */
function parseWebhook(o: Obj, source: 'alertmanager' | 'grafana'): AlertGroup {
  const grafana = source === 'grafana';
  const version = has(o, 'version') ? o.version : null;
  if (!grafana && version !== null && version !== '4' && version !== 4) invalid('version', 'unsupported-version');
  const list = o.alerts;
  if (!Array.isArray(list)) invalid('alerts', 'wrong-type');
  if (list.length === 0) invalid('alerts', 'empty');
  if (list.length > INTAKE_LIMITS.alerts) invalid('alerts', 'too-many', INTAKE_LIMITS.alerts);
  const alerts = list.map((a, i) => parseAlert(a, i, grafana));
  let truncatedAlerts = 0;
  if (has(o, 'truncatedAlerts')) {
    const t = o.truncatedAlerts;
    if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0) invalid('truncatedAlerts', 'wrong-type');
    truncatedAlerts = t;
  }
  const groupLabels = stringMap(o, 'groupLabels', 'groupLabels', INTAKE_LIMITS.labelChars);
  const given = stringMap(o, 'commonLabels', 'commonLabels', INTAKE_LIMITS.labelChars);
  const commonLabels = Object.keys(given).length > 0 ? given : commonOf(alerts);
  const commonAnnotations = stringMap(o, 'commonAnnotations', 'commonAnnotations', INTAKE_LIMITS.stringChars);
  const groupKey = str(o, 'groupKey', 'groupKey', INTAKE_LIMITS.keyChars)?.trim() || null;
  const title = grafana ? str(o, 'title', 'title') : null;
  // Grafana's `message` (its default template lists every alert) is not kept or spoken: only its type is
  // checked, whatever its length (the whole post is bounded), so a large group is not refused for it.
  if (grafana) str(o, 'message', 'message', Infinity);
  // Every alert of the group resolved: the group is resolved (the post's own `status` says the same).
  const groupStatus = alerts.some((a) => a.status === 'firing') ? 'firing' : 'resolved';
  const firing = alerts.find((a) => a.status === 'firing') ?? alerts[0]!;
  return {
    source,
    key: groupKey ?? groupFingerprint(groupLabels, commonLabels, alerts),
    status: groupStatus,
    title: title?.trim() ? cutTitle(title) : titleFrom(Object.keys(commonLabels).length > 0 ? commonLabels : firing.labels, groupKey ?? firing.fingerprint),
    severity: severityOf(commonLabels.severity, firing.labels.severity),
    groupLabels,
    commonLabels,
    commonAnnotations,
    externalURL: str(o, 'externalURL', 'externalURL') || null,
    truncatedAlerts,
    alerts,
  };
}

/** Without a groupKey: the group's labels' fingerprint, else the common labels', else the one alert's (or all of theirs). */
function groupFingerprint(groupLabels: Record<string, string>, commonLabels: Record<string, string>, alerts: readonly Alert[]): string {
  if (Object.keys(groupLabels).length > 0) return labelsFingerprint(groupLabels);
  if (Object.keys(commonLabels).length > 0) return labelsFingerprint(commonLabels);
  if (alerts.length === 1) return alerts[0]!.fingerprint;
  const byFingerprint: Record<string, string> = {};
  for (const a of alerts) setOwn(byFingerprint, a.fingerprint, '');
  return labelsFingerprint(byFingerprint);
}

/** Our plain JSON: { title, severity, labels, key, status } (all optional but one of title and labels). */
function parsePlain(o: Obj): AlertGroup {
  const title = str(o, 'title', 'title')?.trim() || null;
  const severity = severityOf(str(o, 'severity', 'severity', INTAKE_LIMITS.nameChars));
  const labels = stringMap(o, 'labels', 'labels', INTAKE_LIMITS.labelChars);
  if (title === null && Object.keys(labels).length === 0) invalid('title', 'missing');
  if (title !== null && !has(labels, 'alertname')) setOwn(labels, 'alertname', [...title].slice(0, INTAKE_LIMITS.labelChars).join(''));
  if (severity !== null && !has(labels, 'severity')) setOwn(labels, 'severity', severity);
  const annotations = stringMap(o, 'annotations', 'annotations', INTAKE_LIMITS.stringChars);
  const message = str(o, 'message', 'message');
  if (message !== null && !has(annotations, 'summary')) setOwn(annotations, 'summary', message);
  const st = status(str(o, 'status', 'status'), 'status', 'firing');
  const fingerprint = labelsFingerprint(labels);
  const key = str(o, 'key', 'key', INTAKE_LIMITS.keyChars)?.trim() || null;
  const alert: Alert = { status: st, labels, annotations, startsAt: null, endsAt: null, fingerprint, generatorURL: null };
  return {
    source: 'json',
    key: key ?? fingerprint,
    status: st,
    title: title !== null ? cutTitle(title) : titleFrom(labels, fingerprint),
    severity: severity ?? severityOf(labels.severity),
    groupLabels: {},
    commonLabels: { ...labels },
    commonAnnotations: annotations,
    externalURL: null,
    truncatedAlerts: 0,
    alerts: [alert],
  };
}

/** Which shape a body has, by what it carries. */
export function detectShape(o: Obj): 'alertmanager' | 'grafana' | 'json' | null {
  if (has(o, 'alerts')) {
    if (
      has(o, 'orgId') ||
      has(o, 'state') ||
      (Array.isArray(o.alerts) && o.alerts.some((a) => isObj(a) && (has(a, 'silenceURL') || has(a, 'values') || has(a, 'dashboardURL'))))
    )
      return 'grafana';
    return 'alertmanager';
  }
  if (has(o, 'title') || has(o, 'labels') || has(o, 'key') || has(o, 'severity')) return 'json';
  return null;
}

export interface ParseOptions {
  /** Read as "paste an alert" / an imported file: the group's source is 'paste' whatever its shape. */
  source?: Extract<AlertSource, 'paste' | 'test'>;
}

/**
 * Reads a posted (or pasted) body into an AlertGroup. `body`: the raw text, or a value already parsed
 * from JSON. `contentType`: the post's Content-Type header when there is one (a paste has none).
 */
export function parseAlertPost(body: unknown, contentType?: string, options: ParseOptions = {}): IntakeResult {
  try {
    if (contentType !== undefined && !isJsonContentType(contentType)) invalid('content-type', 'content-type');
    let value = body;
    if (body instanceof Uint8Array && body.byteLength > INTAKE_LIMITS.textChars * 4) invalid('$', 'too-large', INTAKE_LIMITS.textChars);
    if (typeof body === 'string' || body instanceof Uint8Array) {
      const text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: false }).decode(body);
      if (text.length > INTAKE_LIMITS.textChars) invalid('$', 'too-large', INTAKE_LIMITS.textChars);
      if (text.trim() === '') invalid('$', 'empty');
      if (textDepthExceeds(text, INTAKE_LIMITS.depth)) invalid('$', 'too-deep', INTAKE_LIMITS.depth);
      try {
        value = JSON.parse(text.replace(/^\uFEFF/, ''));
      } catch {
        invalid('$', 'not-json');
      }
    }
    checkShape(value);
    if (!isObj(value)) invalid('$', 'not-object');
    const shape = detectShape(value);
    if (shape === null) invalid('$', 'unknown-shape');
    const group = shape === 'json' ? parsePlain(value) : parseWebhook(value, shape);
    if (options.source) group.source = options.source;
    return { ok: true, group };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, error: { code: 'alert-post-invalid', params: e.params } };
    // Nothing above should throw otherwise; if it does, the post is still only refused.
    return { ok: false, error: { code: 'alert-post-invalid', params: { field: '$', problem: 'not-json' } } };
  }
}
