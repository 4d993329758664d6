import { createHmac, timingSafeEqual } from 'node:crypto';
import { parseAuthorization } from './authorization';
import { CLOCK_WINDOW_SECONDS, clockSkewSeconds, withinWindow } from './clock';
import { hostOf } from './host';
import { HMAC_ALGORITHM_PREFIX, SIGNATURE_VARIANTS, SIGNED_HEADERS, type SignatureVariant } from './scheme';
import { buildStringToSign } from './string-to-sign';
import { coder, type VerifyDetail, type VerifyDetailParams, type VerifyReason } from '../../common/signature-types';
import { systemClock } from '../clock';
export type { VerifyDetail, VerifyReason } from '../../common/signature-types';

const detail = coder<VerifyDetailParams>();

export interface VerifyInput {
  method: string;
  /** Full URL; the path (and the query, for apisix) are taken from it. */
  url: string;
  /** Host header value if given; default hostOf(url). */
  host?: string;
  /** Date header. */
  date?: string | null;
  authorization?: string | null;
  /** The API Key to verify with, whatever keyId the request names. */
  apiKey?: string;
  /**
   * The API ID the request must be signed for: a keyId naming another is refused (key-id-mismatch),
   * as a gateway does, whatever the key. Undefined: keyId is not compared.
   */
  expectedApiId?: string;
  /** Look the key up by keyId; takes precedence over apiKey. Undefined means unknown key. */
  lookupKey?: (keyId: string) => string | undefined;
  /** Default: the current time. */
  now?: Date;
  /** Default 300; inclusive: |skew| <= window is valid. */
  windowSeconds?: number;
  /** 'any' accepts whichever variant matches (spec tried first); default 'spec'. */
  variant?: SignatureVariant | 'any';
}

export interface VerifyResult {
  valid: boolean;
  reason: VerifyReason | null;
  /** date - now in whole seconds (positive: requester's clock ahead); null before the Date header was read. */
  skewSeconds: number | null;
  /** The variant whose signature matched; null unless valid. */
  variant: SignatureVariant | null;
  /** keyId from the Authorization header; null if it could not be parsed. */
  keyId: string | null;
  /**
   * What the verifier computed, present once the signature comparison was reached.
   * For variant 'any' without a match, this is the first variant's (spec) expectation.
   */
  expected?: { stringToSign: string; signature: string; variant: SignatureVariant };
  /** What exactly is wrong, for malformed-header, unsupported-algorithm and a Date that is not an HTTP-date. */
  detail?: VerifyDetail;
}

function result(reason: VerifyReason, fields: Partial<Omit<VerifyResult, 'valid' | 'reason'>> = {}): VerifyResult {
  return { valid: false, reason, skewSeconds: null, variant: null, keyId: null, ...fields };
}

function sameText(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  // timingSafeEqual needs equal lengths; comparing a buffer with itself keeps the time shape.
  if (ab.length !== bb.length) {
    timingSafeEqual(bb, bb);
    return false;
  }
  return timingSafeEqual(ab, bb);
}

/**
 * Verify a signed request the way the gateway does. Checks, in order:
 * authorization present (missing-authorization) -> parse (malformed-header) -> algorithm is
 * hmac-sha256 (unsupported-algorithm) -> headers list is '@request-target date host'
 * (malformed-header) -> Date present and an HTTP-date (missing-date) -> keyId is the expected API
 * ID, when one is given (key-id-mismatch) -> key (unknown-key) ->
 * clock window (clock-skew) -> signature, compared in constant time (signature-mismatch).
 * Throws TypeError only when `url` is not a URL (a caller error, not a request error).
 */
export function verifyRequest(input: VerifyInput): VerifyResult {
  const url = new URL(input.url);
  const auth = input.authorization;
  if (auth === undefined || auth === null || auth.trim() === '') return result('missing-authorization');

  const parsed = parseAuthorization(auth);
  if (!parsed.ok) return result('malformed-header', { detail: parsed.detail });
  const { keyId, algorithm, headers, signature } = parsed.value;

  const hash = algorithm.startsWith(HMAC_ALGORITHM_PREFIX) ? algorithm.slice(HMAC_ALGORITHM_PREFIX.length) : null;
  if (hash !== 'sha256') {
    return result('unsupported-algorithm', {
      keyId,
      detail: algorithm === '' ? detail('no-algorithm', {}) : detail('algorithm-unsupported', { algorithm: algorithm.slice(0, 40) }),
    });
  }
  if (headers.join(' ') !== SIGNED_HEADERS) {
    return result('malformed-header', {
      keyId,
      detail: detail('headers-list', { got: headers.join(' ').slice(0, 100), expected: SIGNED_HEADERS }),
    });
  }

  const date = input.date;
  if (date === undefined || date === null || date.trim() === '') return result('missing-date', { keyId });
  const now = input.now ?? systemClock.date();
  const skewSeconds = clockSkewSeconds(date, now);
  if (skewSeconds === null) return result('missing-date', { keyId, detail: detail('date-not-http-date', {}) });

  if (input.expectedApiId !== undefined && keyId !== input.expectedApiId) return result('key-id-mismatch', { keyId, skewSeconds });

  const apiKey = input.lookupKey ? input.lookupKey(keyId) : input.apiKey;
  if (apiKey === undefined) return result('unknown-key', { keyId, skewSeconds });

  if (!withinWindow(skewSeconds, input.windowSeconds ?? CLOCK_WINDOW_SECONDS)) {
    return result('clock-skew', { keyId, skewSeconds });
  }

  const requested = input.variant ?? 'spec';
  const candidates: readonly SignatureVariant[] = requested === 'any' ? SIGNATURE_VARIANTS : [requested];
  const host = input.host ?? hostOf(url);
  const path = url.pathname;
  const query = url.search.slice(1);
  let first: VerifyResult['expected'];
  for (const variant of candidates) {
    const stringToSign = buildStringToSign({ apiId: keyId, method: input.method, host, path, query, date, variant });
    const expectedSignature = createHmac('sha256', apiKey).update(stringToSign).digest('base64');
    const expected = { stringToSign, signature: expectedSignature, variant };
    first ??= expected;
    if (sameText(signature, expectedSignature)) {
      return { valid: true, reason: null, skewSeconds, variant, keyId, expected };
    }
  }
  return result('signature-mismatch', { keyId, skewSeconds, expected: first });
}
