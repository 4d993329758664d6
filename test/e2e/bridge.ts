// The browser test bridge: the built renderer in Debian's Chromium, with window.callout provided
// by an init script built from the same contract and the same builder as the preload, and its
// calls routed through exposeBinding to createHandlers(...) running in this (test) process.
// The user's clicks travel the real path minus the Electron hop.
import { createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildCalloutApi } from '../../common/api';
import { CHANNELS, EVENT_CHANNELS } from '../../common/contract';
import { dispatch } from '../../main/dispatch';
import { createHandlers, type Handlers } from '../../main/handlers';
import { openSecretStore } from '../../main/secrets';
import { createServices, type Services } from '../../main/services';
import type { SandboxOptions } from '../../main/sandbox';
import { tempHome } from '../helpers/temp-home';

export const ROOT = resolve(__dirname, '../..');
export const RENDERER_DIR = join(ROOT, 'out/renderer');
export const SCREENS_DIR = join(ROOT, 'test-results/screens');

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'];

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** Serves the built renderer on 127.0.0.1 (Chromium refuses module scripts from file://). */
export async function serveRenderer(dir = RENDERER_DIR): Promise<{ url: string; close: () => Promise<void> }> {
  if (!existsSync(join(dir, 'index.html'))) throw new Error(`The renderer is not built (${dir}); run \`npm run build\` first.`);
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = normalize(join(dir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** The init script that installs window.callout before the renderer's own scripts run. */
export function bridgeInitScript(): string {
  return `(() => {
  const listeners = new Map();
  Object.defineProperty(window, '__calloutEmit', { value: (channel, payload) => { for (const l of listeners.get(channel) ?? []) l(payload); } });
  const build = ${buildCalloutApi.toString()};
  const api = build(${JSON.stringify(CHANNELS)}, ${JSON.stringify(EVENT_CHANNELS)},
    (channel, input) => window.__calloutInvoke(channel, input),
    (channel, listener) => {
      const set = listeners.get(channel) ?? new Set();
      listeners.set(channel, set);
      set.add(listener);
      return () => { set.delete(listener); };
    });
  Object.defineProperty(window, 'callout', { value: api, enumerable: true });
})();`;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

export interface AppOptions {
  locale?: 'zh-CN' | 'en-US';
  /** Options for the embedded sandbox (time scale, signature mode...). */
  sandbox?: Omit<SandboxOptions, 'accounts'>;
  /** Reuse a data directory (restart tests); default a fresh temp one. */
  home?: string;
  browser?: Browser;
  /** Open this screen (its key in the navigation) instead of the default one. */
  screen?: string;
  /** false: start with the first-start guide already dismissed, as for a returning user. */
  onboarding?: boolean;
}

export interface AppUnderTest {
  page: Page;
  context: BrowserContext;
  services: Services;
  handlers: Handlers;
  home: string;
  /** Every call the page made through window.callout: channel and input. */
  calls: { channel: string; input: unknown }[];
  /** What main put on the clipboard (e.g. "copy as cURL with the key"), in order. */
  clipboard: string[];
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts the services, a browser page on the built renderer, and the bridge between them. */
export async function startApp(options: AppOptions = {}): Promise<AppUnderTest> {
  const temp = options.home ? null : tempHome('callout-e2e-');
  const home = options.home ?? temp!.dir;
  // A keychain service of its own, so tests never touch a user's entries.
  const service = process.env.CALLOUT_KEYCHAIN_SERVICE ?? `Callout-test-${randomUUID()}`;
  const secrets = await openSecretStore({ service });
  const clipboard: string[] = [];
  const services = await createServices({
    home,
    secrets,
    sandbox: { timeScale: 0.01, ...options.sandbox },
    // Main follows calls and paces bulk/dial work at the sandbox's pace.
    follow: { delayScale: 0.02 },
    timeScale: 0.01,
    clipboard: { writeText: (text) => void clipboard.push(text) },
  });
  const handlers = createHandlers(services);
  const server = await serveRenderer();
  const ownBrowser = !options.browser;
  const browser = options.browser ?? (await launchChromium());
  const context = await browser.newContext({ locale: options.locale ?? 'en-US', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const calls: AppUnderTest['calls'] = [];
  await context.exposeBinding('__calloutInvoke', async (_source, channel: unknown, input: unknown) => {
    calls.push({ channel: String(channel), input });
    return dispatch(handlers, channel, input);
  });
  await context.addInitScript({ content: bridgeInitScript() });
  if (options.onboarding === false) {
    // The key is the onboarding feature's ONBOARDING_DISMISSED_KEY.
    await context.addInitScript({ content: "try { localStorage.setItem('callout.onboarding.dismissed', '1'); } catch {}" });
  }
  const page = await context.newPage();
  const unsubscribe = services.subscribe((channel, payload) => {
    for (const p of context.pages()) {
      // Runs in the page, where __calloutEmit was installed by the init script.
      p.evaluate(([c, pl]) => (globalThis as unknown as { __calloutEmit?: (c: string, p: unknown) => void }).__calloutEmit?.(c, pl), [channel, payload] as const).catch(() => undefined);
    }
  });
  await page.goto(`${server.url}/index.html${options.screen ? `#/${options.screen}` : ''}`);

  return {
    page,
    context,
    services,
    handlers,
    home,
    calls,
    clipboard,
    async screenshot(name) {
      mkdirSync(SCREENS_DIR, { recursive: true });
      const file = join(SCREENS_DIR, `${name}.png`);
      await page.screenshot({ path: file, fullPage: false });
      return file;
    },
    async close() {
      unsubscribe();
      await context.close();
      if (ownBrowser) await browser.close();
      await server.close();
      for (const p of await services.profiles.list()) await secrets.store.delete(`profile:${p.id}`).catch(() => false);
      await services.close();
      temp?.cleanup();
    },
  };
}
