// Electron entry. Kept thin: `startApp` takes the electron objects as parameters so the
// unit tests drive it with a fake module; the bottom of the file hands it the real ones.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, clipboard, dialog, globalShortcut, ipcMain, Menu, Notification, protocol, screen, session, shell } from 'electron';
import type { App, BrowserWindow as BrowserWindowInstance, Dialog } from 'electron';
import { registerAppScheme, serveAppScheme, type ProtocolLike } from './app-protocol';
import { appUrlMatcher, DEFAULT_EXTERNAL_HOSTS, hardenApp, type SessionModuleLike, type ShellLike } from './app-security';
import { installAppMenu, type MenuModuleLike } from './app-menu';
import { dataDirectory } from './store';
import { startAppServices, type AppServices, type AppServicesOptions } from './app-services';
import { createMainWindow, resolveRendererTarget, type BrowserWindowCtor, type ScreenLike } from './window';
import { openUpgradeWindow, type UpgradeWindow } from './upgrade-window';
import type { UpgradeProgress } from './store';
import type { Lang } from '../common/domain/i18n-text';
import { errorArgs } from '../common/messages';
import { toIpcError } from './errors';
import { translator } from './i18n';

/** Chromium's session data (caches, storage) inside the data directory. */
export const SESSION_DATA_FOLDER = 'chromium';

export type AppModuleLike = Pick<App, 'requestSingleInstanceLock' | 'quit' | 'setPath' | 'enableSandbox' | 'isReady' | 'whenReady' | 'on' | 'isPackaged'>;

export interface ElectronModules {
  app: AppModuleLike;
  BrowserWindow: BrowserWindowCtor;
  Menu: MenuModuleLike;
  protocol: ProtocolLike;
  screen: ScreenLike;
  session: SessionModuleLike;
  shell: ShellLike;
  /** A start that fails is said in a message box before the app quits (never a silent exit). */
  dialog: Pick<Dialog, 'showErrorBox'>;
}

export interface StartOptions {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** Directory of the built main bundle (out/main). */
  mainDir: string;
  /** https hosts the renderer may open in the user's browser. */
  externalHosts?: readonly string[];
  log?: (message: string) => void;
  /**
   * Starts the services and registers IPC once the app is ready. The real entry passes
   * startAppServices; the shell's unit tests leave it out.
   */
  services?: (o: Pick<AppServicesOptions, 'dataDir' | 'isAppUrl' | 'window' | 'log' | 'onUpgrade'>) => Promise<AppServices>;
  /** The language of the upgrade window (shown before the console, which chooses its own): the OS's, asked once ready. */
  lang?: () => Lang;
}

export interface StartedApp {
  /** False when another instance holds the lock: this one quits and does nothing else. */
  readonly primary: boolean;
  readonly dataDir: string;
  /** Resolves with the main window once it is created (undefined if this instance quit). */
  readonly ready: Promise<BrowserWindowInstance | undefined>;
  mainWindow(): BrowserWindowInstance | undefined;
}

export function startApp(electron: ElectronModules, options: StartOptions): StartedApp {
  const { app: electronApp } = electron;
  // Before anything else, and before ready (Electron refuses it later): the page's app:// scheme.
  registerAppScheme(electron.protocol);
  const log = options.log ?? ((message: string) => console.warn(`[callout] ${message}`));

  // userData first: the single-instance lock lives in the userData folder, so the app and
  // every second launch must agree on it before asking for the lock.
  const dataDir = dataDirectory(options.env);
  mkdirSync(dataDir, { recursive: true });
  electronApp.setPath('userData', dataDir);
  // Chromium's own files (cache, local storage, GPU cache...) go to a subfolder, so the
  // data directory the CLI shares stays readable.
  electronApp.setPath('sessionData', join(dataDir, SESSION_DATA_FOLDER));

  if (!electronApp.requestSingleInstanceLock()) {
    electronApp.quit();
    return { primary: false, dataDir, ready: Promise.resolve(undefined), mainWindow: () => undefined };
  }

  const isDev = !electronApp.isPackaged;
  const renderer = resolveRendererTarget({ env: options.env, isPackaged: electronApp.isPackaged, mainDir: options.mainDir, log });
  const isAppUrl = appUrlMatcher(renderer.kind === 'app' ? { appScheme: true } : { devServerUrl: renderer.url });

  // Before ready: sandbox every renderer, guard every webContents and session.
  const hardened = hardenApp(electronApp, electron.session, electron.shell, {
    isAppUrl,
    externalHosts: options.externalHosts ?? DEFAULT_EXTERNAL_HOSTS,
    log,
  });

  let mainWindow: BrowserWindowInstance | undefined;
  let opened = false; // the first window is opened by the ready sequence below
  // While an older store is upgraded, before the first window: the upgrade window (upgrade-window.ts).
  let upgrading: UpgradeWindow | undefined;

  const openMainWindow = (): BrowserWindowInstance => {
    const win = createMainWindow({
      BrowserWindow: electron.BrowserWindow,
      screen: electron.screen,
      mainDir: options.mainDir,
      dataDir,
      renderer,
      log,
    });
    win.on('closed', () => {
      if (mainWindow === win) mainWindow = undefined;
    });
    mainWindow = win;
    opened = true;
    return win;
  };

  // A second launch brings the existing window forward instead of starting another app.
  electronApp.on('second-instance', () => {
    const win = mainWindow;
    if (!win || win.isDestroyed()) {
      upgrading?.focus();
      return;
    }
    if (win.isMinimized()) win.restore();
    if (!win.isVisible()) win.show();
    win.focus();
  });

  electronApp.on('window-all-closed', () => {
    if (options.platform !== 'darwin') electronApp.quit();
  });

  // macOS: clicking the dock icon with no window open opens one again.
  electronApp.on('activate', () => {
    if (opened && mainWindow === undefined) openMainWindow();
    else if (!opened) upgrading?.focus();
  });

  const ready = (async (): Promise<BrowserWindowInstance | undefined> => {
    await electronApp.whenReady();
    await hardened;
    if (renderer.kind === 'app') serveAppScheme(electron.protocol, renderer.dir);
    installAppMenu(electron.Menu, { platform: options.platform, isDev });

    // Services and IPC before the window: the renderer may call as soon as it loads. A store written
    // by an earlier version is upgraded first, in a worker: a small window says how far it is.
    if (options.services) {
      const onUpgrade = (p: UpgradeProgress) => {
        upgrading ??= openUpgradeWindow(electron.BrowserWindow, options.lang?.() ?? 'en', log, () => electronApp.quit());
        upgrading.show(p);
      };
      const running = await options.services({ dataDir, isAppUrl, window: () => mainWindow, log, onUpgrade }).catch((error: unknown) => {
        upgrading?.close();
        upgrading = undefined;
        throw error;
      });
      let closing = false;
      electronApp.on('will-quit', (event) => {
        if (closing) return;
        closing = true;
        event.preventDefault();
        void running.close().finally(() => electronApp.quit());
      });
    }

    const win = openMainWindow();
    // Closed once the console's window exists: never no window at all (which quits the app).
    upgrading?.close();
    upgrading = undefined;
    return win;
  })();

  ready.catch((error: unknown) => {
    log(`start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    try {
      electron.dialog.showErrorBox(...startupFailure(error, options.lang?.() ?? 'en'));
    } catch (shown) {
      log(`the start-up failure could not be shown: ${shown instanceof Error ? shown.message : String(shown)}`);
    } finally {
      electronApp.quit();
    }
  });

  return { primary: true, dataDir, ready, mainWindow: () => mainWindow };
}

/**
 * What a failed start says (a message box's title and text), in the OS language: the error's own
 * words (a full disk, a store from a newer version); for one Callout has no words for, the catalog's
 * "something went wrong" and the error's code or name (never its message, which may quote what it
 * read, nor a stack).
 */
export function startupFailure(error: unknown, lang: Lang): [title: string, text: string] {
  const t = translator(lang);
  const ipc = toIpcError(error);
  const said = t(...errorArgs(ipc));
  const code = (error as { code?: unknown } | null)?.code;
  const name = typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? code : error instanceof Error ? error.name : '';
  return [t('startup.failedTitle'), ipc.code === 'internal' && name ? `${said} (${name})` : said];
}

// Only inside Electron: importing this module from a test (with `electron` mocked) has no
// side effects.
if (process.versions.electron) {
  startApp(
    { app, BrowserWindow, Menu, protocol, screen, session, shell, dialog },
    {
      env: process.env,
      platform: process.platform,
      mainDir: __dirname,
      services: (o) => startAppServices({ ...o, ipcMain, Notification, globalShortcut, clipboard, version: app.getVersion() }),
      lang: () => (/^zh/i.test(app.getLocale()) ? 'zh-CN' : 'en'),
    },
  );
}
