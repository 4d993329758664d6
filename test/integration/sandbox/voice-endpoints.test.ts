import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { creds, post, request, sandbox, send, TEXT } from './helpers';

describe('sandbox provider: send (POST /voice/vm) result codes', () => {
  it('2: accepted, with smsid and count = units of the content, as JSON with HTTP 200', async () => {
    const sb = await sandbox();
    const r = await send(sb, '13800138007', TEXT.code);
    expect(r.status).toBe(200);
    expect(r.contentType).toBe('application/json; charset=utf-8');
    expect(r.json).toMatchObject({ code: 2, msg: '提交成功', count: 1 });
    expect(typeof r.json?.smsid).toBe('string');
    const again = await send(sb, '13800138007', TEXT.code);
    expect(again.json?.smsid).not.toBe(r.json?.smsid);
    expect(sb.stats().sendsAccepted).toBe(2);
  });

  it('count grows with the text: 71 characters cost 2 units', async () => {
    const sb = await sandbox({ accounts: [{ apiId: 'acme', apiKey: 'acme-secret-key', balance: 100 }] });
    const detail = '磁'.repeat(71 - TEXT.alarm('').length);
    const content = TEXT.alarm(detail);
    expect(Array.from(content)).toHaveLength(71);
    const r = await send(sb, '13800138007', content);
    expect(r.json).toMatchObject({ code: 2, count: 2 });
  });

  it('400: a required parameter is missing or empty', async () => {
    const sb = await sandbox();
    const full = { ...creds(sb), mobile: '13800138007', content: TEXT.code };
    for (const name of ['account', 'password', 'mobile', 'content'] as const) {
      const without: Record<string, string> = { ...full };
      delete without[name];
      const r1 = await post(sb, '/voice/vm', without);
      expect(r1.status).toBe(200);
      expect(r1.json?.code, `missing ${name}`).toBe(400);
      const r2 = await post(sb, '/voice/vm', { ...full, [name]: '' });
      expect(r2.json?.code, `empty ${name}`).toBe(400);
    }
    expect(sb.calls()).toHaveLength(0);
  });

  it('400: content that is blank or longer than 500 characters (checked after the number)', async () => {
    const sb = await sandbox();
    expect((await send(sb, '13800138007', '   ')).json?.code).toBe(400);
    const long = TEXT.alarm('长'.repeat(500));
    expect((await send(sb, '13800138007', long)).json?.code).toBe(400);
    // A malformed number is reported before the content length.
    expect((await send(sb, '12345', long)).json?.code).toBe(404);
  });

  it('400: a body that is not a JSON object', async () => {
    const sb = await sandbox();
    for (const body of ['{"account": ', '[1,2,3]', 'null']) {
      const r = await request(sb, '/voice/vm', { body, headers: { 'Content-Type': 'application/json' } });
      expect(r.status).toBe(200);
      expect(r.json?.code).toBe(400);
    }
    expect(sb.requests().at(-1)?.bodyError).toBe('malformed');
  });

  it('401: wrong API ID or wrong API Key (checked before the number)', async () => {
    const sb = await sandbox();
    const wrongKey = await post(sb, '/voice/vm', { account: sb.demo.apiId, password: 'nope', mobile: 'x', content: TEXT.code });
    expect(wrongKey.json).toMatchObject({ code: 401 });
    const wrongId = await post(sb, '/voice/vm', { account: 'nobody', password: sb.demo.apiKey, mobile: '13800138007', content: TEXT.code });
    expect(wrongId.json).toMatchObject({ code: 401 });
  });

  it('404: a number that is not an 11-digit mainland mobile', async () => {
    const sb = await sandbox();
    for (const mobile of ['1380013800', '138001380077', '12800138007', '+8613800138007', '138-0013-8007', '010-12345678']) {
      expect((await send(sb, mobile)).json?.code, mobile).toBe(404);
    }
  });

  it('403: text that matches no approved template', async () => {
    const sb = await sandbox();
    expect((await send(sb, '13800138007', '随便说点什么')).json?.code).toBe(403);
    // The template without its marker filled in does not count as a match.
    expect((await send(sb, '13800138007', '您的验证码是，5分钟内有效。')).json?.code).toBe(403);
    expect(sb.calls()).toHaveLength(0);
  });

  it('402: not enough units', async () => {
    const sb = await sandbox();
    sb.setBalance(sb.demo.apiId, 0);
    const r = await send(sb, '13800138007');
    expect(r.json).toMatchObject({ code: 402, msg: '余额不足' });
    expect(sb.calls()).toHaveLength(0);
  });

  it('500: only through a fault (natural 500 is the provider failing)', async () => {
    const sb = await sandbox();
    sb.setFault({ kind: 'code', code: 500, op: 'send', times: 1 });
    const r = await send(sb, '13800138007');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ code: 500 });
    expect(sb.calls()).toHaveLength(0);
    expect((await send(sb, '13800138007')).json?.code).toBe(2);
  });

  it('accepts a form-encoded body and a number given as a JSON number', async () => {
    const sb = await sandbox();
    const form = new URLSearchParams({ ...creds(sb), mobile: '13800138007', content: TEXT.shipped }).toString();
    const r = await request(sb, '/voice/vm', { body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(r.json).toMatchObject({ code: 2, count: 1 });
    const n = await post(sb, '/voice/vm', { ...creds(sb), mobile: 13800138008, content: TEXT.code });
    expect(n.json?.code).toBe(2);
    expect(sb.calls().map((c) => c.mobile)).toEqual(['13800138007', '13800138008']);
  });
});

describe('sandbox provider: XML replies', () => {
  const parser = new XMLParser({ parseTagValue: false });

  it('format=xml gives the same fields in SubmitResult / StatusResult / GetNumResult', async () => {
    const sb = await sandbox({ timeScale: 1 }); // real time: the call is still pending when queried
    const r = await post(sb, '/voice/vm', { ...creds(sb), mobile: '13800138007', content: TEXT.code, format: 'xml' });
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^application\/xml; charset=utf-8$/);
    expect(r.text.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
    const submit = parser.parse(r.text).SubmitResult as Record<string, string>;
    expect(submit).toMatchObject({ code: '2', msg: '提交成功', count: '1' });
    expect(submit.smsid).toMatch(/\S/);

    const st = parser.parse((await post(sb, '/voice/status', { ...creds(sb), smsid: submit.smsid, format: 'XML' })).text);
    expect(st.StatusResult).toMatchObject({ code: '2', msg: '查询成功', smsid: submit.smsid, state: 'pending', answeredAt: '' });

    const bal = parser.parse((await post(sb, '/voice/balance', { ...creds(sb), format: 'xml' })).text);
    expect(bal.GetNumResult).toMatchObject({ code: '2', num: '10' });
  });

  it('errors come in XML too, with text escaped', async () => {
    const sb = await sandbox();
    const form = new URLSearchParams({ account: 'x<&>', password: 'y', mobile: '1', content: 'z', format: 'xml' }).toString();
    const r = await request(sb, '/voice/vm', { body: form, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(parser.parse(r.text).SubmitResult).toMatchObject({ code: '401' });
    const st = await post(sb, '/voice/status', { ...creds(sb), smsid: 'nope', format: 'xml' });
    expect(parser.parse(st.text).StatusResult).toMatchObject({ code: '400', msg: 'smsid 不存在' });
  });
});

describe('sandbox provider: status and balance', () => {
  it('status: 400 for an unknown smsid, 400 when smsid is missing, 401 for wrong credentials', async () => {
    const sb = await sandbox();
    expect((await post(sb, '/voice/status', { ...creds(sb), smsid: 'SBX-none' })).json).toEqual({ code: 400, msg: 'smsid 不存在' });
    expect((await post(sb, '/voice/status', creds(sb))).json?.code).toBe(400);
    const smsid = (await send(sb, '13800138007')).json?.smsid as string;
    expect((await post(sb, '/voice/status', { account: sb.demo.apiId, password: 'bad', smsid })).json?.code).toBe(401);
  });

  it("status: another account's smsid does not exist for you", async () => {
    const sb = await sandbox();
    sb.addAccount({ apiId: 'other', apiKey: 'other-secret-key' });
    const smsid = (await send(sb, '13800138007')).json?.smsid as string;
    const r = await post(sb, '/voice/status', { account: 'other', password: 'other-secret-key', smsid });
    expect(r.json?.code).toBe(400);
  });

  it('status reply fields right after the send', async () => {
    const sb = await sandbox({ timeScale: 1 }); // real time: dispatch takes 1 s
    const smsid = (await send(sb, '13800138007')).json?.smsid as string;
    const r = await post(sb, '/voice/status', { ...creds(sb), smsid });
    expect(r.json).toMatchObject({ code: 2, msg: '查询成功', smsid, state: 'pending', duration: 0, attempts: 0, calledAt: null, endedAt: null });
    expect(Object.keys(r.json ?? {})).toEqual([
      'code',
      'msg',
      'smsid',
      'state',
      'status',
      'duration',
      'attempts',
      'submittedAt',
      'calledAt',
      'answeredAt',
      'endedAt',
    ]);
  });

  it('balance: num in units; 400 without credentials; 401 with wrong ones', async () => {
    const sb = await sandbox();
    expect((await post(sb, '/voice/balance', creds(sb))).json).toEqual({ code: 2, msg: '查询成功', num: 10 });
    expect((await post(sb, '/voice/balance', {})).json?.code).toBe(400);
    expect((await post(sb, '/voice/balance', { account: sb.demo.apiId, password: 'x' })).json?.code).toBe(401);
    sb.setBalance(sb.demo.apiId, 1500);
    expect((await post(sb, '/voice/balance', creds(sb))).json?.num).toBe(1500);
  });
});

describe('sandbox provider: HTTP robustness', () => {
  it('unknown path → HTTP 404 JSON; GET on an operation → 405', async () => {
    const sb = await sandbox();
    const r = await post(sb, '/voice/nothing', creds(sb));
    expect(r.status).toBe(404);
    expect(r.json?.error).toBe('not_found');
    const g = await request(sb, '/voice/balance', { method: 'GET' });
    expect(g.status).toBe(405);
  });

  it('a body over 64 KiB → HTTP 413, and the server keeps working', async () => {
    const sb = await sandbox();
    const r = await post(sb, '/voice/vm', { ...creds(sb), mobile: '13800138007', content: 'x'.repeat(70 * 1024) });
    expect(r.status).toBe(413);
    expect(sb.requests().at(-1)).toMatchObject({ bodyError: 'too-large', response: { httpStatus: 413 } });
    expect((await post(sb, '/voice/balance', creds(sb))).json?.code).toBe(2);
  });

  it('survives junk: raw garbage on a socket, odd content types, deep JSON', async () => {
    const sb = await sandbox();
    const net = await import('node:net');
    await new Promise<void>((resolve) => {
      const s = net.connect(sb.port, '127.0.0.1', () => s.write('GARBAGE\r\n\r\n\x00\x01'));
      s.on('data', () => undefined);
      s.on('close', () => resolve());
      s.on('error', () => resolve());
    });
    const weird = await request(sb, '/voice/vm', {
      body: '--x\r\nContent-Disposition: form-data\r\n',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
    });
    expect(weird.json?.code).toBe(400);
    const deep = await post(sb, '/voice/vm', { ...creds(sb), mobile: { a: [1, { b: 2 }] }, content: ['x'] });
    expect(deep.json?.code).toBe(400);
    expect((await post(sb, '/voice/balance', creds(sb))).json?.code).toBe(2);
  });
});
