import { beforeEach, describe, expect, it } from 'vitest';
import {
  allowedExternalUrl,
  appUrlMatcher,
  DEFAULT_EXTERNAL_HOSTS,
  hardenApp,
  hardenSession,
  hardenWebContents,
  openExternalSafely,
} from '../../../main/app-security';
import { createFakeElectron, FakeSession, FakeShell, FakeWebContents, type FakeElectron } from '../../fixtures/fake-electron';

const APP_URL = 'app://callout/index.html';
const ALLOW = ['console.voice.example.com', 'docs.voice.example.com'];

describe('allowedExternalUrl / openExternalSafely', () => {
  it.each([
    ['https://console.voice.example.com/billing?x=1', true],
    ['https://CONSOLE.voice.example.com/', true],
    ['https://docs.voice.example.com', true],
    ['http://console.voice.example.com/', false], // not https
    ['https://evil.example/', false], // not on the list
    ['https://console.voice.example.com.evil.example/', false], // suffix trick
    ['https://sub.console.voice.example.com/', false], // exact match only
    ['https://user:pw@console.voice.example.com/', false], // credentials
    ['https://console.voice.example.com:8443/', false], // non-default port
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['smb://console.voice.example.com/share', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(allowedExternalUrl(url, ALLOW) !== undefined).toBe(expected);
    const shell = new FakeShell();
    expect(openExternalSafely(url, ALLOW, shell)).toBe(expected);
    expect(shell.opened).toHaveLength(expected ? 1 : 0);
  });

  it('hands the normalised URL to the shell', () => {
    const shell = new FakeShell();
    openExternalSafely('https://CONSOLE.voice.example.com/a b', ALLOW, shell);
    expect(shell.opened).toEqual(['https://console.voice.example.com/a%20b']);
  });

  it('opens nothing with the default (empty) allowlist', () => {
    expect(DEFAULT_EXTERNAL_HOSTS).toEqual([]);
    const shell = new FakeShell();
    expect(openExternalSafely('https://www.electronjs.org/', DEFAULT_EXTERNAL_HOSTS, shell)).toBe(false);
    expect(shell.opened).toEqual([]);
  });
});

describe('appUrlMatcher', () => {
  it('matches only the app page on app://callout/, with or without hash and query', () => {
    const isApp = appUrlMatcher({ appScheme: true });
    expect(isApp(APP_URL)).toBe(true);
    expect(isApp('app://callout/')).toBe(true);
    expect(isApp(`${APP_URL}#/history`)).toBe(true);
    expect(isApp(`${APP_URL}?x=1`)).toBe(true);
  });

  it.each([
    ['file:///opt/callout/out/renderer/index.html', 'the built file itself: file:// is never the app'],
    ['file:///etc/passwd', 'a file'],
    ['app://evil/index.html', 'another host on the scheme'],
    ['app://callout.evil/index.html', 'a look-alike host'],
    ['app://user:pw@callout/index.html', 'credentials'],
    ['app://callout:8080/index.html', 'a port'],
    ['app://callout/assets/index.js', 'a script of the app, not its page'],
    ['app://callout/other.html', 'another document'],
    ['apps://callout/index.html', 'another scheme'],
    ['https://callout/index.html', 'https'],
    ['http://localhost:5173/', 'the dev server when the app is served'],
    ['not a url', 'garbage'],
  ])('refuses %s (%s)', (url) => {
    expect(appUrlMatcher({ appScheme: true })(url)).toBe(false);
  });

  it('matches only the dev server origin in development', () => {
    const isApp = appUrlMatcher({ devServerUrl: 'http://localhost:5173/' });
    expect(isApp('http://localhost:5173/some/route')).toBe(true);
    expect(isApp('http://localhost:5174/')).toBe(false);
    expect(isApp('https://localhost:5173/')).toBe(false);
    expect(isApp(APP_URL)).toBe(false);
    expect(isApp('file:///opt/callout/out/renderer/index.html')).toBe(false);
  });
});

describe('hardenWebContents', () => {
  let contents: FakeWebContents;
  let shell: FakeShell;

  beforeEach(() => {
    contents = new FakeWebContents();
    shell = new FakeShell();
    hardenWebContents(contents as never, shell, { isAppUrl: appUrlMatcher({ appScheme: true }), externalHosts: ALLOW });
  });

  it('prevents navigation away from the app', () => {
    expect(contents.navigate('https://evil.example/')).toBe(true);
    expect(contents.navigate('file:///etc/passwd')).toBe(true);
    expect(contents.navigate('http://console.voice.example.com/')).toBe(true);
    expect(shell.opened).toEqual([]);
  });

  it('lets the app navigate to its own page', () => {
    expect(contents.navigate(`${APP_URL}#/send`)).toBe(false);
  });

  it('opens an allowlisted https link in the browser instead of navigating', () => {
    expect(contents.navigate('https://console.voice.example.com/recharge')).toBe(true);
    expect(shell.opened).toEqual(['https://console.voice.example.com/recharge']);
  });

  it('prevents sub-frame navigation and redirects away from the app', () => {
    expect(contents.navigateFrame('https://evil.example/')).toBe(true);
    expect(contents.navigateFrame(APP_URL)).toBe(false);
    expect(contents.redirect('https://evil.example/')).toBe(true);
    expect(shell.opened).toEqual([]);
  });

  it('denies every window.open; only allowlisted https goes to the browser', () => {
    expect(contents.openWindow('https://evil.example/')).toEqual({ action: 'deny' });
    expect(contents.openWindow(APP_URL)).toEqual({ action: 'deny' });
    expect(contents.openWindow('about:blank')).toEqual({ action: 'deny' });
    expect(shell.opened).toEqual([]);
    expect(contents.openWindow('https://docs.voice.example.com/api')).toEqual({ action: 'deny' });
    expect(shell.opened).toEqual(['https://docs.voice.example.com/api']);
  });

  it('refuses <webview>', () => {
    expect(contents.attachWebview()).toBe(true);
  });
});

describe('hardenSession', () => {
  const appPage = APP_URL;
  const isAppUrl = (url: string) => url === appPage;

  it.each(['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen', 'unknown'])(
    'denies the %s permission request, even to the app page',
    async (permission) => {
      const ses = new FakeSession();
      hardenSession(ses as never, isAppUrl);
      await expect(ses.requestPermission(permission, undefined, appPage)).resolves.toBe(false);
      expect(ses.checkPermission(permission, appPage)).toBe(false);
    },
  );

  it('lets only the app page write (not read) the clipboard, for its copy buttons', async () => {
    const ses = new FakeSession();
    hardenSession(ses as never, isAppUrl);
    await expect(ses.requestPermission('clipboard-sanitized-write', undefined, appPage)).resolves.toBe(true);
    expect(ses.checkPermission('clipboard-sanitized-write', appPage)).toBe(true);
    await expect(ses.requestPermission('clipboard-sanitized-write', undefined, 'https://evil.example/')).resolves.toBe(false);
    expect(ses.checkPermission('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    await expect(ses.requestPermission('clipboard-read', undefined, appPage)).resolves.toBe(false);
  });
});

describe('hardenApp', () => {
  let fake: FakeElectron;

  beforeEach(() => {
    fake = createFakeElectron();
  });

  const options = () => ({ isAppUrl: appUrlMatcher({ appScheme: true }), externalHosts: ALLOW });

  it('enables the sandbox for all renderers before ready', () => {
    void hardenApp(fake.modules.app, fake.modules.session, fake.modules.shell, options());
    expect(fake.app.sandboxEnabled).toBe(true);
  });

  it('hardens every webContents as it is created', () => {
    void hardenApp(fake.modules.app, fake.modules.session, fake.modules.shell, options());
    const contents = fake.app.createWebContents();
    expect(contents.navigate('https://evil.example/')).toBe(true);
    expect(contents.openWindow('https://evil.example/')).toEqual({ action: 'deny' });
    expect(contents.attachWebview()).toBe(true);
  });

  it('hardens the default session once ready, and any session created later', async () => {
    const hardened = hardenApp(fake.modules.app, fake.modules.session, fake.modules.shell, options());
    expect(fake.session.defaultSession.permissionRequestHandler).toBeUndefined(); // not touched before ready
    await fake.app.becomeReady();
    await hardened;
    await expect(fake.session.defaultSession.requestPermission('media')).resolves.toBe(false);
    expect(fake.session.defaultSession.checkPermission('notifications')).toBe(false);

    const partition = new FakeSession();
    fake.app.emit('session-created', partition);
    await expect(partition.requestPermission('geolocation')).resolves.toBe(false);
  });

  it('does not call enableSandbox after ready (Electron would throw)', async () => {
    await fake.app.becomeReady();
    await hardenApp(fake.modules.app, fake.modules.session, fake.modules.shell, { ...options(), log: () => undefined });
    expect(fake.app.sandboxEnabled).toBe(false);
  });
});
