// `callout ui`'s links and sessions expire, on the server's clock (a ManualClock here): a link opens
// within 10 minutes of being printed, else a page says to run `callout ui` again (in the browser's
// language); a session ends after 12 hours without use (its cookie, its upgrade, its open page).
// And operation names from Object.prototype are unknown operations like any other name.
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CONSOLE_SOCKET_PATH } from '../../../common/console-transport';
import { ManualClock } from '../../../main/clock';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services } from '../../../main/services';
import { ConsoleAccess, REMEMBER_MS, SESSION_IDLE_MS } from '../../../main/ui/access';
import { startConsoleServer, type ConsoleServer } from '../../../main/ui/server';
import { tempHome } from '../../helpers/temp-home';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const home = tempHome('callout-ui-expiry-');
const rendererDir = join(home.dir, 'renderer');
const clock = new ManualClock();
let services: Services;
let server: ConsoleServer;

function request(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, path, headers: { Host: `127.0.0.1:${server.port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

const pathOf = (link: string) => {
  const u = new URL(link);
  return `${u.pathname}${u.search}`;
};

/** Opens a link: the session cookie it was exchanged for, or null. */
async function open(link: string, headers: Record<string, string> = {}): Promise<{ cookie: string | null; status: number; body: string }> {
  const r = await request(pathOf(link), headers);
  const set = r.headers['set-cookie']?.[0];
  return { cookie: set ? set.split(';')[0]! : null, status: r.status, body: r.body };
}

type Result = { ok: boolean; value?: unknown; error?: { code: string } };

function socket(
  cookie: string,
): Promise<{ ws: WebSocket; call: (channel: string, input?: unknown) => Promise<Result | 'no answer'>; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}${CONSOLE_SOCKET_PATH}`, {
      headers: { Host: `127.0.0.1:${server.port}`, Origin: `http://127.0.0.1:${server.port}`, Cookie: cookie },
      perMessageDeflate: false,
    });
    const waiting = new Map<number, (r: Result) => void>();
    let next = 1;
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { id?: number; result?: Result };
      if (frame.id !== undefined) waiting.get(frame.id)?.(frame.result as Result);
    });
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.on('unexpected-response', (_req, res) => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode })));
    ws.on('error', reject);
    ws.on('open', () =>
      resolve({
        ws,
        closed,
        call(channel, input) {
          const id = next++;
          ws.send(JSON.stringify({ id, channel, input }));
          return Promise.race([
            new Promise<Result>((r) => waiting.set(id, r)),
            closed.then(() => 'no answer' as const),
            // Real time: how long to listen for a reply over a real WebSocket before calling it silence.
            new Promise<'no answer'>((r) => setTimeout(() => r('no answer'), 3000)),
          ]);
        },
      }),
    );
  });
}

beforeAll(async () => {
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><html><body>the console</body></html>');
  services = await createServices({
    home: join(home.dir, 'data'),
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'test' } },
    sandbox: false,
  });
  server = await startConsoleServer({ services, rendererDir, clock, log: () => undefined });
});

afterAll(async () => {
  await server?.close();
  await services?.close();
  home.cleanup();
});

describe('the link of callout ui expires', () => {
  it('opens within 10 minutes of being printed', async () => {
    const link = server.link();
    await clock.advance(9 * MINUTE + 59_000);
    const r = await open(link);
    expect(r.status).toBe(303);
    expect(r.cookie).toBeTruthy();
  });

  it('after 10 minutes: a page that says it expired and to run callout ui again, in the browser’s language; the link is spent', async () => {
    const first = server.link();
    const second = server.link();
    await clock.advance(10 * MINUTE);
    const en = await open(first, { 'Accept-Language': 'en-US,en;q=0.9' });
    expect(en.status).toBe(401);
    expect(en.cookie).toBeNull();
    expect(en.body).toContain('This link has expired');
    expect(en.body).toMatch(/works for 10 minutes.*Run <code>callout ui<\/code> again/);
    const zh = await open(second, { 'Accept-Language': 'zh-CN,zh;q=0.9' });
    expect(zh.status).toBe(401);
    expect(zh.body).toContain('此链接已过期');
    expect(zh.body).toMatch(/10 分钟内有效。请重新运行 <code>callout ui<\/code>/);
    // Spent: the same link later is simply unknown.
    expect((await open(first)).body).not.toContain('This link has expired');
    expect((await open(first)).status).toBe(401);
    // A new link works.
    expect((await open(server.link())).status).toBe(303);
  });
});

describe('a session of callout ui ends after 12 hours without use', () => {
  it('each use keeps it alive; 12 hours idle ends it: page, upgrade and an open page are refused', async () => {
    const { cookie } = await open(server.link());
    expect((await request('/', { Cookie: cookie! })).status).toBe(200);
    const page = await socket(cookie!);
    expect(await page.call('app.info')).toMatchObject({ ok: true });
    // Used again just before 12 hours: still alive, and the 12 hours start again.
    await clock.advance(12 * HOUR - MINUTE);
    expect((await request('/', { Cookie: cookie! })).status).toBe(200);
    await clock.advance(12 * HOUR - MINUTE);
    expect(await page.call('app.info')).toMatchObject({ ok: true });
    // 12 hours without use.
    await clock.advance(12 * HOUR);
    expect(await page.call('app.info')).toBe('no answer');
    expect(await page.closed).toBe(4401);
    const refused = await request('/', { Cookie: cookie! });
    expect(refused.status).toBe(401);
    // The page says the session ended and why, not "open Callout with its link" as to a stranger.
    expect(refused.body).toContain('This session has ended');
    expect(refused.body).toContain('unused for 12 hours');
    const zh = await request('/', { Cookie: cookie!, 'Accept-Language': 'zh-CN,zh;q=0.9' });
    expect(zh.body).toContain('此会话已结束');
    expect(zh.body).toContain('闲置 12 小时');
    await expect(socket(cookie!)).rejects.toMatchObject({ status: 401 });
    // A cookie that never was a session still gets the stranger's page.
    expect((await request('/', { Cookie: cookie!.replace(/=.*/, '=not-a-session') })).body).toContain('Open Callout with its link');
  });
});

describe('what the console remembers does not grow without end', () => {
  it('links never opened and sessions long ended are forgotten after a week; until then they say expired / ended', async () => {
    const c = new ManualClock();
    const access = new ConsoleAccess({ address: '127.0.0.1', port: 1, clock: c });
    const tokens = Array.from({ length: 50 }, () => access.issueToken());
    const session = (access.redeem(access.issueToken()) as { session: string }).session;
    const cookie = `${access.cookieName}=${session}`;
    expect(access.remembered()).toEqual({ tokens: 50, sessions: 1, ended: 0 });
    await c.advance(SESSION_IDLE_MS);
    expect(access.sessionState(cookie)).toBe('ended');
    expect(access.redeem(tokens[0])).toEqual({ refused: 'expired' });
    await c.advance(REMEMBER_MS);
    access.issueToken();
    expect(access.remembered()).toEqual({ tokens: 1, sessions: 0, ended: 0 });
    expect(access.sessionState(cookie)).toBe('none');
    expect(access.redeem(tokens[1])).toEqual({ refused: 'unknown' });
  });
});

describe('operation names of callout ui', () => {
  it('names from Object.prototype get the same “unknown operation” answer as any unknown name', async () => {
    const { cookie } = await open(server.link());
    const page = await socket(cookie!);
    const unknown = await page.call('no.such.operation');
    expect(unknown).toEqual({ ok: false, error: { code: 'unknown-channel', params: {} } });
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf']) {
      expect(await page.call(name), name).toEqual(unknown);
    }
    // The page is still served: nothing broke.
    expect(await page.call('app.info')).toMatchObject({ ok: true });
    page.ws.close();
  });
});
