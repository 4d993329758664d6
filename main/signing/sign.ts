import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { authorizationHeader } from './authorization';
import { formatHttpDate } from './http-date';
import { hostOf } from './host';
import { DEFAULT_SIGNATURE_VARIANT, type SignatureVariant } from './scheme';
import { buildStringToSign, stringToSignLines, type StringToSignParts } from './string-to-sign';
import type { SignSteps } from '../../common/signature-types';
import { systemClock } from '../clock';
export type { SignSteps } from '../../common/signature-types';

// The last API Key used, prepared once as a KeyObject when it is used twice in a row. Saves
// re-encoding the key on every signature (about a tenth of the cost of one). Keys that change
// from call to call take the plain path (createHmac with the string, like everyone else), so a
// rotation through many keys never pays for preparing KeyObjects it will not reuse.
let lastKey: string | undefined;
let lastKeyObject: KeyObject | undefined;

function hmacKey(apiKey: string): KeyObject | string {
  if (apiKey === lastKey) return (lastKeyObject ??= createSecretKey(Buffer.from(apiKey, 'utf8')));
  lastKey = apiKey;
  lastKeyObject = undefined;
  return apiKey;
}

/** Forget the remembered key (e.g. after the API Key was replaced or deleted). */
export function clearSigningKeyCache(): void {
  lastKey = undefined;
  lastKeyObject = undefined;
}

/**
 * Fast path, used by the HTTP client and the benchmark: string concatenation, one HMAC,
 * base64 digest, header template. No URL parsing, no validation, no hex.
 * HMAC-SHA256 over the UTF-8 bytes of the string to sign, keyed with the UTF-8 bytes of the API Key.
 */
export function signParts(p: StringToSignParts & { apiKey: string }): { signature: string; authorization: string } {
  const signature = createHmac('sha256', hmacKey(p.apiKey)).update(buildStringToSign(p)).digest('base64');
  return { signature, authorization: authorizationHeader(p.apiId, signature) };
}

export interface SignInput {
  apiId: string;
  apiKey: string;
  method: string;
  /** Full http(s) URL. The path goes into the string to sign; the query only for the apisix variant; the fragment never. */
  url: string;
  /** HTTP-date; default: now. Signed exactly as given. */
  date?: string;
  variant?: SignatureVariant;
}

const METHOD_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Characters that would split a line of the string to sign or break a header.
const LINE_BREAK = /[\r\n]/;

/**
 * Explained path, for the signature workbench and the CLI: every intermediate step.
 * Throws TypeError for a URL that is not http(s), a method that is not an HTTP token, an API ID
 * containing a double quote or a line break, or a date containing a line break.
 */
export function signRequest(input: SignInput): SignSteps {
  const variant = input.variant ?? DEFAULT_SIGNATURE_VARIANT;
  if (input.apiId === '' || LINE_BREAK.test(input.apiId) || input.apiId.includes('"')) {
    throw new TypeError('API ID must be non-empty and contain no double quote or line break');
  }
  if (!METHOD_TOKEN.test(input.method)) throw new TypeError(`invalid HTTP method: ${JSON.stringify(input.method)}`);
  let parsed: URL;
  try {
    parsed = new URL(input.url);
  } catch {
    throw new TypeError(`invalid URL: ${JSON.stringify(input.url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TypeError(`URL must be http or https, got ${parsed.protocol}`);
  }
  const date = input.date ?? formatHttpDate(systemClock.date());
  if (LINE_BREAK.test(date)) throw new TypeError('Date must not contain a line break');

  const droppedFragment = input.url.includes('#');
  parsed.hash = '';
  const method = input.method.toUpperCase();
  const host = hostOf(parsed);
  const path = parsed.pathname;
  const query = parsed.search.slice(1);
  const parts: StringToSignParts = { apiId: input.apiId, method, host, path, query, date, variant };

  const lines = stringToSignLines(parts);
  const stringToSign = buildStringToSign(parts);
  const bytes = Buffer.from(stringToSign, 'utf8');
  const mac = createHmac('sha256', Buffer.from(input.apiKey, 'utf8')).update(bytes).digest();
  const signature = mac.toString('base64');
  const authorization = authorizationHeader(input.apiId, signature);

  return {
    variant,
    method,
    url: parsed.href,
    host,
    path,
    query,
    droppedQuery: variant === 'spec' && query !== '',
    droppedFragment,
    date,
    lines,
    stringToSign,
    stringToSignBytesHex: bytes.toString('hex'),
    hmacHex: mac.toString('hex'),
    signature,
    authorization,
    headers: { Host: host, Date: date, Authorization: authorization },
  };
}
