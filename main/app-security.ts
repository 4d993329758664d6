// App-wide Electron hardening: no navigation away from the app, no new windows, no
// <webview>, no permissions, and links out only to an allowlist of https hosts, opened in
// the user's browser. Takes the electron objects as parameters (tests pass fakes).
import type { App, Session, Shell, WebContents } from 'electron';
import { isAppPageUrl } from './app-protocol';

/**
 * Hosts whose https pages may be opened in the user's browser (exact hostname match).
 * Empty by default: add the provider's console/documentation hosts here (or pass
 * `externalHosts`) when the renderer gets such links, e.g. 'console.example-voice.com'.
 */
export const DEFAULT_EXTERNAL_HOSTS: readonly string[] = [];

export type ShellLike = Pick<Shell, 'openExternal'>;
export type AppLike = Pick<App, 'enableSandbox' | 'isReady' | 'on' | 'whenReady'>;
export type SessionLike = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>;
export type WebContentsLike = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

export interface HardeningOptions {
  /** True for the app's own page (the built index.html or the dev server); see appUrlMatcher. */
  isAppUrl: (url: string) => boolean;
  /** https hosts that may be opened externally; defaults to DEFAULT_EXTERNAL_HOSTS. */
  externalHosts?: readonly string[];
  log?: (message: string) => void;
}

/**
 * Parses `url` and returns it normalised when it is an https URL to an allowlisted host
 * (exact, case-insensitive hostname match), on the default port, without credentials.
 */
export function allowedExternalUrl(url: string, allowlist: readonly string[]): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:') return undefined;
  if (parsed.username !== '' || parsed.password !== '') return undefined;
  if (parsed.port !== '') return undefined;
  const host = parsed.hostname.toLowerCase();
  if (!allowlist.some((allowed) => allowed.toLowerCase() === host)) return undefined;
  return parsed.href;
}

/**
 * Opens `url` in the user's browser only when it is an https URL whose hostname is on the
 * allowlist. Returns whether it was handed to the shell.
 */
export function openExternalSafely(url: string, allowlist: readonly string[], shell: ShellLike, log?: (message: string) => void): boolean {
  const safe = allowedExternalUrl(url, allowlist);
  if (safe === undefined) {
    log?.(`blocked opening ${describeUrl(url)} outside the app`);
    return false;
  }
  shell.openExternal(safe).catch((error: unknown) => {
    log?.(`could not open ${safe}: ${error instanceof Error ? error.message : String(error)}`);
  });
  return true;
}

/** Keeps logs short and free of query strings (which may carry tokens). */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return 'an unparsable URL';
  }
}

export interface AppUrlSource {
  /** The built renderer, served on app://callout/ (production and preview): see app-protocol.ts. */
  appScheme?: boolean;
  /** The dev server URL (ELECTRON_RENDERER_URL), when the renderer is served in development. */
  devServerUrl?: string;
}

/**
 * Builds the "is this the app's own page" predicate used by the navigation guard, the permission
 * handler and the IPC sender check: app://callout/ (never a file:// page), or the dev server's origin.
 */
export function appUrlMatcher(source: AppUrlSource): (url: string) => boolean {
  let devOrigin: string | undefined;
  if (source.devServerUrl !== undefined) {
    try {
      devOrigin = new URL(source.devServerUrl).origin;
    } catch {
      devOrigin = undefined;
    }
  }
  return (url: string): boolean => {
    if (source.appScheme === true && isAppPageUrl(url)) return true;
    if (devOrigin === undefined || devOrigin === 'null') return false;
    try {
      return new URL(url).origin === devOrigin;
    } catch {
      return false;
    }
  };
}

/** Hardens one webContents: navigation, new windows, redirects and <webview>. */
export function hardenWebContents(contents: WebContentsLike, shell: ShellLike, options: HardeningOptions): void {
  const allowlist = options.externalHosts ?? DEFAULT_EXTERNAL_HOSTS;
  const { isAppUrl, log } = options;

  // Main-frame navigation: stay on the app's own page. A link to an allowlisted https host
  // opens in the browser instead; anything else is just dropped.
  contents.on('will-navigate', (event, legacyUrl) => {
    const url = event.url ?? legacyUrl;
    if (isAppUrl(url)) return;
    event.preventDefault();
    openExternalSafely(url, allowlist, shell, log);
  });

  // Sub-frames (the CSP already limits frames to 'self'): never leave the app.
  contents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame) return; // handled by will-navigate
    if (isAppUrl(event.url)) return;
    event.preventDefault();
    log?.(`blocked a frame navigation to ${describeUrl(event.url)}`);
  });

  contents.on('will-redirect', (event, legacyUrl) => {
    const url = event.url ?? legacyUrl;
    if (isAppUrl(url)) return;
    event.preventDefault();
    log?.(`blocked a redirect to ${describeUrl(url)}`);
  });

  // window.open / target=_blank: never a new Electron window.
  contents.setWindowOpenHandler(({ url }) => {
    openExternalSafely(url, allowlist, shell, log);
    return { action: 'deny' };
  });

  // The app does not use <webview> (webviewTag is off too): refuse any attempt.
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log?.('blocked a <webview>');
  });
}

/** The one permission the app's own page gets: writing (never reading) the clipboard, for its copy buttons. */
export const APP_PAGE_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

/**
 * Denies every permission request and check (camera, notifications, clipboard read, ...), except
 * clipboard writes asked for by the app's own page.
 */
export function hardenSession(ses: SessionLike, isAppUrl: (url: string) => boolean = () => false): void {
  const allowed = (permission: string, url: string | undefined) => APP_PAGE_PERMISSIONS.has(permission) && url !== undefined && isAppUrl(url);
  ses.setPermissionRequestHandler((_webContents, permission, callback, details) => callback(allowed(permission, details?.requestingUrl)));
  ses.setPermissionCheckHandler((_webContents, permission, _origin, details) => allowed(permission, details?.requestingUrl));
}

export interface SessionModuleLike {
  readonly defaultSession: SessionLike;
}

/**
 * App-wide hardening. Call before the app is ready: it turns on the sandbox for every
 * renderer (`app.enableSandbox()` only works before ready), hardens every webContents and
 * every session as they are created, and hardens the default session once the app is
 * ready (`session.defaultSession` cannot be touched earlier). The returned promise
 * resolves when the default session is hardened: await it before creating a window.
 */
export function hardenApp(app: AppLike, session: SessionModuleLike, shell: ShellLike, options: HardeningOptions): Promise<void> {
  if (!app.isReady()) app.enableSandbox();
  else options.log?.('hardenApp called after ready: app.enableSandbox() skipped (windows still set sandbox: true)');
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, shell, options));
  app.on('session-created', (ses) => hardenSession(ses, options.isAppUrl));
  return app.whenReady().then(() => hardenSession(session.defaultSession, options.isAppUrl));
}
