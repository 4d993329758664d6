import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildStringToSign, signParts, signRequest, verifyRequest } from '../../../main/signing';
import { VECTORS } from './vectors';

function opensslSignature(key: string, stringToSign: string): string {
  return execFileSync('sh', ['-c', 'openssl dgst -sha256 -hmac "$KEY" -binary | openssl base64 -A'], {
    input: Buffer.from(stringToSign, 'utf8'),
    env: { ...process.env, KEY: key },
  })
    .toString('utf8')
    .trim();
}

describe.each(VECTORS)('known vector: $name', (v) => {
  const parts = { apiId: v.apiId, apiKey: v.apiKey, method: v.method, host: v.host, path: v.path, query: v.query, date: v.date, variant: v.variant };

  it('the written-down signature is what openssl computes for the written-down string', () => {
    expect(opensslSignature(v.apiKey, v.stringToSign)).toBe(v.signature);
  });

  it('buildStringToSign produces the written-down string', () => {
    expect(buildStringToSign(parts)).toBe(v.stringToSign);
  });

  it('signParts produces the signature and the Authorization header', () => {
    const { signature, authorization } = signParts(parts);
    expect(signature).toBe(v.signature);
    expect(authorization).toBe(`Signature keyId="${v.apiId}", algorithm="hmac-sha256", headers="@request-target date host", signature="${v.signature}"`);
  });

  it('signRequest from the URL reaches the same string and signature', () => {
    const steps = signRequest({ apiId: v.apiId, apiKey: v.apiKey, method: v.method, url: v.url, date: v.date, variant: v.variant });
    expect(steps.host).toBe(v.host);
    expect(steps.path).toBe(v.path);
    expect(steps.stringToSign).toBe(v.stringToSign);
    expect(steps.signature).toBe(v.signature);
  });

  it('verifyRequest accepts it under its variant', () => {
    const r = verifyRequest({
      method: v.method,
      url: v.url,
      date: v.date,
      authorization: signParts(parts).authorization,
      apiKey: v.apiKey,
      now: new Date(Date.parse(v.date)),
      variant: v.variant,
    });
    expect(r).toMatchObject({ valid: true, reason: null, variant: v.variant, keyId: v.apiId, skewSeconds: 0 });
  });
});
