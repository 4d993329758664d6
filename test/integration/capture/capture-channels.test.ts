// The capture proxy through the contract (capture.start/stop/status, the captureUpdated push,
// exchanges.list with captured): what the app's switch and History do, against the embedded sandbox.
import { rawPost as post } from '../../helpers/raw-post';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaptureStatus } from '../../../common/capture';
import type { ExchangePage } from '../../../common/history-types';
import type { ExchangeRecord } from '../../../common/records';
import { EVENT_CHANNELS } from '../../../common/contract';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services } from '../../../main/services';
import { signRequest } from '../../../main/signing';
import { tempHome } from '../../helpers/temp-home';

let services: Services;
let key: string;
const home = tempHome();
const call = async <T>(channel: string, input?: unknown): Promise<T> => {
  const r = await dispatch(createHandlers(services), channel, input);
  if (!r.ok) throw Object.assign(new Error(r.error.code), { code: r.error.code, params: r.error.params });
  return r.value as T;
};
const pushes: Array<{ status: CaptureStatus; exchangeId: number | null }> = [];

beforeAll(async () => {
  const store = new SessionSecretStore();
  services = await createServices({
    home: home.dir,
    secrets: { store, status: { kind: 'session', keychainAvailable: false, reason: 't' } },
    sandbox: { timeScale: 0.002 },
  });
  key = (await store.get('profile:sandbox'))!;
  services.subscribe((channel, payload) => channel === EVENT_CHANNELS.captureUpdated && pushes.push(payload as (typeof pushes)[number]));
});
afterAll(async () => {
  await services.close();
  home.cleanup();
});

describe('capture channels', () => {
  it('starts with the profile’s key, records redacted exchanges with verdicts, lists them apart, and stops', async () => {
    const base = services.sandbox!.baseUrl;
    await call('templates.save', { name: 'code', content: '您的验证码是【变量】，5分钟内有效。', approved: true });
    const status = await call<CaptureStatus>('capture.start', { target: base, profileId: 'sandbox' });
    expect(status).toMatchObject({ running: true, key: 'profile', target: base, profileId: 'sandbox' });
    await expect(call('capture.start', { target: base })).rejects.toMatchObject({ code: 'capture-running' });
    expect(await call<CaptureStatus>('capture.status')).toMatchObject({ running: true, url: status.url });

    const url = `${base}/voice/vm`;
    const h = signRequest({ apiId: 'sandbox-demo', apiKey: key, method: 'POST', url }).headers;
    const body = JSON.stringify({ account: 'sandbox-demo', password: key, mobile: '13800138008', content: '您的验证码是123456，5分钟内有效。' });
    expect(await post(status.port!, url, { Host: h.Host, Date: h.Date, Authorization: h.Authorization, 'Proxy-Authorization': 'Basic c2VjcmV0' }, body)).toBe(
      200,
    );
    expect(await post(status.port!, `/voice/status?password=${encodeURIComponent(key)}`, {}, '{}')).toBe(200);
    // Real time: a poll interval for I/O (sockets, a child process), not a wait for time to pass.
    for (let i = 0; i < 100 && pushes.filter((p) => p.exchangeId !== null).length < 2; i++) await new Promise((r) => setTimeout(r, 20));

    const captured = await call<ExchangePage>('exchanges.list', { captured: true, order: 'oldest' });
    expect(captured.rows).toHaveLength(2);
    const [send, query] = captured.rows as [ExchangeRecord, ExchangeRecord];
    expect(send).toMatchObject({ operation: 'send', profile: 'sandbox', capture: { mode: 'forward', verdict: 'pass', answeredBy: 'target' } });
    expect(query).toMatchObject({ operation: 'status', capture: { mode: 'reverse', verdict: 'fail' } });
    // Nothing of the key is stored: not the password, not the signature, not the proxy's credentials, not the query.
    const text = JSON.stringify(captured.rows);
    expect(text).not.toContain(key);
    expect(text).not.toContain(h.Authorization.match(/signature="([^"]+)"/)![1]);
    expect(text).not.toContain('c2VjcmV0');
    expect(send.requestBody).toContain('"password":"[REDACTED]"');
    // Callout's own exchanges are not in the captured list, and the captured ones can be picked by verdict.
    await call('balance.query', { profileId: 'sandbox' });
    expect((await call<ExchangePage>('exchanges.list', {})).rows).toHaveLength(3);
    expect((await call<ExchangePage>('exchanges.list', { verdicts: ['fail'] })).rows.map((e) => e.id)).toEqual([query.id]);

    const stopped = await call<CaptureStatus>('capture.stop');
    expect(stopped).toMatchObject({ running: false, counts: { exchanges: 2, pass: 1, fail: 1 } });
    expect(pushes.at(-1)!.status.running).toBe(false);
  });

  it('refuses a target that is not an http(s) base URL, and a port in use', async () => {
    await expect(call('capture.start', { target: 'ftp://x' })).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(call('capture.start', { target: 'http://x.example/?a=1' })).rejects.toMatchObject({ code: 'capture-target' });
    const first = await call<CaptureStatus>('capture.start', { target: 'http://127.0.0.1:9' });
    await call('capture.stop');
    const busy = await call<CaptureStatus>('capture.start', { target: 'http://127.0.0.1:9' });
    const other = await createServices({
      home: tempHome().dir,
      secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 't' } },
      sandbox: false,
    });
    await expect(other.capture.start({ target: 'http://127.0.0.1:9', port: busy.port! })).rejects.toMatchObject({ code: 'capture-listen' });
    await other.close();
    await call('capture.stop');
    expect(first.port).toBeGreaterThan(0);
  });
});
