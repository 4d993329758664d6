// The desktop window's page comes from a custom privileged scheme, app://callout/, rather than
// file://, as Electron's security checklist asks: the page gets a real origin of its own (so 'self'
// in the CSP means the app and nothing else on disk), and only the files of the built renderer can be
// reached through it. `protocol` comes in as a parameter (tests pass a fake).
import { readFile } from 'node:fs/promises';
import type { CustomScheme, Protocol } from 'electron';
import { ENTRY_DOCUMENT, rendererFilePath, responseHeaders } from './renderer-files';

export const APP_SCHEME = 'app';
export const APP_HOST = 'callout';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The one page of the app. */
export const APP_ENTRY_URL = `${APP_ORIGIN}/${ENTRY_DOCUMENT}`;

/**
 * standard: URLs parse like http (relative URLs, an origin, web storage); secure: treated like https
 * (the clipboard API, no mixed-content downgrade); supportFetchAPI: the page's module scripts and
 * fetch() may read it. Not corsEnabled (other origins cannot read it), not bypassCSP (the page's CSP
 * applies), no service workers, no streaming.
 */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false, bypassCSP: false, allowServiceWorkers: false, stream: false },
};

export type ProtocolLike = Pick<Protocol, 'registerSchemesAsPrivileged' | 'handle' | 'unhandle'>;

/** Before the app is ready (Electron refuses it later): app:// is a privileged scheme. */
export function registerAppScheme(protocol: Pick<ProtocolLike, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
}

const refusal = (status: number) => new Response(null, { status, headers: { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' } });

/** The answer to one app:// request: a file of the built renderer, or 404/405. */
export async function appSchemeResponse(request: Pick<Request, 'url' | 'method'>, rendererDir: string): Promise<Response> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return refusal(404);
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || url.username !== '' || url.password !== '') return refusal(404);
  if (request.method !== 'GET' && request.method !== 'HEAD') return refusal(405);
  const file = rendererFilePath(rendererDir, url.pathname);
  if (file === null) return refusal(404);
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return refusal(404);
  }
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers: responseHeaders(file, body) });
}

/** After ready: serves app:// from the built renderer. Returns the function that stops serving it. */
export function serveAppScheme(protocol: Pick<ProtocolLike, 'handle' | 'unhandle'>, rendererDir: string): () => void {
  protocol.handle(APP_SCHEME, (request) => appSchemeResponse(request, rendererDir));
  return () => protocol.unhandle(APP_SCHEME);
}

/** True for the app's own page: app://callout/ or app://callout/index.html, any query or fragment. */
export function isAppPageUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.protocol === `${APP_SCHEME}:` &&
    parsed.host === APP_HOST &&
    parsed.username === '' &&
    parsed.password === '' &&
    (parsed.pathname === '/' || parsed.pathname === `/${ENTRY_DOCUMENT}`)
  );
}
