// The one application window, hardened. BrowserWindow and screen come in as parameters
// (tests pass fakes); the web preferences are written out literally in the constructor
// call so reviewers and Electronegativity see them in one place.
import { join } from 'node:path';
import type { BrowserWindow, BrowserWindowConstructorOptions, Screen } from 'electron';
import { APP_ENTRY_URL } from './app-protocol';
import { builtRendererDir } from './renderer-files';
import { MIN_WINDOW_SIZE, loadWindowState, trackWindowState, windowStatePath, type Rect } from './window-state';

export type BrowserWindowCtor = new (options: BrowserWindowConstructorOptions) => BrowserWindow;
export type ScreenLike = Pick<Screen, 'getAllDisplays' | 'getPrimaryDisplay'>;

/** The built renderer served on app://callout/ from `dir`, or the dev server's URL. */
export type RendererTarget = { kind: 'app'; dir: string; url: string } | { kind: 'url'; url: string };

export interface BuiltPaths {
  /** out/preload/index.js */
  preload: string;
  /** out/renderer */
  rendererDir: string;
}

/** electron-vite writes out/main, out/preload and out/renderer side by side. */
export function builtPaths(mainDir: string): BuiltPaths {
  return {
    preload: join(mainDir, '..', 'preload', 'index.js'),
    rendererDir: builtRendererDir(mainDir),
  };
}

/** Only a dev server on this machine may stand in for the built renderer. */
export function isLoopbackDevUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  if (parsed.username !== '' || parsed.password !== '') return false;
  return parsed.hostname === 'localhost' || parsed.hostname === '127.0.0.1' || parsed.hostname === '[::1]';
}

export interface RendererTargetInput {
  env: NodeJS.ProcessEnv;
  isPackaged: boolean;
  mainDir: string;
  log?: (message: string) => void;
}

/**
 * The electron-vite convention: `ELECTRON_RENDERER_URL` points at the dev server during
 * `electron-vite dev`. It is honoured only in an unpackaged app and only for a loopback
 * URL, so an environment variable can never point a packaged app (and its preload bridge)
 * at a remote page. Otherwise the built out/renderer is served on app://callout/ (see
 * app-protocol.ts), never loaded from file://.
 */
export function resolveRendererTarget({ env, isPackaged, mainDir, log }: RendererTargetInput): RendererTarget {
  const devUrl = env.ELECTRON_RENDERER_URL?.trim();
  if (devUrl && !isPackaged) {
    if (isLoopbackDevUrl(devUrl)) return { kind: 'url', url: devUrl };
    log?.('ELECTRON_RENDERER_URL ignored: only a loopback http(s) URL is accepted');
  }
  return { kind: 'app', dir: builtPaths(mainDir).rendererDir, url: APP_ENTRY_URL };
}

export interface MainWindowDeps {
  BrowserWindow: BrowserWindowCtor;
  screen: ScreenLike;
  /** Directory of the built main bundle (out/main): `__dirname` in the bundle. */
  mainDir: string;
  /** Data directory; the window state file lives there. */
  dataDir: string;
  renderer: RendererTarget;
  title?: string;
  /** Debounce for saving the window state (ms). */
  stateSaveDelayMs?: number;
  log?: (message: string) => void;
}

export function createMainWindow(deps: MainWindowDeps): BrowserWindow {
  const { preload } = builtPaths(deps.mainDir);
  const stateFile = windowStatePath(deps.dataDir);
  const workAreas: Rect[] = deps.screen.getAllDisplays().map((display) => display.workArea);
  const state = loadWindowState(stateFile, { workAreas, primary: deps.screen.getPrimaryDisplay().workArea, log: deps.log });

  const win = new deps.BrowserWindow({
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    title: deps.title ?? 'Callout',
    show: false,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    },
  });

  win.once('ready-to-show', () => {
    if (state.maximized) win.maximize();
    win.show();
  });

  trackWindowState(win, stateFile, { debounceMs: deps.stateSaveDelayMs, log: deps.log });

  const loading = win.loadURL(deps.renderer.url);
  loading.catch((error: unknown) => {
    deps.log?.(`the renderer failed to load: ${error instanceof Error ? error.message : String(error)}`);
  });

  return win;
}
