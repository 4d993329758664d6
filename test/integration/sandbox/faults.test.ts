import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../main/clock';
import { startSandbox } from '../../../main/sandbox';
import { creds, FAST, post, request, sandbox, send, TEXT } from './helpers';

describe('sandbox faults', () => {
  it('delay: answers normally after the delay, once (times=1), then at full speed', async () => {
    // The delay is kept on the sandbox's clock: it is a manual one, so the test says when 300 ms have passed.
    const clock = new ManualClock();
    const sb = await sandbox({ clock });
    sb.setFault({ kind: 'delay', delayMs: 300, op: 'balance', times: 1 });
    let answered = false;
    const slowReply = post(sb, '/voice/balance', creds(sb)).then((r) => ((answered = true), r));
    // Waits for the request to reach the sandbox over the socket (I/O, not time): its delay is then pending.
    await vi.waitFor(() => expect(clock.pending).toBe(1));
    await clock.advance(290);
    expect(answered).toBe(false);
    await clock.advance(10);
    const slow = await slowReply;
    expect(slow.json).toMatchObject({ code: 2, num: 10 });
    // The second balance query is answered without the clock moving at all.
    const at = clock.now();
    await post(sb, '/voice/balance', creds(sb));
    expect(clock.now()).toBe(at);
    expect(sb.requests().map((r) => r.fault ?? null)).toEqual(['delay', null]);
  });

  it('timeout: the client gives up, but the send reached the provider and the call WAS placed', async () => {
    const sb = await sandbox();
    sb.setFault({ kind: 'timeout', op: 'send', times: 1 });
    const before = await post(sb, '/voice/balance', creds(sb)); // other ops are not affected
    expect(before.json?.code).toBe(2);
    await expect(send(sb, '13800138007', TEXT.code, AbortSignal.timeout(200))).rejects.toThrow();
    const calls = sb.calls();
    expect(calls).toHaveLength(1);
    const logged = sb.requests().at(-1);
    expect(logged).toMatchObject({ op: 'send', fault: 'timeout', withheld: { code: 2, smsid: calls[0]?.smsid } });
    expect(logged?.response).toBeUndefined();
    // times=1: back to normal
    expect((await send(sb, '13800138007')).json?.code).toBe(2);
    expect(sb.calls()).toHaveLength(2);
  });

  it('timeout on an invalid send places no call', async () => {
    const sb = await sandbox();
    sb.setFault({ kind: 'timeout', op: 'send', times: 1 });
    await expect(send(sb, '12345', TEXT.code, AbortSignal.timeout(100))).rejects.toThrow();
    expect(sb.calls()).toHaveLength(0);
    expect(sb.requests().at(-1)?.withheld).toEqual({ code: 404 });
  });

  it('close() resolves promptly while a timed-out request is still open', async () => {
    const sb = await startSandbox({ timeScale: FAST });
    sb.setFault({ kind: 'timeout' });
    const hanging = post(sb, '/voice/balance', creds(sb)).then(
      () => 'answered',
      () => 'failed',
    );
    // Waits for the request to reach the sandbox (I/O, not time), which then holds it open.
    await vi.waitFor(() => expect(sb.requests()).toHaveLength(1));
    // close() does not wait for the held request: it resolves (a hang would run into the test's timeout).
    await sb.close();
    expect(await hanging).toBe('failed');
    await sb.close(); // idempotent
  });

  it('http500: HTTP 500 with JSON {code: 500, msg}, no call placed', async () => {
    const sb = await sandbox();
    sb.setFault({ kind: 'http500', op: 'send', times: 1 });
    const r = await send(sb, '13800138007');
    expect(r.status).toBe(500);
    expect(r.contentType).toMatch(/^application\/json/);
    expect(r.json).toEqual({ code: 500, msg: '服务器内部错误' });
    expect(sb.calls()).toHaveLength(0);
    expect((await send(sb, '13800138007')).status).toBe(200);
  });

  it('html: HTTP 502 with an HTML page, no call placed', async () => {
    const sb = await sandbox();
    sb.setFault({ kind: 'html', times: 1 });
    const r = await send(sb, '13800138007');
    expect(r.status).toBe(502);
    expect(r.contentType).toMatch(/^text\/html/);
    expect(r.text).toContain('502 Bad Gateway');
    expect(r.json).toBeUndefined();
    expect(sb.calls()).toHaveLength(0);
  });

  it('reset: the socket is destroyed, no call placed, then back to normal', async () => {
    const sb = await sandbox();
    sb.setFault({ kind: 'reset', op: 'send', times: 1 });
    await expect(send(sb, '13800138007')).rejects.toThrow();
    expect(sb.calls()).toHaveLength(0);
    expect(sb.requests().at(-1)).toMatchObject({ fault: 'reset', op: 'send' });
    expect((await send(sb, '13800138007')).json?.code).toBe(2);
  });

  it('code: answers every provider code on demand without processing the request', async () => {
    const sb = await sandbox();
    for (const code of [400, 401, 402, 403, 404, 500] as const) {
      sb.setFault({ kind: 'code', code, op: 'send', times: 1 });
      const r = await send(sb, '13800138007');
      expect(r.status).toBe(200);
      expect(r.json?.code).toBe(code);
    }
    expect(sb.calls()).toHaveLength(0);
    sb.setFault({ kind: 'code', code: 401, op: 'status' });
    const xml = await post(sb, '/voice/status', { ...creds(sb), smsid: 'x', format: 'xml' });
    expect(xml.text).toContain('<StatusResult><code>401</code>');
  });

  it('without times a fault lasts until cleared; the newest matching fault wins', async () => {
    const sb = await sandbox();
    sb.setFault({ kind: 'http500' });
    sb.setFault({ kind: 'html', op: 'balance', times: 1 });
    expect((await post(sb, '/voice/balance', creds(sb))).status).toBe(502);
    expect((await post(sb, '/voice/balance', creds(sb))).status).toBe(500);
    expect((await send(sb, '13800138007')).status).toBe(500);
    sb.clearFaults();
    expect((await post(sb, '/voice/balance', creds(sb))).status).toBe(200);
  });

  it('rejects invalid faults', async () => {
    const sb = await sandbox();
    expect(() => sb.setFault({ kind: 'delay', delayMs: -1 })).toThrow(TypeError);
    expect(() => sb.setFault({ kind: 'code', code: 418 } as never)).toThrow(TypeError);
    expect(() => sb.setFault({ kind: 'reset', times: 0 })).toThrow(TypeError);
    expect(() => sb.setFault({ kind: 'nope' } as never)).toThrow(TypeError);
  });

  it('admin: POST /__sandbox/faults sets a fault and {clear: true} clears them', async () => {
    const sb = await sandbox();
    const set = await post(sb, '/__sandbox/faults', { kind: 'code', code: 403, op: 'send' });
    expect(set.status).toBe(200);
    expect(set.json?.faults).toEqual([{ kind: 'code', code: 403, op: 'send', remaining: null }]);
    expect((await send(sb, '13800138007')).json?.code).toBe(403);
    expect((await post(sb, '/__sandbox/faults', { clear: true })).json?.faults).toEqual([]);
    expect((await send(sb, '13800138007')).json?.code).toBe(2);
    expect((await post(sb, '/__sandbox/faults', { kind: 'teapot' })).status).toBe(400);
    expect((await request(sb, '/__sandbox/faults', { body: 'not json' })).status).toBe(400);
  });
});
