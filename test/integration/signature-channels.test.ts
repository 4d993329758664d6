import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { dispatch } from '../../main/dispatch';
import { createHandlers } from '../../main/handlers';
import { SessionSecretStore } from '../../main/secrets';
import { createServices, type Services } from '../../main/services';
import { tempHome } from '../helpers/temp-home';
import { exchangeRows, withStore } from '../helpers/stored';

let services: Services;
let sandboxKey: string;
const home = tempHome();
const call = async <T>(channel: string, input?: unknown): Promise<T> => {
  const r = await dispatch(createHandlers(services), channel, input);
  if (!r.ok) throw Object.assign(new Error(r.error.code), r.error);
  return r.value as T;
};

beforeAll(async () => {
  const store = new SessionSecretStore();
  services = await createServices({
    home: home.dir,
    secrets: { store, status: { kind: 'session', keychainAvailable: false, reason: 't' } },
    sandbox: { timeScale: 0.01, signature: 'apisix' },
  });
  sandboxKey = (await store.get('profile:sandbox'))!;
});
afterAll(async () => {
  await services.close();
  home.cleanup();
});

describe('signature channels', () => {
  const date = 'Sat, 21 Nov 2026 12:00:00 GMT';

  it('diagnose with a profile key names the trailing line break of an apisix signature checked as spec', async () => {
    const signed = await call<{ authorization: string }>('signature.compute', {
      apiId: 'sandbox-demo',
      method: 'POST',
      url: 'http://127.0.0.1:8080/voice/vm',
      date,
      variant: 'apisix',
      key: { profileId: 'sandbox' },
    });
    const d = await call<{ valid: boolean; verdict: string; causes: { id: string; confidence: string }[] }>('signature.diagnose', {
      method: 'POST',
      url: 'http://127.0.0.1:8080/voice/vm',
      date,
      authorization: signed.authorization,
      key: { profileId: 'sandbox' },
      variant: 'spec',
      now: date,
    });
    expect(d).toMatchObject({ valid: false, verdict: 'signature-mismatch' });
    expect(d.causes[0]).toMatchObject({ id: 'trailing-line-break', confidence: 'high' });
    expect(JSON.stringify(d)).not.toContain(sandboxKey);
  });

  it('computes and verifies with a short typed key (RFC 4231\'s "Jefe"), saying Callout would not store it', async () => {
    const steps = await call<{ stringToSign: string; signature: string; authorization: string; keyNote: string | null }>('signature.compute', {
      apiId: 'AK1',
      method: 'POST',
      url: 'https://api.example.com/voice/vm',
      date,
      key: { adHoc: 'Jefe' },
    });
    expect(steps.signature).toBe(createHmac('sha256', 'Jefe').update(steps.stringToSign).digest('base64'));
    expect(steps.keyNote).toBe('too-short');
    const v = await call<{ valid: boolean; keyNote: string | null }>('signature.verify', {
      method: 'POST',
      url: 'https://api.example.com/voice/vm',
      date,
      now: date,
      authorization: steps.authorization,
      key: { adHoc: 'Jefe' },
      expectedApiId: 'AK1',
    });
    expect(v).toMatchObject({ valid: true, keyNote: 'too-short' });
    const d = await call<{ valid: boolean; keyNote: string | null }>('signature.diagnose', {
      method: 'POST',
      url: 'https://api.example.com/voice/vm',
      date,
      now: date,
      authorization: steps.authorization,
      key: { adHoc: 'Jefe' },
    });
    expect(d).toMatchObject({ valid: true, keyNote: 'too-short' });
    // A key Callout would store carries no note; neither does a profile's.
    expect(
      (
        await call<{ keyNote: string | null }>('signature.compute', {
          apiId: 'AK1',
          method: 'GET',
          url: 'https://h.example/x',
          date,
          key: { adHoc: 'a-long-enough-key' },
        })
      ).keyNote,
    ).toBeNull();
    expect(
      (
        await call<{ keyNote: string | null }>('signature.compute', {
          apiId: 'AK1',
          method: 'GET',
          url: 'https://h.example/x',
          date,
          key: { profileId: 'sandbox' },
        })
      ).keyNote,
    ).toBeNull();
  });

  it("verify and diagnose refuse a header signed for another API ID (keyId), with the profile's key or a typed one", async () => {
    const url = 'http://127.0.0.1:8080/voice/vm';
    // The sandbox profile's own key, but signed as another account.
    const other = await call<{ authorization: string }>('signature.compute', {
      apiId: 'someone-else',
      method: 'POST',
      url,
      date,
      key: { profileId: 'sandbox' },
    });
    const v = await call<{ valid: boolean; reason: string; keyId: string; expectedApiId: string }>('signature.verify', {
      method: 'POST',
      url,
      date,
      now: date,
      authorization: other.authorization,
      key: { profileId: 'sandbox' },
    });
    expect(v).toMatchObject({ valid: false, reason: 'key-id-mismatch', keyId: 'someone-else', expectedApiId: 'sandbox-demo' });
    const d = await call<{ valid: boolean; verdict: string }>('signature.diagnose', {
      method: 'POST',
      url,
      date,
      now: date,
      authorization: other.authorization,
      key: { profileId: 'sandbox' },
    });
    expect(d).toMatchObject({ valid: false, verdict: 'key-id-mismatch' });
    // A typed key, when the caller names the expected API ID (the CLI's --api-id).
    const typed = await call<{ authorization: string }>('signature.compute', { apiId: 'someone-else', method: 'POST', url, date, key: { adHoc: 'Jefe' } });
    const dt = await call<{ valid: boolean; verdict: string }>('signature.diagnose', {
      method: 'POST',
      url,
      date,
      now: date,
      authorization: typed.authorization,
      key: { adHoc: 'Jefe' },
      expectedApiId: 'sandbox-demo',
    });
    expect(dt).toMatchObject({ valid: false, verdict: 'key-id-mismatch' });
  });

  it('exports a profile-keyed vector without the key, and checks it back with the profile key', async () => {
    const { json } = await call<{ json: string }>('signature.exportVector', {
      name: 'balance',
      apiId: 'sandbox-demo',
      method: 'POST',
      url: 'http://127.0.0.1:1/voice/balance',
      date,
      variant: 'spec',
      key: { profileId: 'sandbox' },
    });
    expect(json).not.toContain(sandboxKey);
    expect(JSON.parse(json).vectors[0].input).toMatchObject({ apiKey: null, keyRef: 'profile:Sandbox' });
    const check = await call<{ results: { pass: boolean }[]; missingKeys: string[] }>('signature.checkVectors', { text: json });
    expect(check).toEqual({ results: [expect.objectContaining({ pass: true })], missingKeys: [] });
    const tampered = json.replace(/"signature": "([A-Za-z0-9+/])/, (_m, c: string) => `"signature": "${c === 'A' ? 'B' : 'A'}`);
    const bad = await call<{ results: { pass: boolean; mismatches: string[] }[] }>('signature.checkVectors', { text: tampered });
    expect(bad.results[0]).toMatchObject({ pass: false, mismatches: expect.arrayContaining(['signature']) });
    await expect(call('signature.checkVectors', { text: '{"nope": 1}' })).rejects.toMatchObject({
      code: 'vector-file-invalid',
      params: { kind: 'wrong-format', where: 'format' },
    });
    // A vector file with problems: the first one's place in the error, every one as an issue at its place.
    const broken = JSON.parse(json) as { vectors: Array<{ input: Record<string, unknown>; variant: string }> };
    broken.vectors[0]!.input.date = 'yesterday';
    broken.vectors[0]!.variant = 'draft';
    await expect(call('signature.checkVectors', { text: JSON.stringify(broken) })).rejects.toMatchObject({
      code: 'vector-file-invalid',
      params: { kind: 'invalid-vector', where: 'vectors[0].variant' },
      issues: [
        { path: 'vectors[0].variant', message: 'variant' },
        { path: 'vectors[0].input.date', message: 'date' },
      ],
    });
    await expect(call('signature.checkVectors', { text: '{' })).rejects.toMatchObject({
      code: 'vector-file-invalid',
      params: { kind: 'invalid-json', where: null },
    });
  });

  it('probes which variant the gateway accepts, storing the exchanges redacted', async () => {
    await call('profiles.save', { id: 'sandbox', name: 'Sandbox', baseUrl: services.sandbox!.baseUrl, apiId: 'sandbox-demo', signing: 'apisix' });
    const probe = await call<{ accepted: string[] }>('signature.probeVariant', { profileId: 'sandbox' });
    expect(probe.accepted).toEqual(['apisix']);
    const stored = withStore(services.home, (s) => exchangeRows(s, "operation = 'balance'"));
    expect(stored).toHaveLength(2);
    for (const row of stored) {
      expect(row.request_headers).toContain('Authorization');
      expect(JSON.stringify([row.request_body, row.request_headers])).not.toContain(sandboxKey);
    }
  });

  it("reads the clock of the profile's server", async () => {
    services.sandbox!.setClockOffset(-60);
    const clock = await call<{ skewSeconds: number; error: unknown }>('signature.probeClock', { profileId: 'sandbox' });
    expect(clock).toMatchObject({ error: null });
    expect(clock.skewSeconds).toBeLessThan(-58);
    expect(clock.skewSeconds).toBeGreaterThan(-62);
  });

  it('parses a pasted cURL command', async () => {
    const r = await call<{ ok: boolean; value: { method: string; url: string; headers: Record<string, string> } }>('signature.parseRequest', {
      text: `curl -X POST 'http://127.0.0.1:8080/voice/vm' -H 'Date: ${date}' -H 'Authorization: Signature keyId="a"'`,
    });
    expect(r).toMatchObject({ ok: true, value: { method: 'POST', url: 'http://127.0.0.1:8080/voice/vm', headers: { date }, warnings: [] } });
    // What cannot be read is said as a code with its parameters.
    expect(await call('signature.parseRequest', { text: `curl -H 'Date: ${date}'` })).toEqual({
      ok: false,
      error: 'no-url',
      detail: { code: 'curl-no-url', params: {} },
    });
  });
});
