import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { harValidator } from '../helpers/har-validator';
import type { ExchangeRecord, MessageRecord } from '../../common/records';
import { dispatch } from '../../main/dispatch';
import { createHandlers } from '../../main/handlers';
import { SessionSecretStore } from '../../main/secrets';
import { createServices, type Services } from '../../main/services';
import { tempHome } from '../helpers/temp-home';

let services: Services;
let key: string;
const clipboard: string[] = [];
const home = tempHome();
const call = async <T>(channel: string, input?: unknown): Promise<T> => {
  const r = await dispatch(createHandlers(services), channel, input);
  if (!r.ok) throw Object.assign(new Error(r.error.code), { code: r.error.code, params: r.error.params });
  return r.value as T;
};
const OTP = (n: string) => `您的验证码是${n}，5分钟内有效。`;

beforeAll(async () => {
  const store = new SessionSecretStore();
  services = await createServices({
    home: home.dir,
    secrets: { store, status: { kind: 'session', keychainAvailable: false, reason: 't' } },
    sandbox: { timeScale: 0.002 },
    clipboard: { writeText: (t) => void clipboard.push(t) },
  });
  key = (await store.get('profile:sandbox'))!;
  await call('messages.send', { profileId: 'sandbox', mobile: '13800138008', content: OTP('1111') });
  services.sandbox!.setFault({ kind: 'code', code: 401, op: 'send', times: 1 });
  await call('messages.send', { profileId: 'sandbox', mobile: '13912345678', content: OTP('2222') });
  services.sandbox!.setFault({ kind: 'html', op: 'send', times: 1 });
  await call('messages.send', { profileId: 'sandbox', mobile: '13700001111', content: OTP('3333') });
});
afterAll(async () => {
  await services.close();
  home.cleanup();
});

describe('history channels', () => {
  it('pages, filters and searches the history with the right outcomes', async () => {
    const all = await call<{ rows: MessageRecord[] }>('history.page', {});
    expect(all.rows.map((m) => [m.mobile, m.outcome, m.code])).toEqual([
      ['13700001111', 'unknown', null],
      ['13912345678', 'rejected', 401],
      ['13800138008', 'accepted', 2],
    ]);
    expect((await call<{ rows: MessageRecord[] }>('history.page', { filter: { outcomes: ['unknown'] } })).rows).toHaveLength(1);
    expect((await call<{ rows: MessageRecord[] }>('history.page', { filter: { search: '2345' } })).rows.map((m) => m.mobile)).toEqual(['13912345678']);
    expect((await call<{ rows: MessageRecord[] }>('history.page', { filter: { search: '3333' } })).rows.map((m) => m.mobile)).toEqual(['13700001111']);
    await expect(call('history.page', { cursor: 'garbage' })).rejects.toMatchObject({ code: 'history-invalid', params: { kind: 'cursor' } });
  });

  it('charts the day by outcome', async () => {
    const now = Date.now();
    const o = await call<{ totals: { total: number; rejected: number; unknown: number } }>('history.overview', {
      from: now - 86_400_000,
      to: now + 60_000,
      utcOffsetMinutes: 480,
    });
    expect(o.totals).toMatchObject({ total: 3, rejected: 1, unknown: 1 });
  });

  it('exports CSV with both halves of nothing secret, and HAR 1.2 without the key', async () => {
    const csv = await call<{ csv: string; rows: number }>('history.exportCsv', { lang: 'en', utcOffsetMinutes: 480 });
    expect(csv.rows).toBe(3);
    expect(csv.csv.startsWith('\ufeff')).toBe(true);
    const ex = await call<{ rows: ExchangeRecord[] }>('exchanges.list', { operation: 'send' });
    expect(ex.rows).toHaveLength(3);
    const har = await call<{ json: string }>('exchanges.exportHar', { ids: ex.rows.map((e) => e.id) });
    expect(har.json).not.toContain(key);
    const parsed = JSON.parse(har.json);
    expect(parsed.log.version).toBe('1.2');
    expect(parsed.log.entries).toHaveLength(3);
    const validate = harValidator();
    expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
  });

  it('gives cURL redacted; with the key only to the clipboard, and that command reproduces the request', async () => {
    const [sent] = (await call<{ rows: ExchangeRecord[] }>('exchanges.list', { operation: 'send', order: 'oldest' })).rows;
    const redacted = await call<{ command: string }>('exchanges.curl', { id: sent!.id });
    expect(redacted.command).toContain('[REDACTED]');
    expect(redacted.command).not.toContain(key);
    await expect(call('exchanges.copyCurlWithKey', { id: sent!.id })).rejects.toMatchObject({ code: 'invalid-input' });
    const copied = await call('exchanges.copyCurlWithKey', { id: sent!.id, confirm: true });
    expect(copied).toEqual({ copied: true });
    expect(JSON.stringify(copied)).not.toContain(key);
    const withKey = clipboard.at(-1)!;
    expect(withKey).toContain(key);
    const before = services.sandbox!.requests().filter((r) => r.op === 'send').length;
    // Asynchronously: the sandbox answering curl runs in this process.
    const run = await promisify(execFile)('sh', ['-c', `${withKey} --silent --show-error`], { encoding: 'utf8' });
    expect(JSON.parse(run.stdout)).toMatchObject({ code: 2 });
    const again = services.sandbox!.requests().filter((r) => r.op === 'send');
    expect(again.length).toBe(before + 1);
    expect(again.at(-1)!.body).toMatchObject({ mobile: '13800138008', content: OTP('1111') });
  });

  it('the raw client fills the credentials in main, asks for XML, and never returns the key', async () => {
    const r = await call<{ exchange: ExchangeRecord; reply: { code: string }; providerCode: number }>('raw.send', {
      profileId: 'sandbox',
      request: { path: '/voice/balance', format: 'xml' },
    });
    expect(r.reply).toMatchObject({ code: '2' });
    expect(r.providerCode).toBe(2);
    expect(r.exchange.responseBody).toContain('<');
    expect(r.exchange.requestBody).toContain('[REDACTED]');
    expect(JSON.stringify(r)).not.toContain(key);
    await expect(call('raw.send', { profileId: 'sandbox', request: { path: 'voice/vm' } })).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it('applies a retention cap and vacuums, never deleting messages', async () => {
    await call('store.setRetention', { exchangeDays: null, exchangeMaxBytes: 1024 * 1024 });
    const status = await call<{ retention: { exchangeMaxBytes: number }; usage: { exchanges: number } }>('store.status');
    expect(status.retention.exchangeMaxBytes).toBe(1024 * 1024);
    await call('store.applyRetention');
    await call('store.vacuum');
    expect((await call<{ rows: unknown[] }>('history.page', {})).rows.length).toBeGreaterThanOrEqual(3);
    await expect(call('store.setRetention', { exchangeDays: 0, exchangeMaxBytes: null })).rejects.toMatchObject({ code: 'invalid-input' });
  });
});
