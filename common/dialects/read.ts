// Reading a provider's parsed reply (or receipt) with a dialect: the one place where "where is the
// value and what does it mean" is decided, for the client, the receipt listener, the teach preview
// and the re-reading of open calls. Pure: a parsed JSON or XML value in, a reading out. Values a
// dialect does not map are never guessed: the state stays unknown and the value is reported.
import { plausibleAttempts, plausibleDuration, plausibleUnits } from '../domain/figures';
import { callStateKey, normalizeCallState, type CallState } from '../domain/status';
import type { Dialect, DialectPaths, StateMap } from './schema';

/** What a result code means for the request: success, refused, or not known (the call may have been placed). */
export type CodeOutcome = 'accepted' | 'rejected' | 'unknown';

export interface CommonReading {
  code: number | null;
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

export interface StatusReading extends CommonReading, StateReading {
  id: string | null;
  duration: number | null;
  attempts: number | null;
}

export interface BalanceReading extends CommonReading {
  units: number | null;
}

export interface ReceiptReading extends StateReading {
  id: string | null;
  duration: number | null;
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

/** The codes a dialect names as success (default: the spec's 2). */
export function successCodes(d: Dialect): number[] {
  const own = Object.entries(d.codes ?? {})
    .filter(([, c]) => c.outcome === 'accepted')
    .map(([k]) => Number(k));
  return own.length ? own : [2];
}

/** What a result code means for the request, by the dialect (then the spec: 2 success, 500 or none unknown, others refused). */
export function codeOutcome(d: Dialect, code: number | null): { outcome: CodeOutcome; meaning: string | null } {
  const own = code === null ? undefined : d.codes?.[String(code)];
  if (own) return { outcome: own.outcome, meaning: own.meaning ?? null };
  if (code !== null && successCodes(d).includes(code)) return { outcome: 'accepted', meaning: null };
  if (code === null || code === 500) return { outcome: 'unknown', meaning: null };
  return { outcome: 'rejected', meaning: null };
}

export function readCommon(d: Dialect, raw: unknown): CommonReading {
  const code = intOf(firstAt(d.code, raw)?.value);
  const msg = textOf(firstAt(d.message, raw)?.value);
  return { code, msg, ...codeOutcome(d, code) };
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
  if (!d.status) return { ...common, id: null, state: 'unknown', value: null, unmapped: false, path: null, duration: null, attempts: null };
  const s = d.status;
  const rec = recordOf(s, raw, id);
  return {
    ...common,
    ...readState(s.state, rec, raw, s.states, d.words),
    id: s.id === undefined ? null : usableId(firstAt(s.id, rec, raw)?.value),
    duration: s.duration === undefined ? null : plausibleDuration(firstAt(s.duration, rec, raw)?.value),
    attempts: s.attempts === undefined ? null : plausibleAttempts(firstAt(s.attempts, rec, raw)?.value),
  };
}

export function readBalance(d: Dialect, raw: unknown): BalanceReading {
  const common = readCommon(d, raw);
  return { ...common, units: d.balance ? plausibleUnits(firstAt(d.balance.units, raw)?.value) : null };
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
    return {
      ...readState(r.state, entry, entry, states, d.words),
      id: usableId(firstAt(r.id, entry)?.value),
      duration: r.duration === undefined ? null : plausibleDuration(firstAt(r.duration, entry)?.value),
    };
  });
}
