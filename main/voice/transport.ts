import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { Exchange, Header, Operation, TransportErrorKind } from '../../common/records';
import { decodeBody } from './charset';
import { hostOf } from '../signing/host';
import type { Redactor } from './redaction';
import { systemClock, type Clock } from '../clock';

export interface HttpRequestSpec {
  operation: Operation;
  /** Any HTTP method token (the raw client sends PUT, DELETE, made-up ones...). */
  method: string;
  url: string;
  /** Sent in this order, names as written, duplicates kept. */
  headers: Header[];
  /** Sent byte for byte (malformed on purpose is fine). */
  body: string | null;
  /**
   * Headers the transport adds when the caller did not set them: Host (the URL's) and, with a
   * body, Content-Length. Listed here, they are left out (the raw client's "remove").
   */
  omit?: readonly ('host' | 'content-length')[];
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  /** The time of the exchange and its timeouts. Default systemClock. */
  clock?: Clock;
  signal?: AbortSignal;
}

/**
 * Whether the request may have reached the server:
 * - `not-sent`: it provably never left (no connection was made);
 * - `maybe`: a connection was made and the request may have been read;
 * - `answered`: a complete response came back.
 */
export type Delivery = 'not-sent' | 'maybe' | 'answered';

export interface TransportResult {
  /** Already redacted. */
  exchange: Exchange;
  delivery: Delivery;
}

export const MAX_RESPONSE_BYTES = 1024 * 1024;

/** A failure in transit, with its kind (its words are the catalog's transport.<kind>) and the technical text kept with the exchange. */
class TransportError {
  constructor(
    readonly kind: TransportErrorKind,
    readonly message: string,
    readonly ms?: number,
  ) {}
}

function classify(error: NodeJS.ErrnoException, connected: boolean): TransportError {
  const code = error.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return new TransportError('dns', `The host name could not be resolved (${code}).`);
  if (code === 'ECONNREFUSED') return new TransportError('refused', 'The connection was refused: nothing is listening at that address.');
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code === 'EPROTO' || /SSL|TLS/.test(error.message)) {
    return new TransportError('tls', `The secure connection failed (${code || error.message}).`);
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') {
    return new TransportError('reset', connected ? 'The connection was reset before a complete reply arrived.' : 'The connection was reset while connecting.');
  }
  if (code === 'ABORT_ERR' || error.name === 'AbortError') return new TransportError('aborted', 'The request was cancelled.');
  return new TransportError('network', `Network error: ${error.message}`);
}

/** The kind of a Node network error: the one rule for every request Callout makes, probes included. */
export function transportErrorKind(error: NodeJS.ErrnoException, connected = false): TransportErrorKind {
  return classify(error, connected).kind;
}

function headerValue(headers: Header[] | null, name: string): string | null {
  return headers?.find(([n]) => n.toLowerCase() === name)?.[1] ?? null;
}

function headerList(raw: string[]): Header[] {
  const out: Header[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

/**
 * One HTTP exchange, captured whole (request, response, timings) and redacted before it is returned.
 * Uses a fresh connection each time so that connect failures are attributable and timings honest.
 */
export function httpExchange(spec: HttpRequestSpec, redactor: Redactor): Promise<TransportResult> {
  const url = new URL(spec.url);
  const lib = url.protocol === 'https:' ? https : http;
  const clock = spec.clock ?? systemClock;
  const startedAt = clock.now();
  const t0 = performance.now();
  const since = () => Math.round((performance.now() - t0) * 100) / 100;
  const timings = {
    dnsMs: null as number | null,
    connectMs: null as number | null,
    tlsMs: null as number | null,
    firstByteMs: null as number | null,
    totalMs: 0,
  };
  const headers: Header[] = [...spec.headers];
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  const omit = new Set(spec.omit ?? []);
  // Headers are handed to Node as a list (order, case and duplicates kept), so Node adds no Host itself.
  if (!has('host') && !omit.has('host')) headers.push(['Host', hostOf(url)]);
  if (spec.body !== null && !has('content-length') && !omit.has('content-length')) {
    headers.push(['Content-Length', String(Buffer.byteLength(spec.body))]);
  }
  /** What went on the wire, once Node has written the head (it adds Connection, or chunked encoding). */
  let sentHeaders: Header[] = headers;

  return new Promise<TransportResult>((resolve) => {
    let connected = false;
    let settled = false;
    let status: number | null = null;
    let statusText: string | null = null;
    let responseHeaders: Header[] | null = null;
    const chunks: Buffer[] = [];
    let size = 0;

    const finish = (error: TransportError | null, delivery: Delivery) => {
      if (settled) return;
      settled = true;
      connectTimer.cancel();
      totalTimer.cancel();
      spec.signal?.removeEventListener('abort', onAbort);
      timings.totalMs = since();
      const exchange: Exchange = {
        operation: spec.operation,
        method: spec.method,
        url: spec.url,
        requestHeaders: sentHeaders,
        requestBody: spec.body,
        status,
        statusText,
        responseHeaders,
        // Decoded by its declared charset (GBK gateways), so the exchange keeps the text as the provider meant it.
        responseBody: chunks.length || status !== null ? decodeBody(Buffer.concat(chunks), headerValue(responseHeaders, 'content-type')).text : null,
        error: error && { kind: error.kind, message: error.message, ...(error.ms !== undefined ? { ms: error.ms } : {}) },
        startedAt,
        timings,
      };
      resolve({ exchange: redactor.exchange(exchange), delivery });
    };

    const fail = (error: TransportError) => {
      finish(error, connected ? 'maybe' : 'not-sent');
      req.destroy();
    };

    let req: http.ClientRequest;
    try {
      req = lib.request(url, { method: spec.method, headers: headers.flat(), agent: false, setHost: false });
    } catch (error) {
      // A header or method Node refuses to write (checked in the contract first): nothing left.
      timings.totalMs = since();
      resolve({
        exchange: redactor.exchange({
          operation: spec.operation,
          method: spec.method,
          url: spec.url,
          requestHeaders: headers,
          requestBody: spec.body,
          status: null,
          statusText: null,
          responseHeaders: null,
          responseBody: null,
          error: { kind: 'network', message: (error as Error).message },
          startedAt,
          timings,
        }),
        delivery: 'not-sent',
      });
      return;
    }

    const connectTimer = clock.setTimeout(() => {
      if (!connected)
        fail(new TransportError('connect-timeout', `No connection within ${spec.connectTimeoutMs} ms; the request was not sent.`, spec.connectTimeoutMs));
    }, spec.connectTimeoutMs);
    const totalTimer = clock.setTimeout(() => {
      fail(
        connected
          ? new TransportError('timeout', `No complete reply within ${spec.totalTimeoutMs} ms; the request may have reached the provider.`, spec.totalTimeoutMs)
          : new TransportError('connect-timeout', `No connection within ${spec.totalTimeoutMs} ms; the request was not sent.`, spec.totalTimeoutMs),
      );
    }, spec.totalTimeoutMs);
    const onAbort = () => fail(new TransportError('aborted', 'The request was cancelled.'));
    if (spec.signal?.aborted) onAbort();
    spec.signal?.addEventListener('abort', onAbort, { once: true });

    req.on('socket', (socket) => {
      socket.once('lookup', () => (timings.dnsMs = since()));
      socket.once('connect', () => {
        timings.connectMs = since();
        if (url.protocol !== 'https:') connected = true;
      });
      socket.once('secureConnect', () => {
        timings.tlsMs = since();
        connected = true;
      });
    });
    req.on('response', (res) => {
      timings.firstByteMs = since();
      status = res.statusCode ?? null;
      statusText = res.statusMessage ?? null;
      responseHeaders = headerList(res.rawHeaders);
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) {
          fail(new TransportError('too-large', `The reply was larger than ${MAX_RESPONSE_BYTES} bytes and was cut off.`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => finish(null, 'answered'));
      res.on('aborted', () => fail(new TransportError('reset', 'The connection closed before the whole reply arrived.')));
      res.on('error', (e) => fail(classify(e as NodeJS.ErrnoException, true)));
    });
    req.on('error', (e) => fail(classify(e as NodeJS.ErrnoException, connected)));
    if (spec.body !== null) req.write(spec.body);
    req.end();
    sentHeaders = headBlock(req) ?? headers;
  });
}

/**
 * The header lines Node wrote (its request head, `ClientRequest#_header`: not a documented API, so
 * read defensively, falling back to the headers handed over).
 */
function headBlock(req: http.ClientRequest): Header[] | null {
  const head = (req as unknown as { _header?: unknown })._header;
  if (typeof head !== 'string') return null;
  const lines = head
    .split('\r\n')
    .slice(1)
    .filter((l) => l !== '');
  const out: Header[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) return null;
    out.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  return out;
}
