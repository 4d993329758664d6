// The sandbox speaking a dialect, as a tester rehearses a provider: the provider's field names and
// values, XML with a namespace and string values by default, a field holding a JSON text, its own
// codes, GBK; no status query for a provider that only pushes; switched at run time by the admin
// endpoint; and the client reading each shape with the same dialect.
import { describe, expect, it } from 'vitest';
import { builtinDialect } from '../../../common/dialects';
import { VoiceClient } from '../../../main/voice/client';
import { creds, dialectEndpoint, post, request, sandbox, send, TEXT } from './helpers';

const endpoint = dialectEndpoint;

describe('the sandbox in a dialect', () => {
  it('voiceid-push: XML with a namespace and string values unless JSON is asked for; no status query at all', async () => {
    const sb = await sandbox({ dialect: builtinDialect('voiceid-push') });
    const xml = await request(sb, '/voice/vm', {
      body: new URLSearchParams({ ...creds(sb), mobile: '13800138008', content: TEXT.code }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(xml.contentType).toBe('application/xml; charset=utf-8');
    expect(xml.text).toMatch(
      /^<\?xml version="1.0" encoding="utf-8"\?>\n<SubmitResult xmlns="http:\/\/106\.ihuyi\.com\/"><code>2<\/code><msg>提交成功<\/msg><voiceid>SBX\w+<\/voiceid><\/SubmitResult>$/,
    );
    expect((await send(sb, '13800138008')).text).toMatch(/^<\?xml/);
    const json = await post(sb, '/voice/vm', { ...creds(sb), mobile: '13800138008', content: TEXT.code, format: 'json' });
    expect(json.json).toMatchObject({ code: '2', voiceid: expect.any(String) });
    expect(json.json).not.toHaveProperty('smsid');
    expect((await post(sb, '/voice/status', { ...creds(sb), smsid: 'x' })).status).toBe(404);
    // The client reads both shapes with the dialect.
    for (const format of ['xml', 'json'] as const) {
      const r = await new VoiceClient(endpoint(sb.baseUrl, sb.demo.apiId, sb.demo.apiKey, 'voiceid-push', format)).send({
        mobile: '13800138008',
        content: TEXT.code,
      });
      expect(r.reply).toMatchObject({ outcome: 'accepted', smsid: expect.stringMatching(/^SBX/) });
      const b = await new VoiceClient(endpoint(sb.baseUrl, sb.demo.apiId, sb.demo.apiKey, 'voiceid-push', format)).balance();
      expect(b.reply?.units).toEqual(expect.any(Number));
    }
  });

  it('numeric-states: a data field holding a JSON text, string values, and its own code for bad credentials', async () => {
    const sb = await sandbox({ dialect: builtinDialect('numeric-states') });
    const sent = await send(sb, '13800138008');
    expect(sent.json).toMatchObject({ code: '2', msg: '提交成功', data: expect.stringMatching(/^\{"callId":"SBX\w+","count":"1"\}$/) });
    const wrong = await post(sb, '/voice/vm', { account: sb.demo.apiId, password: 'wrong', mobile: '13800138008', content: TEXT.code });
    expect(wrong.json).toMatchObject({ code: '405' });
    const client = new VoiceClient(endpoint(sb.baseUrl, sb.demo.apiId, 'wrong', 'numeric-states'));
    expect((await client.send({ mobile: '13800138008', content: TEXT.code })).reply).toMatchObject({
      outcome: 'rejected',
      code: 405,
      meaning: 'wrong API ID or Key',
    });
  });

  it('digit-states: answers in GBK, with records in a list; the client reads it as GBK', async () => {
    const sb = await sandbox({ dialect: builtinDialect('digit-states') });
    const raw = await fetch(`${sb.baseUrl}/voice/vm`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...creds(sb), mobile: '13800138003', content: TEXT.code }),
    });
    expect(raw.headers.get('content-type')).toBe('application/json; charset=gbk');
    const bytes = Buffer.from(await raw.arrayBuffer());
    expect(bytes.toString('utf8')).not.toContain('提交成功');
    expect(new TextDecoder('gbk').decode(bytes)).toContain('提交成功');
    const client = new VoiceClient(endpoint(sb.baseUrl, sb.demo.apiId, sb.demo.apiKey, 'digit-states'));
    const r = await client.send({ mobile: '13800138003', content: TEXT.code });
    expect(r.reply).toMatchObject({ outcome: 'accepted', msg: '提交成功' });
    let s = await client.status(r.reply!.smsid!);
    for (let i = 0; i < 200 && s.reply?.state !== 'unreachable'; i++) s = await client.status(r.reply!.smsid!);
    expect(s.reply).toMatchObject({ state: 'unreachable', rawState: '被叫用户无法接通' });
    expect(s.exchanges[0]!.responseBody).toContain('"desc":"被叫用户无法接通"');
  });

  it('switches dialect and receipt address at run time (admin), and refuses what is not a dialect', async () => {
    const sb = await sandbox();
    expect((await send(sb, '13800138008')).json).toHaveProperty('smsid');
    const ok = await post(sb, '/__sandbox/settings', { dialect: 'numeric-states', receiptsUrl: 'http://127.0.0.1:9/r' });
    expect(ok.json).toMatchObject({ ok: true, dialect: 'numeric-states', receiptsUrl: 'http://127.0.0.1:9/r' });
    expect((await send(sb, '13800138008')).json).toHaveProperty('data');
    expect((await post(sb, '/__sandbox/settings', { dialect: 'klingon' })).status).toBe(400);
    expect((await post(sb, '/__sandbox/settings', { dialect: { name: 'x' } })).status).toBe(400);
    expect((await post(sb, '/__sandbox/settings', { receiptsUrl: 'ftp://x' })).status).toBe(400);
    const state = await request(sb, '/__sandbox/state', { method: 'GET' });
    expect(state.json).toMatchObject({ dialect: 'numeric-states', receiptsUrl: 'http://127.0.0.1:9/r' });
    // Nothing listens at port 9: the receipt is tried three times, and says why it failed.
    await expect.poll(() => sb.pushedReceipts()[0]?.attempts ?? 0, { timeout: 10_000 }).toBe(3);
    expect(sb.pushedReceipts()[0]).toMatchObject({ status: null, error: expect.any(String) });
    expect((await request(sb, '/__sandbox/receipts', { method: 'GET' })).json).toBeTruthy();
  }, 20_000);
});
