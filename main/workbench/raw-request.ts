// The raw client's request, built in main: variables filled (the key only here), Callout's
// parameters placed where asked, Callout's headers added unless replaced or left out, and the
// signature computed over what is actually sent. The result goes to the transport as it is: a
// malformed JSON body stays malformed, byte for byte.
import { HEADER_VALUE, type RawRequest } from '../../common/contract/workbench';
import { fillVariables } from '../../common/domain/variables';
import type { Header } from '../../common/records';
import { fail } from '../errors';
import { formatHttpDate, hostOf, signParts, type SignatureVariant } from '../signing';
import { dialectOf, type ProviderEndpoint } from '../voice/client';
import { joinUrl, keyHeader, operationOfRequest, requestShape } from '../../common/dialects';
import { systemClock } from '../clock';

export interface BuiltRequest {
  method: string;
  url: string;
  headers: Header[];
  body: string | null;
  /** Headers the transport would add that were left out. */
  omit: ('host' | 'content-length')[];
  /** The signature variant used, when the request is signed. */
  signing: SignatureVariant | null;
}

export interface BuildContext {
  /** The profile's endpoint, its key included (main only). */
  endpoint: ProviderEndpoint;
  /** Variables by name (collection, environment, captures, given now: the caller merges them). */
  variables: Readonly<Record<string, string>>;
  now?: Date;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const FORM_TYPE = 'application/x-www-form-urlencoded; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The effective signature variant: the request's choice, or the profile's. */
export function signingOf(request: Pick<RawRequest, 'signing'>, endpoint: Pick<ProviderEndpoint, 'signing'>): SignatureVariant | null {
  if (request.signing === 'profile') return endpoint.signing;
  return request.signing === 'off' ? null : request.signing;
}

/**
 * Builds the request. Variables without a value are listed in `missing` (left as written): a send
 * refuses them (`unresolved-variables`), a preview shows them.
 */
export function buildRawRequest(req: RawRequest, ctx: BuildContext): { request: BuiltRequest; missing: string[] } {
  const { endpoint } = ctx;
  const missing = new Set<string>();
  const lookup = (name: string): string | undefined => {
    if (name === 'account') return endpoint.apiId;
    if (name === 'password') return endpoint.apiKey;
    return Object.prototype.hasOwnProperty.call(ctx.variables, name) ? ctx.variables[name] : undefined;
  };
  const fill = (text: string, encode?: (v: string) => string) => {
    const r = fillVariables(text, lookup, encode);
    for (const m of r.missing) missing.add(m);
    return r.text;
  };

  // Path and query, under the profile's base URL (its own path prefix and query kept). Never another
  // host: the key goes only where the profile says.
  const base = new URL(endpoint.baseUrl);
  const url = joinUrl(endpoint.baseUrl, fill(req.path));
  if (url.origin !== base.origin) throw fail('raw-request-invalid', { kind: 'url-outside-profile' });

  // Callout's parameters under the names the profile's dialect gives them, the key where it says
  // (a field, a header, or only the signature); an operation's fixed fields when the path is one.
  const dialect = dialectOf(endpoint);
  const op = operationOfRequest(dialect, url, endpoint.baseUrl);
  const shape = requestShape(dialect, op ?? 'send');
  const params: [string, string][] = [];
  const param = (name: string | null, value: string) => {
    if (name !== null && !params.some(([n]) => n === name)) params.push([name, value]);
  };
  param(shape.fields.account, endpoint.apiId);
  param(shape.fields.password, endpoint.apiKey);
  param(shape.fields.format, req.format);
  if (op) for (const [name, value] of Object.entries(shape.extra)) param(name, value);
  const keyIn = req.credentials === 'none' ? null : keyHeader(shape, endpoint.apiKey);
  if (req.credentials === 'query') {
    const present = new Set([...url.searchParams.keys()]);
    const add = params.filter(([k]) => !present.has(k));
    if (add.length) {
      // Appended as text: the query as written stays as it was.
      const extra = new URLSearchParams(add).toString();
      url.search = url.search.length > 1 ? `${url.search}&${extra}` : `?${extra}`;
    }
  }

  let body: string | null = null;
  let contentType: string | null = null;
  switch (req.body.kind) {
    case 'none':
      if (req.credentials === 'body') {
        body = JSON.stringify(Object.fromEntries(params));
        contentType = JSON_TYPE;
      }
      break;
    case 'json': {
      // Inside a JSON text, values are written as JSON string content ("a\"b").
      const text = fill(req.body.text, (v) => JSON.stringify(v).slice(1, -1));
      body = req.credentials === 'body' ? withJsonParams(text, params) : text;
      contentType = JSON_TYPE;
      break;
    }
    case 'form': {
      const fields = req.body.fields.filter((f) => f.enabled && f.name !== '').map((f) => [fill(f.name), fill(f.value)] as [string, string]);
      const names = new Set(fields.map(([n]) => n));
      const all = req.credentials === 'body' ? [...params.filter(([k]) => !names.has(k)), ...fields] : fields;
      body = new URLSearchParams(all).toString();
      contentType = FORM_TYPE;
      break;
    }
    case 'text':
      if (req.credentials === 'body') throw fail('raw-request-invalid', { kind: 'credentials-in-text' });
      body = fill(req.body.text);
      contentType = TEXT_TYPE;
      break;
  }

  const own = req.headers.filter((h) => h.enabled).map((h): Header => [h.name, fill(h.value)]);
  if (keyIn && !own.some(([n]) => same(n, keyIn[0]))) own.unshift(keyIn);
  for (const [name, value] of own) {
    if (!HEADER_VALUE.test(value)) throw fail('raw-request-invalid', { kind: 'header-value', name });
  }
  const omitted = (name: string) => req.omit.some((o) => same(o, name));
  const ownValue = (name: string) => own.find(([n]) => same(n, name))?.[1];

  // Callout's headers, each replaced by one of the same name or left out; then the others as written.
  const callout: Header[] = [];
  if (contentType && !omitted('Content-Type')) callout.push(['Content-Type', contentType]);
  if (!omitted('Accept')) callout.push(['Accept', req.format === 'xml' ? 'application/xml, application/json' : 'application/json']);
  // A dialect whose key travels only in the signature signs what the profile would otherwise send unsigned.
  const signing = signingOf(req, endpoint) ?? (req.signing === 'profile' && req.credentials !== 'none' && shape.key === 'signature' ? 'spec' : null);
  const host = ownValue('Host') ?? hostOf(url);
  if (!omitted('Host')) callout.push(['Host', host]);
  if (signing) {
    const date = ownValue('Date') ?? formatHttpDate(ctx.now ?? systemClock.date());
    const { authorization } = signParts({
      apiId: endpoint.apiId,
      apiKey: endpoint.apiKey,
      method: req.method,
      host,
      path: url.pathname,
      query: url.search.replace(/^\?/, ''),
      date,
      variant: signing,
    });
    callout.push(['Date', date], ['Authorization', authorization]);
  }
  const headers: Header[] = callout.map(([n, v]): Header => [own.find(([o]) => same(o, n))?.[0] ?? n, ownValue(n) ?? v]);
  for (const h of own) if (!callout.some(([n]) => same(n, h[0]))) headers.push(h);

  const omit: BuiltRequest['omit'] = [];
  if (omitted('Host')) omit.push('host');
  if (omitted('Content-Length')) omit.push('content-length');
  return { request: { method: req.method, url: url.toString(), headers, body, omit, signing }, missing: [...missing] };
}

/**
 * Callout's parameters as the first members of a JSON object, written into the text (nothing else
 * of it is rewritten, so a malformed rest stays malformed). Members the object already has are
 * not added again.
 */
function withJsonParams(text: string, params: [string, string][]): string {
  const open = text.search(/\S/);
  if (open < 0 || text[open] !== '{') throw fail('raw-request-invalid', { kind: 'credentials-not-object' });
  let present = new Set<string>();
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) present = new Set(Object.keys(parsed));
  } catch {
    // Malformed on purpose: add them all.
  }
  const add = params.filter(([k]) => !present.has(k));
  if (!add.length) return text;
  const members = add.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',');
  const rest = text.slice(open + 1);
  const empty = /^\s*}/.test(rest);
  return `${text.slice(0, open + 1)}${members}${empty ? '' : ','}${rest}`;
}
