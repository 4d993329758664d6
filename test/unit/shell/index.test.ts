import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeElectron, FakeBrowserWindow, type FakeElectron } from '../../fixtures/fake-electron';
import type { UpgradeProgress } from '../../../main/store/database';

// main/index.ts imports the real module names; inside Electron it starts itself. Here the
// module is replaced and process.versions.electron is unset, so importing it does nothing
// and the test drives startApp with the fakes.
vi.mock('electron', () => ({ app: {}, BrowserWindow: class {}, Menu: {}, protocol: {}, screen: {}, session: {}, shell: {}, dialog: {} }));

const { startApp } = await import('../../../main/index');
type StartOptions = import('../../../main/index').StartOptions;

const MAIN_DIR = resolve('/opt/callout/out/main');

let home: string;
let fake: FakeElectron;
const log = vi.fn();

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'callout-index-'));
  fake = createFakeElectron();
  log.mockReset();
});

afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

function start(platform: NodeJS.Platform = 'linux', env: NodeJS.ProcessEnv = { CALLOUT_HOME: home }) {
  return startApp(fake.modules, { env, platform, mainDir: MAIN_DIR, log });
}

/** startApp on the test's data directory with these options (services, the OS language...). */
function startWith(o: Omit<StartOptions, 'env' | 'mainDir' | 'log'>) {
  return startApp(fake.modules, { env: { CALLOUT_HOME: home }, mainDir: MAIN_DIR, log, ...o });
}

describe('startApp', () => {
  it('does not start itself when imported outside Electron', () => {
    expect(process.versions.electron).toBeUndefined();
    expect(FakeBrowserWindow.instances).toHaveLength(0);
  });

  it('points userData at the data directory before taking the single-instance lock', () => {
    const started = start();
    expect(started.dataDir).toBe(home);
    expect(fake.app.paths.get('userData')).toBe(home);
    expect(fake.app.paths.get('sessionData')).toBe(join(home, 'chromium'));
    expect(fake.app.calls.indexOf('setPath:userData')).toBeLessThan(fake.app.calls.indexOf('requestSingleInstanceLock'));
    expect(statSync(home).isDirectory()).toBe(true);
  });

  it('uses the OS app-data folder when CALLOUT_HOME is not set', () => {
    const started = start('linux', { XDG_CONFIG_HOME: join(home, 'xdg') });
    expect(started.dataDir).toBe(join(home, 'xdg', 'Callout'));
  });

  it('quits at once when another instance holds the lock', async () => {
    fake.app.gotLock = false;
    const started = start();
    expect(started.primary).toBe(false);
    expect(fake.app.calls).toContain('quit');
    expect(fake.app.sandboxEnabled).toBe(false);
    expect(fake.app.listenerCount('second-instance')).toBe(0);
    await fake.app.becomeReady();
    await expect(started.ready).resolves.toBeUndefined();
    expect(FakeBrowserWindow.instances).toHaveLength(0);
  });

  it('enables the sandbox and hardens webContents before ready', () => {
    start();
    expect(fake.app.sandboxEnabled).toBe(true);
    expect(fake.app.isReady()).toBe(false); // the fake throws if enableSandbox comes after ready
    expect(fake.app.listenerCount('web-contents-created')).toBe(1);
    expect(FakeBrowserWindow.instances).toHaveLength(0); // nothing before ready
  });

  it('on ready: hardens the session, installs the menu, opens the window on the built renderer', async () => {
    const started = start();
    await fake.app.becomeReady();
    const win = await started.ready;
    expect(win).toBeDefined();
    expect(FakeBrowserWindow.instances).toHaveLength(1);
    expect(started.mainWindow()).toBe(win);
    await expect(fake.session.defaultSession.requestPermission('media')).resolves.toBe(false);
    expect(fake.Menu.applicationMenu).toBeDefined();
    const fakeWin = FakeBrowserWindow.instances[0];
    expect(fakeWin?.loadedUrl).toBe('app://callout/index.html');
    expect(fakeWin?.loadedFile).toBeUndefined();
    expect(fakeWin?.options.webPreferences?.sandbox).toBe(true);
  });

  it('the window it opens refuses navigation away from the app (via web-contents-created)', async () => {
    start();
    await fake.app.becomeReady();
    const contents = fake.app.createWebContents();
    expect(contents.navigate('https://evil.example/')).toBe(true);
    expect(contents.navigate('app://callout/index.html#/history')).toBe(false);
    expect(contents.navigate('file:///opt/callout/out/renderer/index.html#/history')).toBe(true);
  });

  it('a second instance restores and focuses the existing window', async () => {
    const started = start();
    await fake.app.becomeReady();
    await started.ready;
    const win = FakeBrowserWindow.instances[0];
    if (!win) throw new Error('no window');
    win.minimize();
    fake.app.emit('second-instance', {}, ['callout'], '/', {});
    expect(win.calls).toEqual(expect.arrayContaining(['restore', 'focus']));
    expect(win.minimized).toBe(false);
    expect(win.focused).toBe(true);
  });

  it('a second instance before the window exists is harmless', () => {
    start();
    expect(() => fake.app.emit('second-instance', {}, [], '/', {})).not.toThrow();
  });

  it('an older store: a small window says the upgrade as it goes, in the OS language, and closes once the console window exists', async () => {
    const steps: UpgradeProgress[] = [
      { kind: 'step', from: 4, to: 23, step: 8, steps: 19, version: 12, name: 'exchange-search', share: null },
      { kind: 'step', from: 4, to: 23, step: 8, steps: 19, version: 12, name: 'exchange-search', share: 0.42 },
    ];
    let finishUpgrade: () => void = () => undefined;
    const upgraded = new Promise<void>((resolve) => (finishUpgrade = resolve));
    const started = startWith({
      platform: 'linux',
      lang: () => 'zh-CN',
      services: async ({ onUpgrade }) => {
        for (const p of steps) onUpgrade?.(p);
        await upgraded;
        return { services: {} as never, close: async () => undefined };
      },
    });
    await fake.app.becomeReady();
    await vi.waitFor(() => expect(FakeBrowserWindow.instances).toHaveLength(1));
    const splash = FakeBrowserWindow.instances[0]!;
    expect(splash.loadedUrl).toMatch(/^data:text\/html;charset=utf-8,/);
    expect(decodeURIComponent(splash.loadedUrl!.slice(splash.loadedUrl!.indexOf(',') + 1))).toContain('lang="zh-CN"');
    expect(splash.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(splash.options.webPreferences?.preload).toBeUndefined();
    // Shown once its page is ready, with the latest step in Chinese.
    splash.emit('ready-to-show');
    expect(splash.visible).toBe(true);
    expect(splash.webContents.executed.at(-1)).toContain('第 8 步，共 19 步：为报文建立搜索索引');
    expect(splash.webContents.executed.at(-1)).toContain('"percent":"42%"');
    expect(FakeBrowserWindow.instances).toHaveLength(1); // the console's window waits for the store

    finishUpgrade();
    const win = await started.ready;
    expect(FakeBrowserWindow.instances).toHaveLength(2);
    expect(win).toBe(FakeBrowserWindow.instances[1]);
    expect(splash.calls).toContain('close');
    expect(win?.isDestroyed()).toBe(false);
    expect(fake.app.calls).not.toContain('quit'); // closed by the app, not by the person
  });

  it('the upgrade window: a second launch brings it forward; closing it quits the app, on macOS too', async () => {
    const started = startWith({
      platform: 'darwin',
      services: async ({ onUpgrade }) => {
        onUpgrade?.({ kind: 'step', from: 4, to: 23, step: 1, steps: 19, version: 5, name: 'history-search-and-retention', share: 0.1 });
        return new Promise(() => undefined); // the upgrade goes on
      },
    });
    await fake.app.becomeReady();
    await vi.waitFor(() => expect(FakeBrowserWindow.instances).toHaveLength(1));
    const splash = FakeBrowserWindow.instances[0]!;
    splash.minimize();
    fake.app.emit('second-instance', {}, ['callout'], '/', {});
    expect(splash.calls).toEqual(expect.arrayContaining(['restore', 'focus']));
    fake.app.emit('activate');
    expect(FakeBrowserWindow.instances).toHaveLength(1); // no console window before the store is ready
    expect(fake.app.calls).not.toContain('quit');
    splash.close();
    expect(fake.app.calls).toContain('quit');
    expect(started.mainWindow()).toBeUndefined();
  });

  it('a start that fails says why in a message box, in the OS language, then quits', async () => {
    const { fail } = await import('../../../main/errors');
    const started = startWith({
      platform: 'linux',
      lang: () => 'zh-CN',
      services: async ({ onUpgrade }) => {
        onUpgrade?.({ kind: 'step', from: 4, to: 23, step: 1, steps: 19, version: 5, name: 'history-search-and-retention', share: 0.3 });
        throw fail('disk-full', { dir: home, kind: 'upgrade' });
      },
    });
    await fake.app.becomeReady();
    await expect(started.ready).rejects.toThrow();
    await vi.waitFor(() => expect(fake.app.calls).toContain('quit'));
    expect(fake.dialog.errorBoxes).toEqual([
      {
        title: 'Callout 无法启动',
        content:
          '存放 Callout 数据的磁盘已满：数据无法升级到此版本的 Callout。没有丢失任何内容：请释放一些磁盘空间后再次启动 Callout，升级会从停下的地方继续。',
      },
    ]);
    expect(FakeBrowserWindow.instances[0]!.calls).toContain('close'); // the upgrade window went first
    expect(started.mainWindow()).toBeUndefined();
  });

  it('a failure Callout has no words for: the catalog\'s "something went wrong" and its code, never its message', async () => {
    const started = startWith({
      platform: 'linux',
      lang: () => 'en',
      services: async () => {
        throw Object.assign(new Error('unable to open database file "sk_live_abcdef0123"\n    at Database (stack)'), { code: 'SQLITE_CANTOPEN' });
      },
    });
    await fake.app.becomeReady();
    await expect(started.ready).rejects.toThrow();
    await vi.waitFor(() => expect(fake.dialog.errorBoxes).toHaveLength(1));
    expect(fake.dialog.errorBoxes[0]).toEqual({
      title: 'Callout could not start',
      content: 'Something went wrong inside Callout. Please try again; the details are in the log. (SQLITE_CANTOPEN)',
    });
    expect(fake.app.calls).toContain('quit');
  });

  it('a box that cannot be shown still quits', async () => {
    fake.dialog.showErrorBox = () => {
      throw new Error('no display');
    };
    const started = startWith({
      platform: 'darwin',
      services: async () => {
        throw new Error('boom');
      },
    });
    await fake.app.becomeReady();
    await expect(started.ready).rejects.toThrow();
    await vi.waitFor(() => expect(fake.app.calls).toContain('quit'));
    expect(log).toHaveBeenCalledWith('the start-up failure could not be shown: no display');
  });

  it('an up-to-date store opens no upgrade window', async () => {
    const started = startWith({
      platform: 'linux',
      services: async () => ({ services: {} as never, close: async () => undefined }),
    });
    await fake.app.becomeReady();
    await started.ready;
    expect(FakeBrowserWindow.instances).toHaveLength(1);
    expect(FakeBrowserWindow.instances[0]?.loadedUrl).toBe('app://callout/index.html');
  });

  it('quits when all windows are closed, except on macOS', async () => {
    const linux = start('linux');
    await fake.app.becomeReady();
    await linux.ready;
    fake.app.emit('window-all-closed');
    expect(fake.app.calls.filter((call) => call === 'quit')).toHaveLength(1);

    fake = createFakeElectron();
    const mac = start('darwin');
    await fake.app.becomeReady();
    await mac.ready;
    fake.app.emit('window-all-closed');
    expect(fake.app.calls).not.toContain('quit');
  });

  it('macOS: activate before the first window exists opens nothing extra', async () => {
    const started = start('darwin');
    fake.app.emit('activate');
    expect(FakeBrowserWindow.instances).toHaveLength(0);
    await fake.app.becomeReady();
    fake.app.emit('activate'); // ready fired, window not yet created
    await started.ready;
    expect(FakeBrowserWindow.instances).toHaveLength(1);
  });

  it('macOS: activate with no window opens a new one', async () => {
    const started = start('darwin');
    await fake.app.becomeReady();
    await started.ready;
    FakeBrowserWindow.instances[0]?.close();
    expect(started.mainWindow()).toBeUndefined();
    fake.app.emit('activate');
    expect(FakeBrowserWindow.instances).toHaveLength(2);
    expect(started.mainWindow()).toBe(FakeBrowserWindow.instances[1]);
  });

  it('packaged app: no reload/DevTools in the menu and ELECTRON_RENDERER_URL is ignored', async () => {
    fake.app.isPackaged = true;
    const started = startApp(fake.modules, {
      env: { CALLOUT_HOME: home, ELECTRON_RENDERER_URL: 'http://localhost:5173' },
      platform: 'linux',
      mainDir: MAIN_DIR,
      log,
    });
    await fake.app.becomeReady();
    await started.ready;
    expect(FakeBrowserWindow.instances[0]?.loadedUrl).toBe('app://callout/index.html');
    expect(JSON.stringify(fake.Menu.applicationMenu?.template)).not.toContain('toggleDevTools');
  });
});
