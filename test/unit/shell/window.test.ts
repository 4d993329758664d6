import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtPaths, createMainWindow, isLoopbackDevUrl, resolveRendererTarget, type MainWindowDeps } from '../../../main/window';
import { saveWindowState, windowStatePath } from '../../../main/window-state';
import { createFakeElectron, FakeBrowserWindow, type FakeElectron } from '../../fixtures/fake-electron';

const MAIN_DIR = resolve('/opt/callout/resources/app/out/main');

let dataDir: string;
let fake: FakeElectron;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'callout-window-'));
  fake = createFakeElectron({ workAreas: [{ x: 0, y: 0, width: 1920, height: 1040 }] });
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function deps(overrides: Partial<MainWindowDeps> = {}): MainWindowDeps {
  return {
    BrowserWindow: fake.modules.BrowserWindow,
    screen: fake.modules.screen,
    mainDir: MAIN_DIR,
    dataDir,
    renderer: { kind: 'app', dir: builtPaths(MAIN_DIR).rendererDir, url: 'app://callout/index.html' },
    ...overrides,
  };
}

function onlyWindow(): FakeBrowserWindow {
  expect(FakeBrowserWindow.instances).toHaveLength(1);
  const win = FakeBrowserWindow.instances[0];
  if (!win) throw new Error('no window');
  return win;
}

describe('createMainWindow', () => {
  it('creates the window with every hardened web preference', () => {
    createMainWindow(deps());
    const prefs = onlyWindow().options.webPreferences;
    expect(prefs).toBeDefined();
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      spellcheck: false,
    });
    // Nothing that would loosen the sandbox sneaks in.
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    expect(prefs).not.toHaveProperty('additionalArguments');
  });

  it('uses the built preload next to the built main bundle', () => {
    createMainWindow(deps());
    expect(onlyWindow().options.webPreferences?.preload).toBe(resolve('/opt/callout/resources/app/out/preload/index.js'));
  });

  it('defaults to 1280x800 with a 1024x700 minimum, hidden until ready-to-show', () => {
    createMainWindow(deps());
    const win = onlyWindow();
    expect(win.options).toMatchObject({ width: 1280, height: 800, minWidth: 1024, minHeight: 700, show: false });
    expect(win.options.x).toBeUndefined(); // first start: centred
    expect(win.visible).toBe(false);
    win.emit('ready-to-show');
    expect(win.visible).toBe(true);
    expect(win.calls).not.toContain('maximize');
  });

  it('loads the built renderer from app://callout/, never from file://', () => {
    createMainWindow(deps());
    const win = onlyWindow();
    expect(win.loadedUrl).toBe('app://callout/index.html');
    expect(win.loadedFile).toBeUndefined();
  });

  it('loads the dev server URL when given one', () => {
    createMainWindow(deps({ renderer: { kind: 'url', url: 'http://localhost:5173/' } }));
    const win = onlyWindow();
    expect(win.loadedUrl).toBe('http://localhost:5173/');
    expect(win.loadedFile).toBeUndefined();
  });

  it('restores the saved bounds and maximizes on show', () => {
    saveWindowState(windowStatePath(dataDir), { x: 100, y: 80, width: 1400, height: 900, maximized: true });
    createMainWindow(deps());
    const win = onlyWindow();
    expect(win.options).toMatchObject({ x: 100, y: 80, width: 1400, height: 900 });
    win.emit('ready-to-show');
    expect(win.calls).toEqual(expect.arrayContaining(['maximize', 'show']));
  });

  it('brings saved bounds from a vanished monitor back on screen', () => {
    saveWindowState(windowStatePath(dataDir), { x: 4000, y: 1500, width: 1280, height: 800, maximized: false });
    createMainWindow(deps());
    expect(onlyWindow().options).toMatchObject({ x: 320, y: 120, width: 1280, height: 800 });
  });

  it('saves its state to the data directory when closed', () => {
    createMainWindow(deps());
    const win = onlyWindow();
    win.userSetBounds({ x: 33, y: 44, width: 1500, height: 950 });
    win.close();
    expect(JSON.parse(readFileSync(windowStatePath(dataDir), 'utf8'))).toEqual({ x: 33, y: 44, width: 1500, height: 950, maximized: false });
  });
});

describe('resolveRendererTarget', () => {
  const base = { mainDir: MAIN_DIR };

  it('serves the built renderer on app://callout/ without ELECTRON_RENDERER_URL (never file://)', () => {
    expect(resolveRendererTarget({ ...base, env: {}, isPackaged: false })).toEqual({
      kind: 'app',
      dir: resolve('/opt/callout/resources/app/out/renderer'),
      url: 'app://callout/index.html',
    });
    expect(builtPaths(MAIN_DIR).rendererDir).toBe(resolve('/opt/callout/resources/app/out/renderer'));
  });

  it('uses a loopback ELECTRON_RENDERER_URL in development (electron-vite dev)', () => {
    expect(resolveRendererTarget({ ...base, env: { ELECTRON_RENDERER_URL: 'http://localhost:5173' }, isPackaged: false })).toEqual({
      kind: 'url',
      url: 'http://localhost:5173',
    });
  });

  it('ignores ELECTRON_RENDERER_URL in a packaged app', () => {
    expect(resolveRendererTarget({ ...base, env: { ELECTRON_RENDERER_URL: 'http://localhost:5173' }, isPackaged: true }).kind).toBe('app');
  });

  it('ignores a remote ELECTRON_RENDERER_URL even in development', () => {
    expect(resolveRendererTarget({ ...base, env: { ELECTRON_RENDERER_URL: 'https://evil.example/' }, isPackaged: false }).kind).toBe('app');
  });

  it.each([
    ['http://localhost:5173/', true],
    ['http://127.0.0.1:5173/', true],
    ['http://[::1]:5173/', true],
    ['https://localhost/', true],
    ['http://localhost.evil.example/', false],
    ['http://user@localhost/', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
  ])('isLoopbackDevUrl(%s) is %s', (url, expected) => {
    expect(isLoopbackDevUrl(url)).toBe(expected);
  });
});
