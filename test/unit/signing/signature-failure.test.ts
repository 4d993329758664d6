import { describe, expect, it } from 'vitest';
import { SIGNATURE_FAILURE_STATUS, isSignatureFailureReply, signatureFailureBody } from '../../../main/signing';

describe("the gateway's reply to a failed signature", () => {
  it('is HTTP 401 with the APISIX message', () => {
    expect(SIGNATURE_FAILURE_STATUS).toBe(401);
    expect(JSON.stringify(signatureFailureBody())).toBe('{"message":"client request can\'t be validated"}');
  });

  it('is recognised from raw text, bytes or a parsed body', () => {
    const text = '{"message": "client request can\'t be validated"}';
    expect(isSignatureFailureReply(401, text)).toBe(true);
    expect(isSignatureFailureReply(401, Buffer.from(text))).toBe(true);
    expect(isSignatureFailureReply(401, signatureFailureBody())).toBe(true);
  });

  it.each([
    [403, '{"message":"client request can\'t be validated"}'],
    [401, '{"message":"Unauthorized"}'],
    [401, '{"code":401,"msg":"认证失败"}'],
    [401, 'not json'],
    [401, null],
  ])('is not confused with status %i body %j', (status, body) => {
    expect(isSignatureFailureReply(status, body)).toBe(false);
  });
});
