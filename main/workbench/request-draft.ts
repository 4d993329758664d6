// A raw-client request from something already written down: a pasted cURL command or raw HTTP
// request (read by the signature workbench's parser), or a stored exchange (to replay it). What
// Callout computes at send time is dropped (Host, Content-Length, Connection; Date and the
// signature when it was signed: a fresh one is made); the key, wherever it was (or its redaction
// placeholder), becomes `{{password}}`, the API ID `{{account}}`.
import type { RawImport, RawRequest } from '../../common/contract/workbench';
import { rawRequest } from '../../common/contract/workbench';
import type { Header } from '../../common/records';
import { parseCapturedRequest } from '../signing';
import { REDACTED } from '../voice/redaction';

export interface Captured {
  method: string;
  url: string;
  headers: Header[];
  body: string | null;
}

export interface DraftContext {
  baseUrl: string;
  apiId: string;
  /** The profile's signature variant: a signed capture is signed again with it (spec when the profile signs nothing). */
  signing: 'spec' | 'apisix' | null;
}

const COMPUTED = new Set(['host', 'content-length', 'connection', 'transfer-encoding']);
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `"password": "<anything>"` in JSON text: its value becomes the placeholder (the text around stays). */
function jsonPlaceholder(text: string, field: string, placeholder: string): string {
  return text.replace(new RegExp(`("${esc(field)}"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'g'), `$1"${placeholder}"`);
}

/** `password=<anything>` in a query or form text. */
function formPlaceholder(text: string, field: string, placeholder: string): string {
  return text.replace(new RegExp(`(^|[?&])(${esc(field)}=)[^&#]*`, 'g'), `$1$2${placeholder}`);
}

export function draftFromCapture(c: Captured, ctx: DraftContext): { request: RawRequest; otherOrigin: string | null } {
  const url = new URL(c.url);
  const base = new URL(ctx.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  let path = `${url.pathname}${url.search}`;
  let otherOrigin: string | null = null;
  if (url.origin === base.origin && (prefix === '' || url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) {
    path = path.slice(prefix.length) || '/';
  } else if (url.origin !== base.origin) {
    otherOrigin = url.origin;
  }
  path = formPlaceholder(path, 'password', '{{password}}');
  if (!path.startsWith('/')) path = `/${path}`;

  const lower = (name: string) => name.toLowerCase();
  const auth = c.headers.find(([n]) => lower(n) === 'authorization')?.[1];
  const signed = auth !== undefined && /^\s*signature\s/i.test(auth);
  const type = c.headers.find(([n]) => lower(n) === 'content-type')?.[1] ?? '';
  const accept = c.headers.find(([n]) => lower(n) === 'accept')?.[1];

  let body: RawRequest['body'] = { kind: 'none' };
  let format: RawRequest['format'] = /(^|[?&])format=xml\b/.test(url.search) ? 'xml' : 'json';
  if (c.body !== null) {
    const text = c.body.split(REDACTED).join('{{password}}');
    if (/x-www-form-urlencoded/i.test(type)) {
      const fields = [...new URLSearchParams(text)].map(([name, value]) => ({
        name,
        value: name === 'password' ? '{{password}}' : name === 'account' && value === ctx.apiId ? '{{account}}' : value,
        enabled: true,
      }));
      if (fields.some((f) => f.name === 'format' && f.value === 'xml')) format = 'xml';
      body = { kind: 'form', fields };
    } else if (/json/i.test(type) || /^\s*[{[]/.test(text)) {
      let json = jsonPlaceholder(text, 'password', '{{password}}');
      json = json.replace(new RegExp(`("account"\\s*:\\s*)"${esc(JSON.stringify(ctx.apiId).slice(1, -1))}"`, 'g'), '$1"{{account}}"');
      if (/"format"\s*:\s*"xml"/.test(json)) format = 'xml';
      body = { kind: 'json', text: json };
    } else {
      body = { kind: 'text', text };
    }
  }

  const standardType = body.kind === 'json' ? /^application\/json\b/i : body.kind === 'form' ? /^application\/x-www-form-urlencoded\b/i : /^text\/plain\b/i;
  const headers = c.headers
    .filter(([n, v]) => {
      const name = lower(n);
      if (COMPUTED.has(name)) return false;
      if (signed && (name === 'authorization' || name === 'date')) return false;
      if (name === 'content-type' && body.kind !== 'none' && standardType.test(v)) return false;
      if (name === 'accept' && (v === 'application/json' || v === 'application/xml, application/json')) return false;
      return true;
    })
    .map(([name, value]) => ({ name, value: value.split(REDACTED).join('{{password}}'), enabled: true }));

  const request = rawRequest.parse({
    method: c.method,
    path,
    headers,
    // A capture without Accept is sent without it.
    omit: accept === undefined ? ['Accept'] : [],
    body,
    credentials: 'none',
    format,
    signing: signed ? (ctx.signing ?? 'spec') : 'off',
  });
  return { request, otherOrigin };
}

/** A pasted cURL command or raw HTTP request, as a draft for the profile. */
export function draftFromText(text: string, ctx: DraftContext): RawImport {
  const parsed = parseCapturedRequest(text, { url: ctx.baseUrl });
  if (!parsed.ok) return { ok: false, detail: parsed.detail };
  const v = parsed.value;
  // The parser keys headers in lower case: give them back the case they were pasted with.
  const named = (name: string) => new RegExp(`(?:^|[\\s'"$])(${esc(name)})\\s*:`, 'i').exec(text)?.[1] ?? name;
  const headers = Object.entries(v.headers).map(([name, value]): Header => [named(name), value]);
  const { request, otherOrigin } = draftFromCapture({ method: v.method, url: v.url, headers, body: v.body }, ctx);
  return { ok: true, request, warnings: v.warnings, otherOrigin };
}
