// `callout ui`: what it prints, the link it prints (and the other one it opens the browser with),
// --host and its warning, --port in use, JSON, a new link on Enter; and the built binary as a user
// runs it, stopped by a signal. The page itself is tested in test/e2e (through this very server).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canOpenBrowser, findRendererDir, listenAddress, runUiCommand, type UiCommandDeps } from '../../../main/cli/ui-command';
import { CliFailure, type CliIo } from '../../../main/cli/io';
import { cliWords } from '../../../main/cli/text';
import { openSecretStore, SessionSecretStore } from '../../../main/secrets';
import { createServices } from '../../../main/services';
import { isLoopback, isWildcard } from '../../../main/ui/access';
import { startConsoleServer } from '../../../main/ui/server';
import { tempHome } from '../../helpers/temp-home';

const ROOT = resolve(__dirname, '../../..');
let home: ReturnType<typeof tempHome>;
let rendererDir: string;

beforeEach(() => {
  home = tempHome('callout-ui-cli-');
  rendererDir = join(home.dir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>console</title>');
});
afterEach(() => home.cleanup());

interface Run {
  io: CliIo;
  out: () => string;
  err: () => string;
  typeLine: () => void;
}

function io(env: NodeJS.ProcessEnv = {}): Run {
  let stdout = '';
  let stderr = '';
  let line: (() => void) | null = null;
  return {
    io: {
      stdout: (s) => void (stdout += s),
      stderr: (s) => void (stderr += s),
      env: { CALLOUT_HOME: join(home.dir, 'data'), ...env },
      stderrIsTTY: true,
      onLine: (l) => ((line = l), () => (line = null)),
    },
    out: () => stdout,
    err: () => stderr,
    typeLine: () => line?.(),
  };
}

const sessionServices: UiCommandDeps['create'] = (o) =>
  createServices({ ...o, secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 't' } }, sandbox: false });

/** Runs `callout ui` until `stop` is called; resolves once it is up. */
async function start(opts: { port?: number; host?: string; open?: boolean; json?: boolean; lang?: 'en' | 'zh-CN' }, run: Run, deps: UiCommandDeps = {}) {
  let stop!: () => void;
  const until = new Promise<void>((r) => (stop = r));
  let up!: (v: { origin: string }) => void;
  const started = new Promise<{ origin: string }>((r) => (up = r));
  const done = runUiCommand({ open: true, ...opts }, run.io, opts.json ?? false, cliWords(opts.lang ?? 'en'), {
    rendererDir,
    create: sessionServices,
    until,
    started: ({ server }) => up({ origin: server.origin }),
    ...deps,
  });
  const failed = done.then(() => null);
  const result = await Promise.race([started, failed]);
  if (result === null) throw new Error('callout ui stopped before it started');
  return { ...result, stop: async () => (stop(), await done), done };
}

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; location?: string; cookie?: string }> {
  return new Promise((r, reject) =>
    http
      .get(url, { headers, agent: false }, (res) => {
        res.resume();
        r({ status: res.statusCode ?? 0, location: res.headers.location, cookie: res.headers['set-cookie']?.[0] });
      })
      .on('error', reject),
  );
}

const linkIn = (text: string) => /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(text)?.[1];

describe('callout ui', () => {
  it('prints a one-time link on 127.0.0.1, the data directory, and how to stop; the link opens a session once', async () => {
    const run = io();
    const ui = await start({ open: false }, run);
    const printed = run.out();
    expect(printed).toContain(`Callout console: ${ui.origin}/?token=`);
    expect(printed).toContain('Each link works once');
    expect(printed).toContain(`Data directory: ${join(home.dir, 'data')}`);
    expect(printed).toContain('Press Enter for a new link; Ctrl-C stops the console.');
    expect(run.err()).toBe('');
    const link = linkIn(printed)!;
    const first = await get(link);
    expect(first.status).toBe(303);
    expect(first.cookie).toMatch(/HttpOnly; SameSite=Strict/);
    expect((await get(link)).status).toBe(401);
    // Enter: a fresh link, which works.
    run.typeLine();
    const fresh = linkIn(run.out().slice(printed.length))!;
    expect(fresh).not.toBe(link);
    expect((await get(fresh)).status).toBe(303);
    await ui.stop();
    expect(run.out()).toContain('Console stopped.');
    await expect(get(link)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('on a desktop, opens the browser on a link of its own and prints another for other browsers', async () => {
    const run = io({ DISPLAY: ':0' });
    const opened: string[] = [];
    const ui = await start({}, run, { openUrl: async (url) => void opened.push(url) });
    expect(opened).toHaveLength(1);
    const printed = linkIn(run.out())!;
    const other = /For another browser: (\S+)/.exec(run.out())![1]!;
    expect(new Set([opened[0], printed, other]).size).toBe(3);
    for (const link of [opened[0]!, printed, other]) expect((await get(link)).status).toBe(303);
    await ui.stop();
  });

  it('does not open a browser with --no-open, over SSH, or without a display; says so when opening fails', async () => {
    for (const [env, open] of [
      [{ DISPLAY: ':0' }, false],
      [{ DISPLAY: ':0', SSH_CONNECTION: '10.0.0.1 22 10.0.0.2 22' }, true],
      [{}, true],
    ] as const) {
      const opened: string[] = [];
      const ui = await start({ open }, io(env), { openUrl: async (url) => void opened.push(url) });
      await ui.stop();
      expect(opened, JSON.stringify(env)).toEqual([]);
    }
    const run = io({ DISPLAY: ':0' });
    const ui = await start({}, run, { openUrl: async () => Promise.reject(new Error('xdg-open not found')) });
    await ui.stop();
    expect(run.err()).toContain('Could not open a browser (xdg-open not found): open the link above yourself.');
    expect(canOpenBrowser({}, 'darwin')).toBe(true);
    expect(canOpenBrowser({}, 'linux')).toBe(false);
    expect(canOpenBrowser({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true);
  });

  it('--json prints exactly one JSON value', async () => {
    const run = io();
    const ui = await start({ open: false, json: true }, run);
    run.typeLine(); // Enter: nothing in JSON mode
    await ui.stop();
    const lines = run.out().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/),
      origin: ui.origin,
      address: '127.0.0.1',
      port: Number(new URL(ui.origin).port),
      dataDirectory: join(home.dir, 'data'),
    });
  });

  it('speaks Chinese with --lang zh-CN', async () => {
    const run = io();
    const ui = await start({ open: false, lang: 'zh-CN' }, run);
    await ui.stop();
    expect(run.out()).toContain('Callout 控制台：http://127.0.0.1:');
    expect(run.out()).toContain('按回车键获取新链接；按 Ctrl-C 停止控制台。');
  });

  it('refuses a wildcard or a name for --host before starting anything', async () => {
    for (const [host, key] of [
      ['0.0.0.0', /every address of this machine/],
      ['::', /every address/],
      ['[::]', /every address/],
      ['example.com', /--host takes an IP address of this machine/],
      ['127.0.0.1:80', /--host takes an IP address/],
    ] as const) {
      let created = false;
      const failure = await runUiCommand({ open: false, host }, io().io, false, cliWords('en'), {
        rendererDir,
        create: async () => ((created = true), Promise.reject(new Error('no'))),
      }).catch((e: unknown) => e);
      expect(failure, host).toBeInstanceOf(CliFailure);
      expect((failure as CliFailure).exitCode).toBe(2);
      expect(cliWords('en').text((failure as CliFailure).text)).toMatch(key);
      expect(created).toBe(false);
    }
    expect(listenAddress(undefined)).toBe('127.0.0.1');
    expect(listenAddress('localhost')).toBe('127.0.0.1');
    expect(listenAddress('[::1]')).toBe('::1');
    expect(listenAddress('192.168.1.20')).toBe('192.168.1.20');
    expect([isWildcard('0.0.0.0'), isWildcard('::'), isWildcard('127.0.0.1')]).toEqual([true, true, false]);
    expect(['127.0.0.1', '127.8.9.10', '::1', 'localhost', '192.168.1.20', '10.0.0.1', 'fe80::1'].map(isLoopback)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('warns on stderr when --host makes the console reachable from other machines', async () => {
    const run = io();
    // Tests listen on 127.0.0.1 only: the server is told the address but bound to loopback.
    const ui = await start({ open: false, host: '192.168.1.20' }, run, { start: (o) => startConsoleServer({ ...o, host: '127.0.0.1' }) });
    await ui.stop();
    expect(run.err()).toBe(
      'callout: warning: the console listens on 192.168.1.20, so other machines can reach it. Anyone who gets a link can place calls with your profiles, and the connection is not encrypted (plain HTTP): use this only on a network you trust.\n',
    );
    const quiet = io();
    await (await start({ open: false, host: '127.0.0.1' }, quiet)).stop();
    expect(quiet.err()).toBe('');
  });

  it('a port in use is a usage error, and the services it opened are closed again', async () => {
    const first = await start({ open: false }, io());
    const port = Number(new URL(first.origin).port);
    let closed = 0;
    const failure = await runUiCommand({ open: false, port }, io().io, false, cliWords('en'), {
      rendererDir,
      create: async (o) => {
        const s = await sessionServices!(o);
        const close = s.close.bind(s);
        s.close = async () => (closed++, close());
        return s;
      },
    }).catch((e: unknown) => e);
    expect((failure as CliFailure).exitCode).toBe(2);
    expect(cliWords('en').text((failure as CliFailure).text)).toBe(
      `Cannot listen on 127.0.0.1 port ${port} (EADDRINUSE). Choose another port with --port, or leave it out for any free port.`,
    );
    expect(closed).toBe(1);
    await first.stop();
  });

  it('says the console is not built when there is no renderer', async () => {
    const failure = await runUiCommand({ open: false }, io().io, false, cliWords('en'), { rendererDir: join(home.dir, 'nowhere') }).catch((e: unknown) => e);
    expect(cliWords('en').text((failure as CliFailure).text)).toBe('The console is not built yet: run `npm run build` in the Callout folder first.');
    expect(findRendererDir(join(home.dir, 'a', 'b', 'c', 'd'))).toBeNull();
    expect(findRendererDir(join(home.dir, 'main', 'chunks'))).toBe(rendererDir);
  });
});

describe('the built binary', () => {
  const BIN = join(ROOT, 'bin/callout.cjs');

  it.runIf(existsSync(join(ROOT, 'out/main/cli.js')) && existsSync(join(ROOT, 'out/renderer/index.html')))(
    'serves the built console until SIGTERM, then exits 0',
    async () => {
      const env = {
        PATH: process.env.PATH,
        CALLOUT_HOME: join(home.dir, 'data'),
        CALLOUT_KEYCHAIN_SERVICE: `Callout-test-ui-${process.pid}`,
        LANG: 'en_US.UTF-8',
      };
      const child = spawn(process.execPath, [BIN, 'ui', '--json', '--no-open'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += String(d)));
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      const first = await new Promise<string>((r, reject) => {
        createInterface({ input: child.stdout! }).once('line', r);
        void exited.then((code) => reject(new Error(`callout ui exited with ${code}: ${stderr}`)));
      });
      const { url, origin } = JSON.parse(first) as { url: string; origin: string };
      const signedIn = await get(url);
      expect(signedIn.status).toBe(303);
      const page = await new Promise<{ status: number; body: string }>((r) =>
        http.get(`${origin}/`, { headers: { Cookie: signedIn.cookie!.split(';')[0]! } }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += String(d)));
          res.on('end', () => r({ status: res.statusCode ?? 0, body }));
        }),
      );
      expect(page.status).toBe(200);
      expect(page.body).toContain('<div id="root"></div>');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr).toBe('');
      // It kept the sandbox's key in the keychain (under a service of this test's own): remove it.
      const secrets = await openSecretStore({ service: env.CALLOUT_KEYCHAIN_SERVICE });
      await secrets.store.delete('profile:sandbox').catch(() => false);
    },
    30_000,
  );
});
