// `callout ui`'s server, over real HTTP and real WebSockets on 127.0.0.1, on real services (SQLite,
// the embedded sandbox): the one-time token and its cookie, Host (DNS rebinding), Origin and
// Sec-Fetch-Site (cross-site requests), what a refused request gets (401/403, nothing dispatched),
// hostile frames, the calls and push events of an accepted page, and the API Key in no frame.
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CONSOLE_SOCKET_PATH } from '../../../common/console-transport';
import { createHandlers, type Handlers } from '../../../main/handlers';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services } from '../../../main/services';
import { startConsoleServer, type ConsoleServer } from '../../../main/ui/server';
import { FASTEST_SCALE, ScaledClock } from '../../helpers/scaled-clock';
import { tempHome } from '../../helpers/temp-home';

const POLICY = "default-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'";
const HTML = `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${POLICY}" /></head><body><div id="root"></div><script type="module" src="./assets/app.js"></script></body></html>`;
const SCRIPT = 'window.app = "the console";';

const home = tempHome('callout-ui-');
const rendererDir = join(home.dir, 'renderer');
const store = new SessionSecretStore();
const clipboard: string[] = [];
let services: Services;
let sandboxKey: string;
let server: ConsoleServer;
/** What reached the handler table, and what the page sent. */
let handled: string[] = [];
let received: { channel: string; input: unknown }[] = [];

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw HTTP request to the console, with whatever headers a test wants (Host included). */
function request(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, path, method, headers: { Host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Follows a printed link: the 303, and the session cookie it sets. */
async function signIn(): Promise<string> {
  const link = new URL(server.link());
  const r = await request(`${link.pathname}${link.search}`);
  expect(r.status).toBe(303);
  const cookie = String(r.headers['set-cookie']?.[0] ?? '');
  return cookie.split(';')[0]!;
}

interface Socket {
  ws: WebSocket;
  /** Every frame, both directions, as text. */
  frames: { dir: 'sent' | 'received'; text: string }[];
  call<T = unknown>(channel: string, input?: unknown): Promise<{ ok: boolean; value?: T; error?: { code: string; params: Record<string, unknown> } }>;
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens the console's WebSocket as a page of the console would (or with the headers a test wants). */
function openSocket(headers: Record<string, string>): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}${CONSOLE_SOCKET_PATH}`, {
      headers: { Host: `127.0.0.1:${server.port}`, ...headers },
      perMessageDeflate: false,
    });
    const frames: Socket['frames'] = [];
    const waiting = new Map<number, (r: never) => void>();
    let next = 1;
    ws.on('message', (data) => {
      const text = String(data);
      frames.push({ dir: 'received', text });
      const frame = JSON.parse(text) as { id?: number; result?: never };
      if (frame.id !== undefined) waiting.get(frame.id)?.(frame.result!);
    });
    const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: String(reason) })));
    ws.on('unexpected-response', (_req, res) => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode })));
    ws.on('error', reject);
    ws.on('open', () =>
      resolve({
        ws,
        frames,
        closed,
        call(channel, input) {
          const id = next++;
          const text = JSON.stringify({ id, channel, input });
          frames.push({ dir: 'sent', text });
          ws.send(text);
          return new Promise((r) => waiting.set(id, r as never));
        },
      }),
    );
  });
}

const pageHeaders = (cookie: string) => ({ Origin: `http://127.0.0.1:${server.port}`, Cookie: cookie });

beforeAll(async () => {
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), HTML);
  writeFileSync(join(rendererDir, 'assets', 'app.js'), SCRIPT);
  writeFileSync(join(home.dir, 'secret.txt'), 'outside the renderer');
  services = await createServices({
    home: join(home.dir, 'data'),
    secrets: { store, status: { kind: 'session', keychainAvailable: false, reason: 'test' } },
    // Callout on a clock twenty times faster; the embedded sandbox runs on it, its calls at 0.002.
    clock: new ScaledClock(FASTEST_SCALE),
    sandbox: { timeScale: 0.002 / FASTEST_SCALE },
    clipboard: { writeText: (t) => void clipboard.push(t) },
  });
  sandboxKey = (await store.get('profile:sandbox'))!;
  const table = createHandlers(services);
  const counted = Object.fromEntries(
    Object.entries(table).map(([channel, handler]) => [channel, (input: never) => (handled.push(channel), (handler as (i: never) => Promise<unknown>)(input))]),
  ) as Handlers;
  server = await startConsoleServer({ services, handlers: counted, rendererDir, onCall: (c) => void received.push(c), log: () => undefined });
});

afterAll(async () => {
  await server?.close();
  await services?.close();
  home.cleanup();
});

beforeEach(() => {
  handled = [];
  received = [];
});

describe('the link and its token', () => {
  it('listens on 127.0.0.1 only, and links carry a fresh 256-bit token each', () => {
    expect(server.address).toBe('127.0.0.1');
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    const tokens = [server.link(), server.link(), server.link('/#/history')].map((l) => new URL(l).searchParams.get('token')!);
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    expect(new Set(tokens).size).toBe(3);
    expect(server.link('/#/history')).toMatch(/\/\?token=[\w-]+#\/history$/);
  });

  it('is exchanged once for an HttpOnly, SameSite=Strict cookie, and taken out of the address', async () => {
    const link = new URL(server.link());
    const token = link.searchParams.get('token')!;
    const first = await request(`/?token=${token}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = first.headers['set-cookie']![0]!;
    expect(cookie).toMatch(new RegExp(`^callout-console-${server.port}=[A-Za-z0-9_-]{43}; Path=/; HttpOnly; SameSite=Strict$`));
    expect(cookie).not.toContain(token);
    // The address keeps its other parts.
    const other = new URL(server.link('/index.html?lang=en'));
    expect((await request(`${other.pathname}${other.search}`)).headers.location).toBe('/index.html?lang=en');
    // Used: the same link gets nothing now (no cookie, no page).
    const again = await request(`/?token=${token}`);
    expect(again.status).toBe(401);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.body).not.toContain('the console');
  });

  it('with the cookie, the page, its scripts, and its CSP as a header with framing forbidden', async () => {
    const cookie = await signIn();
    const page = await request('/', { Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.body).toBe(HTML);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(`${POLICY}; frame-ancestors 'none'`);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).toBe('no-store');
    const script = await request('/assets/app.js', { Cookie: cookie });
    expect([script.status, script.headers['content-type'], script.body]).toEqual([200, 'text/javascript; charset=utf-8', SCRIPT]);
    // A reload of a used link with the cookie just lands on the page.
    const used = await request('/?token=already-used', { Cookie: cookie });
    expect([used.status, used.headers.location, used.headers['set-cookie']]).toEqual([303, '/', undefined]);
  });
});

describe('refused: no token, no cookie', () => {
  it.each(['/', '/index.html', '/assets/app.js', CONSOLE_SOCKET_PATH, '/missing', '/?token=', '/?token=guess', '/../secret.txt'])(
    'GET %s → 401, nothing served',
    async (path) => {
      const r = await request(path);
      expect(r.status).toBe(401);
      expect(r.body).not.toContain('the console');
      expect(r.body).not.toContain('<script');
      expect(r.headers['set-cookie']).toBeUndefined();
      expect(r.headers['content-security-policy']).toContain("default-src 'none'");
    },
  );

  it('a forged or foreign cookie is no session', async () => {
    const real = await signIn();
    const value = real.split('=')[1]!;
    for (const cookie of [
      `callout-console-${server.port}=forged`,
      `callout-console-1=${value}`,
      `other=${value}`,
      `callout-console-${server.port}=${value.slice(0, -1)}`,
    ]) {
      expect((await request('/', { Cookie: cookie })).status, cookie).toBe(401);
    }
  });

  it('the WebSocket is refused with 401 and nothing is dispatched', async () => {
    await expect(openSocket({ Origin: `http://127.0.0.1:${server.port}` })).rejects.toMatchObject({ status: 401 });
    await expect(openSocket({ Origin: `http://127.0.0.1:${server.port}`, Cookie: `callout-console-${server.port}=forged` })).rejects.toMatchObject({
      status: 401,
    });
    expect(received).toEqual([]);
    expect(handled).toEqual([]);
  });

  it('says why in the browser’s language, without a script', async () => {
    const en = await request('/', { 'Accept-Language': 'en-US,en;q=0.9' });
    expect(en.body).toContain('This console opens only from the link that <code>callout ui</code> printed');
    const zh = await request('/', { 'Accept-Language': 'zh-CN,zh;q=0.9' });
    expect(zh.body).toContain('此控制台只能通过 <code>callout ui</code> 在终端中打印的链接打开');
    expect(zh.body).toContain('<html lang="zh-CN">');
  });
});

describe('refused: a foreign Host (DNS rebinding) or a foreign Origin (cross-site), even with the cookie', () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await signIn();
  });

  const foreignHosts = () => [
    'evil.example',
    `evil.example:${server.port}`,
    `localhost:${server.port}`,
    `127.0.0.1:${server.port + 1}`,
    `127.0.0.2:${server.port}`,
    `127.0.0.1`,
    `[::1]:${server.port}`,
  ];

  it('every route answers 403 to a foreign Host', async () => {
    for (const host of foreignHosts()) {
      for (const path of ['/', '/index.html', '/assets/app.js', '/missing']) {
        const r = await request(path, { Host: host, Cookie: cookie });
        expect(r.status, `${host} ${path}`).toBe(403);
        expect(r.body).not.toContain('the console');
      }
    }
  });

  it('a foreign Host cannot spend a token either (it still works afterwards on the right Host)', async () => {
    const link = new URL(server.link());
    const r = await request(`${link.pathname}${link.search}`, { Host: `evil.example:${server.port}` });
    expect(r.status).toBe(403);
    expect(r.headers['set-cookie']).toBeUndefined();
    expect((await request(`${link.pathname}${link.search}`)).status).toBe(303);
  });

  it('every route answers 403 to a foreign Origin or a cross-site fetch', async () => {
    const foreign: Record<string, string>[] = [
      { Origin: 'http://evil.example' },
      { Origin: `http://localhost:${server.port}` },
      { Origin: `http://127.0.0.1:${server.port + 1}` },
      { Origin: 'null' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' }, // another port of 127.0.0.1 is the same site
    ];
    for (const headers of foreign) {
      for (const path of ['/', '/assets/app.js']) {
        const r = await request(path, { ...headers, Cookie: cookie });
        expect(r.status, JSON.stringify(headers)).toBe(403);
      }
    }
    expect((await request('/', { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin', Origin: server.origin })).status).toBe(200);
    expect((await request('/', { Cookie: cookie, 'Sec-Fetch-Site': 'none' })).status).toBe(200);
  });

  it('the WebSocket is refused with 403 for a foreign Host, a foreign or missing Origin, and nothing is dispatched', async () => {
    for (const host of foreignHosts()) {
      await expect(openSocket({ Host: host, ...pageHeaders(cookie) }), host).rejects.toMatchObject({ status: 403 });
    }
    for (const origin of ['http://evil.example', `http://localhost:${server.port}`, 'null', `https://127.0.0.1:${server.port}`]) {
      await expect(openSocket({ Origin: origin, Cookie: cookie }), origin).rejects.toMatchObject({ status: 403 });
    }
    await expect(openSocket({ Cookie: cookie })).rejects.toMatchObject({ status: 403 }); // no Origin at all
    await expect(openSocket({ ...pageHeaders(cookie), 'Sec-Fetch-Site': 'cross-site' })).rejects.toMatchObject({ status: 403 });
    expect(received).toEqual([]);
    expect(handled).toEqual([]);
  });

  it('other methods are refused', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) expect((await request('/', { Cookie: cookie }, method)).status).toBe(405);
  });

  it('a path outside the renderer is not found, in any spelling', async () => {
    for (const path of ['/../secret.txt', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt', '/%2e%2e/secret.txt', '/..%5csecret.txt', '/%00', '/.hidden']) {
      const r = await request(path, { Cookie: cookie });
      expect(r.status, path).toBe(404);
      expect(r.body).not.toContain('outside the renderer');
    }
  });
});

describe('an accepted page', () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await signIn();
  });

  it('calls the handler table and gets main’s push events', async () => {
    const page = await openSocket(pageHeaders(cookie));
    const info = await page.call<{ version: string; sandboxBaseUrl: string }>('app.info');
    expect(info).toMatchObject({ ok: true, value: { sandboxBaseUrl: services.sandbox!.baseUrl } });
    expect(received).toEqual([{ channel: 'app.info', input: undefined }]);
    services.emit('quickDial', {});
    await expect.poll(() => page.frames.some((f) => f.text === '{"event":"main:quick-dial","payload":{}}')).toBe(true);
    page.ws.close();
    await page.closed;
  });

  it('answers bad calls with the error model and closes on frames that are not calls', async () => {
    const page = await openSocket(pageHeaders(cookie));
    expect(await page.call('app.shutdown')).toEqual({ ok: false, error: { code: 'unknown-channel', params: {} } });
    expect(await page.call('messages.send', { profileId: 'sandbox', mobile: '1', content: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-mobile' },
    });
    expect(await page.call('messages.send', '{"__proto__":{"x":1}}')).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(services.sandbox!.calls()).toHaveLength(0);
    for (const bad of ['not json', '[]', '{"id":"1","channel":"app.info"}', '{"id":-1,"channel":"app.info"}', '{"id":1}', Buffer.from([1, 2, 3])]) {
      const other = await openSocket(pageHeaders(cookie));
      other.ws.send(bad);
      expect((await other.closed).code).toBe(1008);
    }
    page.ws.close();
  });

  it('closes a connection that sends more than the largest allowed frame', async () => {
    const page = await openSocket(pageHeaders(cookie));
    page.ws.send(JSON.stringify({ id: 1, channel: 'bulk.open', input: { x: 'x'.repeat(65 * 1024 * 1024) } }));
    expect((await page.closed).code).toBe(1009);
    expect(handled).toEqual([]);
  });

  it('refuses copying a request with its key (History and the raw client): the key would go to the clipboard of the machine callout ui runs on', async () => {
    const page = await openSocket(pageHeaders(cookie));
    const sent = await page.call<{ message: { id: number } }>('messages.send', {
      profileId: 'sandbox',
      mobile: '13800138008',
      content: '您的验证码是4242，5分钟内有效。',
    });
    const detail = await page.call<{ exchanges: { id: number }[] }>('messages.get', { id: sent.value!.message.id });
    const exchange = detail.value!.exchanges[0]!;
    expect(await page.call('exchanges.copyCurlWithKey', { id: exchange.id, confirm: true })).toEqual({
      ok: false,
      error: { code: 'unavailable', params: { kind: 'browser-key-copy' } },
    });
    expect(clipboard).toEqual([]);
    expect(handled).not.toContain('exchanges.copyCurlWithKey');
    const raw = await page.call('raw.copyCodeWithKey', { profileId: 'sandbox', request: { path: '/voice/balance' }, target: 'python', confirm: true });
    expect(raw).toEqual({ ok: false, error: { code: 'unavailable', params: { kind: 'browser-key-copy' } } });
    expect(clipboard).toEqual([]);
    expect(handled).not.toContain('raw.copyCodeWithKey');
    page.ws.close();
  });

  it('no frame ever carries an API Key from main; a key the page sets crosses only once, towards main', async () => {
    const page = await openSocket(pageHeaders(cookie));
    const typed = 'typed-key-SECRET-0123456789';
    const saved = await page.call<{ id: string }>('profiles.save', { name: 'Own', baseUrl: services.sandbox!.baseUrl, apiId: 'sandbox-demo', signing: 'spec' });
    expect(await page.call('profiles.setKey', { id: saved.value!.id, apiKey: typed })).toMatchObject({ ok: true });
    await page.call('profiles.list');
    await page.call('app.info');
    const sent = await page.call<{ message: { id: number } }>('messages.send', {
      profileId: 'sandbox',
      mobile: '13800138009',
      content: '您的验证码是777，5分钟内有效。',
    });
    await page.call('messages.send', { profileId: saved.value!.id, mobile: '13800138007', content: '您的验证码是778，5分钟内有效。' });
    const detail = await page.call<{ exchanges: { id: number }[] }>('messages.get', { id: sent.value!.message.id });
    for (const e of detail.value!.exchanges) {
      await page.call('exchanges.get', { id: e.id });
      await page.call('exchanges.curl', { id: e.id });
      await page.call('exchanges.exportHar', { ids: [e.id] });
    }
    await page.call('signature.compute', {
      apiId: 'sandbox-demo',
      method: 'POST',
      url: `${services.sandbox!.baseUrl}/voice/send`,
      key: { profileId: 'sandbox' },
    });
    expect(await page.call('raw.send', { profileId: 'sandbox', request: { path: '/voice/balance' } })).toMatchObject({ ok: true });
    await page.call('raw.preview', { profileId: 'sandbox', request: { path: '/voice/balance' } });
    await page.call('raw.code', { profileId: 'sandbox', request: { path: '/voice/balance' }, target: 'curl' });
    await page.call('balance.query', { profileId: 'sandbox' });
    await page.call('history.page', { filter: {}, limit: 50 });
    // Let the follow-up pushes of both calls arrive too.
    // Real time: pushes travel over a real WebSocket from services on a sped-up wall clock; nothing says when the last one has arrived.
    await new Promise((r) => setTimeout(r, 500));
    expect(page.frames.length).toBeGreaterThan(20);
    const all = page.frames.map((f) => f.text).join('\n');
    expect(all).not.toContain(sandboxKey);
    expect(page.frames.filter((f) => f.text.includes(typed)).map((f) => f.dir)).toEqual(['sent']);
    page.ws.close();
  });

  it('stopping the server closes its pages with “going away” and forgets the sessions', async () => {
    const other = await startConsoleServer({ services, rendererDir, log: () => undefined });
    const link = new URL(other.link());
    const signed = await new Promise<string>((resolve) =>
      http.get({ host: '127.0.0.1', port: other.port, path: `${link.pathname}${link.search}`, headers: { Host: `127.0.0.1:${other.port}` } }, (res) => {
        res.resume();
        resolve(String(res.headers['set-cookie']?.[0]).split(';')[0]!);
      }),
    );
    const ws = new WebSocket(`ws://127.0.0.1:${other.port}${CONSOLE_SOCKET_PATH}`, { headers: { Origin: other.origin, Cookie: signed } });
    await new Promise((r) => ws.on('open', r));
    expect(other.connections()).toBe(1);
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    await other.close();
    expect(await closed).toBe(1001);
  });
});
