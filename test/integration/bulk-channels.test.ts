import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchProgress, DialProgress, ImportView } from '../../common/bulk-types';
import { dispatch } from '../../main/dispatch';
import { createHandlers } from '../../main/handlers';
import { SessionSecretStore } from '../../main/secrets';
import { createServices, type Services } from '../../main/services';
import { FASTEST_SCALE, ScaledClock } from '../helpers/scaled-clock';
import { tempHome } from '../helpers/temp-home';

let services: Services;
const home = tempHome();
const call = async <T>(channel: string, input?: unknown): Promise<T> => {
  const r = await dispatch(createHandlers(services), channel, input);
  if (!r.ok) throw Object.assign(new Error(r.error.code), { code: r.error.code, params: r.error.params, issues: r.error.issues });
  return r.value as T;
};
const events: { channel: string; payload: unknown }[] = [];

beforeAll(async () => {
  services = await createServices({
    home: home.dir,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 't' } },
    // Callout on a clock twenty times faster; the embedded sandbox runs on it, its calls at 0.002.
    clock: new ScaledClock(FASTEST_SCALE),
    sandbox: { timeScale: 0.002 / FASTEST_SCALE },
  });
  services.subscribe((channel, payload) => events.push({ channel, payload }));
  services.sandbox!.setBalance('sandbox-demo', 1000);
  await call('templates.save', { id: 'otp', content: '您的验证码是【变量】，5分钟内有效。', approved: true, markerNames: ['code'] });
});
afterAll(async () => {
  await services.close();
  home.cleanup();
});

describe('bulk channels', () => {
  it('imports a CSV with bad rows, reports them, runs the good ones, and exports the results', async () => {
    const csv = ['手机号,code', '13800138008,1111', '138-0013-8018,2222', '12345,3333', '13800138028,', '13800138008,1111'].join('\n');
    const view = await call<ImportView>('bulk.open', {
      templateId: 'otp',
      file: { name: 'customers.csv', base64: Buffer.from(csv).toString('base64') },
      profileId: 'sandbox',
    });
    expect(view.columns).toEqual(['手机号', 'code']);
    expect(view.report.totals).toMatchObject({ rows: 5 });
    const kinds = (await call<{ row: number; kind: string }[]>('bulk.issues', { importId: view.importId })).map((i) => i.kind).sort();
    expect(kinds).toEqual(expect.arrayContaining(['bad-mobile', 'missing-value']));
    const batch = await call<{ id: number }>('bulk.create', { importId: view.importId, profileId: 'sandbox', duplicates: 'same-text' });
    await call('bulk.start', { batchId: batch.id });
    let progress = await call<BatchProgress>('bulk.progress', { batchId: batch.id });
    for (let i = 0; i < 200 && progress.status !== 'done'; i++) {
      // Real time: a poll interval for work done over real HTTP against the sandbox on the system clock (a manual clock would need to wait for that I/O before moving).
      await new Promise((r) => setTimeout(r, 25));
      progress = await call<BatchProgress>('bulk.progress', { batchId: batch.id });
    }
    expect(progress.status).toBe('done');
    expect(services.sandbox!.requests().filter((r) => r.op === 'send')).toHaveLength(2);
    expect(events.some((e) => e.channel === 'main:bulk-progress')).toBe(true);
    const exported = await call<{ text: string; fileName: string }>('bulk.export', { batchId: batch.id, lang: 'zh-CN', utcOffsetMinutes: 480 });
    expect(exported.fileName).toBe(`callout-batch-${batch.id}.csv`);
    // The sheet's own columns first, then the results in Chinese.
    expect(exported.text.startsWith('\ufeff手机号,code,行号,')).toBe(true);
    expect(exported.text).toContain('13800138018');
    // Each sent row reads as accepted, or as still in progress while its call rings (the batch is done sending, not calling).
    expect(exported.text).toMatch(/已受理|呼叫进行中/);
    const xlsx = await call<{ base64: string; fileName: string }>('bulk.export', { batchId: batch.id, lang: 'en', utcOffsetMinutes: 0, format: 'xlsx' });
    expect(xlsx.fileName).toBe(`callout-batch-${batch.id}.xlsx`);
    expect(Buffer.from(xlsx.base64, 'base64').subarray(0, 2).toString()).toBe('PK');
    await expect(call('bulk.requeue', { batchId: batch.id, itemIds: [1] })).rejects.toMatchObject({ code: 'invalid-input' });
  });
});

describe('contacts and quick dial channels', () => {
  it('saves contacts, refuses a second call within a minute unless overridden, and calls until answered', async () => {
    // No quiet hours for this test (the default 22:00–08:00 depends on the machine's clock).
    await call('dial.saveSettings', { scope: '*', perMinute: 1, perHour: 5, perDay: 20, quietStart: null, quietEnd: null });
    const ana = await call<{ id: number }>('contacts.save', { name: 'Ana 运维', mobile: '+86 139 1111 2225', favourite: true });
    expect((await call<{ contact: { id: number } }[]>('contacts.search', { query: 'ana' }))[0]!.contact.id).toBe(ana.id);
    const req = { profileId: 'sandbox', targets: [{ contactId: ana.id }], templateId: 'otp', values: ['9'], attempts: 3, pauseSeconds: 1 };
    const start = await call<{ started: boolean; runId: string }>('dial.start', req);
    expect(start.started).toBe(true);
    let done: DialProgress | undefined;
    for (let i = 0; i < 400 && !done; i++) {
      // Real time: a poll interval for work done over real HTTP against the sandbox on the system clock (a manual clock would need to wait for that I/O before moving).
      await new Promise((r) => setTimeout(r, 25));
      done = events.map((e) => e.payload as DialProgress).find((p) => (p as DialProgress).phase === 'done' && (p as DialProgress).runId === start.runId);
    }
    expect(done?.result?.status).toBe('answered');
    // The number ends in 5: no answer on the first call, answered on the provider's redial, so one send.
    expect(services.sandbox!.requests().filter((r) => r.op === 'send' && r.body?.mobile === '13911112225')).toHaveLength(1);
    const plan = await call<{ refusals: { limit: string }[] }>('dial.plan', req);
    expect(plan.refusals.map((r) => r.limit)).toContain('per-minute');
    const hhmm = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    const quiet = { quietStart: hhmm(new Date(Date.now() - 3_600_000)), quietEnd: hhmm(new Date(Date.now() + 3_600_000)) };
    await call('dial.saveSettings', { scope: '*', perMinute: 1, perHour: 5, perDay: 20, ...quiet });
    expect((await call<{ refusals: { limit: string }[] }>('dial.plan', req)).refusals.map((r) => r.limit)).toContain('quiet-hours');
    expect((await call<{ refusals: unknown[] }>('dial.plan', { ...req, override: true })).refusals).toEqual([]);
  });
});
