import { SIGNATURE_ALGORITHM, SIGNED_HEADERS } from './scheme';
import { coder, type AuthorizationProblem, type AuthorizationProblemParams } from '../../common/signature-types';

/**
 * `Signature keyId="<apiId>", algorithm="hmac-sha256", headers="@request-target date host", signature="<sig>"`
 * Plain concatenation: used on the hot path.
 */
export function authorizationHeader(apiId: string, signature: string): string {
  return 'Signature keyId="' + apiId + '", algorithm="' + SIGNATURE_ALGORITHM + '", headers="' + SIGNED_HEADERS + '", signature="' + signature + '"';
}

export type ParsedAuthorization = { keyId: string; algorithm: string; headers: string[]; signature: string };

export type ParseAuthorizationResult = { ok: true; value: ParsedAuthorization } | { ok: false; reason: 'malformed-header'; detail: AuthorizationProblem };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const PARAM_NAME = /[A-Za-z0-9_-]/;

const problem = coder<AuthorizationProblemParams>();

function fail(detail: AuthorizationProblem): ParseAuthorizationResult {
  return { ok: false, reason: 'malformed-header', detail };
}

type SyntaxKind = AuthorizationProblemParams['authorization-syntax']['kind'];

function syntax(kind: SyntaxKind, name: string, position: number): ParseAuthorizationResult {
  return fail(problem('authorization-syntax', { kind, name: name.length > 40 ? name.slice(0, 40) + '…' : name, position }));
}

function isWs(c: string | undefined): boolean {
  return c === ' ' || c === '\t';
}

/**
 * Parse a Signature Authorization header value.
 * Accepts the exact format `authorizationHeader` produces; tolerates spaces/tabs around commas
 * and '=', any parameter order, unknown extra parameters (ignored), and the `Signature` scheme
 * prefix in any letter case (the prefix may also be absent, as APISIX allows).
 * Rejects: missing or empty keyId / signature, unquoted values, duplicate parameters, a
 * signature that is not standard padded base64, and anything unparseable.
 * A missing `algorithm` gives '' and a missing `headers` gives [] (verification then fails on them).
 */
export function parseAuthorization(value: string): ParseAuthorizationResult {
  if (typeof value !== 'string') return fail(problem('authorization-empty', {}));
  let s = value.trim();
  if (s === '') return fail(problem('authorization-empty', {}));
  const prefix = /^signature[ \t]+/i.exec(s);
  if (prefix) s = s.slice(prefix[0].length);
  else if (/^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*[ \t]+[^=\s]/.test(s)) {
    // Some other scheme ("Basic xyz", "Bearer xyz"): a word followed by something that is not '='.
    const scheme = s.split(/[ \t]/, 1)[0] ?? '';
    return fail(problem('authorization-scheme', { scheme: scheme.slice(0, 40) }));
  }

  const params = new Map<string, string>();
  let i = 0;
  const n = s.length;
  for (;;) {
    while (isWs(s[i])) i++;
    const nameStart = i;
    while (i < n && PARAM_NAME.test(s[i] as string)) i++;
    const name = s.slice(nameStart, i);
    if (name === '') return syntax('name-expected', '', nameStart);
    while (isWs(s[i])) i++;
    if (s[i] !== '=') return syntax('equals-expected', name, i);
    i++;
    while (isWs(s[i])) i++;
    if (s[i] !== '"') return syntax('unquoted', name, i);
    i++;
    const valueStart = i;
    while (i < n && s[i] !== '"') {
      if (s[i] === '\\') return syntax('backslash', name, i);
      i++;
    }
    if (i >= n) return syntax('unterminated', name, valueStart - 1);
    const paramValue = s.slice(valueStart, i);
    i++;
    if (params.has(name)) return syntax('duplicate', name, nameStart);
    params.set(name, paramValue);
    while (isWs(s[i])) i++;
    if (i >= n) break;
    if (s[i] !== ',') return syntax('comma-expected', name, i);
    i++;
    while (isWs(s[i])) i++;
    if (i >= n) break; // tolerate a trailing comma
  }

  const keyId = params.get('keyId');
  if (keyId === undefined || keyId === '') return fail(problem('authorization-no-key-id', {}));
  const signature = params.get('signature');
  if (signature === undefined || signature === '') return fail(problem('authorization-no-signature', {}));
  if (!BASE64.test(signature)) return fail(problem('authorization-signature-not-base64', {}));
  const algorithm = params.get('algorithm') ?? '';
  const headersParam = params.get('headers');
  const headers =
    headersParam === undefined
      ? []
      : headersParam
          .split(/[ \t]+/)
          .filter((h) => h !== '')
          .map((h) => h.toLowerCase());
  return { ok: true, value: { keyId, algorithm, headers, signature } };
}
