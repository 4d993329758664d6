import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  authorizationHeader,
  diagnoseSignature,
  formatHttpDate,
  signRequest,
  verifyRequest,
  type DiagnoseInput,
  type Diagnosis,
  type DiagnosedPart,
} from '../../../main/signing';

const API_ID = 'C80604386';
const KEY = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const OTHER_KEY = 'key-of-the-staging-profile';
const NOW = new Date(Date.UTC(2026, 10, 21, 22, 36, 54));
const DATE = formatHttpDate(NOW);
const URL_ = 'http://127.0.0.1:8080/voice/vm';
const HOST = '127.0.0.1:8080';

/** An HMAC written out here, independent of the engine: for strings the engine would never build. */
function hmacOf(key: string, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('base64');
}

function signed(opts: { url?: string; date?: string; apiId?: string; apiKey?: string; variant?: 'spec' | 'apisix'; method?: string } = {}) {
  return signRequest({
    apiId: opts.apiId ?? API_ID,
    apiKey: opts.apiKey ?? KEY,
    method: opts.method ?? 'POST',
    url: opts.url ?? URL_,
    date: opts.date ?? DATE,
    variant: opts.variant ?? 'spec',
  });
}

function diagnose(overrides: Partial<DiagnoseInput> & { authorization: string | null }): Diagnosis {
  return diagnoseSignature({ method: 'POST', url: URL_, host: HOST, date: DATE, apiKey: KEY, expectedApiId: API_ID, now: NOW, ...overrides });
}

function part(d: Diagnosis, name: DiagnosedPart) {
  const p = d.parts.find((x) => x.part === name);
  if (!p) throw new Error(`no part ${name}`);
  return p;
}

function cause(d: Diagnosis, id: string) {
  return d.causes.find((c) => c.id === id);
}

describe('diagnoseSignature', () => {
  it('a valid request: valid, every part ok, no cause, skew 0 within the window', () => {
    const d = diagnose({ authorization: signed().authorization });
    expect(d.valid).toBe(true);
    expect(d.verdict).toBeNull();
    expect(d.parts.map((p) => [p.part, p.status])).toEqual([
      ['keyId', 'ok'],
      ['algorithm', 'ok'],
      ['headers', 'ok'],
      ['path', 'ok'],
      ['host', 'ok'],
      ['date', 'ok'],
      ['signature', 'ok'],
    ]);
    expect(part(d, 'signature')).toMatchObject({ got: signed().signature, expected: signed().signature });
    expect(part(d, 'host')).toMatchObject({ got: HOST, expected: HOST });
    expect(d.causes).toEqual([]);
    expect(d.skew).toEqual({ seconds: 0, windowSeconds: 300, within: true });
    expect(d.variants.spec).toMatchObject({ stringToSign: signed().stringToSign, signature: signed().signature, matches: true });
    expect(d.variants.apisix.matches).toBe(false);
    expect(d.variants.apisix.stringToSign).toBe(signed().stringToSign + '\n');
    expect(d.inferred).toBeNull();
  });

  it('a tampered signature: the signature part differs and no cause is named with confidence', () => {
    const sig = signed().signature;
    const tampered = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const d = diagnose({ authorization: authorizationHeader(API_ID, tampered) });
    expect(d).toMatchObject({ valid: false, verdict: 'signature-mismatch' });
    expect(part(d, 'signature')).toMatchObject({ status: 'differs', got: tampered, expected: sig });
    for (const p of ['keyId', 'algorithm', 'headers', 'date'] as const) expect(part(d, p).status).toBe('ok');
    expect(d.causes.filter((c) => c.confidence !== 'low')).toEqual([]);
    expect(d.inferred).toBeNull();
  });

  it.each([301, -301])('a Date %i s off: verdict clock-skew, outside the window, clock drift with high confidence', (offset) => {
    const date = formatHttpDate(new Date(NOW.getTime() + offset * 1000));
    const d = diagnose({ date, authorization: signed({ date }).authorization });
    expect(d).toMatchObject({ valid: false, verdict: 'clock-skew' });
    expect(d.skew).toEqual({ seconds: offset, windowSeconds: 300, within: false });
    expect(cause(d, 'clock-drift')).toMatchObject({
      confidence: 'high',
      evidence: { code: 'clock-outside', params: { kind: offset > 0 ? 'ahead' : 'behind', seconds: 301, window: 300 } },
    });
    expect(part(d, 'date')).toMatchObject({
      status: 'differs',
      got: date,
      expected: DATE,
      note: { code: 'date-outside', params: { kind: offset > 0 ? 'ahead' : 'behind', seconds: 301, window: 300 } },
    });
    // The signature itself is fine: it was computed over this date.
    expect(part(d, 'signature').status).toBe('ok');
    expect(d.causes).toHaveLength(1);
  });

  it('a Date 300 s off is inside the window (inclusive); 250 s is reported as close to the edge', () => {
    const at300 = formatHttpDate(new Date(NOW.getTime() + 300_000));
    expect(diagnose({ date: at300, authorization: signed({ date: at300 }).authorization })).toMatchObject({
      valid: true,
      skew: { seconds: 300, within: true },
    });
    const at250 = formatHttpDate(new Date(NOW.getTime() - 250_000));
    const d = diagnose({ date: at250, authorization: signed({ date: at250 }).authorization });
    expect(d.valid).toBe(true);
    expect(cause(d, 'clock-drift')).toMatchObject({
      confidence: 'medium',
      evidence: { code: 'clock-near-edge', params: { kind: 'behind', seconds: 250, window: 300 } },
    });
    expect(part(d, 'date').note).toEqual({ code: 'date-skew', params: { kind: 'behind', seconds: 250 } });
  });

  it('the query string signed in line 2 (spec gateway): query-string-signed, high; the path part shows it', () => {
    const url = 'http://127.0.0.1:8080/voice/status?smsid=16330654361&format=json';
    const sts = `${API_ID}\nPOST /voice/status?smsid=16330654361&format=json\ndate: ${DATE}\nhost: ${HOST}`;
    const d = diagnose({ url, authorization: authorizationHeader(API_ID, hmacOf(KEY, sts)) });
    expect(d).toMatchObject({ valid: false, verdict: 'signature-mismatch' });
    expect(cause(d, 'query-string-signed')).toMatchObject({
      confidence: 'high',
      evidence: { code: 'query-string', params: { kind: 'added', query: '?smsid=16330654361&format=json' } },
    });
    expect(cause(d, 'trailing-line-break')).toBeUndefined();
    expect(part(d, 'path')).toMatchObject({
      status: 'differs',
      got: '/voice/status?smsid=16330654361&format=json',
      expected: '/voice/status',
      note: { code: 'inferred-target', params: {} },
    });
    expect(d.inferred?.stringToSign).toBe(sts);
    expect(d.inferred?.changes).toEqual([{ dimension: 'framing', from: 'spec', to: 'query' }]);
    expect(d.causes[0]?.id).toBe('query-string-signed');
  });

  it('signed as apisix (with a query) but checked as spec: trailing line break AND query string, both high', () => {
    const url = 'http://127.0.0.1:8080/voice/status?smsid=1';
    const d = diagnose({ url, authorization: signed({ url, variant: 'apisix' }).authorization });
    expect(d.variants.apisix.matches).toBe(true);
    expect(d.variants.spec.matches).toBe(false);
    expect(cause(d, 'trailing-line-break')).toMatchObject({ confidence: 'high', evidence: { code: 'trailing-line-break', params: { kind: 'added' } } });
    expect(cause(d, 'query-string-signed')).toMatchObject({
      confidence: 'high',
      evidence: { code: 'query-string', params: { kind: 'added', query: '?smsid=1' } },
    });
    expect(d.inferred?.changes).toEqual([{ dimension: 'framing', from: 'spec', to: 'apisix' }]);
  });

  it('checked as apisix, a request signed with the query string but no trailing line break: the missing line break is named', () => {
    const url = 'http://127.0.0.1:8080/voice/status?smsid=1';
    const sts = `${API_ID}\nPOST /voice/status?smsid=1\ndate: ${DATE}\nhost: ${HOST}`;
    const d = diagnose({ url, variant: 'apisix', authorization: authorizationHeader(API_ID, hmacOf(KEY, sts)) });
    expect(cause(d, 'trailing-line-break')).toMatchObject({ confidence: 'high', evidence: { code: 'trailing-line-break', params: { kind: 'missing' } } });
    expect(cause(d, 'query-string-signed')).toBeUndefined();
    expect(d.inferred?.changes).toEqual([{ dimension: 'framing', from: 'apisix', to: 'query' }]);
  });

  it('signed as apisix but checked as spec (no query): trailing-line-break high and variants.apisix.matches', () => {
    const d = diagnose({ authorization: signed({ variant: 'apisix' }).authorization });
    expect(d).toMatchObject({ valid: false, verdict: 'signature-mismatch' });
    expect(d.variants.apisix.matches).toBe(true);
    expect(d.variants.spec.matches).toBe(false);
    expect(cause(d, 'trailing-line-break')).toMatchObject({ confidence: 'high', evidence: { code: 'trailing-line-break', params: { kind: 'added' } } });
    expect(cause(d, 'query-string-signed')).toBeUndefined();
    // Checked as apisix (or either), the same request is valid.
    expect(diagnose({ authorization: signed({ variant: 'apisix' }).authorization, variant: 'apisix' })).toMatchObject({ valid: true, causes: [] });
    expect(diagnose({ authorization: signed({ variant: 'apisix' }).authorization, variant: 'any' })).toMatchObject({ valid: true, causes: [] });
  });

  it('signed as spec but the gateway checks apisix: trailing-line-break names the missing line break', () => {
    const d = diagnose({ authorization: signed().authorization, variant: 'apisix' });
    expect(d.verdict).toBe('signature-mismatch');
    expect(d.variants.spec.matches).toBe(true);
    expect(cause(d, 'trailing-line-break')).toMatchObject({ confidence: 'high', evidence: { code: 'trailing-line-break', params: { kind: 'missing' } } });
    expect(d.inferred?.changes).toEqual([{ dimension: 'framing', from: 'apisix', to: 'spec' }]);
  });

  it('signed with host localhost:8080 but sent to 127.0.0.1:8080: wrong-host, high; the host part shows both', () => {
    const d = diagnose({ authorization: signed({ url: 'http://localhost:8080/voice/vm' }).authorization });
    expect(d.verdict).toBe('signature-mismatch');
    expect(cause(d, 'wrong-host')).toMatchObject({
      confidence: 'high',
      evidence: { code: 'signed-host', params: { kind: 'other-host', host: 'localhost:8080', base: HOST, port: '8080' } },
    });
    expect(cause(d, 'wrong-port')).toBeUndefined();
    expect(part(d, 'host')).toMatchObject({ status: 'differs', got: 'localhost:8080', expected: HOST, note: { code: 'inferred-host', params: {} } });
    expect(d.inferred?.changes).toEqual([{ dimension: 'host', from: HOST, to: 'localhost:8080' }]);
  });

  it('signed without the port while the URL has :8080: wrong-port, high (not wrong-host)', () => {
    const d = diagnose({ authorization: signed({ url: 'http://127.0.0.1/voice/vm' }).authorization });
    expect(cause(d, 'wrong-port')).toMatchObject({
      confidence: 'high',
      evidence: { code: 'signed-host', params: { kind: 'without-port', host: '127.0.0.1', base: HOST, port: '' } },
    });
    expect(cause(d, 'wrong-host')).toBeUndefined();
    expect(part(d, 'host')).toMatchObject({ status: 'differs', got: '127.0.0.1', expected: HOST });
  });

  it('signed with the default port written out (api.example.com:443): wrong-port', () => {
    const url = 'https://api.example.com/voice/vm';
    const sts = `${API_ID}\nPOST /voice/vm\ndate: ${DATE}\nhost: api.example.com:443`;
    const d = diagnose({ url, host: 'api.example.com', authorization: authorizationHeader(API_ID, hmacOf(KEY, sts)) });
    expect(cause(d, 'wrong-port')).toMatchObject({
      confidence: 'high',
      evidence: { code: 'signed-host', params: { kind: 'port', host: 'api.example.com:443', base: 'api.example.com', port: '443' } },
    });
  });

  it("the Host header differs from the URL, the signature was made with the URL's host: wrong-host", () => {
    const d = diagnose({ host: 'voice.internal:8080', authorization: signed().authorization });
    expect(d.verdict).toBe('signature-mismatch');
    expect(cause(d, 'wrong-host')).toMatchObject({
      confidence: 'high',
      evidence: { code: 'signed-host', params: { kind: 'url-host', host: '127.0.0.1:8080', base: 'voice.internal:8080' } },
    });
  });

  it('two mistakes at once (apisix form and localhost) are both found', () => {
    const d = diagnose({ authorization: signed({ url: 'http://localhost:8080/voice/vm', variant: 'apisix' }).authorization });
    expect(cause(d, 'trailing-line-break')?.confidence).toBe('high');
    expect(cause(d, 'wrong-host')?.confidence).toBe('high');
  });

  it("keyId different from the profile's API ID: the keyId part differs, key-from-another-profile medium", () => {
    const auth = signed({ apiId: 'C99999999', apiKey: OTHER_KEY }).authorization;
    const d = diagnose({ authorization: auth });
    expect(part(d, 'keyId')).toMatchObject({ status: 'differs', got: 'C99999999', expected: API_ID });
    expect(part(d, 'signature').status).toBe('differs');
    expect(cause(d, 'key-from-another-profile')).toMatchObject({
      confidence: 'medium',
      evidence: { code: 'key-id-differs', params: { keyId: 'C99999999', apiId: API_ID } },
    });
  });

  it('a key from another profile (same API ID): the signature differs; key-from-another-profile, low; nothing else', () => {
    const d = diagnose({ authorization: signed({ apiKey: OTHER_KEY }).authorization });
    expect(d).toMatchObject({ valid: false, verdict: 'signature-mismatch' });
    expect(part(d, 'keyId').status).toBe('ok');
    expect(part(d, 'signature').status).toBe('differs');
    expect(d.causes).toEqual([{ id: 'key-from-another-profile', confidence: 'low', evidence: { code: 'no-variation', params: {} } }]);
    // With the right key the same request verifies.
    expect(diagnose({ authorization: signed({ apiKey: OTHER_KEY }).authorization, apiKey: OTHER_KEY }).valid).toBe(true);
  });

  it('a lower-case method in the string to sign: method-case', () => {
    const sts = `${API_ID}\npost /voice/vm\ndate: ${DATE}\nhost: ${HOST}`;
    const d = diagnose({ authorization: authorizationHeader(API_ID, hmacOf(KEY, sts)) });
    expect(cause(d, 'method-case')).toMatchObject({ confidence: 'high', evidence: { code: 'signed-method', params: { method: 'post' } } });
    expect(part(d, 'path').note).toEqual({ code: 'method-lower-case', params: { method: 'post' } });
    expect(d.inferred?.stringToSign).toBe(sts);
    expect(d.inferred?.changes).toEqual([{ dimension: 'method', from: 'POST', to: 'post' }]);
  });

  it('signed one second later than the Date header: date-mismatch; a given candidate date is tried too', () => {
    const later = formatHttpDate(new Date(NOW.getTime() + 1000));
    const d = diagnose({ authorization: signed({ date: later }).authorization });
    expect(cause(d, 'date-mismatch')).toMatchObject({ confidence: 'high', evidence: { code: 'signed-date', params: { kind: 'second-after', date: later } } });
    expect(part(d, 'date')).toMatchObject({ status: 'differs', got: later, expected: DATE, note: { code: 'inferred-date', params: {} } });

    const much = formatHttpDate(new Date(NOW.getTime() - 42_000));
    const auth = signed({ date: much }).authorization;
    expect(cause(diagnose({ authorization: auth }), 'date-mismatch')).toBeUndefined();
    expect(cause(diagnose({ authorization: auth, candidateDates: [much] }), 'date-mismatch')).toMatchObject({
      confidence: 'high',
      evidence: { code: 'signed-date', params: { kind: 'candidate', date: much } },
    });
  });

  it('another path (trailing slash, gateway route prefix): path-mismatch', () => {
    const slash = diagnose({ authorization: signed({ url: 'http://127.0.0.1:8080/voice/vm/' }).authorization });
    expect(cause(slash, 'path-mismatch')).toMatchObject({
      confidence: 'high',
      evidence: { code: 'signed-path', params: { kind: 'with-slash', path: '/voice/vm/' } },
    });
    expect(part(slash, 'path')).toMatchObject({ status: 'differs', got: '/voice/vm/', expected: '/voice/vm' });
    const prefixed = diagnose({ url: 'http://127.0.0.1:8080/gw/voice/vm', authorization: signed().authorization });
    expect(cause(prefixed, 'path-mismatch')).toMatchObject({
      confidence: 'high',
      evidence: { code: 'signed-path', params: { kind: 'without-prefix', path: '/voice/vm', prefix: '/gw' } },
    });
  });

  it('a missing Authorization header: missing parts, verdict missing-authorization, no causes', () => {
    const d = diagnose({ authorization: null });
    expect(d.verdict).toBe('missing-authorization');
    expect(part(d, 'keyId')).toMatchObject({ status: 'missing', expected: API_ID });
    expect(part(d, 'signature')).toMatchObject({ status: 'missing', expected: signed().signature });
    expect(d.causes).toEqual([]);
    // The variants are still computed (with the profile's API ID) for the side-by-side view.
    expect(d.variants.spec.stringToSign).toBe(signed().stringToSign);
  });

  it("a wrong algorithm or headers list: those parts differ, the verdict and detail are verifyRequest's", () => {
    const sig = signed().signature;
    const algo = diagnose({ authorization: `Signature keyId="${API_ID}", algorithm="hmac-sha1", headers="@request-target date host", signature="${sig}"` });
    expect(algo).toMatchObject({ verdict: 'unsupported-algorithm', detail: { code: 'algorithm-unsupported', params: { algorithm: 'hmac-sha1' } } });
    expect(part(algo, 'algorithm')).toMatchObject({ status: 'differs', got: 'hmac-sha1', expected: 'hmac-sha256' });
    expect(part(algo, 'signature').status).toBe('ok');
    const headers = diagnose({ authorization: `Signature keyId="${API_ID}", algorithm="hmac-sha256", headers="date host", signature="${sig}"` });
    expect(headers).toMatchObject({
      verdict: 'malformed-header',
      detail: { code: 'headers-list', params: { got: 'date host', expected: '@request-target date host' } },
    });
    expect(part(headers, 'headers')).toMatchObject({ status: 'differs', got: 'date host' });
    // An Authorization header that cannot be read: the keyId part says why.
    const basic = diagnose({ authorization: 'Basic dXNlcjpwYXNz' });
    expect(basic).toMatchObject({ verdict: 'malformed-header', detail: { code: 'authorization-scheme', params: { scheme: 'Basic' } } });
    expect(part(basic, 'keyId')).toMatchObject({ status: 'missing', note: { code: 'authorization-scheme', params: { scheme: 'Basic' } } });
  });

  it("the verdict is always verifyRequest's", () => {
    const good = signed().authorization;
    const cases: Array<Partial<DiagnoseInput> & { authorization: string | null }> = [
      { authorization: good },
      { authorization: null },
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: good, date: null },
      { authorization: good, date: 'yesterday' },
      { authorization: good, now: new Date(NOW.getTime() + 400_000) },
      { authorization: good, apiKey: OTHER_KEY },
      { authorization: signed({ variant: 'apisix' }).authorization, variant: 'any' },
      { authorization: good, host: 'localhost:8080' },
      { authorization: good, windowSeconds: 0, now: new Date(NOW.getTime() + 1000) },
      { authorization: good, expectedApiId: 'another-account' },
    ];
    for (const c of cases) {
      const input = { method: 'POST', url: URL_, host: HOST, date: DATE, apiKey: KEY, expectedApiId: API_ID, now: NOW, ...c };
      const d = diagnoseSignature(input);
      const v = verifyRequest({ ...input, host: input.host ?? undefined, expectedApiId: input.expectedApiId ?? undefined });
      expect({ valid: d.valid, verdict: d.verdict }, JSON.stringify(c)).toEqual({ valid: v.valid, verdict: v.reason });
    }
  });

  it("notes on the Host and Date parts: no Host header, a Host header that is not the URL's, no Date, a Date that is not an HTTP date", () => {
    expect(part(diagnose({ host: null, authorization: signed().authorization }), 'host').note).toEqual({ code: 'no-host-header', params: { host: HOST } });
    expect(part(diagnose({ host: 'voice.internal', authorization: signed({ apiKey: OTHER_KEY }).authorization }), 'host')).toMatchObject({
      status: 'differs',
      note: { code: 'host-header-differs', params: { header: 'voice.internal', url: HOST } },
    });
    expect(part(diagnose({ date: null, authorization: signed().authorization }), 'date')).toMatchObject({
      status: 'missing',
      note: { code: 'no-date-header', params: {} },
    });
    const yesterday = diagnose({ date: 'yesterday', authorization: signed().authorization });
    expect(yesterday).toMatchObject({ verdict: 'missing-date', detail: { code: 'date-not-http-date', params: {} } });
    expect(part(yesterday, 'date')).toMatchObject({ status: 'differs', note: { code: 'date-not-http-date', params: {} } });
    expect(part(diagnose({ authorization: signed().authorization }), 'date').note).toEqual({ code: 'date-skew', params: { kind: 'in-step', seconds: 0 } });
  });

  it('without an expected API ID, keyId is ok when the signature matches and unknown otherwise', () => {
    expect(part(diagnose({ authorization: signed().authorization, expectedApiId: null }), 'keyId')).toMatchObject({
      status: 'ok',
      expected: null,
      note: { code: 'no-api-id', params: {} },
    });
    expect(part(diagnose({ authorization: signed({ apiKey: OTHER_KEY }).authorization, expectedApiId: null }), 'keyId').status).toBe('unknown');
  });

  it('gives up on a hopeless case (nothing matches) without hanging', () => {
    const url = 'https://localhost:8443/a/b/c/voice/vm%2F?x=1';
    const t0 = performance.now();
    const d = diagnoseSignature({
      method: 'post',
      url,
      host: 'localhost:8443',
      date: DATE,
      authorization: signed({ apiKey: OTHER_KEY }).authorization,
      apiKey: KEY,
      now: NOW,
      candidateDates: ['Sat, 21 Nov 2026 22:30:00 GMT'],
    });
    // Hang guard only, on the wall clock (pure CPU work, no clock to inject): ~8 ms expected, 1 s allowed.
    // The speed figure is the benchmark's core.diagnoseHopelessMs (`npm run bench -- --only core`).
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(d.inferred).toBeNull();
  });
});
