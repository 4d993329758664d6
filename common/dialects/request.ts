// The request side of a dialect: how each operation is asked of the provider (method, path with
// its query, how the fields travel, their names, fixed extra fields, where the key goes). One
// reading for everyone who makes or reads such a request: Callout's client, the raw console, the
// capture proxy's rule checks and the sandbox. A dialect without `request` asks as the spec shows:
// JSON POSTs of {account, password, …, format} to /voice/vm, /voice/status and /voice/balance.
import type { Dialect, KeyPlace } from './schema';

export const REQUEST_OPERATIONS = ['send', 'status', 'balance'] as const;
export type RequestOperation = (typeof REQUEST_OPERATIONS)[number];

/** What Callout sends, by its own name (the dialect says the provider's). */
export type RequestField = 'account' | 'password' | 'mobile' | 'content' | 'id' | 'format';

export interface RequestShape {
  method: 'POST' | 'GET';
  /** Below the base URL; may carry a query. */
  path: string;
  /** json or form: a body; query: the fields in the URL (a GET always). */
  body: 'json' | 'form' | 'query';
  /** The provider's name of each field, or null: not sent. */
  fields: Record<RequestField, string | null>;
  extra: Record<string, string>;
  key: KeyPlace;
}

export const SPEC_PATHS: Readonly<Record<RequestOperation, string>> = { send: '/voice/vm', status: '/voice/status', balance: '/voice/balance' };
const SPEC_FIELDS: Readonly<Record<RequestField, string>> = {
  account: 'account',
  password: 'password',
  mobile: 'mobile',
  content: 'content',
  id: 'smsid',
  format: 'format',
};

export const JSON_TYPE = 'application/json; charset=utf-8';
export const FORM_TYPE = 'application/x-www-form-urlencoded; charset=utf-8';

/** How the dialect asks for an operation: its own settings, then the dialect's shared ones, then the spec's. */
export function requestShape(d: Pick<Dialect, 'request'> | null | undefined, op: RequestOperation): RequestShape {
  const shared = d?.request;
  const own = shared?.[op];
  const method = own?.method ?? shared?.method ?? 'POST';
  const key: KeyPlace = shared?.key ?? 'field';
  const fields: Record<RequestField, string | null> = { ...SPEC_FIELDS, ...shared?.fields, ...own?.fields };
  if (key !== 'field') fields.password = null;
  return {
    method,
    path: own?.path ?? shared?.path ?? SPEC_PATHS[op],
    body: method === 'GET' ? 'query' : (own?.body ?? shared?.body ?? 'json'),
    fields,
    extra: { ...shared?.extra, ...own?.extra },
    key,
  };
}

/**
 * A request's URL: the operation's path (which may carry a query) after the base URL's path (a
 * gateway route), the base URL's query kept and the path's added to it. A base URL
 * `…/webservice/voice.php?method=GetNum` stays a query, never `?method=GetNum/voice/balance`.
 */
export function joinUrl(baseUrl: string, path: string): URL {
  const url = new URL(baseUrl);
  url.hash = '';
  const q = path.indexOf('?');
  const pathPart = q < 0 ? path : path.slice(0, q);
  const query = q < 0 ? '' : path.slice(q + 1);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${pathPart.replace(/^\/+/, '')}`;
  if (query) url.search = url.search ? `${url.search}&${query}` : `?${query}`;
  return url;
}

export interface RequestValues {
  account: string;
  key: string;
  mobile?: string;
  content?: string;
  id?: string;
  format?: string;
}

/** The fields the provider receives, under its names, in the spec's order; the extra fields last. */
export function requestParams(shape: RequestShape, values: RequestValues): [string, string][] {
  const out: [string, string][] = [];
  const put = (field: RequestField, value: string | undefined): void => {
    const name = shape.fields[field];
    if (name !== null && value !== undefined && !out.some(([n]) => n === name)) out.push([name, value]);
  };
  put('account', values.account);
  put('password', values.key);
  put('mobile', values.mobile);
  put('content', values.content);
  put('id', values.id);
  put('format', values.format);
  for (const [name, value] of Object.entries(shape.extra)) if (!out.some(([n]) => n === name)) out.push([name, value]);
  return out;
}

/** The request as it travels: its URL (the query fields added as text), body and content type. */
export function encodeRequest(
  shape: RequestShape,
  baseUrl: string,
  params: readonly [string, string][],
): { url: URL; body: string | null; contentType: string | null } {
  const url = joinUrl(baseUrl, shape.path);
  if (shape.body === 'query') {
    if (params.length > 0) {
      const extra = new URLSearchParams([...params]).toString();
      url.search = url.search.length > 1 ? `${url.search}&${extra}` : `?${extra}`;
    }
    return { url, body: null, contentType: null };
  }
  if (shape.body === 'form') return { url, body: new URLSearchParams([...params]).toString(), contentType: FORM_TYPE };
  return { url, body: JSON.stringify(Object.fromEntries(params)), contentType: JSON_TYPE };
}

/** The header carrying the key, when the dialect puts it in one: [name, value]. */
export function keyHeader(shape: RequestShape, key: string): [string, string] | null {
  return typeof shape.key === 'object' ? [shape.key.header, `${shape.key.prefix}${key}`] : null;
}

/** Whether `url` is the operation's address under `base`: the same path, and the path's own query fields present with their values. */
function addresses(url: URL, base: string, shape: RequestShape): boolean {
  let target: URL;
  try {
    target = joinUrl(base, shape.path);
  } catch {
    return false;
  }
  if (url.pathname.replace(/\/+$/, '') !== target.pathname.replace(/\/+$/, '')) return false;
  for (const [name, value] of target.searchParams) if (!url.searchParams.getAll(name).includes(value)) return false;
  return true;
}

/**
 * Which operation a request to the provider is, read with the dialect: the one whose path (and the
 * path's query) it names; when several share an address, the one whose extra fields it carries,
 * and of those the one it names most precisely (most query and extra fields matched: `/api?action=query`
 * before `/api`, a balance with `what=balance` before a send with no fixed field), whatever their order.
 */
export function operationOfRequest(
  d: Pick<Dialect, 'request'> | null | undefined,
  url: URL,
  base: string,
  params: Record<string, unknown> = {},
): RequestOperation | null {
  const candidates = REQUEST_OPERATIONS.filter((op) => addresses(url, base, requestShape(d, op)));
  if (candidates.length <= 1) return candidates[0] ?? null;
  const query = Object.fromEntries(url.searchParams);
  const carries = (op: RequestOperation) => Object.entries(requestShape(d, op).extra).every(([n, v]) => String(params[n] ?? query[n] ?? '') === v);
  const precision = (op: RequestOperation): number => {
    const shape = requestShape(d, op);
    let named = Object.keys(shape.extra).length;
    try {
      named += [...joinUrl(base, shape.path).searchParams].length;
    } catch {
      // an unreadable base: no query of its own
    }
    return named;
  };
  let best: RequestOperation | null = null;
  for (const op of candidates.filter(carries)) if (best === null || precision(op) > precision(best)) best = op;
  return best ?? candidates[0] ?? null;
}

/** What a received request says, by Callout's names: its fields read under the provider's names, the key from its header when it travels there. */
export function readRequestFields(
  shape: RequestShape,
  params: Record<string, unknown>,
  header: (name: string) => string | undefined,
): Partial<Record<RequestField, unknown>> {
  const out: Partial<Record<RequestField, unknown>> = {};
  for (const field of Object.keys(shape.fields) as RequestField[]) {
    const name = shape.fields[field];
    if (name !== null && params[name] !== undefined) out[field] = params[name];
  }
  if (typeof shape.key === 'object') {
    const value = header(shape.key.header.toLowerCase());
    if (value !== undefined) out.password = shape.key.prefix && value.startsWith(shape.key.prefix) ? value.slice(shape.key.prefix.length) : value;
  }
  return out;
}

/**
 * Where a request in this dialect may carry a key: the field names its operations give the key
 * (also when the key travels elsewhere: a client may still send it there) and the header it names.
 * What is kept of a request blanks these whatever their value: a wrong key is still someone's key.
 */
export function keyCarriers(d: Pick<Dialect, 'request'> | null | undefined): { fields: string[]; headers: string[] } {
  const fields = new Set<string>(['password']);
  for (const op of REQUEST_OPERATIONS) {
    const name = d?.request?.[op]?.fields?.password ?? d?.request?.fields?.password;
    if (name) fields.add(name);
  }
  const key = d?.request?.key;
  return { fields: [...fields], headers: typeof key === 'object' ? [key.header] : [] };
}
