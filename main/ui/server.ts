// `callout ui`: the console served to a browser by the same services and the same handler table as
// the desktop app. Plain Node (http + ws): the built renderer over HTTP, and one WebSocket per page
// for window.callout's calls and main's push events (common/console-transport.ts). Everything goes
// through ConsoleAccess first (access.ts): Host, Origin and Sec-Fetch-Site, then the session cookie
// that a one-time token was exchanged for. A refused request or upgrade dispatches nothing.
import { readFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { CONSOLE_CLOSE, CONSOLE_SOCKET_PATH, CONSOLE_TOKEN_PARAM, type CallFrame, type ServerFrame } from '../../common/console-transport';
import type { Channel, IpcResult } from '../../common/contract';
import type { Lang } from '../../common/domain/i18n-text';
import { dispatch } from '../dispatch';
import { createHandlers, type Handlers } from '../handlers';
import { translator } from '../i18n';
import { rendererFilePath, responseHeaders } from '../renderer-files';
import type { Services } from '../services';
import { systemClock, type Clock } from '../clock';
import { ConsoleAccess, cookieValue, LINK_LIFETIME_MS, SESSION_IDLE_MS, type Refusal } from './access';

/**
 * Operations the browser transport refuses, with why: they would put the API Key somewhere the page's
 * person may not be (main's clipboard is the clipboard of the machine `callout ui` runs on).
 */
export const DESKTOP_ONLY: ReadonlyMap<string, IpcResult<never>> = new Map<Channel, IpcResult<never>>([
  ['exchanges.copyCurlWithKey', { ok: false, error: { code: 'unavailable', params: { kind: 'browser-key-copy' } } }],
  ['raw.copyCodeWithKey', { ok: false, error: { code: 'unavailable', params: { kind: 'browser-key-copy' } } }],
]);

/** Large enough for a 40 MB spreadsheet sent as base64 (bulk.open), no larger. */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

export interface ConsoleServerOptions {
  services: Services;
  /** The handler table; default createHandlers(services). */
  handlers?: Handlers;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** The address to bind; default 127.0.0.1. Anything else only through `callout ui --host`. */
  host?: string;
  /** 0 (default): any free port. */
  port?: number;
  log?: (error: unknown) => void;
  /** Told of every call the page makes, as it arrived (before it is parsed): a debug log, the tests. */
  onCall?: (call: { channel: string; input: unknown }) => void;
  /** Where the time comes from (links and sessions expire: access.ts); default the system's. */
  clock?: Clock;
}

export interface ConsoleServer {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  readonly address: string;
  readonly port: number;
  /** A new link to the console with a fresh one-time token (`path` may carry a #/screen). */
  link(path?: string): string;
  /** Pages connected right now. */
  connections(): number;
  close(): Promise<void>;
}

function pageLanguage(acceptLanguage: string | undefined): Lang {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim() ?? '';
  return /^zh/i.test(first) ? 'zh-CN' : 'en';
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Escaped, with `commands` shown as code. */
const html = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, '<code>$1</code>');

/** A short page that says why, in the language the browser asks for; no script, no style, no link. */
function refusalPage(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  key: 'unauthorized' | 'expired' | 'sessionEnded' | 'forbidden' | 'notFound',
  origin: string,
  extra: Record<string, string> = {},
): void {
  const lang = pageLanguage(req.headers['accept-language']);
  const t = translator(lang);
  const title = html(t(`console.${key}.title`));
  const body = html(t(`console.${key}.body`, { origin, minutes: LINK_LIFETIME_MS / 60_000, hours: SESSION_IDLE_MS / 3_600_000 }));
  const page = `<!doctype html>\n<html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${body}</p></body></html>\n`;
  res.writeHead(status, { ...responseHeaders('refusal.html', page), ...extra });
  res.end(req.method === 'HEAD' ? undefined : page);
}

function refuseUpgrade(socket: Socket, refusal: Refusal): void {
  const text = refusal.status === 401 ? 'Unauthorized' : 'Forbidden';
  socket.end(`HTTP/1.1 ${refusal.status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () => socket.destroy());
}

/** A call frame, or null for anything else. */
function parseCall(data: RawData, isBinary: boolean): CallFrame | null {
  if (isBinary) return null;
  let value: unknown;
  try {
    value = JSON.parse(Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { id, channel, input } = value as Record<string, unknown>;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0 || typeof channel !== 'string') return null;
  return { id, channel, input };
}

export async function startConsoleServer(o: ConsoleServerOptions): Promise<ConsoleServer> {
  const handlers = o.handlers ?? createHandlers(o.services);
  const log = o.log ?? ((e: unknown) => console.error(e));
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  let access: ConsoleAccess | null = null;

  const serve = async (req: IncomingMessage, res: ServerResponse, gate: ConsoleAccess): Promise<void> => {
    const refused = gate.checkSource(req.headers);
    if (refused) return refusalPage(res, req, refused.status, 'forbidden', gate.origin);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Length': '0' }).end();
      return;
    }
    const url = new URL(req.url ?? '/', gate.origin);
    if (url.searchParams.has(CONSOLE_TOKEN_PARAM)) {
      // Exchanged once for the session cookie, then taken out of the address bar (303 to the same page without it).
      const redeemed = gate.redeem(url.searchParams.get(CONSOLE_TOKEN_PARAM));
      const session = 'session' in redeemed ? redeemed.session : null;
      if (session === null && !gate.hasSession(req.headers.cookie))
        return refusalPage(res, req, 401, 'refused' in redeemed && redeemed.refused === 'expired' ? 'expired' : 'unauthorized', gate.origin);
      url.searchParams.delete(CONSOLE_TOKEN_PARAM);
      res.writeHead(303, {
        Location: `${url.pathname}${url.search}`,
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
        'Content-Length': '0',
        ...(session ? { 'Set-Cookie': gate.sessionCookie(session) } : {}),
      });
      res.end();
      return;
    }
    const state = gate.sessionState(req.headers.cookie);
    if (state !== 'live') return refusalPage(res, req, 401, state === 'ended' ? 'sessionEnded' : 'unauthorized', gate.origin);
    const file = rendererFilePath(o.rendererDir, url.pathname);
    if (file === null) return refusalPage(res, req, 404, 'notFound', gate.origin);
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return refusalPage(res, req, 404, 'notFound', gate.origin);
    }
    res.writeHead(200, { ...responseHeaders(file, body), 'Content-Length': String(body.length) });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const server = http.createServer((req, res) => {
    if (!access) {
      res.writeHead(503).end();
      return;
    }
    serve(req, res, access).catch((error: unknown) => {
      log(error);
      if (!res.headersSent) res.writeHead(500, { 'Content-Length': '0' });
      res.end();
    });
  });
  // Slow or idle connections do not pile up.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  const connect = (ws: WebSocket, session: string, gate: ConsoleAccess): void => {
    sockets.add(ws);
    const send = (frame: ServerFrame) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    };
    const unsubscribe = o.services.subscribe((event, payload) => send({ event, payload }));
    ws.on('message', (data, isBinary) => {
      const call = parseCall(data, isBinary);
      if (!call) {
        ws.close(CONSOLE_CLOSE.badFrame, 'not a call');
        return;
      }
      // A session that ended idle (or with the server) answers nothing more: the page is closed.
      if (!gate.touch(session)) {
        ws.close(CONSOLE_CLOSE.sessionEnded, 'session ended');
        return;
      }
      o.onCall?.({ channel: call.channel, input: call.input });
      // A Map, not an object: `__proto__`, `constructor`... are unknown operations like any other name.
      const refusal = DESKTOP_ONLY.get(call.channel);
      const answer = refusal ? Promise.resolve(refusal) : dispatch(handlers, call.channel, call.input, log);
      // dispatch never rejects: every failure is an IpcResult.
      void answer.then((result) => send({ id: call.id, result }));
    });
    ws.on('error', (error) => log(error));
    ws.on('close', () => {
      unsubscribe();
      sockets.delete(ws);
    });
  };

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const gate = access;
    if (!gate) return refuseUpgrade(socket, { status: 403, why: 'host' });
    const refused = gate.checkSource(req.headers, true) ?? (gate.hasSession(req.headers.cookie) ? null : ({ status: 401, why: 'session' } as const));
    if (refused) return refuseUpgrade(socket, refused);
    if (new URL(req.url ?? '/', gate.origin).pathname !== CONSOLE_SOCKET_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const session = cookieValue(req.headers.cookie, gate.cookieName)!;
    wss.handleUpgrade(req, socket, head, (ws) => connect(ws, session, gate));
  });

  const address = o.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, address, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const gate = new ConsoleAccess({ address, port, clock: o.clock ?? systemClock });
  access = gate;

  let closing: Promise<void> | null = null;
  return {
    origin: gate.origin,
    address,
    port,
    link: (path = '/') => {
      const url = new URL(path, gate.origin);
      url.searchParams.set(CONSOLE_TOKEN_PARAM, gate.issueToken());
      return url.href;
    },
    connections: () => sockets.size,
    close() {
      closing ??= (async () => {
        gate.clear();
        for (const ws of sockets) ws.close(CONSOLE_CLOSE.goingAway, 'callout ui stopped');
        await new Promise<void>((resolve) => wss.close(() => resolve()));
        for (const ws of sockets) ws.terminate();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closing;
    },
  };
}
