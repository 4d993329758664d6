/**
 * Provider result codes (spec section 7) and the gateway's signature rejection. Their meaning and
 * what to do next are texts of the message catalog (common/messages: provider.<code>.meaning and
 * .action; provider.unknown for an undocumented code, provider.none for a reply without one).
 * Texts never claim more than we know: a 500 or an unknown code may still have placed a call.
 */

export type ResultCode = 2 | 400 | 401 | 402 | 403 | 404 | 500;

/** The provider's success code. */
export const SUCCESS_CODE = 2;

/** All documented result codes, in ascending order. */
export const RESULT_CODE_LIST: readonly ResultCode[] = [2, 400, 401, 402, 403, 404, 500];

export function isResultCode(code: unknown): code is ResultCode {
  return typeof code === 'number' && (RESULT_CODE_LIST as readonly number[]).includes(code);
}

/** The body the gateway sends (with HTTP 401) when it cannot validate a request signature. */
export const SIGNATURE_REJECTED_MESSAGE = "client request can't be validated";
export const SIGNATURE_REJECTED_HTTP_STATUS = 401;

/**
 * True when a reply is the gateway's signature rejection: HTTP 401 with a JSON body whose
 * `message` is "client request can't be validated". `body` may be the raw text or the parsed value.
 */
export function isSignatureRejection(httpStatus: number, body: unknown): boolean {
  if (httpStatus !== SIGNATURE_REJECTED_HTTP_STATUS) return false;
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body) as unknown;
    } catch {
      return false;
    }
  }
  return typeof value === 'object' && value !== null && (value as { message?: unknown }).message === SIGNATURE_REJECTED_MESSAGE;
}
