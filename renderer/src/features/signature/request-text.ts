// Text forms of a signed request, composed from the engine's steps (never from a key): the cURL
// command and the raw HTTP request of the Build case, and the presets of the Build form.
import type { SignSteps } from '../../../../common/signature-types';

/** Quotes a word for a POSIX shell: single quotes, with each ' written as '\''. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export const CONTENT_TYPE = 'application/json';

/**
 * The whole request as a cURL command (bash): method, URL, Host, Date, Authorization,
 * Content-Type, and the body as typed (the product's body is not part of the signature; the voice
 * presets' body writes the key as the password variable, which the raw client fills in main).
 */
export function curlCommand(steps: Pick<SignSteps, 'method' | 'url' | 'headers'>, body: string): string {
  const lines = [
    `curl -X ${steps.method} ${shellQuote(steps.url)}`,
    `-H ${shellQuote(`Host: ${steps.headers.Host}`)}`,
    `-H ${shellQuote(`Date: ${steps.headers.Date}`)}`,
    `-H ${shellQuote(`Authorization: ${steps.headers.Authorization}`)}`,
    `-H ${shellQuote(`Content-Type: ${CONTENT_TYPE}`)}`,
  ];
  if (body !== '') lines.push(`--data-raw ${shellQuote(body)}`);
  return lines.join(' \\\n  ');
}

/** The same request as raw HTTP/1.1 (what the Verify tab reads back), with the body when there is one. */
export function rawHttpRequest(steps: Pick<SignSteps, 'method' | 'url' | 'headers'>, body = ''): string {
  const url = new URL(steps.url);
  return [
    `${steps.method} ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${steps.headers.Host}`,
    `Date: ${steps.headers.Date}`,
    `Authorization: ${steps.headers.Authorization}`,
    `Content-Type: ${CONTENT_TYPE}`,
    '',
    body,
  ].join('\r\n');
}

/**
 * The JSON body a voice operation sends (spec section 4), the key written as the password variable:
 * Callout never has it here; the raw client fills it in main.
 */
export function presetBody(id: PresetId | null, apiId: string): string {
  const fields: Record<string, string> = { account: apiId, password: '{{password}}' };
  if (id === 'voice-send') Object.assign(fields, { mobile: '', content: '' });
  else if (id === 'voice-status') fields.smsid = '';
  else if (id !== 'voice-balance') return '';
  return JSON.stringify({ ...fields, format: 'json' });
}

export type PresetId = 'voice-send' | 'voice-status' | 'voice-balance' | 'numbercheck-submit' | 'numbercheck-balance';

export interface Preset {
  id: PresetId;
  group: 'voice' | 'numbercheck';
  method: 'POST' | 'GET';
  /** For voice presets: the path under the profile's base URL; for the examples: the whole example URL. */
  path: string;
}

/**
 * The voice operations (spec section 4) and the spec's signature example product, a number-checking
 * service with submit and balance operations. The spec gives no address for the latter: these URLs
 * are clearly examples (api.example.com) and are labelled so.
 */
export const PRESETS: readonly Preset[] = [
  { id: 'voice-send', group: 'voice', method: 'POST', path: '/voice/vm' },
  { id: 'voice-status', group: 'voice', method: 'POST', path: '/voice/status' },
  { id: 'voice-balance', group: 'voice', method: 'POST', path: '/voice/balance' },
  { id: 'numbercheck-submit', group: 'numbercheck', method: 'POST', path: 'https://api.example.com/numbercheck/submit' },
  { id: 'numbercheck-balance', group: 'numbercheck', method: 'POST', path: 'https://api.example.com/numbercheck/balance' },
];

/** The URL of a preset: voice paths joined to the base URL (its own path kept, one slash between). */
export function presetUrl(preset: Preset, baseUrl: string | null): string | null {
  if (preset.group === 'numbercheck') return preset.path;
  if (!baseUrl) return null;
  try {
    const u = new URL(baseUrl);
    u.pathname = `${u.pathname.replace(/\/+$/, '')}${preset.path}`;
    u.search = '';
    u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}

/** An absolute http(s) URL, or null. */
export function httpUrl(text: string): URL | null {
  try {
    const u = new URL(text.trim());
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' ? u : null;
  } catch {
    return null;
  }
}

/** The current time as an HTTP-date (IMF-fixdate), e.g. "Sat, 21 Nov 2026 22:36:54 GMT". */
export function httpDateNow(offsetSeconds = 0): string {
  return new Date(Date.now() + offsetSeconds * 1000).toUTCString();
}

/** True for a text the browser reads as a date (main checks it is a real HTTP-date). */
export function looksLikeDate(text: string): boolean {
  return text.trim() !== '' && !Number.isNaN(Date.parse(text));
}

/** Splits a string to sign into its lines, and whether a line break follows the last one. */
export function splitStringToSign(text: string): { lines: string[]; trailing: boolean } {
  const trailing = text.endsWith('\n');
  const lines = (trailing ? text.slice(0, -1) : text).split('\n');
  return { lines, trailing };
}

/** A file name from a vector name: letters, digits and dashes. */
export function vectorFileName(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .toLowerCase();
  return `callout-vector-${slug || 'case'}.json`;
}
