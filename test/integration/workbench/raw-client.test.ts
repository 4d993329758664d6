// The raw client through the handler table, against the embedded sandbox over real HTTP: any method,
// headers of one's own, malformed bodies sent byte for byte, Callout's parameters where asked,
// variables, preview, code with and without the key, a pasted cURL command and a replayed exchange.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawImport, RawPreview, RawRequestInput, RawResult } from '../../../common/contract';
import type { ExchangePage } from '../../../common/history-types';
import type { ExchangeRecord } from '../../../common/records';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services } from '../../../main/services';
import { tempHome } from '../../helpers/temp-home';
import { exchangeRows, withStore } from '../../helpers/stored';

let services: Services;
let key: string;
const clipboard: string[] = [];
const home = tempHome();
const call = async <T>(channel: string, input?: unknown): Promise<T> => {
  const r = await dispatch(createHandlers(services), channel, input);
  if (!r.ok) throw Object.assign(new Error(r.error.code), r.error);
  return r.value as T;
};
const send = (request: RawRequestInput, extra: Record<string, unknown> = {}) => call<RawResult>('raw.send', { profileId: 'sandbox', request, ...extra });
const lastReceived = () => services.sandbox!.requests().at(-1)!;

beforeAll(async () => {
  const store = new SessionSecretStore();
  services = await createServices({
    home: home.dir,
    secrets: { store, status: { kind: 'session', keychainAvailable: false, reason: 't' } },
    sandbox: { timeScale: 0.002 },
    clipboard: { writeText: (t) => void clipboard.push(t) },
  });
  key = (await store.get('profile:sandbox'))!;
});
afterAll(async () => {
  await services.close();
  home.cleanup();
});

describe('the raw client', () => {
  it('sends a GET with headers of its own and a malformed JSON body exactly as written, and stores the exchange', async () => {
    const body = '{"mobile": "13800138000", "content": ';
    const r = await send({
      method: 'GET',
      path: '/voice/balance?probe=1',
      headers: [
        { name: 'X-Trace', value: 'abc 123' },
        { name: 'X-Trace', value: 'second' },
        { name: 'Accept', value: 'text/plain' },
      ],
      body: { kind: 'json', text: body },
      credentials: 'none',
    });
    expect(r.exchange.method).toBe('GET');
    expect(r.exchange.requestBody).toBe(body);
    expect(r.exchange.url).toMatch(/\/voice\/balance\?probe=1$/);
    // Headers as they went on the wire: order, duplicates, the replaced Accept, Host and the length Node sent.
    const names = r.exchange.requestHeaders.map(([n]) => n);
    expect(names).toEqual(['Content-Type', 'Accept', 'Host', 'X-Trace', 'X-Trace', 'Content-Length', 'Connection']);
    expect(r.exchange.requestHeaders).toContainEqual(['Accept', 'text/plain']);
    expect(r.exchange.requestHeaders).toContainEqual(['Content-Length', String(Buffer.byteLength(body))]);
    // The sandbox got a GET with that body, could not read it, and said so (405: it takes POST only).
    expect(lastReceived()).toMatchObject({ method: 'GET', bodyError: 'malformed' });
    expect(r.exchange.status).toBe(405);
    expect(r.failure).toBeNull();
    expect(r.outcome).toBe('passed');
    expect(await call<ExchangeRecord>('exchanges.get', { id: r.exchange.id })).toEqual(r.exchange);
  });

  it("puts Callout's parameters into a JSON object body, fills {{password}} in main and never returns the key", async () => {
    const r = await send(
      { method: 'POST', path: '/voice/balance', body: { kind: 'json', text: '{ "note": "x" }' } },
      {
        assertions: [
          { kind: 'status', equals: 200 },
          { kind: 'code', equals: 2 },
          { kind: 'json-exists', path: '$.num' },
          { kind: 'json-equals', path: 'code', equals: '2' },
        ],
      },
    );
    expect(r.providerCode).toBe(2);
    expect(r.assertions.every((a) => a.passed)).toBe(true);
    expect(r.outcome).toBe('passed');
    expect(JSON.parse(r.exchange.requestBody!)).toEqual({ account: 'sandbox-demo', password: '[REDACTED]', format: 'json', note: 'x' });
    expect(r.exchange.requestBody).toMatch(/^\{"account":"sandbox-demo","password":"\[REDACTED\]","format":"json", "note": "x" \}$/);
    expect(JSON.stringify(r)).not.toContain(key);
    expect(r.exchange.providerCode).toBe(2);
  });

  it('puts the parameters in the query string, or leaves them to {{account}}/{{password}} written by hand', async () => {
    const q = await send({ method: 'POST', path: '/voice/balance?x=1', credentials: 'query', format: 'xml' });
    expect(q.exchange.url).toMatch(/\?x=1&account=sandbox-demo&password=%5BREDACTED%5D&format=xml$/);
    expect(q.exchange.requestBody).toBeNull();
    const form = await send({
      method: 'POST',
      path: '/voice/balance',
      credentials: 'none',
      body: {
        kind: 'form',
        fields: [
          { name: 'account', value: '{{account}}' },
          { name: 'password', value: '{{password}}' },
          { name: 'off', value: '1', enabled: false },
        ],
      },
    });
    expect(form.providerCode).toBe(2);
    expect(form.exchange.requestBody).toBe('account=sandbox-demo&password=%5BREDACTED%5D');
    expect(JSON.stringify([q, form])).not.toContain(key);
    const rows = withStore(services.home, (s) => exchangeRows(s));
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).toContain('%5BREDACTED%5D');
    expect(JSON.stringify(rows)).not.toContain(key);
  });

  it('refuses variables without a value, naming them, and fills them from an environment', async () => {
    const request = { path: '/voice/status', body: { kind: 'json' as const, text: '{"smsid": "{{smsid}}", "x": "{{other}}"}' } };
    await expect(send(request)).rejects.toMatchObject({ code: 'unresolved-variables', params: { names: 'smsid, other' } });
    const env = await call<{ id: number }>('environments.save', {
      name: 'Local',
      profileId: 'sandbox',
      variables: [
        { name: 'smsid', value: 'nope"q' },
        { name: 'other', value: '1' },
      ],
    });
    const r = await send(request, { environmentId: env.id });
    // Filled inside a JSON string as JSON string content.
    expect(JSON.parse(r.exchange.requestBody!)).toMatchObject({ smsid: 'nope"q', x: '1' });
    await expect(call('environments.save', { name: 'x', profileId: 'sandbox', variables: [{ name: 'password', value: 'k' }] })).rejects.toMatchObject({
      code: 'invalid-input',
    });
  });

  it('signs what is sent: a Date header written by hand is the one signed', async () => {
    const stale = 'Mon, 02 Jan 2006 15:04:05 GMT';
    const preview = await call<RawPreview>('raw.preview', {
      profileId: 'sandbox',
      request: { path: '/voice/balance', signing: 'spec', headers: [{ name: 'Date', value: stale }] },
    });
    expect(preview.headers.find(([n]) => n === 'Date')?.[1]).toBe(stale);
    const auth = preview.headers.find(([n]) => n === 'Authorization')![1];
    expect(auth).toMatch(/signature="\[REDACTED\]"/);
    expect(JSON.stringify(preview)).not.toContain(key);
  });

  it("never sends the key anywhere but the profile's own address", async () => {
    await expect(send({ path: '/..//evil.example/x' })).resolves.toBeTruthy();
    const r = await send({ path: '/..//evil.example/x' });
    expect(new URL(r.exchange.url).origin).toBe(new URL(services.sandbox!.baseUrl).origin);
    await expect(send({ path: 'http://evil.example/' })).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(send({ path: '/x', headers: [{ name: 'X-A', value: 'a\r\nX-Injected: 1' }] })).rejects.toMatchObject({ code: 'invalid-input' });
    // A header value HTTP cannot carry is refused before anything leaves, typed or filled from a variable.
    await expect(send({ path: '/x', headers: [{ name: 'X-A', value: '测试' }] })).rejects.toMatchObject({
      code: 'invalid-input',
      issues: [{ path: 'request.headers.0.value', message: 'header-value' }],
    });
    await expect(send({ path: '/x', headers: [{ name: 'X-A', value: '{{who}}' }] }, { variables: [{ name: 'who', value: '测试' }] })).rejects.toMatchObject({
      code: 'raw-request-invalid',
      params: { kind: 'header-value', name: 'X-A' },
    });
    await expect(send({ method: 'CONNECT', path: '/x' })).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(send({ path: '/x', body: { kind: 'text', text: 'plain' } })).rejects.toMatchObject({
      code: 'raw-request-invalid',
      params: { kind: 'credentials-in-text' },
    });
  });

  it("writes the request as code, redacted; with the key only to main's clipboard", async () => {
    const request = { method: 'POST', path: '/voice/balance', body: { kind: 'json' as const, text: '{"note":"x"}' } };
    for (const target of ['curl', 'node', 'python', 'go']) {
      const { code } = await call<{ code: string }>('raw.code', { profileId: 'sandbox', request, target });
      expect(code, target).toContain('[REDACTED]');
      expect(code).toContain('note');
      expect(code).not.toContain(key);
    }
    const copied = await call('raw.copyCodeWithKey', { profileId: 'sandbox', request, target: 'python', confirm: true });
    expect(copied).toEqual({ copied: true });
    expect(clipboard.at(-1)).toContain(key);
    expect(clipboard.at(-1)).toMatch(/^import requests/);
    await expect(call('raw.copyCodeWithKey', { profileId: 'sandbox', request, target: 'curl' })).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it('reads a pasted cURL command as a request on the profile, and replays a stored exchange', async () => {
    const base = services.sandbox!.baseUrl;
    const r = await call<RawImport>('raw.import', {
      profileId: 'sandbox',
      text: `curl -X PUT '${base}/voice/status?x=1' -H 'X-Custom: 7' -H 'Content-Type: application/json' --data-raw '{"account":"sandbox-demo","password":"[REDACTED]","smsid":"abc"}'`,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.request).toMatchObject({ method: 'PUT', path: '/voice/status?x=1', credentials: 'none', signing: 'off' });
    expect(r.request.headers).toEqual([{ name: 'X-Custom', value: '7', enabled: true }]);
    expect(r.request.body).toEqual({ kind: 'json', text: '{"account":"{{account}}","password":"{{password}}","smsid":"abc"}' });
    const bad = await call<RawImport>('raw.import', { profileId: 'sandbox', text: "curl 'unterminated" });
    expect(bad).toMatchObject({ ok: false, detail: { code: 'curl-quote' } });

    const sent = await send({ method: 'POST', path: '/voice/balance', headers: [{ name: 'X-Again', value: 'yes' }] });
    const replay = await call<{ request: RawRequestInput; profileId: string }>('raw.fromExchange', { id: sent.exchange.id });
    expect(replay.profileId).toBe('sandbox');
    expect(replay.request).toMatchObject({ method: 'POST', path: '/voice/balance', headers: [{ name: 'X-Again', value: 'yes', enabled: true }] });
    // An exchange of a profile that is gone (or lived only in a CLI run) still opens, without a profile.
    const orphan = withStore(services.home, (s) => s.exchanges.insert({ ...sent.exchange, url: 'https://old.example/voice/balance?x=1' }, { profile: 'gone' }));
    expect(await call('raw.fromExchange', { id: orphan })).toMatchObject({ profileId: null, request: { path: '/voice/balance?x=1' } });
    const again = await send(replay.request);
    expect(again.providerCode).toBe(2);
    expect(again.exchange.requestBody).toBe(sent.exchange.requestBody);
  });
});

describe('finding exchanges', () => {
  it('filters by status, provider code, profile and operation, and finds words in bodies and headers', async () => {
    await send({ method: 'POST', path: '/voice/balance', headers: [{ name: 'X-Needle', value: 'haystack-7731' }] });
    const list = (q: object) => call<ExchangePage>('exchanges.list', { limit: 100, ...q });
    const s405 = await list({ statuses: [405] });
    expect(s405.rows.length).toBeGreaterThan(0);
    expect(s405.rows.every((e) => e.status === 405)).toBe(true);
    expect((await list({ statuses: ['4xx'] })).rows.every((e) => e.status! >= 400 && e.status! < 500)).toBe(true);
    expect((await list({ providerCodes: [2] })).rows.every((e) => e.providerCode === 2)).toBe(true);
    const found = await list({ search: 'haystack-7731' });
    expect(found.rows).toHaveLength(1);
    expect(found.rows[0]!.requestHeaders).toContainEqual(['X-Needle', 'haystack-7731']);
    // Two words, in any order, one in the request and one in the reply; ASCII case ignored.
    const both = await list({ search: 'HAYSTACK-7731 num' });
    expect(both.rows).toHaveLength(1);
    expect((await list({ search: 'haystack-7731 nowhere-to-be-found' })).rows).toHaveLength(0);
    // The key is never found: it was redacted before storing.
    expect((await list({ search: key })).rows).toHaveLength(0);
    expect((await list({ operations: ['raw'], profiles: ['sandbox'], statuses: [200] })).rows.every((e) => e.operation === 'raw' && e.status === 200)).toBe(
      true,
    );
  });
});
