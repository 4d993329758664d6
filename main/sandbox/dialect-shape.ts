// The sandbox speaking a dialect: its replies (and the receipts it pushes) written where the
// dialect reads them, with the dialect's values, in the provider's shape (the dialect's `shape`:
// XML with a namespace, every value a string, a field holding a JSON text, GBK...). The spec's
// dialect is the sandbox's own shape, unchanged. This is how a tester rehearses a provider, and how
// the tests follow calls end to end in every built-in dialect.
import iconv from 'iconv-lite';
import { successCodes, valueAt, type Dialect, type DialectPaths, type DurationPlace } from '../../common/dialects';
import type { CallState } from '../../common/domain/status';
import type { SandboxCall, SandboxOp } from './types';
import { XML_ROOTS } from './http-io';
import type { ProviderReply } from './voice-service';

const list = (p: DialectPaths | undefined): string[] => (p === undefined ? [] : typeof p === 'string' ? [p] : p);
const first = (p: DialectPaths | undefined): string | undefined => list(p)[0];

/** Whether the dialect is the sandbox's own shape (the spec's reading). */
export function speaksSpec(d: Dialect | null | undefined): boolean {
  return !d || d.id === 'spec';
}

/** Writes `value` at a dot path, creating objects (and lists for numeric segments) on the way. */
export function setAt(root: Record<string, unknown>, path: string, value: unknown): void {
  if (path === '') return;
  const segs = path.split('.');
  let cur: Record<string, unknown> | unknown[] = root;
  segs.forEach((seg, i) => {
    const last = i === segs.length - 1;
    const key: string | number = Array.isArray(cur) && /^\d+$/.test(seg) ? Number(seg) : seg;
    const container = cur as Record<string | number, unknown>;
    if (last) {
      container[key] = value;
      return;
    }
    let next = container[key];
    if (!next || typeof next !== 'object') {
      next = /^\d+$/.test(segs[i + 1]!) ? [] : {};
      container[key] = next;
    }
    cur = next as Record<string, unknown> | unknown[];
  });
}

/** The value the provider writes at a state's place for one of our states ('' = writes nothing there). */
export function stateValue(d: Dialect, path: string, paths: DialectPaths, states: Record<string, string>, state: CallState): string | undefined {
  const own = d.shape?.values?.[path];
  if (own && state in own) return own[state];
  if (path !== first(paths)) return undefined;
  const mapped = Object.entries(states).find(([, s]) => s === state)?.[0];
  return mapped ?? state;
}

function stringsDeep(v: unknown): unknown {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(stringsDeep);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, stringsDeep(x)]));
  return v;
}

/** The provider's final touches: every value a string, and objects written as JSON texts where it does that. */
function finish(d: Dialect, obj: Record<string, unknown>): Record<string, unknown> {
  const out = (d.shape?.strings ? stringsDeep(obj) : obj) as Record<string, unknown>;
  for (const p of d.shape?.encoded ?? []) {
    const v = valueAt(out, p);
    if (v && typeof v === 'object') setAt(out, p, JSON.stringify(v));
  }
  return out;
}

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

function xmlOf(name: string, v: unknown): string {
  if (Array.isArray(v)) return v.map((x) => xmlOf(name, x)).join('');
  if (v === null || v === undefined) return `<${name}/>`;
  if (typeof v === 'object')
    return `<${name}>${Object.entries(v)
      .map(([k, x]) => xmlOf(k, x))
      .join('')}</${name}>`;
  return `<${name}>${escapeXml(String(v))}</${name}>`;
}

/** A whole XML document: the declaration, a root (with the dialect's namespace) and the fields, nested. */
export function toXmlDocument(root: string, obj: Record<string, unknown>, xmlns: string | undefined, charset: string): string {
  const ns = xmlns ? ` xmlns="${escapeXml(xmlns)}"` : '';
  return `<?xml version="1.0" encoding="${charset}"?>\n<${root}${ns}>${Object.entries(obj)
    .map(([k, v]) => xmlOf(k, v))
    .join('')}</${root}>`;
}

/** Text in the dialect's charset, with the Content-Type that says it. */
export function encode(d: Dialect | null, text: string, mediaType: string): { body: Buffer; contentType: string } {
  const charset = d?.shape?.charset ?? 'utf-8';
  return { body: charset === 'utf-8' ? Buffer.from(text, 'utf8') : iconv.encode(text, charset), contentType: `${mediaType}; charset=${charset}` };
}

/** The code as the provider writes it: its own success code for 2, its own code for ours where it says. */
function providerCode(d: Dialect, code: number): number | string {
  if (code === 2) return successCodes(d)[0] ?? 2;
  const own = d.shape?.codes?.[String(code)];
  return own === undefined ? code : /^-?\d{1,9}$/.test(own) ? Number(own) : own;
}

/** When the sandbox's rehearsed calls start, for dialects that give two times (a fixed moment: replies stay comparable). */
const CALL_START_MS = Date.UTC(2026, 0, 5, 1, 30, 0);

/** A time written as the dialect reads it: Unix seconds or ms (as numbers, or strings when the dialect's shape says), or local date-time text. */
function timeText(ms: number, times: 'auto' | 's' | 'ms' | 'text', zone: string): number | string {
  if (times === 'ms') return ms;
  if (times !== 'text') return Math.floor(ms / 1000);
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
      .formatToParts(new Date(ms))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** A duration where (and how) the dialect reads it: seconds at a place, another unit, or two times. */
function writeDuration(rec: Record<string, unknown>, place: DurationPlace | undefined, seconds: number): void {
  if (place === undefined) return;
  if (typeof place === 'string' || Array.isArray(place)) {
    const at = first(place);
    if (at !== undefined) setAt(rec, at, seconds);
    return;
  }
  if ('at' in place) {
    setAt(rec, first(place.at)!, place.unit === 'ms' ? seconds * 1000 : place.unit === 'min' ? seconds / 60 : seconds);
    return;
  }
  setAt(rec, first(place.from)!, timeText(CALL_START_MS, place.times, place.zone));
  setAt(rec, first(place.to)!, timeText(CALL_START_MS + seconds * 1000, place.times, place.zone));
}

/** One call's state, duration and attempts as the dialect's status record (or receipt) has them. */
function callRecord(
  d: Dialect,
  places: { id?: DialectPaths; state: DialectPaths; duration?: DurationPlace; attempts?: DialectPaths },
  states: Record<string, string>,
  c: { smsid: string; state: CallState; duration: number | null; attempts?: number },
): Record<string, unknown> {
  const rec: Record<string, unknown> = {};
  const id = first(places.id);
  if (id !== undefined) setAt(rec, id, c.smsid);
  for (const p of list(places.state)) {
    const v = stateValue(d, p, places.state, states, c.state);
    if (v !== undefined && v !== '') setAt(rec, p, v);
  }
  if (c.duration !== null) writeDuration(rec, places.duration, c.duration);
  const attempts = first(places.attempts);
  if (attempts !== undefined && c.attempts !== undefined) setAt(rec, attempts, c.attempts);
  return rec;
}

/** A provider reply (code, msg, the operation's fields) in the dialect's shape, as an object. */
export function replyObject(d: Dialect, op: SandboxOp, reply: ProviderReply): Record<string, unknown> {
  const obj: Record<string, unknown> = {};
  // A provider whose success is the absence of an error field writes no code on success.
  const byAbsence = typeof d.success === 'object' && !Array.isArray(d.success);
  if (!(byAbsence && reply.code === 2)) {
    setAt(obj, first(d.code) ?? 'code', providerCode(d, reply.code));
    setAt(obj, first(d.message) ?? 'msg', reply.msg);
  }
  if (reply.code === 2 && op === 'send') {
    setAt(obj, first(d.send.id)!, reply.smsid);
    if (d.send.count !== undefined) setAt(obj, first(d.send.count)!, reply.count);
  }
  if (reply.code === 2 && op === 'status' && d.status) {
    const s = d.status;
    const rec = callRecord(d, s, s.states, {
      smsid: String(reply.smsid),
      state: reply.state as CallState,
      duration: typeof reply.duration === 'number' ? reply.duration : null,
      attempts: typeof reply.attempts === 'number' ? reply.attempts : undefined,
    });
    const at = first(s.record);
    if (at === undefined) Object.assign(obj, rec);
    else setAt(obj, at, d.shape?.lists?.includes(at) ? [rec] : rec);
  }
  if (reply.code === 2 && op === 'balance' && d.balance) setAt(obj, first(d.balance.units)!, reply.num);
  return finish(d, obj);
}

/** The reply as bytes: JSON, or XML when asked for (or when the provider answers XML unless asked). */
export function renderReply(d: Dialect, op: SandboxOp, reply: ProviderReply, asked: 'json' | 'xml' | null): { body: Buffer; contentType: string } {
  const obj = replyObject(d, op, reply);
  const format = asked ?? d.shape?.format ?? 'json';
  if (format === 'xml') {
    const root = d.shape?.roots?.[op] ?? XML_ROOTS[op];
    return encode(d, toXmlDocument(root, obj, d.shape?.xmlns, d.shape?.charset ?? 'utf-8'), 'application/xml');
  }
  return encode(d, JSON.stringify(obj), 'application/json');
}

/** What a receipt says about a call. */
export interface ReceiptFacts {
  smsid: string;
  state: CallState;
  duration: number | null;
}

export function receiptFactsOf(c: SandboxCall): ReceiptFacts {
  return { smsid: c.smsid, state: c.state, duration: c.duration };
}

function percentEncode(bytes: Buffer): string {
  let out = '';
  for (const b of bytes)
    out += /[A-Za-z0-9\-_.*]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : b === 0x20 ? '+' : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}

/** A form in the dialect's charset (percent-escapes of its bytes, as a GBK gateway sends them). */
function formOf(d: Dialect, fields: Record<string, unknown>): string {
  const charset = d.shape?.charset ?? 'utf-8';
  const enc = (s: string) => percentEncode(charset === 'utf-8' ? Buffer.from(s, 'utf8') : iconv.encode(s, charset));
  return Object.entries(fields)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${enc(k)}=${enc(typeof v === 'object' ? JSON.stringify(v) : String(v))}`)
    .join('&');
}

/**
 * One post of receipts in the dialect's shape (JSON, a form, or XML), for these calls. A form
 * without a field for the list carries one receipt: give it one call.
 */
export function renderReceipts(d: Dialect, calls: readonly ReceiptFacts[]): { body: Buffer; contentType: string } {
  const r = d.receipt;
  if (!r) throw new Error(`the dialect ${d.name} has no receipts`);
  const states = (r.states ?? d.status?.states ?? {}) as Record<string, string>;
  const items = calls.map((c) => finish(d, callRecord(d, r, states, c)));
  const shape = d.shape?.receipt;
  const at = first(r.list);
  const wrap = (): Record<string, unknown> | unknown[] => {
    if (at === undefined) return items.length === 1 ? items[0]! : items;
    const obj: Record<string, unknown> = {};
    setAt(obj, at, items);
    return finish(d, obj);
  };
  switch (shape?.format ?? 'json') {
    case 'form': {
      const field = shape?.field ?? (at !== undefined ? at : undefined);
      const fields = field !== undefined ? { [field]: JSON.stringify(items) } : (items[0] ?? {});
      return encode(d, formOf(d, fields), 'application/x-www-form-urlencoded');
    }
    case 'xml': {
      const body = wrap();
      const obj = Array.isArray(body) ? { receipt: body } : body;
      return encode(d, toXmlDocument(shape?.root ?? 'Receipts', obj, d.shape?.xmlns, d.shape?.charset ?? 'utf-8'), 'application/xml');
    }
    default:
      return encode(d, JSON.stringify(wrap()), 'application/json');
  }
}
