import { HTTPSnippet, type HarRequest as SnippetRequest } from 'httpsnippet-lite';
import type { CodeTarget } from '../../common/contract/workbench';
import type { Exchange, Header } from '../../common/records';
import { DEFAULT_SIGNATURE_VARIANT, formatHttpDate, hostOf, signParts, type SignatureVariant } from '../signing';
import { REDACTED, Redactor } from '../voice/redaction';
import { harRequest } from './har';
import { systemClock } from '../clock';

export interface CurlOptions {
  /**
   * The real API Key, to reproduce the request as it was sent. Only after an explicit user action
   * (main fetches the key for the clipboard; the renderer never sees it). Without it the command
   * reproduces the stored, redacted request: `password` reads "[REDACTED]" and the provider
   * answers 401.
   */
  apiKey?: string;
  /**
   * With `apiKey`, a signed request (an Authorization header) is signed again with a fresh Date:
   * the stored signature was redacted, and its Date would be outside the gateway's clock window
   * anyway. The variant is the profile's (default 'spec').
   */
  signing?: SignatureVariant;
  now?: () => Date;
  /** The language: cURL (default), or Node fetch, Python requests, Go (httpsnippet's targets). */
  target?: CodeTarget;
}

/** httpsnippet's target and client for each language offered. */
const TARGETS: Record<CodeTarget, [target: string, client: string, options?: Record<string, unknown>]> = {
  curl: ['shell', 'curl', { binary: true, indent: '  ' }],
  node: ['node', 'fetch'],
  python: ['python', 'requests'],
  go: ['go', 'native'],
};

/** Headers curl computes itself: a stored Content-Length would be wrong once the key replaces the placeholder. */
const COMPUTED = new Set(['content-length', 'connection', 'transfer-encoding']);
const structural = new Redactor([]);

function withKey(text: string, apiKey: string, contentType: string | undefined): string {
  const type = (contentType ?? '').toLowerCase();
  const form = type.includes('x-www-form-urlencoded');
  const json = type.includes('json') || /^\s*[{[]/.test(text);
  const replacement = form ? encodeURIComponent(apiKey) : json ? JSON.stringify(apiKey).slice(1, -1) : apiKey;
  // The Redactor replaced every form of the key (raw, JSON-escaped, URL-encoded) by the placeholder;
  // in a form body the placeholder itself is URL-encoded.
  const encoded = form ? text.split(encodeURIComponent(REDACTED)).join(replacement) : text;
  return encoded.split(REDACTED).join(replacement);
}

function header(headers: readonly Header[], name: string): string | undefined {
  return headers.find(([n]) => n.toLowerCase() === name)?.[1];
}

/**
 * The exchange's request as a cURL command (httpsnippet's shell/curl target, body sent byte for
 * byte with --data-binary), or as code in another language (`target`). Redacted by default; see
 * CurlOptions.apiKey.
 */
export async function toCurl(exchange: Pick<Exchange, 'method' | 'url' | 'requestHeaders' | 'requestBody'>, options: CurlOptions = {}): Promise<string> {
  // Stored exchanges are redacted already; this also covers one that was not.
  let headers: Header[] = structural.headers(exchange.requestHeaders).filter(([n]) => !COMPUTED.has(n.toLowerCase()));
  let body = structural.body(exchange.requestBody, header(exchange.requestHeaders, 'content-type'));
  let url = exchange.url;
  const { apiKey } = options;
  if (apiKey) {
    const type = header(headers, 'content-type');
    if (body !== null) body = withKey(body, apiKey, type);
    url = url.split(encodeURIComponent(REDACTED)).join(encodeURIComponent(apiKey)).split(REDACTED).join(encodeURIComponent(apiKey));
    // A key in a header of the dialect's own (`X-Api-Key: Key …`); Authorization is signed again below.
    headers = headers.map(([n, v]): Header => (n.toLowerCase() === 'authorization' ? [n, v] : [n, v.split(REDACTED).join(apiKey)]));
    const auth = header(headers, 'authorization');
    const keyId = auth && /keyId\s*=\s*"([^"]*)"/i.exec(auth)?.[1];
    if (auth && keyId !== undefined) {
      const target = new URL(url);
      const date = formatHttpDate((options.now ?? (() => systemClock.date()))());
      const host = header(headers, 'host') ?? hostOf(target);
      const { authorization } = signParts({
        apiId: keyId,
        apiKey,
        method: exchange.method,
        host,
        path: target.pathname,
        query: target.search.replace(/^\?/, ''),
        date,
        variant: options.signing ?? DEFAULT_SIGNATURE_VARIANT,
      });
      headers = headers.map(([n, v]): Header => {
        const lower = n.toLowerCase();
        if (lower === 'authorization') return [n, authorization];
        if (lower === 'date') return [n, date];
        return [n, v];
      });
      if (!header(headers, 'date')) headers.push(['Date', date]);
    }
  }
  const request = harRequest({ method: exchange.method, url, requestHeaders: headers, requestBody: body });
  // The body goes out as the exact bytes stored (the Content-Type header stays as it was):
  // httpsnippet would rebuild a form body from its fields without encoding them ('+' in a key
  // would arrive as a space).
  const postData = body === null ? undefined : { mimeType: 'application/octet-stream', text: request.postData?.text ?? '' };
  const snippet = new HTTPSnippet({ ...request, ...(postData ? { postData } : {}) } as unknown as SnippetRequest);
  const [target, client, opts] = TARGETS[options.target ?? 'curl'];
  const out = await snippet.convert(target as never, client, opts);
  if (typeof out !== 'string') throw new Error('httpsnippet could not build code for this request.');
  return out;
}
