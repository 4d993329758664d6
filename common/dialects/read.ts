// Reading a provider's parsed reply (or receipt) with a dialect: the one place where "where is the
// value and what does it mean" is decided, for the client, the receipt listener, the teach preview
// and the re-reading of open calls. Pure: a parsed JSON or XML value in, a reading out. Values a
// dialect does not map are never guessed: the state stays unknown and the value is reported.
import { numberOf, plausibleAttempts, plausibleDuration, plausibleUnits } from '../domain/figures';
import { callStateKey, normalizeCallState, type CallState } from '../domain/status';
import type { Dialect, DialectPaths, DurationPlace, StateMap } from './schema';

/** What a result code means for the request: success, refused, or not known (the call may have been placed). */
export type CodeOutcome = 'accepted' | 'rejected' | 'unknown';

export interface CommonReading {
  /** The result code when it is a whole number. */
  code: number | null;
  /** The result code as the provider wrote it ("405", "FailedOperation.InsufficientBalance", "000000"); null when there is none. */
  codeText: string | null;
  /** Whether the reply says how the request went: a code the dialect reads, or (success by absence) the error field's presence or absence. */
  readable: boolean;
  msg: string | null;
  outcome: CodeOutcome;
  /** The dialect's words for this code, when it has some (the provider's own meaning). */
  meaning: string | null;
}

export interface SendReading extends CommonReading {
  /** The message ID, when the reply carries a usable one (a non-empty text or a number). */
  id: string | null;
  count: number | null;
}

/** A state value read from a reply: mapped to our state, or reported as it is. */
export interface StateReading {
  state: CallState;
  /** The provider's value as text (null when the reply has none). */
  value: string | null;
  /** True when the reply has a value the dialect does not map: shown as "not recognised — map it". */
  unmapped: boolean;
  /** Where the value was found. */
  path: string | null;
}

/** A value the dialect says is there but the reply lacks (or has unreadable): reported, never guessed. */
export interface MissingValue {
  /** Which value: the duration, or one of the two times it is computed from. */
  value: 'duration' | 'from' | 'to';
  /** The place(s) where the dialect looks for it. */
  path: string;
  /** Not there at all, or there but not a time / figure Callout can read. */
  why: 'absent' | 'unreadable';
}

export interface StatusReading extends CommonReading, StateReading {
  id: string | null;
  duration: number | null;
  /** Values the dialect expects that the reply does not give (empty when all are there). */
  missing: MissingValue[];
  attempts: number | null;
}

export interface BalanceReading extends CommonReading {
  units: number | null;
}

export interface ReceiptReading extends StateReading {
  id: string | null;
  duration: number | null;
  missing: MissingValue[];
}

const list = (p: DialectPaths | undefined): string[] => (p === undefined ? [] : typeof p === 'string' ? [p] : p);

/** A JSON text inside a field (`"data": "{\"state\":1}"`) is read as what it holds. */
function unwrap(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return v;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return v;
  }
}

function present(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}

/** The value at a dot-separated path ('' = the whole value). Names match exactly, else ignoring case. */
export function valueAt(root: unknown, path: string): unknown {
  if (path === '') return root;
  let cur: unknown = root;
  for (const seg of path.split('.')) {
    cur = unwrap(cur);
    if (Array.isArray(cur)) {
      // A list position, or (a name on a list) its first entry: XML lists of one and "list of one" replies.
      cur = /^\d+$/.test(seg) ? cur[Number(seg)] : cur[0] && typeof cur[0] === 'object' ? (cur[0] as Record<string, unknown>)[seg] : undefined;
      continue;
    }
    if (!cur || typeof cur !== 'object') return undefined;
    const obj = cur as Record<string, unknown>;
    if (Object.prototype.hasOwnProperty.call(obj, seg)) {
      cur = obj[seg];
      continue;
    }
    const lower = seg.toLowerCase();
    const key = Object.keys(obj).find((k) => k.toLowerCase() === lower);
    cur = key === undefined ? undefined : obj[key];
  }
  return cur;
}

/** The first of several places that holds a value: looked up in `record`, then in the whole reply. */
export function firstAt(paths: DialectPaths | undefined, record: unknown, root: unknown = record): { path: string; value: unknown } | null {
  for (const scope of record === root ? [record] : [record, root]) {
    for (const p of list(paths)) {
      const value = valueAt(scope, p);
      if (present(value)) return { path: p, value };
    }
  }
  return null;
}

/** A scalar as text (numbers as written), else null. */
export function textOf(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return String(v);
  return null;
}

function intOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && /^\s*-?\d{1,9}\s*$/.test(v)) return Number(v);
  return null;
}

/** A usable message ID: a non-empty text without control characters (at most 128 characters), or a whole number. */
export function usableId(v: unknown): string | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? String(v) : null;
  if (typeof v !== 'string') return null;
  const t = v.trim();
  // eslint-disable-next-line no-control-regex
  return t && t.length <= 128 && !/[\u0000-\u001f\u007f]/.test(t) ? t : null;
}

/** The code values a dialect names as success (default: the spec's 2), as text. Success by absence names none. */
export function successValues(d: Dialect): string[] {
  const s = d.success;
  if (s !== undefined && (typeof s !== 'object' || Array.isArray(s))) return (Array.isArray(s) ? s : [s]).map((v) => String(v).trim());
  const own = Object.entries(d.codes ?? {})
    .filter(([, c]) => c.outcome === 'accepted')
    .map(([k]) => k);
  return own.length || s !== undefined ? own : ['2'];
}

/** The codes a dialect names as success, as the provider writes them (numbers where they are whole numbers). */
export function successCodes(d: Dialect): (number | string)[] {
  return successValues(d).map((v) => (/^-?\d{1,9}$/.test(v) && String(Number(v)) === v ? Number(v) : v));
}

/** Whether the dialect reads codes that are not whole numbers (it names one, or says what success looks like). */
function readsWordCodes(d: Dialect): boolean {
  return d.success !== undefined || Object.keys(d.codes ?? {}).some((k) => !/^-?\d{1,9}$/.test(k));
}

/** The dialect's own entry for a code, compared as written, then as a number ("0405" is 405). */
function ownCode(d: Dialect, text: string): { outcome: CodeOutcome; meaning?: string } | undefined {
  const codes = d.codes ?? {};
  if (Object.prototype.hasOwnProperty.call(codes, text)) return codes[text];
  const n = /^-?\d{1,9}$/.test(text) ? String(Number(text)) : null;
  return n !== null && Object.prototype.hasOwnProperty.call(codes, n) ? codes[n] : undefined;
}

/**
 * What a result code means for the request, by the dialect (its named codes, its success values),
 * then the spec: 2 success, 500 or none unknown, others refused. A code is a number or its text.
 */
export function codeOutcome(d: Dialect, code: number | string | null): { outcome: CodeOutcome; meaning: string | null } {
  const text = code === null ? null : String(code).trim();
  const own = text === null ? undefined : ownCode(d, text);
  if (own) return { outcome: own.outcome, meaning: own.meaning ?? null };
  if (text !== null && successValues(d).includes(text)) return { outcome: 'accepted', meaning: null };
  if (text === null || text === '500') return { outcome: 'unknown', meaning: null };
  return { outcome: 'rejected', meaning: null };
}

export function readCommon(d: Dialect, raw: unknown): CommonReading {
  const found = firstAt(d.code, raw)?.value;
  const code = intOf(found);
  const written = textOf(found)?.trim() || null;
  const msg = textOf(firstAt(d.message, raw)?.value);
  const s = d.success;
  if (s !== undefined && typeof s === 'object' && !Array.isArray(s)) {
    // Success by absence: no error field is a success; an error field is a refusal unless its code is named otherwise.
    const error = firstAt(s.absent, raw);
    if (!error) return { code, codeText: written, readable: true, msg, outcome: 'accepted', meaning: null };
    const codeText = written ?? textOf(error.value)?.trim() ?? null;
    const own = codeText === null ? undefined : ownCode(d, codeText);
    return { code, codeText, readable: true, msg, outcome: own?.outcome ?? 'rejected', meaning: own?.meaning ?? null };
  }
  // Today's reading of the spec: only whole-number codes, unless the dialect names code words.
  const codeText = code !== null ? written : readsWordCodes(d) ? written : null;
  return { code, codeText, readable: codeText !== null, msg, ...codeOutcome(d, codeText) };
}

/** A time as epoch milliseconds: Unix seconds or ms (numbers or digit strings), or local date-time text in `zone`. */
export function timeOf(v: unknown, format: 'auto' | 's' | 'ms' | 'text', zone: string): number | null {
  // 14 digits are a compact date-time (20261127083005), never a Unix time, unless the dialect says s or ms.
  const compact = typeof v === 'string' && /^\s*\d{14}\s*$/.test(v) && format !== 's' && format !== 'ms';
  const n = !compact && format !== 'text' && (typeof v === 'number' || (typeof v === 'string' && /^\s*\d{1,15}(\.\d+)?\s*$/.test(v))) ? numberOf(v) : null;
  if (n !== null) {
    if (format === 'text') return null;
    // auto: 13 digits are milliseconds, 10 are seconds (years 2001 to 2286 either way).
    const ms = format === 'ms' || (format === 'auto' && n >= 1e11) ? n : n * 1000;
    return Number.isFinite(ms) ? ms : null;
  }
  if (typeof v !== 'string' || format === 's' || format === 'ms') return null;
  return localTime(v.trim(), zone);
}

/** "2026-11-27 08:30:05" (or with T, slashes, or digits only: 20261127083005) in a time zone, as epoch ms; an explicit offset or Z wins. */
function localTime(text: string, zone: string): number | null {
  const m = /^(\d{4})[-/]?(\d{2})[-/]?(\d{2})[ T]?(\d{2}):?(\d{2}):?(\d{2})(\.\d{1,3})?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, sec, frac, off] = m;
  const fields = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec), frac ? Math.round(Number(frac) * 1000) : 0] as const;
  const asUtc = Date.UTC(...fields);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== fields[1] || check.getUTCDate() !== fields[2] || Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59) return null;
  if (off) {
    if (off.toUpperCase() === 'Z') return asUtc;
    const sign = off.startsWith('-') ? -1 : 1;
    const digits = off.slice(1).replace(':', '');
    return asUtc - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  // The zone's offset at that moment (read twice: right across a daylight saving change).
  const offsetAt = (t: number) => {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      })
        .formatToParts(new Date(t))
        .map((x) => [x.type, x.value]),
    );
    return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - Math.floor(t / 1000) * 1000;
  };
  const guess = asUtc - offsetAt(asUtc);
  return asUtc - offsetAt(guess);
}

const UNIT_SECONDS = { s: 1, ms: 0.001, min: 60 } as const;

/** A call's duration by the dialect: a field in seconds (or another unit), or the time between two times. What should be there and is not is reported. */
export function readDuration(place: DurationPlace | undefined, record: unknown, root: unknown = record): { duration: number | null; missing: MissingValue[] } {
  if (place === undefined) return { duration: null, missing: [] };
  const where = (p: DialectPaths) => list(p).join(' | ');
  if (typeof place === 'string' || Array.isArray(place)) return { duration: plausibleDuration(firstAt(place, record, root)?.value), missing: [] };
  if ('at' in place) {
    const found = firstAt(place.at, record, root);
    const n = found ? numberOf(found.value) : null;
    if (n === null) return { duration: null, missing: [{ value: 'duration', path: where(place.at), why: found ? 'unreadable' : 'absent' }] };
    return { duration: plausibleDuration(n * UNIT_SECONDS[place.unit]), missing: [] };
  }
  const missing: MissingValue[] = [];
  const times = (['from', 'to'] as const).map((which) => {
    const found = firstAt(place[which], record, root);
    const t = found ? timeOf(found.value, place.times, place.zone) : null;
    if (t === null) missing.push({ value: which, path: where(place[which]), why: found ? 'unreadable' : 'absent' });
    return t;
  });
  const [from, to] = times;
  if (from == null || to == null) return { duration: null, missing };
  return { duration: to >= from ? plausibleDuration((to - from) / 1000) : null, missing };
}

/** Maps one provider value to our state: the dialect's values first, then (if it says so) the common words. */
export function mapState(value: unknown, states: StateMap, words: boolean): { state: CallState; text: string | null } {
  const text = textOf(value) ?? (value !== undefined && value !== null ? JSON.stringify(value).slice(0, 100) : null);
  if (text === null) return { state: 'unknown', text: null };
  const key = callStateKey(text);
  for (const [k, s] of Object.entries(states)) if (callStateKey(k) === key) return { state: s, text };
  return { state: words ? normalizeCallState(text) : 'unknown', text };
}

/** The state from one or more places: the first value that maps, else the first value found (unmapped). */
export function readState(paths: DialectPaths, record: unknown, root: unknown, states: StateMap, words: boolean): StateReading {
  let first: StateReading | null = null;
  for (const scope of record === root ? [record] : [record, root]) {
    for (const p of list(paths)) {
      const value = valueAt(scope, p);
      if (!present(value)) continue;
      const m = mapState(value, states, words);
      if (m.state !== 'unknown') return { state: m.state, value: m.text, unmapped: false, path: p };
      first ??= { state: 'unknown', value: m.text, unmapped: true, path: p };
    }
  }
  return first ?? { state: 'unknown', value: null, unmapped: false, path: null };
}

export function readSend(d: Dialect, raw: unknown): SendReading {
  return {
    ...readCommon(d, raw),
    id: usableId(firstAt(d.send.id, raw)?.value),
    count: d.send.count === undefined ? null : plausibleUnits(firstAt(d.send.count, raw)?.value),
  };
}

/** The record a status reply is about: at the dialect's place (a JSON text is parsed); in a list, the entry with this id, else the first. */
function recordOf(d: NonNullable<Dialect['status']>, raw: unknown, id: string | undefined): unknown {
  const found = firstAt(d.record, raw);
  if (!found) return raw;
  const rec = unwrap(found.value);
  if (!Array.isArray(rec)) return rec && typeof rec === 'object' ? rec : raw;
  if (id !== undefined && d.id !== undefined) {
    const match = rec.find((r) => usableId(firstAt(d.id, r)?.value) === id);
    if (match !== undefined) return match;
  }
  return rec[0] ?? raw;
}

export function readStatus(d: Dialect, raw: unknown, id?: string): StatusReading {
  const common = readCommon(d, raw);
  if (!d.status) return { ...common, id: null, state: 'unknown', value: null, unmapped: false, path: null, duration: null, missing: [], attempts: null };
  const s = d.status;
  const rec = recordOf(s, raw, id);
  return {
    ...common,
    ...readState(s.state, rec, raw, s.states, d.words),
    id: s.id === undefined ? null : usableId(firstAt(s.id, rec, raw)?.value),
    ...readDuration(s.duration, rec, raw),
    attempts: s.attempts === undefined ? null : plausibleAttempts(firstAt(s.attempts, rec, raw)?.value),
  };
}

export function readBalance(d: Dialect, raw: unknown): BalanceReading {
  const common = readCommon(d, raw);
  return { ...common, units: d.balance ? plausibleUnits(firstAt(d.balance.units, raw)?.value) : null };
}

/** A receipt kind's condition: the value present (true), or equal as text (ignoring surrounding spaces). */
function matches(v: unknown, want: string | number | true): boolean {
  if (want === true) return present(v);
  const text = textOf(unwrap(v));
  return text !== null && text.trim() === String(want).trim();
}

/** Every receipt in one post (all of them: the listener bounds a post's size): a list at the dialect's place, a JSON list, or the post itself. */
export function readReceipts(d: Dialect, raw: unknown): ReceiptReading[] {
  const r = d.receipt;
  if (!r) return [];
  const found = r.list === undefined ? null : firstAt(r.list, raw);
  const body = unwrap(found ? found.value : raw);
  const items = Array.isArray(body) ? body : [body];
  const states = r.states ?? d.status?.states ?? {};
  return items.map((item) => {
    const entry = unwrap(item);
    // The kind of receipt this is (a result or a failure callback): its own places and values.
    const kind = r.kinds?.find((k) => Object.entries(k.when).every(([p, want]) => matches(valueAt(entry, p), want)));
    return {
      ...readState(kind?.state ?? r.state, entry, entry, kind?.states ?? states, d.words),
      id: usableId(firstAt(r.id, entry)?.value),
      ...readDuration(kind?.duration ?? r.duration, entry),
    };
  });
}
