import { describe, expect, it } from 'vitest';
import { authorizationHeader, parseAuthorization } from '../../../main/signing';

const SIG = 'FnAzSH22amuCBtpi7GgRFa3u+woPfwrWGJNn17FV9Is=';

describe('authorizationHeader', () => {
  it('has the exact format of the spec', () => {
    expect(authorizationHeader('C80604386', SIG)).toBe(
      'Signature keyId="C80604386", algorithm="hmac-sha256", headers="@request-target date host", signature="FnAzSH22amuCBtpi7GgRFa3u+woPfwrWGJNn17FV9Is="',
    );
  });
});

describe('parseAuthorization', () => {
  it('round-trips authorizationHeader, including a Chinese API ID', () => {
    for (const keyId of ['C80604386', '测试账号']) {
      expect(parseAuthorization(authorizationHeader(keyId, SIG))).toEqual({
        ok: true,
        value: { keyId, algorithm: 'hmac-sha256', headers: ['@request-target', 'date', 'host'], signature: SIG },
      });
    }
  });

  it.each([
    `signature keyId="C1",algorithm="hmac-sha256",headers="@request-target date host",signature="${SIG}"`,
    `SIGNATURE   signature="${SIG}",    headers="@request-target date host",   keyId="C1", algorithm="hmac-sha256"`,
    `Signature keyId = "C1" , algorithm="hmac-sha256", headers="@request-target date host", signature="${SIG}"`,
    `keyId="C1", algorithm="hmac-sha256", headers="@request-target date host", signature="${SIG}"`,
    `  Signature keyId="C1", algorithm="hmac-sha256", headers="@request-target date host", signature="${SIG}", created="1"  `,
  ])('tolerates %s', (value) => {
    const r = parseAuthorization(value);
    expect(r).toEqual({
      ok: true,
      value: { keyId: 'C1', algorithm: 'hmac-sha256', headers: ['@request-target', 'date', 'host'], signature: SIG },
    });
  });

  const syntax = (kind: string, name: string, position: number) => ({ code: 'authorization-syntax', params: { kind, name, position } });
  it.each([
    ['empty', '', { code: 'authorization-empty', params: {} }],
    ['scheme only', 'Signature', syntax('equals-expected', 'Signature', 9)],
    ['another scheme', 'Basic dXNlcjpwYXNz', { code: 'authorization-scheme', params: { scheme: 'Basic' } }],
    ['bearer', 'Bearer abc.def.ghi', { code: 'authorization-scheme', params: { scheme: 'Bearer' } }],
    [
      'missing keyId',
      `Signature algorithm="hmac-sha256", headers="@request-target date host", signature="${SIG}"`,
      { code: 'authorization-no-key-id', params: {} },
    ],
    ['empty keyId', `Signature keyId="", algorithm="hmac-sha256", signature="${SIG}"`, { code: 'authorization-no-key-id', params: {} }],
    [
      'missing signature',
      'Signature keyId="C1", algorithm="hmac-sha256", headers="@request-target date host"',
      { code: 'authorization-no-signature', params: {} },
    ],
    ['unquoted keyId', `Signature keyId=C1, algorithm="hmac-sha256", signature="${SIG}"`, syntax('unquoted', 'keyId', 6)],
    ['unquoted signature', `Signature keyId="C1", signature=${SIG}`, syntax('unquoted', 'signature', 22)],
    ['non-base64 signature', 'Signature keyId="C1", signature="not base64!"', { code: 'authorization-signature-not-base64', params: {} }],
    ['base64url signature', 'Signature keyId="C1", signature="ab-_cd=="', { code: 'authorization-signature-not-base64', params: {} }],
    ['bad padding', 'Signature keyId="C1", signature="abc"', { code: 'authorization-signature-not-base64', params: {} }],
    ['a quote closed too late', 'Signature keyId="C1, signature="abcd"', syntax('comma-expected', 'keyId', 22)],
    ['unterminated quote', 'Signature keyId="C1', syntax('unterminated', 'keyId', 6)],
    ['backslash escape', 'Signature keyId="C\\1", signature="abcd"', syntax('backslash', 'keyId', 8)],
    ['duplicate parameter', `Signature keyId="C1", keyId="C2", signature="${SIG}"`, syntax('duplicate', 'keyId', 12)],
    ['missing comma', `Signature keyId="C1" signature="${SIG}"`, syntax('comma-expected', 'keyId', 11)],
    ['garbage', '!!!', syntax('name-expected', '', 0)],
  ])('rejects %s as malformed-header, saying why', (_name, value, detail) => {
    expect(parseAuthorization(value)).toEqual({ ok: false, reason: 'malformed-header', detail });
  });
});
