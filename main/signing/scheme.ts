/**
 * Constants of the HMAC-SHA256 request-signature scheme (spec section 5.2).
 *
 * The header format is the one of Apache APISIX's `hmac-auth` plugin (draft-cavage based).
 * The spec leaves the exact string to sign open (trailing line break, query string), so two
 * named variants exist; see ARCHITECTURE.md, "Decisions where the spec says not shown".
 */

import type { SignatureVariant } from '../../common/signature-types';
export type { SignatureVariant } from '../../common/signature-types';
export const SIGNATURE_VARIANTS: readonly SignatureVariant[] = Object.freeze(['spec', 'apisix'] as const);

export const DEFAULT_SIGNATURE_VARIANT: SignatureVariant = 'spec';

export function isSignatureVariant(value: unknown): value is SignatureVariant {
  return value === 'spec' || value === 'apisix';
}

/** The only algorithm supported; the hash name is the part after the five-character prefix `hmac-`. */
export const SIGNATURE_ALGORITHM = 'hmac-sha256';
export const HMAC_ALGORITHM_PREFIX = 'hmac-';

/** The signed headers, in order, as they appear in the Authorization header's `headers` parameter. */
export const SIGNED_HEADERS = '@request-target date host';
