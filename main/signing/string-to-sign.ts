import type { SignatureVariant } from './scheme';

export interface StringToSignParts {
  apiId: string;
  method: string;
  host: string;
  /** The path, e.g. `/voice/vm`, without the query string. */
  path: string;
  /** The query string without the leading '?' (a leading '?' is tolerated). Only the apisix variant signs it. */
  query?: string;
  /** The Date header value (HTTP-date). */
  date: string;
  /** Default `spec`. */
  variant?: SignatureVariant;
}

/**
 * The method in upper case. Methods almost always arrive upper-case already, and
 * String#toUpperCase costs more than building the whole string to sign, so only call it when needed.
 */
export function upperMethod(method: string): string {
  for (let i = 0; i < method.length; i++) {
    const c = method.charCodeAt(i);
    if ((c >= 97 && c <= 122) || c > 127) return method.toUpperCase();
  }
  return method;
}

/**
 * The request target on line 2 (after the method and one space).
 * spec: the path only. apisix: the path plus '?' and the query when the query is non-empty.
 */
export function requestTarget(path: string, query: string | undefined, variant: SignatureVariant | undefined): string {
  if (variant !== 'apisix' || !query) return path;
  return query.charCodeAt(0) === 63 /* ? */ ? (query.length > 1 ? path + query : path) : path + '?' + query;
}

/**
 * The string to sign.
 * - spec (default): `apiId\nMETHOD path\ndate: <date>\nhost: <host>` (no trailing line break).
 * - apisix: `apiId\nMETHOD path?query\ndate: <date>\nhost: <host>\n` (a line break after every line).
 *
 * Plain concatenation on purpose: this is on the hot path of every signed request.
 */
export function buildStringToSign(p: StringToSignParts): string {
  const head = p.apiId + '\n' + upperMethod(p.method) + ' ';
  if (p.variant === 'apisix') {
    return head + requestTarget(p.path, p.query, 'apisix') + '\ndate: ' + p.date + '\nhost: ' + p.host + '\n';
  }
  return head + p.path + '\ndate: ' + p.date + '\nhost: ' + p.host;
}

/** The four lines of the string to sign, without line breaks. */
export function stringToSignLines(p: StringToSignParts): string[] {
  return [p.apiId, upperMethod(p.method) + ' ' + requestTarget(p.path, p.query, p.variant), 'date: ' + p.date, 'host: ' + p.host];
}
