import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../main/sandbox';
import { creds, post, request, sandbox, send, TEXT, untilFinal } from './helpers';

const KEY = 'Sup3r-Secret-Api-Key-0001';

/** A raw request with headers fetch would not let us set (Host). */
function raw(sb: Sandbox, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: sb.port, path, method: 'GET', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('sandbox admin endpoints and request log', () => {
  it('binds 127.0.0.1 and exposes the first account as demo', async () => {
    const sb = await sandbox({
      accounts: [
        { apiId: 'first', apiKey: KEY },
        { apiId: 'second', apiKey: 'second-secret-key' },
      ],
    });
    expect(sb.baseUrl).toBe(`http://127.0.0.1:${sb.port}`);
    expect(sb.port).toBeGreaterThan(0);
    expect(sb.demo).toEqual({ apiId: 'first', apiKey: KEY });
  });

  it('GET /__sandbox/state: accounts, templates, calls, stats, faults — and never an API Key', async () => {
    const sb = await sandbox({ accounts: [{ apiId: 'acme', apiKey: KEY, balance: 50, lines: 3 }] });
    const smsid = (await send(sb, '13800138007')).json?.smsid as string;
    await untilFinal(sb, smsid);
    sb.setFault({ kind: 'delay', delayMs: 1, op: 'status', times: 2 });
    const r = await request(sb, '/__sandbox/state', { method: 'GET' });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain(KEY);
    const state = r.json as Record<string, unknown>;
    expect(state.accounts).toEqual([expect.objectContaining({ apiId: 'acme', balance: 49, reserved: 0, lines: 3, capacity: 60, peakConcurrency: 1 })]);
    expect(state.templates).toHaveLength(4);
    expect(state.calls).toEqual([expect.objectContaining({ smsid, state: 'answered', billed: true })]);
    expect(state.stats).toEqual({ peakConcurrency: 1, activeCalls: 0, queuedCalls: 0, sendsAccepted: 1 });
    expect(state.faults).toEqual([{ kind: 'delay', delayMs: 1, op: 'status', times: 2, remaining: 2 }]);
    expect(state).toMatchObject({ baseUrl: sb.baseUrl, signatureMode: 'off', timeScale: 0.001 });
  });

  it('POST /__sandbox/balance sets the units', async () => {
    const sb = await sandbox();
    expect((await post(sb, '/__sandbox/balance', { apiId: sb.demo.apiId, units: 1500 })).status).toBe(200);
    expect((await post(sb, '/voice/balance', creds(sb))).json?.num).toBe(1500);
    expect((await post(sb, '/__sandbox/balance', { apiId: sb.demo.apiId, units: -1 })).status).toBe(400);
    expect((await post(sb, '/__sandbox/balance', { apiId: 'nobody', units: 1 })).status).toBe(404);
  });

  it('POST /__sandbox/balance {add} tops the balance up; a body with both or neither is refused', async () => {
    const sb = await sandbox();
    expect((await post(sb, '/__sandbox/balance', { apiId: sb.demo.apiId, add: 15 })).status).toBe(200);
    expect((await post(sb, '/voice/balance', creds(sb))).json?.num).toBe(25);
    expect((await post(sb, '/__sandbox/balance', { apiId: sb.demo.apiId, add: 1, units: 1 })).status).toBe(400);
    expect((await post(sb, '/__sandbox/balance', { apiId: sb.demo.apiId })).status).toBe(400);
    expect((await post(sb, '/__sandbox/balance', { apiId: sb.demo.apiId, add: 2.5 })).status).toBe(400);
  });

  it('POST /__sandbox/templates/approve ends a review now; /__sandbox/settings changes the time scale and the review delay', async () => {
    const sb = await sandbox({ reviewDelayMs: 3_600_000 });
    const pending = sb.templates(sb.demo.apiId).find((t) => t.status === 'pending')!;
    expect((await post(sb, '/voice/vm', { ...creds(sb), mobile: '13800138007', content: TEXT.booking })).json?.code).toBe(403);
    const approved = await post(sb, '/__sandbox/templates/approve', { apiId: sb.demo.apiId, id: pending.id });
    expect(approved.status).toBe(200);
    expect(approved.json?.template).toMatchObject({ id: pending.id, status: 'approved', reviewDueAt: null });
    expect((await post(sb, '/voice/vm', { ...creds(sb), mobile: '13800138007', content: TEXT.booking })).json?.code).toBe(2);
    expect((await post(sb, '/__sandbox/templates/approve', { apiId: sb.demo.apiId, id: 'tpl-404' })).status).toBe(404);

    const changed = await post(sb, '/__sandbox/settings', { timeScale: 0.5, reviewDelayMs: 0 });
    expect(changed.json).toMatchObject({ ok: true, timeScale: 0.5, reviewDelayMs: 0, dialect: 'spec' });
    expect(sb.settings()).toMatchObject({ timeScale: 0.5, reviewDelayMs: 0 });
    // With no review delay, a template registered for review is approved at once.
    expect(sb.addTemplate(sb.demo.apiId, '测试【变量】', { approved: false }).status).toBe('approved');
    expect((await post(sb, '/__sandbox/settings', { timeScale: -1 })).status).toBe(400);
    expect((await post(sb, '/__sandbox/settings', { dialect: 'other' })).status).toBe(400);
  });

  it('unknown admin path → 404; a foreign Host or a web page Origin → 403', async () => {
    const sb = await sandbox();
    expect((await request(sb, '/__sandbox/nothing', { method: 'GET' })).status).toBe(404);
    expect(await raw(sb, '/__sandbox/state', { Host: 'evil.example' })).toBe(403);
    expect(await raw(sb, '/__sandbox/state', { Host: `localhost:${sb.port}` })).toBe(200);
    expect(await raw(sb, '/__sandbox/state', { Host: `127.0.0.1:${sb.port}`, Origin: 'https://evil.example' })).toBe(403);
    expect(await raw(sb, '/__sandbox/state', { Host: `127.0.0.1:${sb.port}`, Origin: 'null' })).toBe(403);
  });

  it('requests(): every voice request in order with op, path, redacted body, mobile and time; the key never appears', async () => {
    const sb = await sandbox({ accounts: [{ apiId: 'acme', apiKey: KEY }] });
    const cred = { account: 'acme', password: KEY };
    await post(sb, '/voice/vm', { ...cred, mobile: '13800138007', content: TEXT.code });
    await request(sb, '/voice/balance', {
      body: new URLSearchParams(cred).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    await post(sb, `/voice/status?password=${KEY}`, { ...cred, smsid: 'x', note: `my key is ${KEY}` });
    await request(sb, '/voice/vm', { body: `{"password": "${KEY}"`, headers: { 'Content-Type': 'application/json' } }); // malformed
    await post(sb, '/nowhere', cred);
    await request(sb, '/__sandbox/state', { method: 'GET' }); // admin calls are not logged

    const log = sb.requests();
    expect(log.map((r) => [r.seq, r.op, r.path.split('?')[0], r.response?.code ?? r.response?.httpStatus])).toEqual([
      [1, 'send', '/voice/vm', 2],
      [2, 'balance', '/voice/balance', 2],
      [3, 'status', '/voice/status', 400],
      [4, 'send', '/voice/vm', 400],
      [5, null, '/nowhere', 404],
    ]);
    expect(log[0]).toMatchObject({
      method: 'POST',
      mobile: '13800138007',
      format: 'json',
      body: { account: 'acme', password: '[REDACTED]', mobile: '13800138007', content: TEXT.code },
    });
    expect(Date.parse(String(log[0]?.time))).toBeGreaterThan(0);
    expect(log[0]?.response?.smsid).toEqual(sb.calls()[0]?.smsid);
    expect(log[1]?.body).toEqual({ account: 'acme', password: '[REDACTED]' });
    expect(log[2]?.body?.note).toBe('my key is [REDACTED]');
    expect(log[3]).toMatchObject({ body: null, bodyError: 'malformed' });

    expect(JSON.stringify(log)).not.toContain(KEY);
    // Even a key sent as a template value stays out of the admin state.
    sb.addTemplate('acme', '口令【变量】');
    expect((await post(sb, '/voice/vm', { ...cred, mobile: '13800138007', content: `口令${KEY}` })).json?.code).toBe(2);
    const viaHttp = await request(sb, '/__sandbox/requests', { method: 'GET' });
    expect(viaHttp.json).toHaveLength(6);
    expect(viaHttp.text).not.toContain(KEY);
    expect((await request(sb, '/__sandbox/state', { method: 'GET' })).text).not.toContain(KEY);
  });

  it('requests() and calls() are copies: changing them does not change the sandbox', async () => {
    const sb = await sandbox();
    await send(sb, '13800138007');
    const log = sb.requests();
    (log[0] as { op: unknown }).op = 'tampered';
    const calls = sb.calls();
    (calls[0] as { state: unknown }).state = 'tampered';
    expect(sb.requests()[0]?.op).toBe('send');
    expect(sb.calls()[0]?.state).not.toBe('tampered');
  });

  it('options are validated', async () => {
    const { startSandbox } = await import('../../../main/sandbox');
    await expect(startSandbox({ timeScale: -1 })).rejects.toThrow(RangeError);
    await expect(startSandbox({ port: 70000 })).rejects.toThrow(RangeError);
    await expect(startSandbox({ signature: 'sometimes' as never })).rejects.toThrow(RangeError);
    await expect(startSandbox({ accounts: [{ apiId: '', apiKey: 'k' }] })).rejects.toThrow(TypeError);
  });
});
