// The capture proxy's wire: a plain Node HTTP server on 127.0.0.1 that a tester's backend points at
// instead of the provider. Three ways in:
// - reverse: a request for a path (`POST /voice/vm`) goes on to the target base URL; its Host is
//   replaced by the provider's (the backend signed the proxy's host, which is said by the checks);
// - forward: a request for an absolute URL (HTTP_PROXY) goes on to that URL, Host unchanged, so a
//   signature the backend made for the provider stays valid;
// - CONNECT (HTTPS through HTTP_PROXY): an opaque tunnel, bytes counted, nothing read.
// Bodies stream both ways byte for byte (only the first `maxBodyBytes` of each are kept, for the
// record); credentials and bodies are never added, altered or removed. A provider that cannot be
// reached is answered 502 with a body that says so. Each exchange is reported once, when it is over.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import type { CaptureMode } from '../../common/capture';
import type { Header, TransportErrorKind } from '../../common/records';
import { systemClock, type Clock } from '../clock';

/** What is kept of each body by default (the rest is passed on, and counted). */
export const DEFAULT_MAX_KEPT_BYTES = 256 * 1024;
const CONNECT_TIMEOUT_MS = 10_000;
/** A connection with nothing moving either way for this long is closed. */
const IDLE_TIMEOUT_MS = 120_000;
/** A request whose headers are not complete after this long is answered 408 and its connection closed (slow headers hold nothing). */
export const HEADERS_TIMEOUT_MS = 15_000;

/** Headers about one connection, not the request: not passed on (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'upgrade', 'te', 'trailer']);

/** The hop-by-hop headers of one message: the fixed ones and those its Connection header names. */
function hopByHop(headers: readonly Header[]): Set<string> {
  const names = new Set(HOP_BY_HOP);
  for (const [name, value] of headers) {
    if (name.toLowerCase() === 'connection') for (const n of value.split(',')) if (n.trim()) names.add(n.trim().toLowerCase());
  }
  return names;
}

/** A status line Node can write back: a three-digit status, a reason phrase without control characters. */
function writableStatus(status: number | undefined, text: string | undefined): boolean {
  // eslint-disable-next-line no-control-regex -- the control characters Node refuses in a reason phrase
  return status !== undefined && status >= 100 && status <= 999 && !/[\u0000-\u0008\u000a-\u001f\u007f]/.test(text ?? '');
}

export interface ProxiedExchange {
  mode: CaptureMode;
  method: string;
  /** As the backend addressed it: the proxy's URL and the path (reverse), the absolute URL (forward), host:port (tunnel). */
  url: string;
  /** Where it went on to. */
  upstreamUrl: string;
  /** The headers as the backend sent them. */
  requestHeaders: Header[];
  /** The Host header the provider received instead of the backend's (reverse mode), else null. */
  hostForwarded: string | null;
  request: { kept: Buffer; bytes: number };
  status: number | null;
  statusText: string | null;
  responseHeaders: Header[] | null;
  response: { kept: Buffer; bytes: number };
  answeredBy: 'target' | 'proxy' | 'none';
  error: { kind: TransportErrorKind; message: string } | null;
  startedAt: number;
  firstByteMs: number | null;
  totalMs: number;
}

export interface CaptureProxyOptions {
  target: URL;
  port?: number;
  host?: string;
  maxKeptBytes?: number;
  connectTimeoutMs?: number;
  /** The time of exchanges and the connect timeouts. Default systemClock. */
  clock?: Clock;
  /** How long a backend may take to send a request's headers (default HEADERS_TIMEOUT_MS). */
  headersTimeoutMs?: number;
  /** Told once per exchange, when both sides are done. */
  onExchange: (exchange: ProxiedExchange) => void;
}

export interface CaptureProxy {
  url: string;
  port: number;
  /** Exchanges under way. */
  inFlight(): number;
  close(): Promise<void>;
}

/** Keeps the first `max` bytes of a stream, and counts them all. */
class Tap {
  private chunks: Buffer[] = [];
  private keptBytes = 0;
  bytes = 0;
  constructor(private readonly max: number) {}
  add(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.keptBytes >= this.max) return;
    const part = chunk.subarray(0, this.max - this.keptBytes);
    this.chunks.push(part);
    this.keptBytes += part.length;
  }
  result(): { kept: Buffer; bytes: number } {
    return { kept: Buffer.concat(this.chunks), bytes: this.bytes };
  }
}

function pairs(raw: readonly string[]): Header[] {
  const out: Header[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

/** Why a connection to the provider failed, in the words of the transport's kinds. */
export function errorKind(error: NodeJS.ErrnoException): TransportErrorKind {
  const code = error.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'reset';
  if (code === 'CONNECT_TIMEOUT') return 'connect-timeout';
  if (code === 'IDLE_TIMEOUT') return 'timeout';
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('ERR_SSL')) return 'tls';
  return 'network';
}

function timeoutError(code: 'CONNECT_TIMEOUT' | 'IDLE_TIMEOUT'): NodeJS.ErrnoException {
  return Object.assign(new Error(code === 'CONNECT_TIMEOUT' ? 'connection to the provider timed out' : 'nothing moved for too long'), { code });
}

/** The body of the proxy's own 502: it could not reach the provider (never dressed as a provider's reply). */
export function badGatewayBody(target: string, kind: TransportErrorKind, detail: string): string {
  return `${JSON.stringify({ proxy: 'callout-capture', error: 'bad-gateway', kind, target, message: `Callout capture could not reach ${target}: ${detail}` })}\n`;
}

export async function startCaptureProxy(opts: CaptureProxyOptions): Promise<CaptureProxy> {
  const max = opts.maxKeptBytes ?? DEFAULT_MAX_KEPT_BYTES;
  const connectTimeout = opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const clock = opts.clock ?? systemClock;
  const target = opts.target;
  const base = target.pathname.replace(/\/+$/, '');
  let inFlight = 0;
  const sockets = new Set<Socket>();
  let selfHost = '';

  const report = (x: ProxiedExchange) => {
    inFlight--;
    try {
      opts.onExchange(x);
    } catch {
      // The recorder says its own troubles; the backend's traffic goes on.
    }
  };

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    inFlight++;
    const startedAt = clock.now();
    const t0 = performance.now();
    const headers = pairs(req.rawHeaders);
    const method = req.method ?? 'GET';
    const raw = req.url ?? '/';
    const absolute = /^https?:\/\//i.test(raw);
    let unparsable = false;
    let upstream: URL;
    let mode: CaptureMode;
    let addressed: string;
    try {
      if (absolute) {
        mode = 'forward';
        upstream = new URL(raw);
        addressed = upstream.toString();
      } else {
        mode = 'reverse';
        const path = raw.startsWith('/') ? raw : `/${raw}`;
        upstream = new URL(`${target.origin}${base}${path}`);
        addressed = `http://${req.headers.host ?? selfHost}${path}`;
      }
    } catch {
      upstream = new URL(target.origin);
      mode = absolute ? 'forward' : 'reverse';
      addressed = raw.slice(0, 2000);
      unparsable = true;
    }
    const reqTap = new Tap(max);
    const resTap = new Tap(max);
    let status: number | null = null;
    let statusText: string | null = null;
    let responseHeaders: Header[] | null = null;
    let firstByteMs: number | null = null;
    let error: ProxiedExchange['error'] = null;
    let answeredBy: ProxiedExchange['answeredBy'] = 'none';
    let done = false;
    const providerHost = upstream.host;
    const hostForwarded = mode === 'reverse' ? providerHost : null;

    const finish = () => {
      if (done) return;
      done = true;
      report({
        mode,
        method,
        url: addressed,
        upstreamUrl: upstream.toString(),
        requestHeaders: headers,
        hostForwarded,
        request: reqTap.result(),
        status,
        statusText,
        responseHeaders,
        response: resTap.result(),
        answeredBy,
        error,
        startedAt,
        firstByteMs,
        totalMs: Math.round(performance.now() - t0),
      });
    };

    // A URL that is no URL is answered here: never sent on to the provider's root instead.
    if (unparsable) {
      error = { kind: 'network', message: 'the request URL cannot be read' };
      answeredBy = 'proxy';
      res
        .writeHead(400, { 'content-type': 'application/json', connection: 'close' })
        .end(badGatewayBody(target.origin, 'network', 'the request URL cannot be read, so it was not sent on'));
      req.resume();
      req.on('end', finish);
      res.on('close', finish);
      return;
    }

    // A request for the proxy itself (a loop: a forward URL, or a target that is the proxy) is refused rather than sent round again.
    if (upstream.host === selfHost) {
      error = { kind: 'network', message: 'a request for the capture proxy itself' };
      answeredBy = 'proxy';
      res.writeHead(508, { 'content-type': 'application/json' }).end(badGatewayBody(upstream.origin, 'network', 'the URL names the capture proxy itself'));
      req.resume();
      req.on('end', finish);
      res.on('close', finish);
      return;
    }

    const out: Array<[string, string]> = [];
    const hop = hopByHop(headers);
    for (const [name, value] of headers) {
      const lower = name.toLowerCase();
      if (hop.has(lower)) continue;
      if (lower === 'host' && mode === 'reverse') continue;
      out.push([name, value]);
    }
    if (mode === 'reverse') out.unshift(['Host', providerHost]);
    const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
    const up = send(upstream, { method, headers: out as unknown as Record<string, string>, agent: false, setHost: false });
    const connectTimer = clock.setTimeout(() => up.destroy(timeoutError('CONNECT_TIMEOUT')), connectTimeout);
    up.on('socket', (s) => {
      s.once(upstream.protocol === 'https:' ? 'secureConnect' : 'connect', () => connectTimer.cancel());
      s.setTimeout(IDLE_TIMEOUT_MS, () => up.destroy(timeoutError('IDLE_TIMEOUT')));
    });

    req.on('data', (chunk: Buffer) => reqTap.add(chunk));
    req.pipe(up);

    up.on('response', (upRes) => {
      connectTimer.cancel();
      firstByteMs = Math.round(performance.now() - t0);
      status = upRes.statusCode ?? null;
      statusText = upRes.statusMessage ?? null;
      responseHeaders = pairs(upRes.rawHeaders);
      answeredBy = 'target';
      const back: string[] = [];
      const hopBack = hopByHop(responseHeaders);
      for (const [name, value] of responseHeaders) if (!hopBack.has(name.toLowerCase())) back.push(name, value);
      /** The provider's reply cannot be written back: the proxy answers a bad gateway instead. */
      const notPassedOn = (message: string, why: string) => {
        error = { kind: 'network', message };
        answeredBy = 'proxy';
        status = null;
        statusText = null;
        responseHeaders = null;
        upRes.destroy();
        if (!res.headersSent)
          res.writeHead(502, { 'content-type': 'application/json; charset=utf-8', connection: 'close' }).end(badGatewayBody(upstream.origin, 'network', why));
        finish();
      };
      if (!writableStatus(upRes.statusCode, upRes.statusMessage)) {
        // Node's client reads a status line its server cannot write (000, a control character in the
        // reason): said as a bad gateway, never a crash of the proxy.
        notPassedOn(`the provider's status line is not valid HTTP (${String(upRes.statusCode)})`, 'its status line is not valid HTTP');
        return;
      }
      try {
        res.writeHead(upRes.statusCode!, upRes.statusMessage, back);
      } catch (e) {
        notPassedOn(`the provider's reply cannot be passed on: ${(e as Error).message}`, 'its reply cannot be passed on');
        return;
      }
      upRes.on('data', (chunk: Buffer) => resTap.add(chunk));
      upRes.pipe(res);
      upRes.on('error', (e: NodeJS.ErrnoException) => {
        error ??= { kind: errorKind(e), message: e.message };
        res.destroy();
      });
      upRes.on('aborted', () => {
        error ??= { kind: 'reset', message: 'the provider closed the connection before the reply was complete' };
      });
      res.on('finish', finish);
    });

    up.on('error', (e: NodeJS.ErrnoException) => {
      connectTimer.cancel();
      if (status !== null) {
        error ??= { kind: errorKind(e), message: e.message };
        res.destroy();
        finish();
        return;
      }
      if (error?.kind === 'aborted') {
        finish();
        return;
      }
      const kind = errorKind(e);
      error = { kind, message: e.message };
      if (!res.headersSent && !res.destroyed) {
        answeredBy = 'proxy';
        res.writeHead(502, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
        res.end(badGatewayBody(upstream.origin, kind, e.code ?? e.message));
      }
      // What is left of the request body is read and dropped, so the backend gets its 502.
      req.resume();
      res.on('finish', finish);
      res.on('close', finish);
    });

    // The backend went away before the exchange was over: the provider's side is closed too.
    res.on('close', () => {
      if (res.writableFinished) return;
      error ??= { kind: 'aborted', message: 'the backend closed the connection' };
      up.destroy();
      finish();
    });
  }

  function onConnect(req: IncomingMessage, client: Socket, head: Buffer): void {
    inFlight++;
    const startedAt = clock.now();
    const t0 = performance.now();
    const authority = req.url ?? '';
    const headers = pairs(req.rawHeaders);
    const up = new Tap(0);
    const down = new Tap(0);
    let status: number | null = null;
    let error: ProxiedExchange['error'] = null;
    let answeredBy: ProxiedExchange['answeredBy'] = 'none';
    let firstByteMs: number | null = null;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      report({
        mode: 'tunnel',
        method: 'CONNECT',
        url: authority,
        upstreamUrl: authority,
        requestHeaders: headers,
        hostForwarded: null,
        request: up.result(),
        status,
        statusText: status === 200 ? 'Connection Established' : status === null ? null : 'Bad Gateway',
        responseHeaders: null,
        response: down.result(),
        answeredBy,
        error,
        startedAt,
        firstByteMs,
        totalMs: Math.round(performance.now() - t0),
      });
    };
    const m = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(authority);
    if (!m) {
      status = 400;
      answeredBy = 'proxy';
      error = { kind: 'network', message: 'CONNECT needs host:port' };
      client.end('HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nCONNECT needs host:port\n');
      finish();
      return;
    }
    const server = connect({ host: m[1]!, port: Number(m[2]) });
    const timer = clock.setTimeout(() => server.destroy(timeoutError('CONNECT_TIMEOUT')), connectTimeout);
    server.setTimeout(IDLE_TIMEOUT_MS, () => server.destroy(timeoutError('IDLE_TIMEOUT')));
    client.setTimeout(IDLE_TIMEOUT_MS, () => client.destroy());
    server.once('connect', () => {
      timer.cancel();
      status = 200;
      answeredBy = 'target';
      firstByteMs = Math.round(performance.now() - t0);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) {
        up.add(head);
        server.write(head);
      }
      client.on('data', (c: Buffer) => up.add(c));
      server.on('data', (c: Buffer) => down.add(c));
      client.pipe(server);
      server.pipe(client);
    });
    server.on('error', (e: NodeJS.ErrnoException) => {
      timer.cancel();
      const kind = errorKind(e);
      if (status === null) {
        status = 502;
        answeredBy = 'proxy';
        error = { kind, message: e.message };
        const body = badGatewayBody(authority, kind, e.code ?? e.message);
        if (!client.destroyed)
          client.end(
            `HTTP/1.1 502 Bad Gateway\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
          );
      } else {
        error ??= { kind, message: e.message };
        client.destroy();
      }
    });
    client.on('error', () => server.destroy());
    server.on('close', () => {
      if (!client.destroyed) client.end();
      finish();
    });
    client.on('close', () => {
      server.destroy();
      if (status === null) error ??= { kind: 'aborted', message: 'the backend closed the connection' };
    });
  }

  // Bodies may stream for as long as they move (requestTimeout 0, the idle timeout above); headers may
  // not: Node checks them every tenth of the timeout (its own timer, at most a second apart).
  const headersTimeout = opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const server: Server = createServer(
    { requestTimeout: 0, headersTimeout, connectionsCheckingInterval: Math.min(1000, Math.max(10, Math.floor(headersTimeout / 10))) },
    onRequest,
  );
  server.on('connect', onConnect);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('clientError', (e: NodeJS.ErrnoException, socket: Socket) => {
    const late = e.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    if (socket.writable)
      socket.end(late ? 'HTTP/1.1 408 Request Timeout\r\nconnection: close\r\n\r\n' : 'HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  selfHost = `${opts.host ?? '127.0.0.1'}:${port}`;
  return {
    url: `http://${selfHost}`,
    port,
    inFlight: () => inFlight,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      // Exchanges cut short by the stop are still reported (as aborted) before it returns: none is lost.
      for (let i = 0; i < 100 && inFlight > 0; i++) await clock.sleep(20);
    },
  };
}
