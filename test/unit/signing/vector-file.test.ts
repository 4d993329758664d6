import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkVectors, exportVector, parseVectorFile, serializeVectorFile, signRequest, vectorKeyRefs, type SignatureVector } from '../../../main/signing';
import { DEMO_ACCOUNT } from '../../../main/sandbox';

const FIXTURE = resolve(__dirname, '../../fixtures/signature-vectors.json');
const fixtureText = readFileSync(FIXTURE, 'utf8');
const DATE = 'Sat, 21 Nov 2026 22:36:54 GMT';
const PROFILE_KEYS: Record<string, string> = { 'profile:sandbox': DEMO_ACCOUNT.apiKey };

/** `printf '%s' "$STS" | openssl dgst -sha256 -hmac "$KEY" -binary | base64`, independent of Node's crypto. */
function opensslSignature(key: string, stringToSign: string): string {
  return execFileSync('/bin/sh', ['-c', '/usr/bin/openssl dgst -sha256 -hmac "$KEY" -binary | /usr/bin/openssl base64 -A'], {
    input: Buffer.from(stringToSign, 'utf8'),
    env: { ...process.env, KEY: key },
  })
    .toString('utf8')
    .trim();
}

const nonAscii = (s: string): boolean => [...s].some((c) => (c.codePointAt(0) as number) > 0x7f);

/** A vector as plain JSON, to break on purpose. */
type Raw = { name: unknown; variant: unknown; input: Record<string, unknown>; expected: Record<string, unknown> };

function parsedFixture(): SignatureVector[] {
  const r = parseVectorFile(fixtureText);
  if (!r.ok) throw new Error(`fixture does not parse: ${JSON.stringify(r.problems)}`);
  return r.vectors;
}

function withVector(index: number, change: (v: Raw) => unknown): string {
  const file = JSON.parse(fixtureText) as { vectors: Raw[] };
  change(file.vectors[index] as Raw);
  return JSON.stringify(file);
}

describe('the example vector file (test/fixtures/signature-vectors.json)', () => {
  const vectors = parsedFixture();

  it('holds both variants, a non-ASCII API ID and key, a non-default port, and a profile keyRef', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(6);
    expect(new Set(vectors.map((v) => v.variant))).toEqual(new Set(['spec', 'apisix']));
    expect(vectors.some((v) => nonAscii(v.input.apiId) && nonAscii(v.input.apiKey ?? ''))).toBe(true);
    expect(vectors.some((v) => new URL(v.input.url).port !== '')).toBe(true);
    expect(vectors.filter((v) => v.input.apiKey === null).map((v) => v.input.keyRef)).toEqual(['profile:sandbox']);
  });

  it.each(parsedFixture().map((v, i) => [i, v.name, v] as const))(
    'vector %i (%s): openssl computes the written-down signature from the written-down string',
    (_i, _name, v) => {
      const key = v.input.apiKey ?? PROFILE_KEYS[v.input.keyRef as string];
      expect(key).toBeDefined();
      expect(v.expected.stringToSign).toBeDefined();
      expect(opensslSignature(key as string, v.expected.stringToSign as string)).toBe(v.expected.signature);
      expect(v.expected.authorization).toBe(
        `Signature keyId="${v.input.apiId}", algorithm="hmac-sha256", headers="@request-target date host", signature="${v.expected.signature}"`,
      );
    },
  );

  it('every vector passes checkVectors when the profile key is supplied', () => {
    const results = checkVectors(vectors, (ref) => PROFILE_KEYS[ref]);
    expect(results.map((r) => [r.index, r.pass, r.mismatches])).toEqual(vectors.map((_v, i) => [i, true, []]));
    expect(results[0]?.actual).toEqual({
      stringToSign: vectors[0]?.expected.stringToSign,
      signature: vectors[0]?.expected.signature,
      authorization: vectors[0]?.expected.authorization,
    });
  });

  it('without the profile key, the keyRef vector is not passed: it says which key it needs', () => {
    expect(vectorKeyRefs(vectors)).toEqual(['profile:sandbox']);
    const results = checkVectors(vectors);
    const failing = results.filter((r) => !r.pass);
    expect(failing).toHaveLength(1);
    expect(failing[0]).toMatchObject({
      needsKey: 'profile:sandbox',
      actual: null,
      mismatches: [],
      error: { code: 'key-missing', params: { ref: 'profile:sandbox' } },
    });
  });
});

describe('checkVectors with a bad vector', () => {
  it('a file with one wrong signature: exactly that vector fails, with a signature mismatch', () => {
    const sig = parsedFixture()[3]?.expected.signature as string;
    const bad = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    const r = parseVectorFile(withVector(3, (v) => ((v.expected as Record<string, string>).signature = bad)));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const results = checkVectors(r.vectors, (ref) => PROFILE_KEYS[ref]);
    expect(results.filter((x) => !x.pass).map((x) => [x.index, x.mismatches])).toEqual([[3, ['signature']]]);
    expect(results[3]?.actual?.signature).toBe(sig);
  });

  it('a wrong string to sign (trailing line break added): that vector fails on stringToSign only', () => {
    const r = parseVectorFile(withVector(0, (v) => ((v.expected as Record<string, string>).stringToSign += '\n')));
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const results = checkVectors(r.vectors, (ref) => PROFILE_KEYS[ref]);
    expect(results.filter((x) => !x.pass).map((x) => [x.index, x.mismatches])).toEqual([[0, ['stringToSign']]]);
  });

  it('a vector whose input changed (another date): string, signature and header all differ', () => {
    const r = parseVectorFile(withVector(1, (v) => ((v.input as Record<string, string>).date = 'Sun, 22 Nov 2026 22:36:54 GMT')));
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    const results = checkVectors(r.vectors, (ref) => PROFILE_KEYS[ref]);
    expect(results.filter((x) => !x.pass).map((x) => [x.index, x.mismatches])).toEqual([[1, ['stringToSign', 'signature', 'authorization']]]);
  });

  it('a vector with only a signature (no stringToSign, no authorization) is checked on the signature', () => {
    const r = parseVectorFile(
      withVector(0, (v) => {
        const e = v.expected as Record<string, string>;
        delete e.stringToSign;
        delete e.authorization;
      }),
    );
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(checkVectors(r.vectors, (ref) => PROFILE_KEYS[ref]).every((x) => x.pass)).toBe(true);
  });
});

describe('parseVectorFile validation', () => {
  const expectError = (text: string, error: string, where: string | null, code: string): void => {
    expect(parseVectorFile(text)).toEqual({ ok: false, error, problems: [{ where, code }], more: 0 });
  };

  it('refuses what is not a vector file', () => {
    expectError('not json', 'invalid-json', null, 'invalid-json');
    expectError('[]', 'wrong-format', null, 'not-an-object');
    expectError('{"vectors": []}', 'wrong-format', 'format', 'format');
    expectError('{"format": "callout-signature-vectors", "version": 2, "vectors": []}', 'unsupported-version', 'version', 'version');
    expectError('{"format": "callout-signature-vectors", "version": 1, "vectors": {}}', 'invalid-vector', 'vectors', 'vectors-not-array');
    expectError('{"format": "callout-signature-vectors", "version": 1, "vectors": [], "extra": 1}', 'invalid-vector', 'extra', 'unknown-field');
    expectError('{"format": "callout-signature-vectors", "version": 1, "vectors": [7]}', 'invalid-vector', 'vectors[0]', 'vector-not-object');
  });

  it.each([
    [(v: Raw) => (v.input.date = '2026-11-21T22:36:54Z'), 'vectors[2].input.date', 'date'],
    [(v: Raw) => (v.variant = 'draft'), 'vectors[2].variant', 'variant'],
    [(v: Raw) => (v.expected.signature = 'abc'), 'vectors[2].expected.signature', 'signature'],
    [(v: Raw) => (v.input.url = '/voice/vm'), 'vectors[2].input.url', 'url'],
    [(v: Raw) => (v.input.apiKey = null), 'vectors[2].input.keyRef', 'key-ref'],
    [(v: Raw) => (v.input.keyRef = 'profile:x'), 'vectors[2].input.keyRef', 'key-ref-with-key'],
    [(v: Raw) => (v.input.apiKey = ''), 'vectors[2].input.apiKey', 'api-key-empty'],
    [(v: Raw) => (v.input.method = 'PO ST'), 'vectors[2].input.method', 'method'],
    [(v: Raw) => (v.input.apiId = 'a"b'), 'vectors[2].input.apiId', 'api-id-characters'],
    [(v: Raw) => (v.expected.signatrue = 'x'), 'vectors[2].expected.signatrue', 'unknown-field'],
    [(v: Raw) => (v.expected['odd key'] = 'x'), 'vectors[2].expected["odd key"]', 'unknown-field'],
    [(v: Raw) => (v.expected.authorization = 'Bearer x'), 'vectors[2].expected.authorization', 'authorization'],
    [(v: Raw) => (v.name = ''), 'vectors[2].name', 'name'],
  ])('names the place and the problem: %#', (change, where, code) => {
    expectError(withVector(2, change), 'invalid-vector', where, code);
  });

  it('lists every problem in file order, not only the first; past 50 it says how many more', () => {
    const r = parseVectorFile(
      withVector(1, (v) => {
        (v.input as Record<string, string>).date = 'x';
        v.variant = 'y';
      }),
    );
    expect(r).toEqual({
      ok: false,
      error: 'invalid-vector',
      problems: [
        { where: 'vectors[1].variant', code: 'variant' },
        { where: 'vectors[1].input.date', code: 'date' },
      ],
      more: 0,
    });
    const many = JSON.stringify({ format: 'callout-signature-vectors', version: 1, vectors: Array.from({ length: 60 }, () => 1) });
    const m = parseVectorFile(many);
    expect(m).toMatchObject({ ok: false, error: 'invalid-vector', more: 10 });
    if (!m.ok) expect(m.problems.at(-1)).toEqual({ where: 'vectors[49]', code: 'vector-not-object' });
  });
});

describe('exportVector', () => {
  const input = { apiId: '测试账号', apiKey: 'profile-secret-Zq81x', method: 'POST', url: 'https://api.example.com/voice/vm', date: DATE };

  it('an ad hoc key is written; the vector round-trips through the file format and passes', () => {
    const steps = signRequest({ ...input, variant: 'apisix' });
    const v = exportVector(steps, { ...input, name: 'case 1' }, { kind: 'adhoc' });
    expect(v).toEqual({
      name: 'case 1',
      variant: 'apisix',
      input: { apiId: input.apiId, apiKey: input.apiKey, method: 'POST', url: input.url, date: DATE },
      expected: { stringToSign: steps.stringToSign, signature: steps.signature, authorization: steps.authorization },
    });
    const r = parseVectorFile(serializeVectorFile([v]));
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(r.vectors).toEqual([v]);
    expect(checkVectors(r.vectors)[0]?.pass).toBe(true);
  });

  it("a profile's key is never written: apiKey null and keyRef profile:<name>", () => {
    const steps = signRequest(input);
    const v = exportVector(steps, input, { kind: 'profile', profile: 'production' });
    expect(v.input).toEqual({ apiId: input.apiId, apiKey: null, keyRef: 'profile:production', method: 'POST', url: input.url, date: DATE });
    const text = serializeVectorFile([v]);
    expect(text).not.toContain(input.apiKey);
    const r = parseVectorFile(text);
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(checkVectors(r.vectors)[0]).toMatchObject({ pass: false, needsKey: 'profile:production' });
    expect(checkVectors(r.vectors, (ref) => (ref === 'profile:production' ? input.apiKey : undefined))[0]).toMatchObject({ pass: true });
    expect(checkVectors(r.vectors, () => 'another key')[0]).toMatchObject({ pass: false, mismatches: ['signature', 'authorization'] });
  });

  it('the date of "now" is taken from the steps; steps from another input are refused', () => {
    const { date: _date, ...noDate } = input;
    const steps = signRequest(noDate);
    expect(exportVector(steps, noDate, { kind: 'adhoc' }).input.date).toBe(steps.date);
    expect(() => exportVector(steps, { ...noDate, url: 'https://api.example.com/voice/status' }, { kind: 'adhoc' })).toThrow(/not computed from this input/);
    expect(() => exportVector(steps, noDate, { kind: 'profile', profile: ' ' })).toThrow(/profile name is empty/);
  });
});
