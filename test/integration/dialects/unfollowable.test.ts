// Sends that can't be followed: the provider says code 2 but gives no usable message ID. The message
// is accepted, its call ends at once as unknown saying why, it counts as settled for "send again",
// quick dial and bulk, and `callout dial` returns (exit 4) well within its timeouts. Also: a code 2
// in a non-2xx HTTP reply is not a success, and a GBK reply is read as GBK.
import { describe, expect, it, onTestFinished } from 'vitest';
import iconv from 'iconv-lite';
import { maySendAgain } from '../../../common/domain';
import { ManualClock } from '../../../main/clock';
import { scriptedServer } from '../../helpers/scripted-server';
import { tempHome } from '../../helpers/temp-home';
import { cli } from '../cli/run-cli';
import { OTP, rehearsal } from './helpers';

async function provider(reply: (path: string) => { status?: number; type?: string; body: string | Buffer }) {
  const server = await scriptedServer((req, _body, res) => {
    const r = reply(new URL(req.url ?? '/', 'http://x').pathname);
    res.writeHead(r.status ?? 200, { 'Content-Type': r.type ?? 'application/json; charset=utf-8' });
    res.end(r.body);
  });
  onTestFinished(() => server.close());
  return server;
}

const NO_ID = [
  ['no id at all', '{"code":2,"msg":"提交成功"}'],
  ['an empty id', '{"code":2,"msg":"提交成功","smsid":""}'],
  ['an object for the id', '{"code":2,"msg":"提交成功","smsid":{"id":"123"}}'],
  ['a list for the id', '{"code":2,"msg":"提交成功","smsid":["123"]}'],
] as const;

describe('code 2 with no usable message ID', () => {
  it.each(NO_ID)('%s: accepted, its call ends as unknown at once, saying why; send again is allowed', async (_name, body) => {
    const server = await provider((path) => (path === '/voice/vm' ? { body } : { status: 500, body: 'status must not be asked' }));
    const { services, call } = await rehearsal({});
    const p = await call('profiles.save', { name: 'Odd', baseUrl: server.baseUrl, apiId: 'odd' });
    await call('profiles.setKey', { id: p.id, apiKey: 'odd-key-12345' });
    const sent = await call('messages.send', { profileId: p.id, mobile: '13800138008', content: OTP });
    expect(sent.message).toMatchObject({
      outcome: 'accepted',
      code: 2,
      smsid: null,
      state: 'unknown',
      endedAt: expect.any(Number),
      reason: { code: 'no-message-id', params: {} },
    });
    expect(maySendAgain(sent.message)).toBe(true);
    // Nobody follows it or waits for it: settled now.
    expect(services.calls.following()).not.toContain(sent.message.id);
    await expect(services.calls.awaitEnd(sent.message.id)).resolves.toMatchObject({ id: sent.message.id });
    const { events } = await call('messages.get', { id: sent.message.id });
    expect(events.map((e) => [e.kind, e.reason?.code ?? null])).toEqual([
      ['created', null],
      ['submitted', null],
      ['error', 'no-message-id'],
    ]);
    // A deliberate send again goes out (and the provider is asked nothing else).
    const again = await call('messages.sendAgain', { id: sent.message.id, confirm: true });
    expect(again.message).toMatchObject({ resendOf: sent.message.id, outcome: 'accepted' });
    expect(server.received.map((r) => r.url)).toEqual(['/voice/vm', '/voice/vm']);
  });

  it('quick dial and bulk treat it as settled: the dial run ends unknown, the batch finishes', async () => {
    const server = await provider(() => ({ body: '{"code":2}' }));
    const { call } = await rehearsal({});
    const p = await call('profiles.save', { name: 'Odd', baseUrl: server.baseUrl, apiId: 'odd' });
    await call('profiles.setKey', { id: p.id, apiKey: 'odd-key-12345' });
    await call('dial.saveSettings', { scope: '*', perMinute: null, perHour: null, perDay: null, quietStart: null, quietEnd: null });
    const started = await call('dial.start', {
      profileId: p.id,
      targets: [{ mobile: '13800138008' }, { mobile: '13900139008' }],
      content: OTP,
      attempts: 3,
      pauseSeconds: 0,
    });
    expect(started.started).toBe(true);
    if (!started.started) return;
    await expect.poll(async () => (await call('dial.active')).some((r) => r.runId === started.runId), { timeout: 5_000 }).toBe(false);
    // One call only: it may have been answered, so nobody else is called and it is not repeated.
    expect(server.received.filter((r) => r.url === '/voice/vm')).toHaveLength(1);

    await call('templates.save', { id: 'otp', content: '您的验证码是【变量】，5分钟内有效。', approved: true });
    const csv = '手机,验证码\n13800138001,1\n13800138002,2\n';
    const view = await call('bulk.open', { templateId: 'otp', file: { name: 'two.csv', base64: Buffer.from(csv).toString('base64') } });
    const batch = await call('bulk.create', { importId: view.importId, profileId: p.id, duplicates: 'none' });
    await call('bulk.start', { batchId: batch.id });
    await expect.poll(async () => (await call('bulk.progress', { batchId: batch.id })).status, { timeout: 10_000 }).toBe('done');
    expect(await call('bulk.progress', { batchId: batch.id })).toMatchObject({ accepted: 2, calling: 0 });
  });

  it('`callout dial` finishes with exit 4, well within its timeouts', async () => {
    const server = await provider(() => ({ body: '{"code":2,"msg":"ok","smsid":{}}' }));
    const home = tempHome();
    onTestFinished(home.cleanup);
    const env = { CALLOUT_HOME: home.dir, CALLOUT_BASE_URL: server.baseUrl, CALLOUT_API_ID: 'odd', CALLOUT_API_KEY: 'odd-key-12345' };
    // On a manual clock that is never moved: the dial ends without waiting for a look, a pause or a
    // timeout (were it to wait for one, it would never finish).
    const clock = new ManualClock(Date.now());
    const r = await cli(['--json', 'dial', '13800138008', '--content', OTP, '--until-answered', '3', '--pause', '1', '--override'], env, { clock });
    expect(r.code).toBe(4);
    expect(r.json).toMatchObject({ status: 'unknown', attempts: [{ outcome: 'accepted', state: 'unknown' }] });
    expect(r.stderr).toMatch(/unknown/i);
    const sent = await cli(['--json', 'send', '--to', '13800138008', '--content', OTP], env);
    expect(sent.code).toBe(0);
    expect(sent.json).toMatchObject({ outcome: 'accepted', smsid: null, state: 'unknown' });
    const human = await cli(['send', '--to', '13800138009', '--content', OTP], env);
    expect(human.stdout).toContain('the call cannot be followed');
    expect(human.stdout).not.toContain('callout status null');
  });
});

describe('what a reply says is read as the provider meant it', () => {
  it('code 2 in the body of an HTTP 500 or 404 is not a success: unknown, never resent', async () => {
    for (const status of [500, 404, 302]) {
      const server = await provider(() => ({ status, body: '{"code":2,"msg":"提交成功","smsid":"S1"}' }));
      const { call } = await rehearsal({});
      const p = await call('profiles.save', { name: `H${status}`, baseUrl: server.baseUrl, apiId: 'h' });
      await call('profiles.setKey', { id: p.id, apiKey: 'h-key-12345' });
      const sent = await call('messages.send', { profileId: p.id, mobile: '13800138008', content: OTP });
      expect(sent.message).toMatchObject({ outcome: 'unknown', smsid: null, reason: { code: 'http-status', params: { status, code: 2 } } });
      expect(sent.failure).toMatchObject({ kind: 'http-status', outcome: 'unknown' });
      expect(server.received).toHaveLength(1);
    }
  });

  it('a GBK reply (charset=gbk) is decoded before it is read and stored', async () => {
    const gbk = (s: string) => iconv.encode(s, 'gbk');
    const server = await provider((path) =>
      path === '/voice/vm'
        ? { type: 'application/json; charset=gbk', body: gbk('{"code":2,"msg":"提交成功","smsid":"G1"}') }
        : {
            type: 'text/xml',
            body: gbk('<?xml version="1.0" encoding="GBK"?><GetNumResult xmlns="http://x/"><code>2</code><msg>查询成功</msg><num>7</num></GetNumResult>'),
          },
    );
    const { call } = await rehearsal({});
    const p = await call('profiles.save', { name: 'GBK', baseUrl: server.baseUrl, apiId: 'g' });
    await call('profiles.setKey', { id: p.id, apiKey: 'g-key-12345' });
    const sent = await call('messages.send', { profileId: p.id, mobile: '13800138008', content: OTP });
    expect(sent.message).toMatchObject({ outcome: 'accepted', smsid: 'G1', providerMsg: '提交成功' });
    const { exchanges } = await call('messages.get', { id: sent.message.id });
    expect(exchanges[0]!.responseBody).toBe('{"code":2,"msg":"提交成功","smsid":"G1"}');
    const balance = await call('balance.query', { profileId: p.id });
    expect(balance).toMatchObject({ units: 7, raw: { msg: '查询成功' } });
  });

  it('garbage figures are not stored: a negative count is no count', async () => {
    const server = await provider(() => ({ body: '{"code":2,"smsid":"N1","count":-4}' }));
    const { call } = await rehearsal({});
    const p = await call('profiles.save', { name: 'Neg', baseUrl: server.baseUrl, apiId: 'n' });
    await call('profiles.setKey', { id: p.id, apiKey: 'n-key-12345' });
    const sent = await call('messages.send', { profileId: p.id, mobile: '13800138008', content: OTP });
    expect(sent.message).toMatchObject({ outcome: 'accepted', billedUnits: null });
  });
});
