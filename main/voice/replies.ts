// Provider replies and receipts: parsed (JSON, XML with or without a namespace, a form) and then read
// with the profile's dialect (common/dialects: where each value is and what it means). Bodies arrive
// here already decoded by their charset (charset.ts).
import { XMLParser } from 'fast-xml-parser';
import { readBalance, readCommon, readSend, readStatus, SPEC_DIALECT, type CodeOutcome, type Dialect } from '../../common/dialects';
import type { CallState } from '../../common/domain/status';
import { declaredCharset } from './charset';

const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true, removeNSPrefix: true });

function parseXml(text: string): Record<string, unknown> | null {
  try {
    const doc = xml.parse(text) as Record<string, unknown>;
    const roots = Object.keys(doc).filter((k) => k !== '?xml');
    const root = roots.length === 1 ? doc[roots[0]!] : doc;
    return root && typeof root === 'object' && !Array.isArray(root) ? (root as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Parses a reply body as a JSON object, or XML (its root element's content) when it looks like XML. Null when it is neither. */
export function parseBody(body: string | null): Record<string, unknown> | null {
  if (body === null) return null;
  const text = body.trim();
  if (text.startsWith('{')) {
    const v = parseJson(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  }
  if (text.startsWith('<') && !/^<!doctype html|^<html/i.test(text)) return parseXml(text);
  return null;
}

/**
 * A form's fields. Its percent-escapes are bytes in the form's charset: a GBK gateway escapes GBK
 * bytes, which read as UTF-8 would be mojibake.
 */
export function parseForm(text: string, charset: string | null): Record<string, string> {
  let decoder: InstanceType<typeof TextDecoder> | null;
  try {
    decoder = charset && !/^utf-?8$/i.test(charset) ? new TextDecoder(charset) : null;
  } catch {
    decoder = null;
  }
  if (!decoder) return Object.fromEntries(new URLSearchParams(text));
  const d = decoder;
  const part = (s: string) =>
    s.replace(/\+/g, ' ').replace(/(?:%[0-9a-fA-F]{2})+/g, (run) =>
      d.decode(
        Uint8Array.from(
          run
            .slice(1)
            .split('%')
            .map((h) => parseInt(h, 16)),
        ),
      ),
    );
  const out: Record<string, string> = {};
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    out[part(eq < 0 ? pair : pair.slice(0, eq))] = part(eq < 0 ? '' : pair.slice(eq + 1));
  }
  return out;
}

/**
 * Parses a posted receipt body: JSON (an object or a list), XML, or a form
 * (application/x-www-form-urlencoded, in its charset). Null when it is none of these.
 */
export function parsePost(body: string, contentType: string | null): unknown {
  const text = body.trim();
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const charset = declaredCharset(contentType);
  if (type === 'application/x-www-form-urlencoded') return text ? parseForm(text, charset) : null;
  if (text.startsWith('{') || text.startsWith('[')) return parseJson(text) ?? null;
  if (text.startsWith('<')) return /^<!doctype html|^<html/i.test(text) ? null : parseXml(text);
  // A form sent without its type.
  if (/^[\w.%-]+=/.test(text)) return parseForm(text, charset);
  return null;
}

export interface CommonReply {
  /** The result code when it is a whole number. */
  code: number | null;
  /** The result code as the provider wrote it (a whole number's digits, or a code word such as FailedOperation.InsufficientBalance). */
  codeText: string | null;
  msg: string | null;
  /** What the code means for the request, by the dialect: success, refused, or not known. */
  outcome: CodeOutcome;
  /** The dialect's words for the code (a provider's own code), when it has some. */
  meaning: string | null;
  raw: Record<string, unknown>;
}

export interface SendReply extends CommonReply {
  /** The message ID (under the dialect's name for it: smsid, voiceid, …); null when the reply has no usable one. */
  smsid: string | null;
  count: number | null;
}

export interface StatusReply extends CommonReply {
  smsid: string | null;
  state: CallState;
  /** The provider's state value, as text (null when there was none). */
  rawState: string | null;
  /** The reply has a state value the dialect does not map: shown, never guessed. */
  unmapped: boolean;
  duration: number | null;
  /** Dial attempts including redials, when the provider says. */
  attempts: number | null;
}

export interface BalanceReply extends CommonReply {
  /** Remaining units, or null when the dialect's field is not there: shown as "unknown", never guessed. */
  units: number | null;
}

export function sendReply(raw: Record<string, unknown>, dialect: Dialect = SPEC_DIALECT): SendReply {
  const r = readSend(dialect, raw);
  return { code: r.code, codeText: r.codeText, msg: r.msg, outcome: r.outcome, meaning: r.meaning, raw, smsid: r.id, count: r.count };
}

/**
 * The provider's result code in a reply (JSON or XML) read the spec's way: the one reading for the raw
 * client, its assertions, runs and the exchange list's code filter (an exchange of a profile with its
 * own dialect is read through that dialect where its messages are).
 */
export function replyCode(raw: Record<string, unknown> | null): number | null {
  return raw ? readCommon(SPEC_DIALECT, raw).code : null;
}

/** The result code of a stored reply body, or null when it has none Callout can read. */
export function bodyReplyCode(body: string | null): number | null {
  return replyCode(parseBody(body));
}

export function statusReply(raw: Record<string, unknown>, dialect: Dialect = SPEC_DIALECT, smsid?: string): StatusReply {
  const r = readStatus(dialect, raw, smsid);
  return {
    code: r.code,
    codeText: r.codeText,
    msg: r.msg,
    outcome: r.outcome,
    meaning: r.meaning,
    raw,
    smsid: r.id,
    state: r.state,
    rawState: r.value,
    unmapped: r.unmapped,
    duration: r.duration,
    attempts: r.attempts,
  };
}

export function balanceReply(raw: Record<string, unknown>, dialect: Dialect = SPEC_DIALECT): BalanceReply {
  const r = readBalance(dialect, raw);
  return { code: r.code, codeText: r.codeText, msg: r.msg, outcome: r.outcome, meaning: r.meaning, raw, units: r.units };
}
