// The capture proxy with the built-in Sandbox: a tester's own backend signs in with the Sandbox's demo
// account, which the app gives to copy (sandbox.demoAccount) and `callout capture` prints. Only the
// built-in profile's account is given, never a real profile's key; the requests it authenticates are
// answered by the Sandbox, and the key they carry is stored nowhere (data directory, HAR export).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import type { CaptureStatus } from '../../../common/capture';
import type { ExchangeRecord } from '../../../common/records';
import { EVENT_CHANNELS } from '../../../common/contract';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services } from '../../../main/services';
import { findKey, scanDirectory } from '../../helpers/key-scan';
import { FASTEST_SCALE, ScaledClock } from '../../helpers/scaled-clock';
import { tempHome } from '../../helpers/temp-home';

const REAL_KEY = 'real-provider-key-7Q9';
let services: Services;
const home = tempHome();
const call = async <T>(channel: string, input?: unknown): Promise<T> => {
  const r = await dispatch(createHandlers(services), channel, input);
  if (!r.ok) throw Object.assign(new Error(r.error.code), { code: r.error.code, params: r.error.params });
  return r.value as T;
};
let waiting: ((id: number) => void) | null = null;

beforeAll(async () => {
  services = await createServices({
    home: home.dir,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 't' } },
    // Callout on a clock twenty times faster; the embedded sandbox runs on it, its calls at 0.002.
    clock: new ScaledClock(FASTEST_SCALE),
    sandbox: { timeScale: 0.002 / FASTEST_SCALE },
  });
  services.subscribe((channel, payload) => {
    const p = payload as { status: CaptureStatus; exchangeId: number | null };
    if (channel === EVENT_CHANNELS.captureUpdated && p.exchangeId !== null) waiting?.(p.exchangeId);
  });
  const real = await call<{ id: string }>('profiles.save', { name: 'Real provider', baseUrl: 'https://voice.example.com', apiId: 'acct-real' });
  await call('profiles.setKey', { id: real.id, apiKey: REAL_KEY });
});
afterAll(async () => {
  await services.close();
  home.cleanup();
});

function post(port: number, path: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe("the Sandbox's demo account, for a backend behind the capture proxy", () => {
  it("gives the built-in Sandbox's account, the one its sandbox checks, and never a real profile's key", async () => {
    const account = await call<{ apiId: string; apiKey: string } | null>('sandbox.demoAccount');
    expect(account).toEqual({ apiId: 'sandbox-demo', apiKey: await services.secrets.get('profile:sandbox') });
    expect(account).toEqual(services.sandbox!.demo);
    expect(JSON.stringify(account)).not.toContain(REAL_KEY);
    // The operation takes no profile: no way to ask it for another one's key.
    const other = await dispatch(createHandlers(services), 'sandbox.demoAccount', { profileId: 'real-provider' });
    expect(other.ok).toBe(false);
  });

  it('a backend with the copied account is answered by the Sandbox through the proxy, and its key is stored nowhere', async () => {
    const account = (await call<{ apiId: string; apiKey: string }>('sandbox.demoAccount'))!;
    const status = await call<CaptureStatus>('capture.start', { target: services.sandbox!.baseUrl, profileId: 'sandbox' });
    let stored: ExchangeRecord;
    let har: string;
    try {
      const id = new Promise<number>((resolve) => (waiting = resolve));
      const body = JSON.stringify({ account: account.apiId, password: account.apiKey, mobile: '13800138008', content: '您的验证码是123456，5分钟内有效。' });
      const reply = await post(status.port!, '/voice/vm', body);
      // Signed in: the provider's own answer (code 2), not a refusal of the credentials (401).
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toMatchObject({ code: 2 });
      stored = await call<ExchangeRecord>('exchanges.get', { id: await id });
      har = (await call<{ json: string }>('exchanges.exportHar', { ids: [stored.id] })).json;
    } finally {
      await call('capture.stop');
    }
    expect(findKey(JSON.stringify(stored), account.apiKey)).toEqual([]);
    expect(findKey(har, account.apiKey)).toEqual([]);
    expect(scanDirectory(home.dir, account.apiKey)).toEqual([]);
  });
});
