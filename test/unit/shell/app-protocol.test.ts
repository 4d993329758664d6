// The desktop window's app:// scheme, against the fake `electron`: registered as privileged before
// ready (Electron refuses it later), served after ready from the built renderer only (traversal in
// every spelling refused), and the page the app trusts is app://callout/ and nothing else.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_ENTRY_URL, APP_SCHEME_PRIVILEGES, appSchemeResponse, isAppPageUrl, registerAppScheme, serveAppScheme } from '../../../main/app-protocol';
import { createFakeElectron, FakeBrowserWindow, type FakeElectron } from '../../fixtures/fake-electron';

vi.mock('electron', () => ({ app: {}, BrowserWindow: class {}, Menu: {}, protocol: {}, screen: {}, session: {}, shell: {}, dialog: {} }));
const { startApp } = await import('../../../main/index');

const POLICY = "default-src 'self'; script-src 'self'; object-src 'none'";
const HTML = `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${POLICY}" /></head><body><script type="module" src="./assets/index.js"></script></body></html>`;

let root: string;
let rendererDir: string;
let fake: FakeElectron;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'callout-app-scheme-'));
  // out/main, out/renderer side by side, and secrets beside them that must never be served.
  rendererDir = join(root, 'out', 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  mkdirSync(join(root, 'out', 'main'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), HTML);
  writeFileSync(join(rendererDir, 'assets', 'index.js'), 'console.log("app")');
  writeFileSync(join(rendererDir, 'assets', 'font.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32]));
  writeFileSync(join(rendererDir, '.env'), 'SECRET=1');
  writeFileSync(join(root, 'out', 'secret.txt'), 'the data directory is next door');
  symlinkSync(join(root, 'out', 'secret.txt'), join(rendererDir, 'assets', 'link.txt'));
  fake = createFakeElectron();
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

// A plain object: what Electron hands the handler, even for URLs a Request could not be built from.
const get = (url: string, method = 'GET') => appSchemeResponse({ url, method }, rendererDir);

describe('app:// registration', () => {
  it('is a standard, secure scheme that may serve module scripts, readable by no other origin and bound by the CSP', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      scheme: 'app',
      privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false, bypassCSP: false, allowServiceWorkers: false, stream: false },
    });
  });

  it('is registered before ready (the fake, like Electron, throws after)', async () => {
    registerAppScheme(fake.protocol);
    expect(fake.protocol.privileged).toEqual([APP_SCHEME_PRIVILEGES]);
    await fake.app.becomeReady();
    expect(() => registerAppScheme(fake.protocol)).toThrow(/before app is ready/);
  });

  it('startApp registers it at once and serves it once ready, before the window loads app://callout/index.html', async () => {
    const started = startApp(fake.modules, {
      env: { CALLOUT_HOME: join(root, 'home') },
      platform: 'linux',
      mainDir: join(root, 'out', 'main'),
      log: () => undefined,
    });
    expect(fake.protocol.calls).toEqual(['registerSchemesAsPrivileged']);
    expect(fake.protocol.handlers.size).toBe(0);
    await fake.app.becomeReady();
    await started.ready;
    expect(fake.protocol.calls).toEqual(['registerSchemesAsPrivileged', 'handle:app']);
    expect(FakeBrowserWindow.instances[0]?.loadedUrl).toBe(APP_ENTRY_URL);
    // What the window then loads comes from out/renderer.
    const page = await fake.protocol.fetch(APP_ENTRY_URL);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(HTML);
    await expect(fake.protocol.fetch('file:///etc/passwd')).rejects.toThrow(/UNKNOWN_URL_SCHEME/);
  });

  it('serveAppScheme returns the function that stops serving it', async () => {
    await fake.app.becomeReady();
    const stop = serveAppScheme(fake.protocol, rendererDir);
    expect((await fake.protocol.fetch('app://callout/assets/index.js')).status).toBe(200);
    stop();
    await expect(fake.protocol.fetch('app://callout/assets/index.js')).rejects.toThrow();
  });
});

describe('app:// serving', () => {
  it('serves the page with its content type and its own CSP as a header, with framing forbidden', async () => {
    for (const url of ['app://callout/', 'app://callout/index.html', 'app://callout/index.html?x=1#/history']) {
      const r = await get(url);
      expect(r.status, url).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(r.headers.get('content-security-policy')).toBe(`${POLICY}; frame-ancestors 'none'`);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await r.text()).toBe(HTML);
    }
  });

  it('serves scripts and fonts with their types (module scripts need a JavaScript type)', async () => {
    const js = await get('app://callout/assets/index.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await js.text()).toBe('console.log("app")');
    const font = await get('app://callout/assets/font.woff2');
    expect(font.headers.get('content-type')).toBe('font/woff2');
    expect(new Uint8Array(await font.arrayBuffer())).toEqual(new Uint8Array([0x77, 0x4f, 0x46, 0x32]));
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get('app://callout/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await get('app://callout/index.html', 'POST')).status).toBe(405);
    expect((await get('app://callout/index.html', 'PUT')).status).toBe(405);
  });

  it.each([
    'app://callout/../secret.txt',
    'app://callout/..%2fsecret.txt',
    'app://callout/assets/..%2f..%2fsecret.txt',
    'app://callout/%2e%2e/%2e%2e/out/secret.txt',
    'app://callout/assets/%2E%2E%2F%2E%2E%2Fsecret.txt',
    'app://callout/..%5csecret.txt',
    'app://callout/assets%5c..%5c..%5csecret.txt',
    'app://callout/%2fetc%2fpasswd',
    `app://callout/${encodeURIComponent('/etc/passwd')}`,
    'app://callout/index.html%00.js',
    'app://callout/%E0%A4%A',
    'app://callout/assets/link.txt',
    'app://callout/.env',
    'app://callout/assets',
    'app://callout/missing.js',
    'app://evil/index.html',
    'app://callout.evil/index.html',
    'app://user:pw@callout/index.html',
  ])('refuses %s with 404 and no body', async (url) => {
    const r = await get(url);
    expect(r.status).toBe(404);
    expect(await r.text()).toBe('');
  });
});

describe('isAppPageUrl', () => {
  it('is the entry page on app://callout/ only', () => {
    expect(isAppPageUrl(APP_ENTRY_URL)).toBe(true);
    expect(isAppPageUrl('app://callout/#/send')).toBe(true);
    expect(isAppPageUrl('app://callout/assets/index.js')).toBe(false);
    expect(isAppPageUrl('file:///index.html')).toBe(false);
    expect(isAppPageUrl('http://callout/index.html')).toBe(false);
  });
});
