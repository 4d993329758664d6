// A key belongs to the origin it was entered for (common/domain/key-origin.ts, enforced in
// ProfileService): two loopback servers stand for the old and the new provider, and count what
// reaches them. Moving a keyed profile elsewhere must send nothing with the key to the new host.
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { SessionSecretStore } from '../../../main/secrets';
import { secretAccount } from '../../../main/profiles/profile-service';
import { createServices, type Services } from '../../../main/services';
import { keyTransport, originOf, sameOrigin } from '../../../common/domain/key-origin';
import { scriptedServer } from '../../helpers/scripted-server';
import { tempHome } from '../../helpers/temp-home';
import { withStore } from '../../helpers/stored';

const KEY = 'old-provider-key-4f9a2c';
const NEW_KEY = 'new-provider-key-81d0e3';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function provider() {
  const s = await scriptedServer((_req, _body, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ code: 2, msg: 'ok', num: 42 }));
  });
  cleanups.push(s.close);
  return s;
}

async function start() {
  const home = tempHome();
  const secrets = new SessionSecretStore();
  const services: Services = await createServices({
    home: home.dir,
    secrets: { store: secrets, status: { kind: 'session', keychainAvailable: false, reason: 'test' } },
    sandbox: false,
  });
  cleanups.push(home.cleanup, () => services.close());
  const handlers = createHandlers(services);
  const call = async <T>(channel: string, input?: unknown): Promise<T> => {
    const r = await dispatch(handlers, channel, input, () => undefined);
    if (!r.ok) throw Object.assign(new Error(r.error.code), r.error);
    return r.value as T;
  };
  const refusal = async (channel: string, input?: unknown) => {
    const r = await dispatch(handlers, channel, input, () => undefined);
    if (r.ok) throw new Error(`${channel} succeeded`);
    return r.error;
  };
  return { services, secrets, call, refusal };
}

type Saved = { id: string; hasKey: boolean; keyRemoved: boolean; baseUrl: string };
type Balance = { units: number | null; failure: unknown };

const form = (baseUrl: string, extra: Record<string, unknown> = {}) => ({ name: 'Prod', baseUrl, apiId: 'acct-1', ...extra });
const withKey = (r: { body: string }[], key: string) => r.filter((x) => x.body.includes(key)).length;

describe('a key belongs to the origin it was entered for', () => {
  it('moving a keyed profile to another host deletes its key: the new host receives nothing', async () => {
    const oldHost = await provider();
    const newHost = await provider();
    const { call, refusal, secrets } = await start();
    const p = await call<Saved>('profiles.save', form(oldHost.baseUrl));
    await call('profiles.setKey', { id: p.id, apiKey: KEY });
    expect((await call<Balance>('balance.query', { profileId: p.id })).units).toBe(42);
    expect(withKey(oldHost.received, KEY)).toBe(1);

    const moved = await call<Saved>('profiles.save', form(newHost.baseUrl, { id: p.id }));
    expect(moved).toMatchObject({ hasKey: false, keyRemoved: true, baseUrl: newHost.baseUrl });
    expect(await secrets.get(secretAccount(p.id))).toBeNull();
    expect((await refusal('balance.query', { profileId: p.id })).code).toBe('no-key');
    expect((await refusal('messages.send', { profileId: p.id, mobile: '13800138008', content: '您的验证码是1234。' })).code).toBe('no-key');
    expect(newHost.received).toHaveLength(0);
  });

  it('a save that changes only the path or other fields keeps the key', async () => {
    const host = await provider();
    const { call } = await start();
    const p = await call<Saved>('profiles.save', form(host.baseUrl));
    await call('profiles.setKey', { id: p.id, apiKey: KEY });
    const saved = await call<Saved>('profiles.save', form(`${host.baseUrl}/v2/`, { id: p.id, name: 'Prod 2', signing: 'spec' }));
    expect(saved).toMatchObject({ hasKey: true, keyRemoved: false });
    await call('balance.query', { profileId: p.id });
    expect(withKey(host.received, KEY)).toBe(1);
    expect(host.received[0]!.url).toBe('/v2/voice/balance');
  });

  it('the key entered again in the same save goes to the new host, and the old key never does', async () => {
    const oldHost = await provider();
    const newHost = await provider();
    const { call } = await start();
    const p = await call<Saved>('profiles.save', form(oldHost.baseUrl));
    await call('profiles.setKey', { id: p.id, apiKey: KEY });
    const moved = await call<Saved>('profiles.save', form(newHost.baseUrl, { id: p.id, apiKey: `  ${NEW_KEY}\n` }));
    expect(moved).toMatchObject({ hasKey: true, keyRemoved: false });
    await call('balance.query', { profileId: p.id });
    expect(newHost.received).toHaveLength(1);
    expect(withKey(newHost.received, NEW_KEY)).toBe(1);
    expect(withKey(newHost.received, KEY)).toBe(0);
  });

  it('an address changed behind the service (straight in SQLite) gets no key: endpoint checks the origin', async () => {
    const oldHost = await provider();
    const newHost = await provider();
    const { call, refusal, services } = await start();
    const p = await call<Saved>('profiles.save', form(oldHost.baseUrl));
    await call('profiles.setKey', { id: p.id, apiKey: KEY });
    withStore(services.home, (s) => s.db.prepare('UPDATE profiles SET base_url = ? WHERE id = ?').run(newHost.baseUrl, p.id));
    const refused = await refusal('balance.query', { profileId: p.id });
    expect(refused).toMatchObject({ code: 'key-origin', params: { profile: 'Prod', origin: originOf(newHost.baseUrl) } });
    expect((await refusal('messages.send', { profileId: p.id, mobile: '13800138008', content: '您的验证码是1234。' })).code).toBe('key-origin');
    expect(newHost.received).toHaveLength(0);
  });

  it('plain http:// to another machine is refused unless the person ticks "send my key unencrypted"', async () => {
    const { call, refusal, services } = await start();
    const refused = await refusal('profiles.save', form('http://voice.example.com/api'));
    expect(refused).toMatchObject({ code: 'invalid-input', issues: [{ path: 'baseUrl', message: 'base-url-plain-http' }] });
    const consented = await call<Saved & { sendKeyUnencrypted: boolean }>('profiles.save', form('http://voice.example.com/api', { sendKeyUnencrypted: true }));
    expect(consented.sendKeyUnencrypted).toBe(true);
    // Consent withdrawn behind the service's back: the key is not handed out.
    await call('profiles.setKey', { id: consented.id, apiKey: KEY });
    withStore(services.home, (s) => s.db.prepare('UPDATE profiles SET send_key_unencrypted = 0 WHERE id = ?').run(consented.id));
    expect((await refusal('balance.query', { profileId: consented.id })).code).toBe('key-transport');
    // https and loopback http need no consent.
    await call('profiles.save', form('https://voice.example.com/api', { name: 'TLS' }));
    await call('profiles.save', form('http://127.0.0.1:9/api', { name: 'Local' }));
    await call('profiles.save', form('http://localhost:9/api', { name: 'Local 2' }));
  });

  it('a key shorter than the minimum is refused, in the save and in setKey, and never stored', async () => {
    const { call, refusal, secrets } = await start();
    const p = await call<Saved>('profiles.save', form('https://voice.example.com'));
    expect(await refusal('profiles.setKey', { id: p.id, apiKey: 'k' })).toMatchObject({ code: 'invalid-key', params: { kind: 'too-short', min: 8 } });
    expect(await refusal('profiles.save', form('https://other.example.com', { id: p.id, apiKey: 'short' }))).toMatchObject({
      issues: [{ path: 'apiKey', message: 'key-too-short' }],
    });
    expect(await secrets.get(secretAccount(p.id))).toBeNull();
  });
});

describe('the origin rule', () => {
  it('knows loopback, default ports and schemes', () => {
    expect(sameOrigin('https://a.example/x', 'https://a.example:443/y')).toBe(true);
    expect(sameOrigin('https://a.example', 'http://a.example')).toBe(false);
    expect(sameOrigin('https://a.example', 'https://a.example:8443')).toBe(false);
    expect(sameOrigin('https://a.example', 'https://b.a.example')).toBe(false);
    expect(sameOrigin('not a url', 'not a url')).toBe(false);
    for (const u of ['http://127.0.0.1:8080', 'http://127.1/', 'http://localhost', 'http://api.localhost', 'http://[::1]:9'])
      expect(keyTransport(u), u).toBe('loopback-http');
    for (const u of ['http://10.0.0.1', 'http://127.0.0.1.example.com', 'http://localhost.example.com', 'http://[::2]'])
      expect(keyTransport(u), u).toBe('plain-http');
    expect(keyTransport('https://10.0.0.1')).toBe('https');
  });
});
