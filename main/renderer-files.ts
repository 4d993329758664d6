// The built renderer (out/renderer) as files to serve, for the two ways it reaches a page: the
// desktop window's app:// scheme (app-protocol.ts) and `callout ui`'s HTTP server (ui/server.ts).
// Which file a URL path names, with path traversal refused; its content type; and the headers every
// response carries, with the Content-Security-Policy of renderer/index.html (its one source) sent as
// a header too, where it also forbids framing (a <meta> policy cannot).
import { realpathSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.map': 'application/json; charset=utf-8',
};

export const ENTRY_DOCUMENT = 'index.html';

export function contentType(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file under `root` that a URL's pathname names ('/' is index.html), or null: for anything that
 * is not a regular file inside `root` once decoded and resolved (`..`, encoded `%2e%2e%2f`,
 * backslashes, NUL bytes, absolute paths, symbolic links pointing out), and for hidden files.
 */
export function rendererFilePath(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s.startsWith('.'))) return null;
  const base = resolve(root);
  const file = resolve(base, ...(segments.length ? segments : [ENTRY_DOCUMENT]));
  const rel = relative(base, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  try {
    if (!statSync(file).isFile()) return null;
    // A link inside the folder that points outside it is refused too.
    const real = realpathSync(file);
    const realBase = realpathSync(base);
    if (!real.startsWith(realBase + sep)) return null;
  } catch {
    return null;
  }
  return file;
}

/** The Content-Security-Policy of a built page: the content of its one CSP <meta>. */
export function metaPolicy(html: string): string | null {
  for (const tag of html.match(/<meta\b[^>]*>/gi) ?? []) {
    if (!/http-equiv\s*=\s*["']content-security-policy["']/i.test(tag)) continue;
    const content = /content\s*=\s*"([^"]*)"/i.exec(tag) ?? /content\s*=\s*'([^']*)'/i.exec(tag);
    if (content) return content[1]!.trim();
  }
  return null;
}

/** The policy sent as a header with the entry document: the page's own, and no framing by anyone. */
export function documentPolicy(html: string): string {
  const policy = metaPolicy(html) ?? "default-src 'none'";
  return /(^|;)\s*frame-ancestors\b/i.test(policy) ? policy : `${policy.replace(/;\s*$/, '')}; frame-ancestors 'none'`;
}

/** Headers of every response carrying a renderer file (or a refusal page). */
export function responseHeaders(file: string, body?: Buffer | string): Record<string, string> {
  const type = contentType(file);
  const headers: Record<string, string> = {
    'Content-Type': type,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
  if (type.startsWith('text/html')) {
    headers['Content-Security-Policy'] = documentPolicy(body === undefined ? '' : body.toString());
    headers['X-Frame-Options'] = 'DENY';
  }
  return headers;
}

/** Where electron-vite writes the renderer, from the built main bundle's folder (out/main). */
export function builtRendererDir(mainDir: string): string {
  return join(mainDir, '..', 'renderer');
}
