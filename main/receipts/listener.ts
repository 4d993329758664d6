// One receipt listener: a plain Node HTTP server where a provider that pushes call results posts its
// receipts. It listens on 127.0.0.1 unless the user binds it elsewhere, answers only POSTs to its
// path secret (at least 128 random bits; anything else gets a bare 404 and is not recorded), reads
// at most 64 KiB, decodes the body by its declared charset, and hands each post on as an exchange
// (operation 'receipt') with the secret already redacted. What the post means is the caller's.
// A post is answered only once it is stored: when it cannot be (the database locked by another
// process, a full disk), the answer is 503 with Retry-After, so the provider sends it again.
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Exchange, Header } from '../../common/records';
import { decodeBody } from '../voice/charset';
import { Redactor } from '../voice/redaction';
import { systemClock, type Clock } from '../clock';
import { listenOn, listenerUrl, newPathSecret, readBody, reply, requestPath, sameSecretText } from '../net/inbound';

/** Posts above this size are refused (413): a post of receipts is a few KiB. */
export const MAX_RECEIPT_BYTES = 64 * 1024;

/** How long a provider is asked to wait before posting again what could not be stored (seconds). */
export const RECEIPT_RETRY_AFTER_S = 5;

/** A new path secret: 192 random bits, URL-safe. */
export function newReceiptSecret(): string {
  return newPathSecret();
}

/** What the listener answers a post with. */
export interface ReceiptAck {
  status: number;
  type: string;
  body: string;
}

/** A post as received: method, headers, the body decoded, and when. */
export interface ReceivedPost {
  headers: Header[];
  contentType: string | null;
  body: string;
  startedAt: number;
}

export interface ReceiptListenerOptions {
  host: string;
  /** 0: any free port. */
  port: number;
  secret: string;
  /** Decides the answer to a post (before it is recorded). */
  answer(post: ReceivedPost): ReceiptAck;
  /**
   * Stores the whole exchange (request and the answer about to be sent, secret redacted) before it
   * is sent; throws when it could not be stored (the post is then answered 503, to be sent again).
   */
  record(exchange: Exchange): void;
  log?: (error: unknown) => void;
  /** When posts arrive. Default systemClock. */
  clock?: Clock;
}

export interface ReceiptListener {
  host: string;
  port: number;
  /** The address a provider posts to (with the secret). */
  url: string;
  close(): Promise<void>;
}

/** The address a provider posts to, for a host and port (an IPv6 literal in brackets). */
export function receiptUrl(host: string, port: number, secret: string): string {
  return listenerUrl(host, port, `/${secret}`);
}

function headerList(raw: string[]): Header[] {
  const out: Header[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

/** Starts a listener; rejects with the listen error (EADDRINUSE, EADDRNOTAVAIL, EACCES...). */
export async function startReceiptListener(o: ReceiptListenerOptions): Promise<ReceiptListener> {
  const redactor = new Redactor([o.secret]);
  let boundPort = o.port;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const startedAt = (o.clock ?? systemClock).now();
    const t0 = performance.now();
    // Only the secret path exists: anything else learns nothing, and is not kept.
    if (!sameSecretText(requestPath(req), `/${o.secret}`)) {
      req.resume();
      reply(res, 404, 'text/plain; charset=utf-8', 'not found');
      return;
    }
    if (req.method !== 'POST') {
      req.resume();
      reply(res, 405, 'text/plain; charset=utf-8', 'use POST', { Allow: 'POST' });
      return;
    }
    const read = await readBody(req, { max: MAX_RECEIPT_BYTES });
    if (read === 'aborted' || read === 'timeout') return;
    if (read === 'too-large') {
      reply(res, 413, 'text/plain; charset=utf-8', 'too large', { Connection: 'close' });
      return;
    }
    const headers = headerList(req.rawHeaders);
    const contentType = headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? null;
    const body = decodeBody(read, contentType).text;
    const ack = o.answer({ headers, contentType, body, startedAt });
    const totalMs = Math.round((performance.now() - t0) * 100) / 100;
    const exchange: Exchange = {
      operation: 'receipt',
      method: 'POST',
      url: receiptUrl(o.host, boundPort, o.secret) + (req.url?.includes('?') ? req.url.slice(req.url.indexOf('?')) : ''),
      requestHeaders: headers,
      requestBody: body,
      status: ack.status,
      statusText: STATUS_CODES[ack.status] ?? null,
      responseHeaders: [
        ['Content-Type', ack.type],
        ['Content-Length', String(Buffer.byteLength(ack.body))],
      ],
      responseBody: ack.body,
      error: null,
      startedAt,
      timings: { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: totalMs, totalMs },
    };
    // Acknowledged only once stored: a provider does not send again what was acknowledged.
    try {
      o.record(redactor.exchange(exchange));
    } catch (error) {
      o.log?.(error);
      reply(res, 503, 'text/plain; charset=utf-8', 'not stored, send it again', { 'Retry-After': String(RECEIPT_RETRY_AFTER_S) });
      return;
    }
    reply(res, ack.status, ack.type, ack.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      o.log?.(error);
      if (!res.headersSent && !res.destroyed) reply(res, 500, 'text/plain; charset=utf-8', 'error');
      else res.destroy();
    });
  });
  const bound = await listenOn(server, o.host, o.port, { headersMs: 10_000, requestMs: 15_000 });
  boundPort = bound.port;
  return {
    host: o.host,
    port: bound.port,
    url: receiptUrl(o.host, bound.port, o.secret),
    close: bound.close,
  };
}
