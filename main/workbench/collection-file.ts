// Collections as files: Postman Collection v2.1 (the format Postman, Insomnia, Bruno, Hoppscotch
// and newman all read), with Callout's own fields under `callout` so that a file Callout wrote comes
// back exactly as it was. See docs/collections.md.
//
// Writing: each request is also written the way other tools need it: the base URL as `{{baseUrl}}`,
// Callout's parameters (account, password, format) written into the body or query as
// `{{account}}`/`{{password}}` variables, and the assertions as `pm.test` scripts, so the same file
// runs in Postman or newman with an environment that sets baseUrl, account and password.
// Reading: a file with `callout` fields is read from them; another tool's file is read from the
// standard fields (raw and urlencoded bodies, headers, the URL's path and query, folders flattened),
// and what Callout does not do (scripts, auth helpers, multipart bodies) is said in warnings.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  assertion,
  capture,
  rawRequest,
  RESERVED_VARIABLES,
  VARIABLE_NAME,
  type Assertion,
  type Capture,
  type CollectionImportWarning,
  type CollectionView,
  type RawRequest,
  type Variable,
} from '../../common/contract/workbench';
import { fail } from '../errors';

export const POSTMAN_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
export const CALLOUT_FILE_FORMAT = 'callout-collection';
export const CALLOUT_FILE_VERSION = 1;
/** Most requests read from one file. */
export const MAX_FILE_REQUESTS = 1000;
/** Deepest folder nesting read (deeper: the file is refused). */
export const MAX_FOLDER_DEPTH = 100;
/** Most warnings kept for one file; the rest are counted in a last `more-warnings`. */
export const MAX_IMPORT_WARNINGS = 100;
/** Variables of a file that Callout provides itself: not imported. */
const PROVIDED = new Set(['baseurl', ...RESERVED_VARIABLES]);

export interface ImportedCollection {
  name: string;
  description: string;
  variables: Variable[];
  requests: { name: string; request: RawRequest; assertions: Assertion[]; captures: Capture[] }[];
  warnings: CollectionImportWarning[];
}

// ——— writing ———

function postmanTests(assertions: readonly Assertion[]): string[] {
  const lines: string[] = [];
  for (const a of assertions) {
    const path = (p: string) =>
      `(${JSON.stringify(p)}).replace(/^\\$\\.?/, '').replace(/\\[(\\d+)\\]/g, '.$1').split('.').filter(Boolean).reduce((v, k) => (v == null ? undefined : v[k]), pm.response.json())`;
    if (a.kind === 'status') lines.push(`pm.test(${JSON.stringify(`status is ${a.equals}`)}, () => pm.response.to.have.status(${a.equals}));`);
    else if (a.kind === 'code')
      lines.push(`pm.test(${JSON.stringify(`code is ${a.equals}`)}, () => pm.expect(Number(pm.response.json().code)).to.eql(${a.equals}));`);
    else if (a.kind === 'json-exists') lines.push(`pm.test(${JSON.stringify(`${a.path} exists`)}, () => pm.expect(${path(a.path)}).to.not.be.undefined);`);
    else {
      let expected: string;
      try {
        expected = JSON.stringify(JSON.parse(a.equals));
      } catch {
        expected = JSON.stringify(a.equals);
      }
      lines.push(`pm.test(${JSON.stringify(`${a.path} equals ${a.equals}`)}, () => pm.expect(String(${path(a.path)})).to.eql(String(${expected})));`);
    }
  }
  return lines;
}

/** The request as other tools send it: Callout's parameters written out as variables. */
function postmanRequest(r: RawRequest) {
  const params: [string, string][] = [
    ['account', '{{account}}'],
    ['password', '{{password}}'],
    ['format', r.format],
  ];
  let path = r.path;
  if (r.credentials === 'query') path += (path.includes('?') ? '&' : '?') + params.map(([k, v]) => `${k}=${v}`).join('&');
  const [pathPart = '/', query = ''] = path.split(/\?(.*)/s);
  const header = r.headers.map((h) => ({ key: h.name, value: h.value, ...(h.enabled ? {} : { disabled: true }) }));
  let body: Record<string, unknown> | undefined;
  const b = r.body;
  if (b.kind === 'json' || (b.kind === 'none' && r.credentials === 'body')) {
    let text = b.kind === 'json' ? b.text : '{}';
    if (r.credentials === 'body') {
      const members = params.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',');
      text = text.replace(/^(\s*)\{(\s*)(}?)/, (_m, lead: string, gap: string, close: string) => `${lead}{${members}${close ? '' : ','}${gap}${close}`);
    }
    body = { mode: 'raw', raw: text, options: { raw: { language: 'json' } } };
  } else if (b.kind === 'text') {
    body = { mode: 'raw', raw: b.text, options: { raw: { language: 'text' } } };
  } else if (b.kind === 'form') {
    const fields = b.fields.map((f) => ({ key: f.name, value: f.value, ...(f.enabled ? {} : { disabled: true }) }));
    body = { mode: 'urlencoded', urlencoded: r.credentials === 'body' ? [...params.map(([key, value]) => ({ key, value })), ...fields] : fields };
  }
  return {
    method: r.method,
    header,
    url: {
      raw: `{{baseUrl}}${path}`,
      host: ['{{baseUrl}}'],
      path: pathPart.split('/').filter(Boolean),
      ...(query ? { query: query.split('&').map((kv) => ({ key: kv.split('=')[0] ?? '', value: kv.split(/=(.*)/s)[1] ?? null })) } : {}),
    },
    ...(body ? { body } : {}),
  };
}

export function exportCollection(c: CollectionView): { fileName: string; json: string } {
  const file = {
    info: {
      _postman_id: randomUUID(),
      name: c.name,
      description: c.description,
      schema: POSTMAN_SCHEMA,
    },
    item: c.requests.map((r) => {
      const tests = postmanTests(r.assertions);
      return {
        name: r.name,
        request: postmanRequest(r.request),
        ...(tests.length ? { event: [{ listen: 'test', script: { type: 'text/javascript', exec: tests } }] } : {}),
        callout: { request: r.request, assertions: r.assertions, captures: r.captures },
      };
    }),
    variable: [
      { key: 'baseUrl', value: '', description: 'The profile base URL (Callout fills it in; set it in Postman).' },
      ...c.variables.map((v) => ({ key: v.name, value: v.value })),
    ],
    callout: { format: CALLOUT_FILE_FORMAT, version: CALLOUT_FILE_VERSION },
  };
  const slug =
    c.name
      .normalize('NFKD')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'collection';
  return { fileName: `${slug}.postman_collection.json`, json: JSON.stringify(file, null, 2) };
}

// ——— reading ———

const kv = z.object({ key: z.string().nullish(), value: z.unknown().optional(), disabled: z.boolean().optional() }).passthrough();
const postmanUrl = z.union([
  z.string(),
  z.object({ raw: z.string().optional(), path: z.union([z.array(z.unknown()), z.string()]).optional(), query: z.array(kv).optional() }).passthrough(),
]);
const postmanBody = z
  .object({ mode: z.string().optional(), raw: z.string().optional(), urlencoded: z.array(kv).optional(), options: z.unknown().optional() })
  .passthrough();
const postmanRequestSchema = z.union([
  z.string(),
  z
    .object({
      method: z.string().optional(),
      header: z.union([z.array(kv), z.string()]).optional(),
      url: postmanUrl.optional(),
      body: postmanBody.nullish(),
      auth: z.unknown().optional(),
    })
    .passthrough(),
]);
type Item = { name?: unknown; item?: unknown; request?: unknown; event?: unknown; callout?: unknown };
const calloutItem = z.object({ request: rawRequest, assertions: z.array(assertion).max(50).default([]), captures: z.array(capture).max(20).default([]) });

/** A value of the file as text: objects as JSON, or '' when they cannot be (nested too deep to write out). */
function str(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v !== 'object') return '';
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}
/** A name: only a string or a number is one (anything else is treated as no name). */
const nameOf = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** path + query of a Postman URL, relative to whatever base it names (`{{baseUrl}}`, a host...). */
function pathOfUrl(url: z.infer<typeof postmanUrl> | undefined, warn: (host: string) => void): string {
  let raw = typeof url === 'string' ? url : (url?.raw ?? '');
  if (!raw && url && typeof url !== 'string') {
    const segments = Array.isArray(url.path) ? url.path.map(str) : typeof url.path === 'string' ? url.path.split('/') : [];
    const query = (url.query ?? [])
      .filter((q) => !q.disabled)
      .map((q) => `${str(q.key)}=${str(q.value)}`)
      .join('&');
    raw = `/${segments.filter(Boolean).join('/')}${query ? `?${query}` : ''}`;
  }
  raw = raw.trim();
  // A leading variable (`{{baseUrl}}`) stands for the profile's base URL.
  const variable = /^\{\{[^}]*\}\}/.exec(raw);
  if (variable) raw = raw.slice(variable[0].length);
  else {
    const abs = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#]*)/i.exec(raw);
    if (abs && /^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
      warn(abs[1] ?? '');
      raw = raw.slice(abs[0].length);
    }
  }
  raw = raw.replace(/#.*$/, '').replace(/\s/g, '%20');
  return raw.startsWith('/') ? raw : `/${raw}`;
}

function foreignRequest(name: string, value: unknown, warn: (w: CollectionImportWarning) => void): RawRequest | null {
  const parsed = postmanRequestSchema.safeParse(value);
  if (!parsed.success) return null;
  const r = typeof parsed.data === 'string' ? { url: parsed.data } : parsed.data;
  if ('auth' in r && r.auth) warn({ code: 'auth-ignored', params: { item: name } });
  const headers = (Array.isArray(r.header) ? r.header : [])
    .filter((h) => h.key)
    .map((h) => ({ name: str(h.key).trim(), value: str(h.value).replace(/[\r\n\0]/g, ' '), enabled: !h.disabled }))
    .filter((h) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(h.name));
  let body: RawRequest['body'] = { kind: 'none' };
  const b = r.body;
  if (b?.mode === 'raw' && typeof b.raw === 'string') {
    const language = (b.options as { raw?: { language?: string } } | undefined)?.raw?.language;
    body = language === 'json' || /^\s*[{[]/.test(b.raw) ? { kind: 'json', text: b.raw } : { kind: 'text', text: b.raw };
  } else if (b?.mode === 'urlencoded') {
    body = { kind: 'form', fields: (b.urlencoded ?? []).map((f) => ({ name: str(f.key), value: str(f.value), enabled: !f.disabled })) };
  } else if (b?.mode) {
    warn({ code: 'body-mode', params: { item: name, mode: b.mode } });
  }
  const path = pathOfUrl(r.url, (host) => warn({ code: 'url-host', params: { item: name, host } }));
  const result = rawRequest.safeParse({ method: (r.method ?? 'GET').toUpperCase(), path, headers, body, credentials: 'none', signing: 'profile' });
  return result.success ? result.data : null;
}

/** Reads a collection file (Postman v2.1, or v2.0 which has the same shape). */
export function importCollection(text: string): ImportedCollection {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw fail('collection-file-invalid', { kind: 'invalid-json' });
  }
  const top = z
    .object({
      info: z.object({ name: z.string().optional(), description: z.unknown().optional(), schema: z.string().optional() }).passthrough(),
      item: z.array(z.unknown()),
      variable: z.array(kv).optional(),
    })
    .passthrough()
    .safeParse(doc);
  if (!top.success) throw fail('collection-file-invalid', { kind: 'not-a-collection' });
  const schema = top.data.info.schema ?? '';
  if (schema && !/collection\/v2\.[01]\.\d+\/collection\.json$/.test(schema))
    throw fail('collection-file-invalid', { kind: 'unsupported-schema', where: schema });

  const warnings: CollectionImportWarning[] = [];
  let moreWarnings = 0;
  const warn = (w: CollectionImportWarning) => {
    if (warnings.length < MAX_IMPORT_WARNINGS) warnings.push(w);
    else moreWarnings++;
  };
  const requests: ImportedCollection['requests'] = [];
  // Folders are walked with a stack of their own (not by recursion): a file nesting folders
  // thousands deep is refused with a coded error, never a stack overflow.
  const stack: { items: unknown[]; next: number; folder: string }[] = [{ items: top.data.item, next: 0, folder: '' }];
  while (stack.length) {
    const frame = stack[stack.length - 1]!;
    if (frame.next >= frame.items.length) {
      stack.pop();
      continue;
    }
    const raw = frame.items[frame.next++];
    const item = (raw && typeof raw === 'object' ? raw : {}) as Item;
    const name = `${frame.folder}${nameOf(item.name).trim() || 'request'}`.slice(0, 200);
    if (Array.isArray(item.item)) {
      if (stack.length > MAX_FOLDER_DEPTH) throw fail('collection-file-invalid', { kind: 'too-deep' });
      warn({ code: 'folder-flattened', params: { item: name } });
      stack.push({ items: item.item, next: 0, folder: `${name} / ` });
      continue;
    }
    if (requests.length >= MAX_FILE_REQUESTS) throw fail('collection-file-invalid', { kind: 'too-many' });
    const ours = calloutItem.safeParse(item.callout);
    if (ours.success) {
      requests.push({ name, ...ours.data });
      continue;
    }
    const request = foreignRequest(name, item.request, warn);
    if (!request) {
      warn({ code: 'item-skipped', params: { item: name } });
      continue;
    }
    if (Array.isArray(item.event) && item.event.length) warn({ code: 'script-ignored', params: { item: name } });
    requests.push({ name, request, assertions: [], captures: [] });
  }
  if (!requests.length) throw fail('collection-file-invalid', { kind: 'no-requests' });

  const variables: Variable[] = [];
  for (const v of top.data.variable ?? []) {
    const key = str(v.key).trim();
    if (!key || PROVIDED.has(key.toLowerCase()) || variables.some((x) => x.name === key)) {
      if (key && (RESERVED_VARIABLES as readonly string[]).includes(key.toLowerCase())) warn({ code: 'variable-reserved', params: { name: key } });
      continue;
    }
    if (VARIABLE_NAME.test(key)) variables.push({ name: key, value: str(v.value).slice(0, 10_000) });
  }
  if (moreWarnings) warnings.push({ code: 'more-warnings', params: { more: moreWarnings } });
  const description = top.data.info.description;
  return {
    name: (top.data.info.name ?? '').trim().slice(0, 200) || 'Collection',
    description: (typeof description === 'string' ? description : str((description as { content?: unknown } | undefined)?.content)).slice(0, 5000),
    variables: variables.slice(0, 200),
    requests,
    warnings,
  };
}
