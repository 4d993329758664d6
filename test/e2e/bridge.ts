// The console under test, on the product's own path: the built renderer served by `callout ui`'s
// server (main/ui/server.ts, the function the CLI calls), opened in Debian's Chromium through a
// one-time link like the one `callout ui` prints. window.callout is the page's own, built over the
// console's WebSocket by renderer/src/app/browser-transport.ts; calls reach createHandlers(...) on
// the services started here (a temp data directory, a keychain service of its own, a sped-up sandbox).
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createHandlers, type Handlers } from '../../main/handlers';
import { openSecretStore } from '../../main/secrets';
import { createServices, type Services } from '../../main/services';
import type { SandboxOptions } from '../../main/sandbox';
import { startConsoleServer, type ConsoleServer } from '../../main/ui/server';
import { tempHome } from '../helpers/temp-home';

export const ROOT = resolve(__dirname, '../..');
export const RENDERER_DIR = join(ROOT, 'out/renderer');
export const SCREENS_DIR = join(ROOT, 'test-results/screens');

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

/**
 * The apps open now, for test/setup/e2e-failures.ts: when a test fails, each says what its page
 * showed. On globalThis, as that setup file runs for every test file and must not load this one.
 */
const live: Set<AppUnderTest> = ((globalThis as { calloutE2eApps?: Set<AppUnderTest> }).calloutE2eApps ??= new Set());

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
  /** true: show the browser console's note (what differs from the desktop app), as on a first visit; default dismissed. */
  consoleNote?: boolean;
  /** The built renderer to serve; default RENDERER_DIR (the bench serves a copy with an empty page beside it). */
  rendererDir?: string;
  /** Pack an upgraded store's exchanges in the background (default true, as the app does). */
  packExchanges?: boolean;
}

export interface AppUnderTest {
  page: Page;
  context: BrowserContext;
  services: Services;
  handlers: Handlers;
  home: string;
  /** Every call the page made through window.callout, as the console's server received it: channel and input. */
  calls: { channel: string; input: unknown }[];
  /** What main put on its clipboard, in order (the browser console never asks it to: copy-with-key is desktop only). */
  clipboard: string[];
  /** The `callout ui` server the page talks to (server.link() makes another one-time link). */
  server: ConsoleServer;
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts the services, `callout ui`'s server on them, and a browser page on one of its links. */
export async function startApp(options: AppOptions = {}): Promise<AppUnderTest> {
  const rendererDir = options.rendererDir ?? RENDERER_DIR;
  if (!existsSync(join(rendererDir, 'index.html'))) throw new Error(`The renderer is not built (${rendererDir}); run \`npm run build\` first.`);
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
    // Real time: the browser is Chromium itself. Main follows calls on the system clock (a call is
    // first looked at about 2 s after its send) while the sandbox's calls run sped up.
    clipboard: { writeText: (text) => void clipboard.push(text) },
    // As `callout ui`: escalations run (pending steps resume at start).
    paging: { escalate: true },
    packExchanges: options.packExchanges,
  });
  const handlers = createHandlers(services);
  const calls: AppUnderTest['calls'] = [];
  const server = await startConsoleServer({ services, handlers, rendererDir, onCall: (c) => void calls.push(c) });
  const ownBrowser = !options.browser;
  const browser = options.browser ?? (await launchChromium());
  const context = await browser.newContext({ locale: options.locale ?? 'en-US', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  // The browser console's note is for a person's first visit (the key is CONSOLE_BANNER_DISMISSED_KEY).
  if (!options.consoleNote) await context.addInitScript({ content: "try { localStorage.setItem('callout.console.banner.dismissed', '1'); } catch {}" });
  if (options.onboarding === false) {
    // The key is the onboarding feature's ONBOARDING_DISMISSED_KEY.
    await context.addInitScript({ content: "try { localStorage.setItem('callout.onboarding.dismissed', '1'); } catch {}" });
  }
  const page = await context.newPage();
  await page.goto(server.link(options.screen ? `/#/${options.screen}` : '/'));

  const app: AppUnderTest = {
    page,
    context,
    services,
    handlers,
    home,
    calls,
    clipboard,
    server,
    async screenshot(name) {
      mkdirSync(SCREENS_DIR, { recursive: true });
      const file = join(SCREENS_DIR, `${name}.png`);
      await page.screenshot({ path: file, fullPage: false });
      return file;
    },
    async close() {
      live.delete(app);
      await context.close();
      if (ownBrowser) await browser.close();
      await server.close();
      for (const p of await services.profiles.list()) await secrets.store.delete(`profile:${p.id}`).catch(() => false);
      await services.close();
      temp?.cleanup();
    },
  };
  live.add(app);
  return app;
}
