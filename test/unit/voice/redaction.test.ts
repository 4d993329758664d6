import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../common/records';
import { REDACTED, Redactor } from '../../../main/voice/redaction';

const KEY = 'k3y/with+odd"chars&=中文';

function exchange(over: Partial<Exchange> = {}): Exchange {
  return {
    operation: 'send',
    method: 'POST',
    url: 'http://127.0.0.1:1/voice/vm',
    requestHeaders: [
      ['Content-Type', 'application/json'],
      ['Authorization', 'Signature keyId="id", algorithm="hmac-sha256", headers="@request-target date host", signature="c2lnbmF0dXJl"'],
    ],
    requestBody: JSON.stringify({ account: 'id', password: KEY, mobile: '13800138000', content: 'hi' }),
    status: 200,
    statusText: 'OK',
    responseHeaders: [['Content-Type', 'application/json']],
    responseBody: JSON.stringify({ code: 401, msg: `bad password ${KEY}` }),
    error: null,
    startedAt: 0,
    timings: { dnsMs: null, connectMs: 1, tlsMs: null, firstByteMs: 2, totalMs: 3 },
    ...over,
  };
}

describe('redaction', () => {
  it('removes the key from JSON bodies, echoed replies, URLs and errors, and the signature from Authorization', () => {
    const r = new Redactor([KEY]).exchange(
      exchange({ url: `http://h/x?password=${encodeURIComponent(KEY)}`, error: { kind: 'reset', message: `failed for ${KEY}` } }),
    );
    const all = JSON.stringify(r);
    expect(all).not.toContain('k3y');
    expect(all).not.toContain('c2lnbmF0dXJl');
    expect(JSON.parse(r.requestBody!)).toMatchObject({ account: 'id', password: REDACTED, mobile: '13800138000' });
    expect(r.requestHeaders[1]![1]).toContain(`signature="${REDACTED}"`);
    expect(r.requestHeaders[1]![1]).toContain('keyId="id"');
  });

  it('redacts the password field of a form body even when the key is not known to it', () => {
    const r = new Redactor([]).exchange(
      exchange({ requestHeaders: [['Content-Type', 'application/x-www-form-urlencoded']], requestBody: 'account=id&password=other-secret&mobile=1' }),
    );
    expect(r.requestBody).toBe(`account=id&password=${encodeURIComponent(REDACTED)}&mobile=1`);
  });

  it('leaves exchanges without secrets byte for byte as they were', () => {
    const plain = exchange({
      requestBody: '{"account":"id","mobile":"1"}',
      requestHeaders: [['Content-Type', 'application/json']],
      responseBody: '{"code":2, "msg":"ok"}',
    });
    expect(new Redactor([KEY]).exchange(plain)).toEqual(plain);
  });
});
