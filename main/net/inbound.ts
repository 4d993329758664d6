// What Callout's small inbound HTTP listeners share (the receipt listener, the alert receiver): a
// path secret compared in constant time, bodies read with a cap (and, when asked, a deadline on the
// injected clock), short answers that are never cached, and a server that listens on one address and
// closes with every connection it holds.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Clock } from '../clock';

/** A new path secret: 192 random bits, URL-safe. */
export function newPathSecret(): string {
  return randomBytes(24).toString('base64url');
}

/** Whether two texts are equal, in time that depends on neither (both are hashed first: no length leak). */
export function sameSecretText(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

/** The path of a request (without its query), or '' when it cannot be read. */
export function requestPath(req: IncomingMessage): string {
  try {
    return new URL(req.url ?? '/', 'http://listener').pathname;
  } catch {
    return '';
  }
}

/** The address a sender posts to, for a host and port (an IPv6 literal in brackets) and a path. */
export function listenerUrl(host: string, port: number, path: string): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}${path.startsWith('/') ? path : `/${path}`}`;
}

export type BodyRead = Buffer | 'too-large' | 'aborted' | 'timeout';

export interface ReadBodyOptions {
  /** Bytes; past this the read stops with 'too-large' (a declared Content-Length above it stops it at once). */
  max: number;
  /** With a clock: the whole body must arrive within this many milliseconds, else 'timeout'. */
  timeoutMs?: number;
  clock?: Clock;
}

/**
 * Reads a request's body, at most `max` bytes. Past the cap (or the deadline) nothing more is kept
 * and the request is paused: the caller answers and closes the connection.
 */
export function readBody(req: IncomingMessage, o: ReadBodyOptions): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > o.max) {
    req.pause();
    return Promise.resolve('too-large');
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const timer = o.clock && o.timeoutMs !== undefined ? o.clock.setTimeout(() => finish('timeout'), o.timeoutMs) : null;
    const finish = (r: BodyRead) => {
      if (done) return;
      done = true;
      timer?.cancel();
      if (typeof r === 'string') {
        chunks.length = 0;
        req.pause();
      }
      resolve(r);
    };
    req.on('data', (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > o.max) finish('too-large');
      else chunks.push(c);
    });
    req.on('end', () => finish(Buffer.concat(chunks)));
    req.on('error', () => finish('aborted'));
    req.on('close', () => finish('aborted'));
  });
}

/** A short answer, never cached. */
export function reply(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', ...extra });
  res.end(body);
}

export interface Listening {
  port: number;
  /** Stops listening and drops every connection (once; later calls get the same promise). */
  close(): Promise<void>;
}

/**
 * Listens on host:port (0: any free port) with slow clients cut off by Node's own timeouts; rejects
 * with the listen error (EADDRINUSE, EADDRNOTAVAIL, EACCES...).
 */
export async function listenOn(server: Server, host: string, port: number, timeouts: { headersMs: number; requestMs: number }): Promise<Listening> {
  const sockets = new Set<Socket>();
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('clientError', (_e, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  let closing: Promise<void> | null = null;
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      })),
  };
}
