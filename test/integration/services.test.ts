import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dispatch } from '../../main/dispatch';
import { createHandlers } from '../../main/handlers';
import { SessionSecretStore } from '../../main/secrets';
import { createServices, type Services } from '../../main/services';
import { tempHome } from '../helpers/temp-home';
import { withStore } from '../helpers/stored';

const opened: Array<{ services: Services; cleanup: () => void }> = [];
afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.services.close();
    o.cleanup();
  }
});

async function start() {
  const home = tempHome();
  const store = new SessionSecretStore();
  const services = await createServices({
    home: home.dir,
    secrets: { store, status: { kind: 'session', keychainAvailable: false, reason: 'test' } },
    sandbox: { timeScale: 0.002 },
  });
  opened.push({ services, cleanup: home.cleanup });
  const handlers = createHandlers(services);
  const call = async (channel: string, input?: unknown) => {
    const r = await dispatch(handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.code), { code: r.error.code, params: r.error.params });
    return r.value as never;
  };
  return { services, store, home: home.dir, call };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('services on first start', () => {
  it('have a ready Sandbox profile with its key, and a send through it is accepted and pushed as events', async () => {
    const { services, call } = await start();
    const profiles = (await call('profiles.list')) as { id: string; name: string; builtin: boolean; hasKey: boolean; baseUrl: string }[];
    expect(profiles).toEqual([expect.objectContaining({ id: 'sandbox', name: 'Sandbox', builtin: true, hasKey: true, baseUrl: services.sandbox!.baseUrl })]);
    expect(((await call('balance.query', { profileId: 'sandbox' })) as { units: number }).units).toBe(10);
    const pushed: { channel: string; payload: { outcome: string } }[] = [];
    services.subscribe((channel, payload) => pushed.push({ channel, payload: payload as { outcome: string } }));
    const sent = (await call('messages.send', { profileId: 'sandbox', mobile: '138 0013 8008', content: '您的验证码是4321，5分钟内有效。' })) as {
      message: { outcome: string; mobile: string };
      providerCode: number;
    };
    expect(sent.message).toMatchObject({ outcome: 'accepted', mobile: '13800138008' });
    expect(sent.providerCode).toBe(2);
    expect(pushed.slice(0, 2).map((p) => [p.channel, p.payload.outcome])).toEqual([
      ['main:message-updated', 'pending'],
      ['main:message-updated', 'accepted'],
    ]);
  });

  it('keep profile keys write-only: never in results, never in SQLite', async () => {
    const { services, call, home } = await start();
    const key = 'write-only-key-7f3a';
    const p = (await call('profiles.save', { name: 'Real', baseUrl: services.sandbox!.baseUrl, apiId: 'sandbox-demo' })) as { id: string; hasKey: boolean };
    expect(p.hasKey).toBe(false);
    const afterSet = await call('profiles.setKey', { id: p.id, apiKey: key });
    expect(afterSet).toMatchObject({ hasKey: true });
    const results = [afterSet, await call('profiles.list'), await call('app.info')];
    await call('messages.send', { profileId: p.id, mobile: '13800138008', content: '您的验证码是1，5分钟内有效。' });
    results.push(await call('history.page', {}));
    for (const r of results) expect(JSON.stringify(r)).not.toContain(key);
    expect(await call('profiles.deleteKey', { id: p.id })).toMatchObject({ hasKey: false });
    await expect(call('balance.query', { profileId: p.id })).rejects.toMatchObject({ code: 'no-key' });
    withStore(services.home, (s) => s.db.pragma('wal_checkpoint(TRUNCATE)'));
    for (const f of filesUnder(home)) expect(readFileSync(f).includes(Buffer.from(key)), f).toBe(false);
  });

  it('protect the built-in profile and refuse duplicate names', async () => {
    const { call, services } = await start();
    await expect(call('profiles.remove', { id: 'sandbox' })).rejects.toMatchObject({ code: 'builtin-profile' });
    // Its address and API ID stay the embedded sandbox's, whatever is sent; other settings are saved.
    const saved = (await call('profiles.save', {
      id: 'sandbox',
      name: 'Sandbox',
      baseUrl: 'https://elsewhere.example',
      apiId: 'other',
      lowBalanceThreshold: 5,
    })) as { baseUrl: string; apiId: string; lowBalanceThreshold: number };
    expect(saved).toMatchObject({ baseUrl: services.sandbox!.baseUrl, apiId: 'sandbox-demo', lowBalanceThreshold: 5 });
    await expect(call('profiles.setKey', { id: 'sandbox', apiKey: 'mine' })).rejects.toMatchObject({ code: 'builtin-profile' });
    await expect(call('profiles.deleteKey', { id: 'sandbox' })).rejects.toMatchObject({ code: 'builtin-profile' });
    await call('profiles.save', { name: 'Ops', baseUrl: 'https://api.example.com', apiId: 'x' });
    await expect(call('profiles.save', { name: 'ops', baseUrl: 'https://api.example.com', apiId: 'y' })).rejects.toMatchObject({ code: 'invalid-input' });
  });

  it('say that the keychain did not answer, not that a profile has no key, when its key cannot be read', async () => {
    const home = tempHome();
    const services = await createServices({
      home: home.dir,
      // The keychain did not answer its probe in time: keys it holds are out of reach.
      secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'test', reasonCode: 'timeout' } },
      sandbox: { timeScale: 0.002 },
    });
    opened.push({ services, cleanup: home.cleanup });
    const call = async (channel: string, input?: unknown) => {
      const r = await dispatch(createHandlers(services), channel, input);
      if (!r.ok) throw Object.assign(new Error(r.error.code), { code: r.error.code, params: r.error.params });
      return r.value as never;
    };
    const p = (await call('profiles.save', { name: 'Real', baseUrl: services.sandbox!.baseUrl, apiId: 'sandbox-demo' })) as { id: string };
    await expect(call('balance.query', { profileId: p.id })).rejects.toMatchObject({ code: 'keychain-unavailable', params: { kind: 'timeout' } });
    // A batch on that profile pauses and says why in the user's words; nothing was sent.
    const content = '您的验证码是1234，5分钟内有效。';
    const row = { row: 2, mobile: '13800138001', content, length: content.length, units: 1, valid: true, issues: [], duplicateOf: null, sameMobileAs: null };
    const batch = services.queue.create({ profileId: p.id, templateId: 'otp', name: 'list.csv', duplicates: 'none', rows: [row] });
    services.queue.start(batch.id);
    const stopped = await services.queue.whenStopped(batch.id);
    expect(stopped).toMatchObject({ status: 'paused', pausedReason: 'profile', queued: 1, accepted: 0 });
    expect(stopped.statusReason).toMatchObject({ code: 'stop', params: { kind: 'keychain' } });
    expect(services.sandbox!.requests().filter((r) => r.op === 'send')).toHaveLength(0);
  });

  it('keep the Sandbox key across restarts of the services', async () => {
    const home = tempHome();
    const store = new SessionSecretStore();
    const secrets = { store, status: { kind: 'session' as const, keychainAvailable: false, reason: 'test' } };
    const first = await createServices({ home: home.dir, secrets, sandbox: { timeScale: 0.002 } });
    const key1 = await store.get('profile:sandbox');
    await first.close();
    const second = await createServices({ home: home.dir, secrets, sandbox: { timeScale: 0.002 } });
    opened.push({ services: second, cleanup: home.cleanup });
    expect(await store.get('profile:sandbox')).toBe(key1);
    expect((await second.profiles.list()).filter((p) => p.builtin)).toHaveLength(1);
  });
});
