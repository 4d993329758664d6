import { XMLParser } from 'fast-xml-parser';
import { normalizeCallState, type CallState } from '../../common/domain/status';

const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true });

/** Parses a reply body as JSON, or XML when it looks like XML. Returns null when it is neither. */
export function parseBody(body: string | null): Record<string, unknown> | null {
  if (body === null) return null;
  const text = body.trim();
  if (text.startsWith('{')) {
    try {
      const v: unknown = JSON.parse(text);
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
  if (text.startsWith('<') && !/^<!doctype html|^<html/i.test(text)) {
    try {
      const doc = xml.parse(text) as Record<string, unknown>;
      const roots = Object.keys(doc).filter((k) => k !== '?xml');
      const root = roots.length === 1 ? doc[roots[0]!] : doc;
      return root && typeof root === 'object' ? (root as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
  return null;
}

function pick(obj: Record<string, unknown>, names: readonly string[]): unknown {
  for (const n of names) {
    if (n in obj && obj[n] !== undefined && obj[n] !== '') return obj[n];
  }
  const lower = new Map(Object.keys(obj).map((k) => [k.toLowerCase(), k]));
  for (const n of names) {
    const k = lower.get(n.toLowerCase());
    if (k !== undefined && obj[k] !== undefined && obj[k] !== '') return obj[k];
  }
  return undefined;
}

function toInt(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Math.trunc(Number(v));
  return null;
}

function toStr(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return null;
}

export interface CommonReply {
  code: number | null;
  msg: string | null;
  raw: Record<string, unknown>;
}

export interface SendReply extends CommonReply {
  smsid: string | null;
  count: number | null;
}

export interface StatusReply extends CommonReply {
  smsid: string | null;
  state: CallState;
  rawState: unknown;
  duration: number | null;
  /** Dial attempts including redials, when the provider says. */
  attempts: number | null;
}

export interface BalanceReply extends CommonReply {
  /** Remaining units, or null when no known field carries them: shown as "unknown", never guessed. */
  units: number | null;
}

export function commonReply(raw: Record<string, unknown>): CommonReply {
  return { code: toInt(pick(raw, ['code'])), msg: toStr(pick(raw, ['msg', 'message'])), raw };
}

/**
 * The provider's result code in a reply (JSON or XML): the one reading for the raw client, its
 * assertions, runs and the exchange list's filter. (Provider dialects, when a profile has one,
 * read it here too.)
 */
export function replyCode(raw: Record<string, unknown> | null): number | null {
  return raw ? commonReply(raw).code : null;
}

/** The result code of a stored reply body, or null when it has none Callout can read. */
export function bodyReplyCode(body: string | null): number | null {
  return replyCode(parseBody(body));
}

export function sendReply(raw: Record<string, unknown>): SendReply {
  return { ...commonReply(raw), smsid: toStr(pick(raw, ['smsid', 'smsId', 'msgid', 'id'])), count: toInt(pick(raw, ['count'])) };
}

export const STATE_FIELDS = ['state', 'status', 'call_state', 'callState', 'callstatus', 'result'] as const;
export const DURATION_FIELDS = ['duration', 'call_duration', 'callDuration', 'seconds', 'time_len', 'timelen'] as const;
export const ATTEMPT_FIELDS = ['attempts', 'attempt', 'calls', 'call_times', 'callTimes', 'redial_count'] as const;
export const BALANCE_FIELDS = ['num', 'balance', 'units', 'remain', 'remaining', 'left', 'count'] as const;

export function statusReply(raw: Record<string, unknown>): StatusReply {
  // A record may be nested (e.g. {code, msg, data: {...}} or a list of one).
  const nested = pick(raw, ['data', 'result', 'list']);
  const rec = Array.isArray(nested) && nested[0] && typeof nested[0] === 'object' ? (nested[0] as Record<string, unknown>)
    : nested && typeof nested === 'object' && !Array.isArray(nested) ? (nested as Record<string, unknown>) : raw;
  const rawState = pick(rec, STATE_FIELDS) ?? pick(raw, STATE_FIELDS);
  return {
    ...commonReply(raw),
    smsid: toStr(pick(rec, ['smsid', 'smsId'])) ?? toStr(pick(raw, ['smsid'])),
    state: normalizeCallState(rawState),
    rawState: rawState ?? null,
    duration: toInt(pick(rec, DURATION_FIELDS) ?? pick(raw, DURATION_FIELDS)),
    attempts: toInt(pick(rec, ATTEMPT_FIELDS) ?? pick(raw, ATTEMPT_FIELDS)),
  };
}

export function balanceReply(raw: Record<string, unknown>): BalanceReply {
  const fields = BALANCE_FIELDS.filter((f) => f !== 'count' || !('smsid' in raw));
  return { ...commonReply(raw), units: toInt(pick(raw, fields)) };
}
