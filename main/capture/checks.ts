// The capture proxy's checks of one exchange a backend sent to the provider: its signature as the
// backend signed it (its own Host and Date, diagnosed as the workbench does when it fails), the
// clock, the spec's request rules and the reply read through the profile's dialect. Pure: the
// exchange as it passed (before redaction: the password is compared with the key here, and only the
// verdict is kept), the key and the template library in; the checks with their verdicts out.
import {
  check,
  rule,
  worstVerdict,
  type CaptureCheck,
  type CaptureMode,
  type ClockKind,
  type RuleIssue,
  type Verdict,
  type VoiceOperation,
} from '../../common/capture';
import {
  operationOfRequest,
  readBalance,
  readRequestFields,
  readSend,
  readStatus,
  requestShape,
  SPEC_DIALECT,
  type Dialect,
  type RequestField,
} from '../../common/dialects';
import { normalizeMobile } from '../../common/domain/mobile';
import { findMatchingTemplates } from '../../common/domain/templates';
import { checkContent } from '../../common/domain/units';
import type { Header, TransportErrorKind } from '../../common/records';
import { CLOCK_WINDOW_SECONDS, clockSkewSeconds, diagnoseSignature, hostOf, parseHttpDate, verifyRequest, type SignatureVariant } from '../signing';
import { parseBody } from '../voice/replies';
import { interpretReply } from '../voice/client';

/** Within this many seconds of the window's edge, a Date is said to be near it (a warning). */
export const CLOCK_EDGE_SECONDS = 60;

/** The key, API ID, signing variant and dialect the checks use (a profile's, or CALLOUT_API_KEY's). */
export interface CheckKey {
  apiKey: string;
  /** The API ID expected as `account` and keyId; null when not known (then the request's is used). */
  apiId: string | null;
  /** The variant the gateway checks; null: either. */
  variant: SignatureVariant | null;
  dialect: Dialect;
}

export interface CheckedExchange {
  mode: CaptureMode;
  method: string;
  /** The URL as the backend addressed it (the proxy's own, in reverse mode; the provider's, in forward mode). */
  url: string;
  /** Where the proxy sent it on to (the provider's URL). */
  providerUrl: string;
  /** The headers as the backend sent them (unredacted: they never leave this module). */
  headers: Header[];
  /** The request body (up to the cap), and whether it was cut. */
  body: string | null;
  bodyCut: boolean;
  /** The reply, as the provider sent it; null status with `error` when there was none. */
  status: number | null;
  responseHeaders: Header[] | null;
  responseBody: string | null;
  responseCut: boolean;
  error: TransportErrorKind | null;
  /** What is kept of a body, to say so. */
  maxBytes: number;
}

export interface CheckContext {
  /** The provider's base URL (--target). */
  target: URL;
  key: CheckKey | null;
  /** The template library (the approved ones are what a text must match). */
  templates: readonly { name: string; content: string; approved: boolean }[];
  now: Date;
}

const header = (headers: Header[] | null, name: string): string | null => headers?.find(([n]) => n.toLowerCase() === name)?.[1] ?? null;

/** The voice operation a request below the provider's base URL is, as the dialect asks for each (the spec's paths without one), or null. */
export function voiceOperation(url: URL, target: URL, dialect: Dialect = SPEC_DIALECT): VoiceOperation | null {
  return operationOfRequest(dialect, url, target.toString());
}

/** Every check of one exchange, and the worst of their verdicts. */
export function checkExchange(x: CheckedExchange, ctx: CheckContext): { verdict: Verdict; checks: CaptureCheck[] } {
  let url: URL;
  let providerUrl: URL;
  try {
    url = new URL(x.url);
    providerUrl = new URL(x.providerUrl);
  } catch {
    const checks = [check('rules', 'skip', 'not-voice', { path: x.url.slice(0, 200) })];
    return { verdict: 'skip', checks };
  }
  // In reverse mode the request is for the provider whatever host it names; in forward mode only if it names the provider.
  if (providerUrl.host !== ctx.target.host) {
    const checks = [check('rules', 'skip', 'other-host', { host: providerUrl.host.slice(0, 200), target: ctx.target.host })];
    return { verdict: 'skip', checks };
  }
  const op = voiceOperation(providerUrl, ctx.target, ctx.key?.dialect);
  const checks: CaptureCheck[] = [signatureCheck(x, url, ctx), clockCheck(x, ctx)];
  if (op === null) {
    checks.push(check('rules', 'skip', 'not-voice', { path: providerUrl.pathname.slice(0, 200) }));
  } else {
    checks.push(rulesCheck(x, op, ctx));
    checks.push(replyCheck(x, op, ctx));
  }
  return { verdict: worstVerdict(checks.map((c) => c.verdict)), checks };
}

function signatureCheck(x: CheckedExchange, url: URL, ctx: CheckContext): CaptureCheck {
  const authorization = header(x.headers, 'authorization');
  if (authorization === null) return check('signature', 'skip', 'unsigned', {});
  if (!ctx.key) return check('signature', 'skip', 'no-key', {});
  // As the backend signed it: its own Host and Date. The clock is a check of its own, so the window is not applied here.
  const host = header(x.headers, 'host') ?? hostOf(url);
  const date = header(x.headers, 'date');
  const input = { method: x.method, url: url.toString(), host, date, authorization, now: ctx.now, variant: ctx.key.variant ?? ('any' as const) };
  const verified = verifyRequest({ ...input, apiKey: ctx.key.apiKey, windowSeconds: Number.MAX_SAFE_INTEGER });
  if (verified.valid) {
    const provider = hostOf(ctx.target);
    if (x.mode === 'reverse' && host.toLowerCase() !== provider.toLowerCase()) return check('signature', 'warn', 'signed-for-proxy', { host, provider });
    return check('signature', 'pass', 'signature-valid', { variant: verified.variant ?? 'spec', host });
  }
  const kind = verified.reason ?? 'signature-mismatch';
  const diagnosis = diagnoseSignature({ ...input, apiKey: ctx.key.apiKey, expectedApiId: ctx.key.apiId, windowSeconds: Number.MAX_SAFE_INTEGER });
  return check(
    'signature',
    'fail',
    'signature-invalid',
    { kind },
    { ...(verified.detail ? { detail: verified.detail } : {}), causes: diagnosis.causes.slice(0, 3) },
  );
}

function clockCheck(x: CheckedExchange, ctx: CheckContext): CaptureCheck {
  const date = header(x.headers, 'date');
  // Only a signed request has to carry a Date; an unsigned one without it is not a problem.
  if (date === null) return check('clock', header(x.headers, 'authorization') === null ? 'skip' : 'fail', 'no-date', {});
  // Compared with the provider's clock (its Date header) when it answered, else with this computer's.
  const providerDate = header(x.responseHeaders, 'date');
  const providerNow = providerDate ? parseHttpDate(providerDate, ctx.now) : null;
  const against = providerNow ?? ctx.now;
  const whose = providerNow ? 'provider' : 'callout';
  const skew = clockSkewSeconds(date, against);
  if (skew === null) return check('clock', 'fail', 'date-unreadable', {});
  const seconds = Math.abs(skew);
  const direction = skew > 0 ? 'ahead' : skew < 0 ? 'behind' : 'in-step';
  const kind = `${whose}-${direction}` as ClockKind;
  const window = CLOCK_WINDOW_SECONDS;
  // A response Date has whole seconds only: a second either way is the same clock.
  if (seconds > window) return check('clock', 'fail', 'clock-outside', { kind, seconds, window });
  if (seconds > window - CLOCK_EDGE_SECONDS) return check('clock', 'warn', 'clock-near-edge', { kind, seconds, window });
  return check('clock', 'pass', 'clock-within', { kind, seconds, window });
}

const REQUIRED: Record<VoiceOperation, readonly RequestField[]> = {
  send: ['account', 'password', 'mobile', 'content'],
  status: ['account', 'password', 'id'],
  balance: ['account', 'password'],
};

const EXPECTED_TYPE = { json: 'application/json', form: 'application/x-www-form-urlencoded' } as const;

/**
 * The request's parameters: its query's for a request whose fields travel there (a GET), else a JSON
 * object's or a form's of its body (what the provider reads: a key put in the URL of a POST is not).
 */
function parameters(x: CheckedExchange, url: URL, inQuery: boolean): { params: Record<string, unknown> } | { problem: RuleIssue } {
  const type = header(x.headers, 'content-type') ?? '';
  if (x.bodyCut) return { problem: rule('fail', 'body', { kind: 'cut', type, max: x.maxBytes }) };
  const query = Object.fromEntries(url.searchParams);
  const body = x.body ?? '';
  if (body.trim() === '' && (inQuery || x.method.toUpperCase() === 'GET')) return { params: query };
  if (/x-www-form-urlencoded/i.test(type)) return { params: Object.fromEntries(new URLSearchParams(body)) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { problem: rule('fail', 'body', { kind: 'unreadable', type, max: x.maxBytes }) };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { problem: rule('fail', 'body', { kind: 'not-object', type, max: x.maxBytes }) };
  return { params: parsed as Record<string, unknown> };
}

function rulesCheck(x: CheckedExchange, op: VoiceOperation, ctx: CheckContext): CaptureCheck {
  const issues: RuleIssue[] = [];
  const url = new URL(x.url);
  // As the profile's dialect asks for this operation: its method, its encoding, its field names, its key's place.
  const shape = requestShape(ctx.key?.dialect ?? SPEC_DIALECT, op);
  const method = x.method.toUpperCase();
  // The spec also allows a GET for a send.
  const specGet = shape.method === 'POST' && ctx.key?.dialect?.request === undefined && op === 'send' && method === 'GET';
  if (method !== shape.method && !specGet) issues.push(rule('fail', 'method', { method: x.method.slice(0, 20), expected: shape.method }));
  const type = header(x.headers, 'content-type');
  const typeOk = shape.body === 'json' ? /json/i.test(type ?? '') : /x-www-form-urlencoded/i.test(type ?? '');
  if (method === 'POST' && shape.body !== 'query' && !typeOk)
    issues.push(rule('warn', 'content-type', { type: (type ?? '').slice(0, 100), expected: EXPECTED_TYPE[shape.body] }));
  const read = parameters(x, url, shape.body === 'query');
  let template = '';
  if ('problem' in read) {
    issues.push(read.problem);
  } else {
    const p = readRequestFields(shape, read.params, (name) => header(x.headers, name) ?? undefined);
    for (const field of REQUIRED[op]) {
      // Named as the provider names it: its field, or the header that carries the key.
      const name = field === 'password' && typeof shape.key === 'object' ? shape.key.header : shape.fields[field];
      if (name === null) continue;
      if (p[field] === undefined || p[field] === null || p[field] === '') issues.push(rule('fail', 'missing', { field: name }));
      else if (typeof p[field] !== 'string') issues.push(rule('fail', 'not-text', { field: name }));
    }
    if (ctx.key && typeof p.account === 'string' && p.account !== '' && ctx.key.apiId && p.account !== ctx.key.apiId) {
      issues.push(rule('fail', 'account', { account: p.account.slice(0, 100), apiId: ctx.key.apiId }));
    }
    if (ctx.key && typeof p.password === 'string' && p.password !== '' && p.password !== ctx.key.apiKey) issues.push(rule('fail', 'password', {}));
    if (p.format !== undefined && p.format !== 'json' && p.format !== 'xml') issues.push(rule('fail', 'format', { value: String(p.format).slice(0, 40) }));
    if (op === 'send') {
      if (typeof p.mobile === 'string' && p.mobile !== '') {
        const m = normalizeMobile(p.mobile);
        const value = p.mobile.slice(0, 40);
        if (!m.ok) issues.push(rule('fail', 'mobile', { kind: m.error, value, normalised: '' }));
        else if (m.mobile !== p.mobile) issues.push(rule('warn', 'mobile', { kind: 'not-bare', value, normalised: m.mobile }));
      }
      if (typeof p.content === 'string' && p.content !== '') {
        const c = checkContent(p.content);
        if (!c.ok) {
          issues.push(rule('fail', 'content', { kind: c.error, length: c.length, max: c.max }));
        } else if (ctx.templates.length === 0) {
          issues.push(rule('warn', 'template', { kind: 'no-library', name: '' }));
        } else {
          const matches = findMatchingTemplates(p.content, ctx.templates);
          const approved = matches.find((m) => m.template.approved);
          if (approved) template = approved.template.name;
          else if (matches[0]) issues.push(rule('fail', 'template', { kind: 'pending', name: matches[0].template.name }));
          else issues.push(rule('fail', 'template', { kind: 'none', name: '' }));
        }
      }
    }
  }
  const verdict = worstVerdict(issues.map((i) => i.verdict));
  if (verdict === 'fail') return check('rules', 'fail', 'rules-broken', { count: issues.filter((i) => i.verdict === 'fail').length }, { issues });
  if (verdict === 'warn') return check('rules', 'warn', 'rules-warned', { count: issues.length }, { issues });
  return check('rules', 'pass', 'rules-met', { kind: op, template });
}

function replyCheck(x: CheckedExchange, op: VoiceOperation, ctx: CheckContext): CaptureCheck {
  if (x.error !== null || x.status === null) return check('reply', 'fail', 'reply-none', { kind: x.error ?? 'network' });
  if (x.responseCut) return check('reply', 'warn', 'reply-cut', { max: x.maxBytes });
  const dialect = ctx.key?.dialect ?? SPEC_DIALECT;
  const read = interpretReply({ status: x.status, responseBody: x.responseBody, responseHeaders: x.responseHeaders }, (raw) => raw, dialect);
  if (read.failure) {
    if (read.failure.kind === 'signature-rejected') return check('reply', 'fail', 'reply-signature-rejected', { status: x.status });
    const raw = parseBody(x.responseBody);
    if (read.failure.kind === 'http-status') return check('reply', 'warn', 'reply-http-status', { status: x.status, code: Number(raw?.code ?? 0) });
    const type = header(x.responseHeaders, 'content-type') ?? '';
    return check('reply', 'fail', 'reply-unreadable', { status: x.status, type: type.slice(0, 100) });
  }
  const raw = read.reply!;
  if (op === 'send') {
    const r = readSend(dialect, raw);
    if (r.outcome === 'rejected')
      return check('reply', 'fail', 'reply-refused', { code: r.code ?? r.codeText ?? 0, msg: (r.meaning ?? r.msg ?? '').slice(0, 200) });
    if (r.outcome === 'unknown')
      return check('reply', 'warn', 'reply-unknown', { code: String(r.code ?? r.codeText ?? '—'), msg: (r.msg ?? '').slice(0, 200) });
    return r.id === null
      ? check('reply', 'warn', 'reply-no-id', { code: r.code ?? r.codeText ?? '—' })
      : check('reply', 'pass', 'reply-sent', { code: r.code ?? r.codeText ?? '—', id: r.id.slice(0, 100) });
  }
  if (op === 'status') {
    const r = readStatus(dialect, raw);
    if (r.outcome === 'rejected')
      return check('reply', 'fail', 'reply-refused', { code: r.code ?? r.codeText ?? 0, msg: (r.meaning ?? r.msg ?? '').slice(0, 200) });
    if (r.outcome === 'unknown')
      return check('reply', 'warn', 'reply-unknown', { code: String(r.code ?? r.codeText ?? '—'), msg: (r.msg ?? '').slice(0, 200) });
    if (r.unmapped) return check('reply', 'warn', 'reply-unmapped', { value: (r.value ?? '').slice(0, 100) });
    return check('reply', 'pass', 'reply-status', {
      kind: r.state,
      value: (r.value ?? '').slice(0, 100),
      duration: r.duration === null ? '' : String(r.duration),
    });
  }
  const r = readBalance(dialect, raw);
  if (r.outcome === 'rejected')
    return check('reply', 'fail', 'reply-refused', { code: r.code ?? r.codeText ?? 0, msg: (r.meaning ?? r.msg ?? '').slice(0, 200) });
  if (r.outcome === 'unknown') return check('reply', 'warn', 'reply-unknown', { code: String(r.code ?? r.codeText ?? '—'), msg: (r.msg ?? '').slice(0, 200) });
  return r.units === null ? check('reply', 'warn', 'reply-balance-unknown', {}) : check('reply', 'pass', 'reply-balance', { units: r.units });
}
