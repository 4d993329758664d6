/** Reading request bodies and writing replies (JSON, XML, the proxy error page). */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxOp } from './types';
import type { ProviderReply, ReplyValue } from './voice-service';

/** Bodies above this size are refused with HTTP 413. */
export const MAX_BODY_BYTES = 64 * 1024;

export type BodyRead = { ok: true; body: Buffer } | { ok: false; reason: 'too-large' | 'aborted' };

/** Reads the whole body, up to `limit` bytes. On overflow it stops keeping data and resolves at once. */
export function readBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume(); // drain without keeping anything, so the 413 can be read by the client
    return Promise.resolve({ ok: false, reason: 'too-large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: BodyRead): void => {
      if (done) return;
      done = true;
      resolve(r);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        finish({ ok: false, reason: 'too-large' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish({ ok: true, body: Buffer.concat(chunks) }));
    req.on('error', () => finish({ ok: false, reason: 'aborted' }));
    req.on('close', () => finish({ ok: false, reason: 'aborted' }));
  });
}

export type ParsedParams = { ok: true; params: Record<string, unknown> } | { ok: false };

/**
 * Request parameters from a JSON object body or an application/x-www-form-urlencoded body.
 * An empty body gives no parameters (the operation then answers "missing parameters").
 * Anything else (a JSON array, broken JSON, multipart) is malformed.
 */
export function parseParams(body: Buffer, contentType: string | undefined): ParsedParams {
  const raw = body.toString('utf8');
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (raw.trim() === '') return { ok: true, params: {} };
  if (type === 'application/x-www-form-urlencoded') return { ok: true, params: Object.fromEntries(new URLSearchParams(raw)) };
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { ok: true, params: value as Record<string, unknown> };
    }
    return { ok: false };
  } catch {
    return { ok: false };
  }
}

/** The root element of the XML reply of each operation. */
export const XML_ROOTS: Record<SandboxOp, string> = {
  send: 'SubmitResult',
  status: 'StatusResult',
  balance: 'GetNumResult',
};

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

/** `<?xml …?><Root><code>2</code><msg>…</msg>…</Root>`; null fields are empty elements. */
export function toXml(root: string, reply: ProviderReply): string {
  let out = '<?xml version="1.0" encoding="utf-8"?>\n<' + root + '>';
  for (const [k, v] of Object.entries(reply) as Array<[string, ReplyValue]>) {
    out += v === null ? `<${k}/>` : `<${k}>${escapeXml(String(v))}</${k}>`;
  }
  return out + '</' + root + '>';
}

export function sendJson(res: ServerResponse, httpStatus: number, value: unknown, extraHeaders: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  res.writeHead(httpStatus, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ...extraHeaders,
  });
  res.end(body);
}

export function sendXml(res: ServerResponse, httpStatus: number, xml: string): void {
  res.writeHead(httpStatus, {
    'Content-Type': 'application/xml; charset=utf-8',
    'Content-Length': Buffer.byteLength(xml),
  });
  res.end(xml);
}

/** What a reverse proxy in front of a dead upstream sends. */
export const PROXY_ERROR_PAGE =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n' +
  '<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

export function sendHtml(res: ServerResponse, httpStatus: number, html: string): void {
  res.writeHead(httpStatus, { 'Content-Type': 'text/html', 'Content-Length': Buffer.byteLength(html) });
  res.end(html);
}
