import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harValidator } from '../../helpers/har-validator';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { openStore, type Store } from '../../../main/store';
import { VoiceClient, type ProviderEndpoint } from '../../../main/voice/client';
import { Redactor } from '../../../main/voice/redaction';
import { toHar, type Har } from '../../../main/export';
import type { Exchange, ExchangeRecord } from '../../../common/records';
import { closedPort } from '../../helpers/scripted-server';
import { tempHome } from '../../helpers/temp-home';

// A key with characters that differ between its raw, JSON and URL-encoded forms.
const KEY = 'har-Key/with+plus=and"quote';
const FORMS = [KEY, JSON.stringify(KEY).slice(1, -1), encodeURIComponent(KEY), new URLSearchParams({ k: KEY }).toString().slice(2)];

let sandbox: Sandbox;
let home: ReturnType<typeof tempHome>;
let store: Store;
let recorded: ExchangeRecord[];

function endpoint(over: Partial<ProviderEndpoint> = {}): ProviderEndpoint {
  return {
    profile: 'har',
    baseUrl: sandbox.baseUrl,
    apiId: 'har-acct',
    apiKey: KEY,
    signing: null,
    connectTimeoutMs: 1000,
    totalTimeoutMs: 2000,
    format: 'json',
    ...over,
  };
}

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: 0.001, accounts: [{ apiId: 'har-acct', apiKey: KEY, balance: 100 }] });
  home = tempHome();
  store = openStore(home.dir);
  const keep = (es: Exchange[]) => es.forEach((e) => store.exchanges.insert(e, { profile: 'har' }));
  const client = new VoiceClient(endpoint(), { retries: 0 });
  keep((await client.send({ mobile: '13800138000', content: '您的验证码是123456，5分钟内有效。' })).exchanges);
  keep((await client.balance()).exchanges);
  sandbox.setFault({ kind: 'html', times: 1 });
  keep((await client.send({ mobile: '13800138001', content: '您的验证码是654321，5分钟内有效。' })).exchanges);
  sandbox.setFault({ kind: 'timeout', times: 1 });
  keep((await new VoiceClient(endpoint({ totalTimeoutMs: 300 }), { retries: 0 }).balance()).exchanges);
  keep((await new VoiceClient(endpoint({ baseUrl: `http://127.0.0.1:${await closedPort()}` }), { retries: 0 }).balance()).exchanges);
  sandbox.setSignatureMode('spec');
  keep((await new VoiceClient(endpoint({ signing: 'spec' }), { retries: 0 }).balance()).exchanges);
  // A GET with the key in its query string and a form body, through the same Redactor.
  keep([
    new Redactor([KEY]).exchange({
      operation: 'raw',
      method: 'POST',
      url: `${sandbox.baseUrl}/voice/balance?account=har-acct&password=${encodeURIComponent(KEY)}`,
      requestHeaders: [['Content-Type', 'application/x-www-form-urlencoded']],
      requestBody: new URLSearchParams({ account: 'har-acct', password: KEY }).toString(),
      status: 200,
      statusText: 'OK',
      responseHeaders: [['Content-Type', 'application/json']],
      responseBody: JSON.stringify({ code: 401, msg: `bad key ${KEY}` }),
      error: null,
      startedAt: Date.now(),
      timings: { dnsMs: 1.5, connectMs: 3.25, tlsMs: 9.5, firstByteMs: 20, totalMs: 21.75 },
    }),
  ]);
  recorded = store.history.listExchanges({ order: 'oldest', limit: 100 }).rows;
});

afterAll(async () => {
  store.close();
  home.cleanup();
  await sandbox.close();
});

describe('HAR export', () => {
  it('is a valid HAR 1.2 log (har-schema) with every exchange in order', () => {
    const har: Har = JSON.parse(JSON.stringify(toHar(recorded, { name: 'Callout', version: '0.1.0' })));
    const validate = harValidator();
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'Callout', version: '0.1.0' });
    expect(har.log.entries.map((e) => e._exchangeId)).toEqual(recorded.map((e) => e.id));
    // The schema itself would accept a broken log: check that it rejects one, so the check means something.
    expect(validate({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [{ request: {} }] } })).toBe(false);
  });

  it('contains no API Key in any form, nor a signature', () => {
    const text = JSON.stringify(toHar(recorded, { name: 'Callout', version: '0.1.0' }));
    for (const form of FORMS) expect(text).not.toContain(form);
    expect(text).toContain('[REDACTED]');
    expect(text).toMatch(/signature=\\"\[REDACTED\]\\"/);
    expect(text).not.toMatch(/signature=\\"(?!\[REDACTED\])/);
  });

  it('keeps both halves: request line, headers and body; status, headers and body', () => {
    const [send] = toHar(recorded, { name: 'Callout', version: '0.1.0' }).log.entries;
    expect(send!.request).toMatchObject({ method: 'POST', url: `${sandbox.baseUrl}/voice/vm`, httpVersion: 'HTTP/1.1', headersSize: -1 });
    expect(JSON.parse(send!.request.postData!.text)).toMatchObject({ account: 'har-acct', password: '[REDACTED]', mobile: '13800138000' });
    expect(send!.request.postData!.mimeType).toMatch(/application\/json/);
    expect(send!.request.bodySize).toBe(Buffer.byteLength(recorded[0]!.requestBody!));
    expect(send!.response.status).toBe(200);
    expect(JSON.parse(send!.response.content.text!)).toMatchObject({ code: 2 });
    expect(send!.response.content.size).toBe(Buffer.byteLength(recorded[0]!.responseBody!));
    expect(send!.response.headers.some((h) => h.name.toLowerCase() === 'content-type')).toBe(true);
    expect(new Date(send!.startedDateTime).getTime()).toBe(recorded[0]!.startedAt);
  });

  it('a reply that never came is status 0 with the reason in _error; an HTML reply is kept as it was', () => {
    const entries = toHar(recorded, { name: 'Callout', version: '0.1.0' }).log.entries;
    const html = entries[2]!;
    expect(html.response.status).toBe(502);
    expect(html.response.content.mimeType).toMatch(/text\/html/);
    const timeout = entries[3]!;
    expect(timeout.response).toMatchObject({ status: 0, statusText: '', _errorKind: 'timeout', bodySize: -1 });
    expect(timeout.response._error).toMatch(/No complete reply/);
    const refused = entries[4]!;
    expect(refused.response).toMatchObject({ status: 0, _errorKind: 'refused' });
    expect(refused.timings.wait).toBe(0);
  });

  it('timings add up to the total, and unknown phases are -1', () => {
    for (const e of toHar(recorded, { name: 'Callout', version: '0.1.0' }).log.entries) {
      const t = e.timings;
      for (const k of ['send', 'wait', 'receive'] as const) expect(t[k]).toBeGreaterThanOrEqual(0);
      for (const k of ['blocked', 'dns', 'connect', 'ssl'] as const) expect(t[k] === -1 || t[k] >= 0).toBe(true);
      const sum = [t.blocked, t.dns, t.connect, t.send, t.wait, t.receive].filter((x) => x >= 0).reduce((a, b) => a + b, 0);
      expect(sum).toBeCloseTo(e.time, 1);
    }
    const form = toHar(recorded, { name: 'Callout', version: '0.1.0' }).log.entries.at(-1)!;
    expect(form.timings).toEqual({ blocked: -1, dns: 1.5, connect: 8, ssl: 6.25, send: 0, wait: 10.5, receive: 1.75 });
    expect(form.request.queryString).toEqual([
      { name: 'account', value: 'har-acct' },
      { name: 'password', value: '[REDACTED]' },
    ]);
    expect(form.request.postData!.params).toEqual([
      { name: 'account', value: 'har-acct' },
      { name: 'password', value: '[REDACTED]' },
    ]);
  });
});
