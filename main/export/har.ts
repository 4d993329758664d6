import type { Exchange, ExchangeRecord, Header } from '../../common/records';
import { Redactor } from '../voice/redaction';

/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) from captured exchanges, for testers'
 * tools (browser devtools, Charles, Fiddler, Insomnia). Exchanges are stored redacted; the export
 * redacts once more what it can recognise without the key (`password` fields, the signature of
 * an Authorization header), so an exchange captured elsewhere cannot leak through here either.
 */

export interface HarCreator {
  name: string;
  version: string;
  comment?: string;
}

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarPostData {
  mimeType: string;
  text: string;
  params?: HarNameValue[];
}

export interface HarRequest {
  method: string;
  url: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  queryString: HarNameValue[];
  postData?: HarPostData;
  headersSize: number;
  bodySize: number;
}

export interface HarResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  cookies: HarNameValue[];
  headers: HarNameValue[];
  content: { size: number; mimeType: string; text?: string };
  redirectURL: string;
  headersSize: number;
  bodySize: number;
  /** Why there is no (complete) response, as the transport said. Chrome's devtools use the same field. */
  _error?: string;
  _errorKind?: string;
}

export interface HarTimings {
  blocked: number;
  dns: number;
  connect: number;
  ssl: number;
  send: number;
  wait: number;
  receive: number;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: HarRequest;
  response: HarResponse;
  cache: Record<string, never>;
  timings: HarTimings;
  _operation?: string;
  _exchangeId?: number;
  _messageId?: number | null;
  _profile?: string | null;
}

export interface Har {
  log: {
    version: '1.2';
    creator: HarCreator;
    entries: HarEntry[];
  };
}

const HTTP_VERSION = 'HTTP/1.1';
const structural = new Redactor([]);

function headerValue(headers: readonly Header[] | null, name: string): string | undefined {
  return headers?.find(([n]) => n.toLowerCase() === name)?.[1];
}

const bytes = (s: string | null) => (s === null ? 0 : Buffer.byteLength(s, 'utf8'));
const ms = (x: number) => Math.max(0, Math.round(x * 1000) / 1000);

function isForm(mimeType: string): boolean {
  return mimeType.toLowerCase().split(';')[0]!.trim() === 'application/x-www-form-urlencoded';
}

/** The request half as a HAR request (also what httpsnippet takes, see curl.ts). */
export function harRequest(e: Pick<Exchange, 'method' | 'url' | 'requestHeaders' | 'requestBody'>): HarRequest {
  let queryString: HarNameValue[] = [];
  try {
    queryString = [...new URL(e.url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    // not a URL we can parse: no query string
  }
  const req: HarRequest = {
    method: e.method,
    url: e.url,
    httpVersion: HTTP_VERSION,
    cookies: [],
    headers: e.requestHeaders.map(([name, value]) => ({ name, value })),
    queryString,
    headersSize: -1,
    bodySize: bytes(e.requestBody),
  };
  if (e.requestBody !== null) {
    const mimeType = headerValue(e.requestHeaders, 'content-type') ?? 'application/octet-stream';
    req.postData = { mimeType, text: e.requestBody };
    if (isForm(mimeType)) req.postData.params = [...new URLSearchParams(e.requestBody)].map(([name, value]) => ({ name, value }));
  }
  return req;
}

function harResponse(e: Exchange): HarResponse {
  const mimeType = headerValue(e.responseHeaders, 'content-type') ?? 'x-unknown';
  const res: HarResponse = {
    status: e.status ?? 0,
    statusText: e.status === null ? '' : (e.statusText ?? ''),
    httpVersion: e.status === null ? '' : HTTP_VERSION,
    cookies: [],
    headers: (e.responseHeaders ?? []).map(([name, value]) => ({ name, value })),
    content: { size: bytes(e.responseBody), mimeType, ...(e.responseBody !== null ? { text: e.responseBody } : {}) },
    redirectURL: headerValue(e.responseHeaders, 'location') ?? '',
    headersSize: -1,
    bodySize: e.status === null ? -1 : bytes(e.responseBody),
  };
  if (e.error) {
    res._error = e.error.message;
    res._errorKind = e.error.kind;
  }
  return res;
}

/**
 * HAR timings from ours (each a moment in ms since the start, null when it did not happen):
 * dns = until the lookup ended; connect = from there until the connection (TLS included) was up;
 * ssl = the TLS part of connect; send = 0 (not measured separately); wait = until the first byte of
 * the response; receive = the rest. Their sum (ssl excepted, as HAR says) is `time`. A request that
 * never connected spends its time in connect; one that got no response, in wait.
 */
export function harTimings(t: Exchange['timings']): HarTimings {
  const total = t.totalMs;
  const dnsEnd = t.dnsMs ?? 0;
  const connected = t.tlsMs ?? t.connectMs;
  const out: HarTimings = { blocked: -1, dns: t.dnsMs === null ? -1 : ms(t.dnsMs), connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 };
  if (connected === null) {
    out.connect = ms(total - dnsEnd);
    return out;
  }
  out.connect = ms(connected - dnsEnd);
  if (t.tlsMs !== null && t.connectMs !== null) out.ssl = ms(t.tlsMs - t.connectMs);
  if (t.firstByteMs === null) {
    out.wait = ms(total - connected);
  } else {
    out.wait = ms(t.firstByteMs - connected);
    out.receive = ms(total - t.firstByteMs);
  }
  return out;
}

export function harEntry(exchange: Exchange | ExchangeRecord): HarEntry {
  const e = structural.exchange(exchange);
  const entry: HarEntry = {
    startedDateTime: new Date(e.startedAt).toISOString(),
    time: ms(e.timings.totalMs),
    request: harRequest(e),
    response: harResponse(e),
    cache: {},
    timings: harTimings(e.timings),
    _operation: e.operation,
  };
  if ('id' in exchange) {
    entry._exchangeId = exchange.id;
    entry._messageId = exchange.messageId;
    entry._profile = exchange.profile;
  }
  return entry;
}

/** A HAR 1.2 log of `exchanges`, in the order given. */
export function toHar(exchanges: ReadonlyArray<Exchange | ExchangeRecord>, creator: HarCreator): Har {
  return { log: { version: '1.2', creator: { ...creator }, entries: exchanges.map(harEntry) } };
}
