import type { FailureView } from '../../common/contract/send';
import type { Exchange, Header, TransportErrorKind } from '../../common/records';
import { reason } from '../../common/reasons';
import { formatHttpDate, hostOf, signParts, type SignatureVariant } from '../signing';
import { Redactor } from './redaction';
import { isSignatureRejection } from '../../common/domain/codes';
import {
  encodeRequest,
  keyHeader,
  readCommon,
  requestParams,
  requestShape,
  SPEC_DIALECT,
  type Dialect,
  type RequestOperation,
  type RequestValues,
} from '../../common/dialects';

export { joinUrl } from '../../common/dialects';
import { balanceReply, parseBody, sendReply, statusReply, type BalanceReply, type SendReply, type StatusReply } from './replies';
import { httpExchange, type TransportResult } from './transport';

export type ReplyFormat = 'json' | 'xml';

import type { FollowMode } from '../../common/contract/profiles';
import { systemClock, type Clock } from '../clock';
export type { FollowMode };

/** Where and as whom to call the provider. The key lives here only in main's memory. */
export interface ProviderEndpoint {
  /** The profile's id, recorded on messages and exchanges. */
  profile: string;
  baseUrl: string;
  apiId: string;
  apiKey: string;
  /** Add Host/Date/Authorization signature headers (spec 5.2) with this variant, or not at all. */
  signing: SignatureVariant | null;
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  format: ReplyFormat;
  /** Where the values are in this provider's replies and what they mean (default: the spec's reading). */
  dialect?: Dialect;
  /** How calls are followed to their end (default: polling). */
  follow?: FollowMode;
}

/** The endpoint's dialect: its own, or the spec's reading. */
export const dialectOf = (e: Pick<ProviderEndpoint, 'dialect'>): Dialect => e.dialect ?? SPEC_DIALECT;

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_TOTAL_TIMEOUT_MS = 15_000;

/**
 * Why a request got no usable reply, and whether it may have reached the provider. `kind` is the
 * transport failure's kind (dns, refused, timeout, reset, ...), `signature-rejected` or
 * `unreadable-reply`; `reason` says it in full.
 */
export type ClientFailure = FailureView;

export interface ClientResult<R> {
  reply: R | null;
  failure: ClientFailure | null;
  /** Every attempt, redacted. More than one only when earlier attempts provably never left. */
  exchanges: Exchange[];
}

/** Failures where the request provably never left this machine: the only ones retried. */
const NEVER_LEFT: ReadonlySet<TransportErrorKind> = new Set(['dns', 'refused', 'connect-timeout']);

export interface ClientOptions {
  /** Extra attempts for requests that provably never left. */
  retries?: number;
  retryDelayMs?: (attempt: number) => number;
  now?: () => Date;
  /** The time (signatures' Date, exchanges) and the waits between attempts. Default systemClock. */
  clock?: Clock;
}

export class VoiceClient {
  private readonly redactor: Redactor;
  private readonly retries: number;
  private readonly retryDelayMs: (attempt: number) => number;
  private readonly now: () => Date;
  private readonly clock: Clock;

  constructor(
    readonly endpoint: ProviderEndpoint,
    options: ClientOptions = {},
  ) {
    this.redactor = new Redactor([endpoint.apiKey]);
    this.retries = options.retries ?? 2;
    this.retryDelayMs = options.retryDelayMs ?? ((n) => 250 * 3 ** (n - 1));
    this.clock = options.clock ?? systemClock;
    this.now = options.now ?? (() => this.clock.date());
  }

  send(input: { mobile: string; content: string }, signal?: AbortSignal): Promise<ClientResult<SendReply>> {
    return this.call('send', { mobile: input.mobile, content: input.content }, (raw) => sendReply(raw, dialectOf(this.endpoint)), signal);
  }

  status(smsid: string, signal?: AbortSignal): Promise<ClientResult<StatusReply>> {
    return this.call('status', { id: smsid }, (raw) => statusReply(raw, dialectOf(this.endpoint), smsid), signal);
  }

  balance(signal?: AbortSignal): Promise<ClientResult<BalanceReply>> {
    return this.call('balance', {}, (raw) => balanceReply(raw, dialectOf(this.endpoint)), signal);
  }

  /**
   * The exact request for an operation, as the dialect asks for it (method, path and query, body,
   * field names, where the key goes), before redaction. Main-only: it holds the key.
   */
  buildRequest(
    operation: RequestOperation,
    values: Omit<RequestValues, 'account' | 'key' | 'format'>,
  ): { method: string; url: string; headers: Header[]; body: string | null } {
    const { baseUrl, apiId, apiKey, format, signing } = this.endpoint;
    const shape = requestShape(dialectOf(this.endpoint), operation);
    const params = requestParams(shape, { account: apiId, key: apiKey, ...values, format });
    const { url, body, contentType } = encodeRequest(shape, baseUrl, params);
    const headers: Header[] = [];
    if (contentType) headers.push(['Content-Type', contentType]);
    headers.push(['Accept', format === 'xml' ? 'application/xml, application/json' : 'application/json']);
    const inHeader = keyHeader(shape, apiKey);
    if (inHeader) headers.push(inHeader);
    // A dialect whose key travels only in the signature is signed even when the profile signs nothing.
    const variant = signing ?? (shape.key === 'signature' ? 'spec' : null);
    if (variant) {
      const host = hostOf(url);
      const date = formatHttpDate(this.now());
      const query = url.search.replace(/^\?/, '');
      const { authorization } = signParts({ apiId, apiKey, method: shape.method, host, path: url.pathname, query, date, variant });
      headers.push(['Host', host], ['Date', date], ['Authorization', authorization]);
    }
    return { method: shape.method, url: url.toString(), headers, body };
  }

  private async call<R>(
    operation: RequestOperation,
    values: Omit<RequestValues, 'account' | 'key' | 'format'>,
    parse: (raw: Record<string, unknown>) => R,
    signal?: AbortSignal,
  ): Promise<ClientResult<R>> {
    const exchanges: Exchange[] = [];
    for (let attempt = 0; ; attempt++) {
      // Rebuilt per attempt: a fresh Date (and signature) each time.
      const { method, url, headers, body } = this.buildRequest(operation, values);
      const result: TransportResult = await httpExchange(
        {
          operation,
          method,
          url,
          headers,
          body,
          connectTimeoutMs: this.endpoint.connectTimeoutMs,
          totalTimeoutMs: this.endpoint.totalTimeoutMs,
          signal,
          clock: this.clock,
        },
        this.redactor,
      );
      exchanges.push(result.exchange);
      const error = result.exchange.error;
      if (error) {
        const neverLeft = result.delivery === 'not-sent';
        if (neverLeft && NEVER_LEFT.has(error.kind) && attempt < this.retries && !signal?.aborted) {
          await this.clock.sleep(this.retryDelayMs(attempt + 1));
          continue;
        }
        return { reply: null, failure: transportFailure(error, result.delivery), exchanges };
      }
      return { ...interpret(result, parse, dialectOf(this.endpoint)), exchanges };
    }
  }
}

/** A failure in transit as said to the user: never left (not sent), or may have reached the provider (unknown). */
export function transportFailure(error: NonNullable<Exchange['error']>, delivery: TransportResult['delivery']): ClientFailure {
  return {
    kind: error.kind,
    outcome: delivery === 'not-sent' ? 'not-sent' : 'unknown',
    reason: reason('transport', { kind: error.kind, ...(error.ms !== undefined ? { ms: error.ms } : {}) }),
  };
}

/** The gateway refused the signature (an HTTP 401 with APISIX's message and no provider code, as the dialect reads it). */
export function signatureRejected(status: number | null, raw: Record<string, unknown> | null, dialect: Dialect = SPEC_DIALECT): ClientFailure | null {
  if (status === null || (raw && readCommon(dialect, raw).codeText !== null) || !isSignatureRejection(status, raw)) return null;
  return { kind: 'signature-rejected', outcome: 'rejected', reason: reason('signature-rejected', { status }) };
}

function interpret<R>(result: TransportResult, parse: (raw: Record<string, unknown>) => R, dialect: Dialect): Pick<ClientResult<R>, 'reply' | 'failure'> {
  return interpretReply(result.exchange, parse, dialect);
}

/**
 * What a provider's reply means, read with a dialect: the reply (parsed by `parse`), or why it is
 * not one (the gateway refused the signature, a success code in a reply that is not an HTTP success,
 * an unreadable body). The one reading for Callout's own requests and the capture proxy's checks.
 */
export function interpretReply<R>(
  exchange: Pick<Exchange, 'status' | 'responseBody' | 'responseHeaders'>,
  parse: (raw: Record<string, unknown>) => R,
  dialect: Dialect,
): Pick<ClientResult<R>, 'reply' | 'failure'> {
  const { status, responseBody } = exchange;
  const raw = parseBody(responseBody);
  const rejected = signatureRejected(status, raw, dialect);
  if (rejected) return { reply: null, failure: rejected };
  const common = raw ? readCommon(dialect, raw) : null;
  if (raw && common && common.readable) {
    // A success needs an HTTP success too: "code 2" in the body of an HTTP 500 or 404 page is not one.
    // The request reached something that answered, so the call may have been placed: unknown.
    if (common.outcome === 'accepted' && status !== null && (status < 200 || status > 299)) {
      return {
        reply: null,
        failure: { kind: 'http-status', outcome: 'unknown', reason: reason('http-status', { status, code: common.code ?? common.codeText ?? '—' }) },
      };
    }
    return { reply: parse(raw), failure: null };
  }
  const type = exchange.responseHeaders?.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? 'no content type';
  return {
    reply: null,
    failure: { kind: 'unreadable-reply', outcome: 'unknown', reason: reason('unreadable-reply', { status, type }) },
  };
}
