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

  it.each([
    ['empty', ''],
    ['scheme only', 'Signature'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['bearer', 'Bearer abc.def.ghi'],
    ['missing keyId', `Signature algorithm="hmac-sha256", headers="@request-target date host", signature="${SIG}"`],
    ['empty keyId', `Signature keyId="", algorithm="hmac-sha256", signature="${SIG}"`],
    ['missing signature', 'Signature keyId="C1", algorithm="hmac-sha256", headers="@request-target date host"'],
    ['unquoted keyId', `Signature keyId=C1, algorithm="hmac-sha256", signature="${SIG}"`],
    ['unquoted signature', `Signature keyId="C1", signature=${SIG}`],
    ['non-base64 signature', 'Signature keyId="C1", signature="not base64!"'],
    ['base64url signature', 'Signature keyId="C1", signature="ab-_cd=="'],
    ['bad padding', 'Signature keyId="C1", signature="abc"'],
    ['unterminated quote', 'Signature keyId="C1, signature="abcd"'],
    ['duplicate parameter', `Signature keyId="C1", keyId="C2", signature="${SIG}"`],
    ['missing comma', `Signature keyId="C1" signature="${SIG}"`],
    ['garbage', '!!!'],
  ])('rejects %s as malformed-header', (_name, value) => {
    const r = parseAuthorization(value);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toBe('malformed-header');
      expect(r.detail).not.toBe('');
    }
  });
});
