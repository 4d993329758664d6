/**
 * The reply when a signature check fails. The spec does not show it; per ARCHITECTURE we use
 * what APISIX's hmac-auth answers: HTTP 401 with `{"message": "client request can't be validated"}`.
 * The sandbox's gateway sends it; the client recognises it with the same rule (common/domain/codes).
 */
import { SIGNATURE_REJECTED_HTTP_STATUS, SIGNATURE_REJECTED_MESSAGE, isSignatureRejection } from '../../common/domain/codes';

export const SIGNATURE_FAILURE_STATUS = SIGNATURE_REJECTED_HTTP_STATUS;
export const SIGNATURE_FAILURE_MESSAGE = SIGNATURE_REJECTED_MESSAGE;

export function signatureFailureBody(): { message: string } {
  return { message: SIGNATURE_FAILURE_MESSAGE };
}

/** True for a 401 whose body (raw JSON text or an already parsed value) carries the gateway's message. */
export function isSignatureFailureReply(status: number, body: unknown): boolean {
  return isSignatureRejection(status, body instanceof Uint8Array ? Buffer.from(body).toString('utf8') : body);
}
