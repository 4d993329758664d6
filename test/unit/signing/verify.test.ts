import { describe, expect, it } from 'vitest';
import { authorizationHeader, formatHttpDate, signParts, signRequest, verifyRequest, type SignatureVariant } from '../../../main/signing';

const API_ID = 'C80604386';
const API_KEY = '语音通知密钥-k3y';
const URL_ = 'https://api.example.com/voice/status?smsid=1633&format=json';
const NOW = new Date(Date.UTC(2026, 10, 21, 22, 36, 54));

function signed(opts: { variant?: SignatureVariant; date?: Date; key?: string; url?: string; method?: string } = {}) {
  const date = formatHttpDate(opts.date ?? NOW);
  const s = signRequest({
    apiId: API_ID,
    apiKey: opts.key ?? API_KEY,
    method: opts.method ?? 'POST',
    url: opts.url ?? URL_,
    date,
    variant: opts.variant,
  });
  return { method: opts.method ?? 'POST', url: opts.url ?? URL_, date, authorization: s.authorization, signature: s.signature, stringToSign: s.stringToSign };
}

const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe('verifyRequest', () => {
  it('accepts a correctly signed request', () => {
    const r = verifyRequest({ ...signed(), apiKey: API_KEY, now: NOW });
    expect(r).toMatchObject({ valid: true, reason: null, skewSeconds: 0, variant: 'spec', keyId: API_ID });
  });

  it('accepts a lower-case method on either side', () => {
    expect(verifyRequest({ ...signed({ method: 'post' }), method: 'POST', apiKey: API_KEY, now: NOW }).valid).toBe(true);
    expect(verifyRequest({ ...signed(), method: 'post', apiKey: API_KEY, now: NOW }).valid).toBe(true);
  });

  it('detects a tampered signature and reports what was expected', () => {
    const req = signed();
    const first = req.signature[0] === 'A' ? 'B' : 'A';
    const tampered = authorizationHeader(API_ID, first + req.signature.slice(1));
    const r = verifyRequest({ ...req, authorization: tampered, apiKey: API_KEY, now: NOW });
    expect(r).toMatchObject({ valid: false, reason: 'signature-mismatch', variant: null, keyId: API_ID, skewSeconds: 0 });
    expect(r.expected).toEqual({ stringToSign: req.stringToSign, signature: req.signature, variant: 'spec' });
  });

  it('detects a signature of the wrong length (valid base64) as a mismatch, without throwing', () => {
    const r = verifyRequest({ ...signed(), authorization: authorizationHeader(API_ID, 'AAAA'), apiKey: API_KEY, now: NOW });
    expect(r.reason).toBe('signature-mismatch');
  });

  it('detects a wrong key, a changed path, a changed host and a changed date as mismatches', () => {
    const req = signed();
    expect(verifyRequest({ ...req, apiKey: 'other', now: NOW }).reason).toBe('signature-mismatch');
    expect(verifyRequest({ ...req, url: 'https://api.example.com/voice/vm', apiKey: API_KEY, now: NOW }).reason).toBe('signature-mismatch');
    expect(verifyRequest({ ...req, host: 'evil.example.com', apiKey: API_KEY, now: NOW }).reason).toBe('signature-mismatch');
    expect(verifyRequest({ ...req, date: formatHttpDate(at(1)), apiKey: API_KEY, now: NOW }).reason).toBe('signature-mismatch');
    expect(verifyRequest({ ...req, method: 'GET', apiKey: API_KEY, now: NOW }).reason).toBe('signature-mismatch');
  });

  it('uses the Host header when given (e.g. the sandbox listening on 127.0.0.1)', () => {
    const req = signed({ url: 'https://api.example.com:8443/voice/vm' });
    const r = verifyRequest({ ...req, url: 'http://127.0.0.1:51234/voice/vm', host: 'api.example.com:8443', apiKey: API_KEY, now: NOW });
    expect(r.valid).toBe(true);
    expect(verifyRequest({ ...req, url: 'http://127.0.0.1:51234/voice/vm', apiKey: API_KEY, now: NOW }).reason).toBe('signature-mismatch');
  });

  describe('clock window (300 s, inclusive)', () => {
    it.each([300, -300])('a Date %i s off is valid', (offset) => {
      const r = verifyRequest({ ...signed({ date: at(offset) }), apiKey: API_KEY, now: NOW });
      expect(r).toMatchObject({ valid: true, skewSeconds: offset });
    });

    it.each([301, -301, 3600, -86400])('a Date %i s off is clock-skew', (offset) => {
      const r = verifyRequest({ ...signed({ date: at(offset) }), apiKey: API_KEY, now: NOW });
      expect(r).toMatchObject({ valid: false, reason: 'clock-skew', skewSeconds: offset, keyId: API_ID });
    });

    it('the gateway clock reads whole seconds', () => {
      const r = verifyRequest({ ...signed({ date: at(-300) }), apiKey: API_KEY, now: new Date(NOW.getTime() + 900) });
      expect(r).toMatchObject({ valid: true, skewSeconds: -300 });
    });

    it('honours a custom window', () => {
      const req = signed({ date: at(30) });
      expect(verifyRequest({ ...req, apiKey: API_KEY, now: NOW, windowSeconds: 30 }).valid).toBe(true);
      expect(verifyRequest({ ...req, apiKey: API_KEY, now: NOW, windowSeconds: 29 }).reason).toBe('clock-skew');
    });
  });

  it.each([undefined, null, '', '   '])('missing Date (%j) is missing-date', (date) => {
    const r = verifyRequest({ ...signed(), date, apiKey: API_KEY, now: NOW });
    expect(r).toMatchObject({ valid: false, reason: 'missing-date', skewSeconds: null });
  });

  it('an unparseable Date is missing-date', () => {
    expect(verifyRequest({ ...signed(), date: '2026-11-21T22:36:54Z', apiKey: API_KEY, now: NOW }).reason).toBe('missing-date');
  });

  it.each([undefined, null, '', '  '])('no Authorization (%j) is missing-authorization', (authorization) => {
    expect(verifyRequest({ ...signed(), authorization, apiKey: API_KEY, now: NOW })).toMatchObject({
      valid: false,
      reason: 'missing-authorization',
      keyId: null,
    });
  });

  it.each([
    ['garbage', 'authorization-syntax'],
    ['Basic dXNlcjpwYXNz', 'authorization-scheme'],
    ['Signature keyId=C1, signature=abc', 'authorization-syntax'],
    ['Signature keyId="C1", signature="%%%"', 'authorization-signature-not-base64'],
  ])('a garbage header (%s) is malformed-header, and says why (%s)', (authorization, code) => {
    const r = verifyRequest({ ...signed(), authorization, apiKey: API_KEY, now: NOW });
    expect(r).toMatchObject({ valid: false, reason: 'malformed-header', keyId: null, detail: { code } });
  });

  it('a different headers list is malformed-header', () => {
    const req = signed();
    const authorization = req.authorization.replace('headers="@request-target date host"', 'headers="date host"');
    expect(verifyRequest({ ...req, authorization, apiKey: API_KEY, now: NOW }).reason).toBe('malformed-header');
  });

  it.each(['hmac-sha1', 'hmac-sha512', 'rsa-sha256', 'HMAC-SHA256', 'hmac-', ''])('algorithm %j is unsupported-algorithm', (algorithm) => {
    const req = signed();
    const authorization = req.authorization.replace('algorithm="hmac-sha256"', `algorithm="${algorithm}"`);
    expect(verifyRequest({ ...req, authorization, apiKey: API_KEY, now: NOW })).toMatchObject({
      valid: false,
      reason: 'unsupported-algorithm',
      keyId: API_ID,
    });
  });

  it('looks the key up by keyId; an unknown keyId is unknown-key', () => {
    const keys = new Map([[API_ID, API_KEY]]);
    const lookupKey = (keyId: string) => keys.get(keyId);
    expect(verifyRequest({ ...signed(), lookupKey, now: NOW }).valid).toBe(true);

    const req = signed();
    const other = authorizationHeader('C00000000', req.signature);
    expect(verifyRequest({ ...req, authorization: other, lookupKey, now: NOW })).toMatchObject({
      valid: false,
      reason: 'unknown-key',
      keyId: 'C00000000',
    });
    expect(verifyRequest({ ...req, now: NOW }).reason).toBe('unknown-key');
  });

  it('a keyId naming another API ID than the expected one is key-id-mismatch, even when the key signs it', () => {
    const req = signed();
    const other = authorizationHeader('C00000000', req.signature);
    // Signed with the right key for the right keyId: valid when the expected API ID is that keyId.
    expect(verifyRequest({ ...req, apiKey: API_KEY, expectedApiId: API_ID, now: NOW }).valid).toBe(true);
    // The same key, another keyId: the key's HMAC matches (keyId is line 1 of the string to sign for its own header), but a gateway refuses it.
    const forOther = signRequest({ apiId: 'C00000000', apiKey: API_KEY, method: req.method, url: req.url, date: req.date });
    expect(verifyRequest({ ...req, authorization: forOther.authorization, apiKey: API_KEY, now: NOW }).valid).toBe(true);
    expect(verifyRequest({ ...req, authorization: forOther.authorization, apiKey: API_KEY, expectedApiId: API_ID, now: NOW })).toMatchObject({
      valid: false,
      reason: 'key-id-mismatch',
      keyId: 'C00000000',
    });
    expect(verifyRequest({ ...req, authorization: other, apiKey: API_KEY, expectedApiId: API_ID, now: NOW }).reason).toBe('key-id-mismatch');
  });

  it('checks in the documented order', () => {
    const req = signed({ date: at(1000) });
    const badAlg = req.authorization.replace('hmac-sha256', 'hmac-sha1');
    // unsupported algorithm before missing date
    expect(verifyRequest({ ...req, authorization: badAlg, date: null, apiKey: API_KEY, now: NOW }).reason).toBe('unsupported-algorithm');
    // missing date before unknown key
    expect(verifyRequest({ ...req, date: null, lookupKey: () => undefined, now: NOW }).reason).toBe('missing-date');
    // unknown key before clock skew
    expect(verifyRequest({ ...req, lookupKey: () => undefined, now: NOW }).reason).toBe('unknown-key');
    // clock skew before signature mismatch
    expect(verifyRequest({ ...req, apiKey: 'wrong', now: NOW }).reason).toBe('clock-skew');
  });

  describe('variants', () => {
    it("'any' reports which variant matched", () => {
      for (const variant of ['spec', 'apisix'] as const) {
        const r = verifyRequest({ ...signed({ variant }), apiKey: API_KEY, now: NOW, variant: 'any' });
        expect(r).toMatchObject({ valid: true, variant });
        expect(r.expected?.variant).toBe(variant);
      }
    });

    it("'any' still rejects a bad signature", () => {
      const r = verifyRequest({ ...signed(), apiKey: 'wrong', now: NOW, variant: 'any' });
      expect(r).toMatchObject({ valid: false, reason: 'signature-mismatch', variant: null });
    });

    it('a spec-signed request fails as apisix and vice versa', () => {
      expect(verifyRequest({ ...signed({ variant: 'spec' }), apiKey: API_KEY, now: NOW, variant: 'apisix' }).reason).toBe('signature-mismatch');
      expect(verifyRequest({ ...signed({ variant: 'apisix' }), apiKey: API_KEY, now: NOW, variant: 'spec' }).reason).toBe('signature-mismatch');
      // also without a query, where the only difference is the trailing line break
      const noQuery = 'https://api.example.com/voice/vm';
      expect(verifyRequest({ ...signed({ variant: 'spec', url: noQuery }), apiKey: API_KEY, now: NOW, variant: 'apisix' }).reason).toBe('signature-mismatch');
      expect(verifyRequest({ ...signed({ variant: 'apisix', url: noQuery }), apiKey: API_KEY, now: NOW, variant: 'spec' }).reason).toBe('signature-mismatch');
    });

    it('under spec, a query string signed by mistake is a mismatch, and the expected string shows the path alone', () => {
      const date = formatHttpDate(NOW);
      const wrong = signParts({ apiId: API_ID, apiKey: API_KEY, method: 'POST', host: 'api.example.com', path: '/voice/status?smsid=1633&format=json', date });
      const r = verifyRequest({ method: 'POST', url: URL_, date, authorization: wrong.authorization, apiKey: API_KEY, now: NOW, variant: 'spec' });
      expect(r.reason).toBe('signature-mismatch');
      expect(r.expected?.stringToSign.split('\n')[1]).toBe('POST /voice/status');
    });

    it('under apisix, the query is covered: changing it is a mismatch', () => {
      const req = signed({ variant: 'apisix' });
      expect(verifyRequest({ ...req, apiKey: API_KEY, now: NOW, variant: 'apisix' }).valid).toBe(true);
      expect(verifyRequest({ ...req, url: URL_.replace('1633', '1634'), apiKey: API_KEY, now: NOW, variant: 'apisix' }).reason).toBe('signature-mismatch');
      // while spec ignores the query
      const spec = signed({ variant: 'spec' });
      expect(verifyRequest({ ...spec, url: URL_.replace('1633', '1634'), apiKey: API_KEY, now: NOW }).valid).toBe(true);
    });
  });
});
