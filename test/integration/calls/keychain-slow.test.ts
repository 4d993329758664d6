// The keychain while calls are followed: one that misses a look or two (slow under load) leaves the
// call followed to the end the provider reports; one that keeps failing (locked) stops following it,
// saying why; following does not ask the keychain at every look; and a key another process replaced
// is used once the provider refused the old one.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/clock';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { SecretStoreError, SessionSecretStore } from '../../../main/secrets';
import { createServices } from '../../../main/services';
import { scriptedServer } from '../../helpers/scripted-server';
import { tempHome } from '../../helpers/temp-home';

const KEY = 'keychain-slow-key-1';
const NEW_KEY = 'keychain-new-key-2';
const TEXT = '您的验证码是2468，5分钟内有效。';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Services on a manual clock against a scripted provider; the keychain counts reads and fails while told to. */
async function setup() {
  const provider = { state: 'calling', key: KEY };
  const server = await scriptedServer((req, body, res) => {
    res.setHeader('content-type', 'application/json');
    // The provider refuses a key other than the one it knows (code 401), as a real one does.
    if (!body.includes(provider.key)) return void res.end(JSON.stringify({ code: 401, msg: '帐号或密码错误' }));
    if (req.url?.endsWith('/voice/vm')) res.end(JSON.stringify({ code: 2, msg: '提交成功', smsid: 'SMS-K', count: 1 }));
    else if (req.url?.endsWith('/voice/status'))
      res.end(
        JSON.stringify(provider.state === 'calling' ? { code: 2, msg: 'ok', state: 'calling' } : { code: 2, msg: 'ok', state: provider.state, duration: 9 }),
      );
    else res.end(JSON.stringify({ code: 2, msg: 'ok', num: 5 }));
  });
  cleanups.push(server.close);
  const looks = () => server.received.filter((r) => r.url?.endsWith('/voice/status')).length;

  const inner = new SessionSecretStore();
  /** failures: how many of the next reads fail (Infinity: until told otherwise). */
  const keychain = { reads: 0, failures: 0, inner };
  const store = {
    kind: inner.kind,
    async get(account: string) {
      keychain.reads++;
      if (keychain.failures > 0) {
        keychain.failures--;
        throw new SecretStoreError('keychain-failed', {}, 'The system keychain did not answer within 60 s.');
      }
      return inner.get(account);
    },
    set: (account: string, secret: string) => inner.set(account, secret),
    delete: (account: string) => inner.delete(account),
    has: (account: string) => inner.has(account),
  };
  const clock = new ManualClock();
  const home = tempHome();
  const services = await createServices({
    home: home.dir,
    clock,
    secrets: { store, status: { kind: 'session', keychainAvailable: false, reason: 'test' } },
    sandbox: false,
    follow: { resume: false },
  });
  cleanups.push(home.cleanup, () => services.close());
  const handlers = createHandlers(services);
  const call = async <T>(channel: string, input?: unknown): Promise<T> => {
    const r = await dispatch(handlers, channel, input);
    if (!r.ok) throw new Error(`${r.error.code} ${JSON.stringify(r.error.params)}`);
    return r.value as T;
  };
  const profile = await call<{ id: string }>('profiles.save', { name: 'P', baseUrl: server.baseUrl, apiId: 'acct' });
  await call('profiles.setKey', { id: profile.id, apiKey: KEY });
  /** Moves the clock a second at a time; the provider's replies come over real sockets between steps. */
  const run = async (seconds: number) => {
    for (let i = 0; i < seconds; i++) {
      await clock.advance(1000);
      // Real time: a poll interval for I/O (a look's loopback HTTP exchange), not a wait for time to pass.
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const send = async () => {
    const sent = await call<{ message: { id: number; outcome: string } }>('messages.send', { profileId: profile.id, mobile: '13900000001', content: TEXT });
    expect(sent.message.outcome).toBe('accepted');
    return sent.message.id;
  };
  return { services, call, profile, provider, keychain, looks, run, send };
}

describe('the keychain while calls are followed', () => {
  it('a keychain that misses a look or two: the call is still followed and ends as the provider says; the keychain is asked far less often than the provider', async () => {
    const { services, keychain, looks, run, send, provider } = await setup();
    const id = await send();
    // The call rings for two minutes: looked at many times, the key read from the keychain a few.
    await run(120);
    expect(looks()).toBeGreaterThanOrEqual(4);
    expect(keychain.reads).toBeLessThanOrEqual(Math.ceil(looks() / 2));

    // The keychain fails twice in a row (slow under load): the call is still followed.
    keychain.failures = 2;
    await run(120);
    expect(keychain.failures).toBe(0); // both failures happened
    expect(services.sent.detail(id).message).toMatchObject({ state: 'calling', endedAt: null });
    expect(services.calls.following()).toContain(id);

    // The provider says the call was answered: that is how it ends.
    provider.state = 'answered';
    for (let i = 0; i < 60 && services.sent.detail(id).message?.endedAt == null; i++) await run(5);
    expect(services.sent.detail(id).message).toMatchObject({ state: 'answered', duration: 9 });
    expect(services.sent.detail(id).message?.reason ?? null).toBeNull();
  });

  it('a keychain that keeps failing (locked): following stops, and the message says the keychain is why', async () => {
    const { services, keychain, run, send } = await setup();
    const id = await send();
    keychain.failures = Infinity;
    for (let i = 0; i < 60 && services.sent.detail(id).message?.endedAt == null; i++) await run(5);
    expect(services.sent.detail(id).message).toMatchObject({
      endedAt: expect.any(Number),
      reason: { code: 'tracking-profile', params: { error: 'keychain-failed' } },
    });
    expect(services.calls.following()).not.toContain(id);
  });

  it('a key the CLI replaced while the app runs: the provider refuses the old one once, and the next request uses the new one', async () => {
    const { call, keychain, profile, provider } = await setup();
    expect(await call('balance.query', { profileId: profile.id })).toMatchObject({ accepted: true });
    // Another process (`callout profile set-key P`) replaces the key in the keychain, and the provider knows only the new one.
    await keychain.inner.set(`profile:${profile.id}`, NEW_KEY);
    provider.key = NEW_KEY;
    expect(await call('balance.query', { profileId: profile.id })).toMatchObject({ accepted: false, providerCode: 401 });
    expect(await call('balance.query', { profileId: profile.id })).toMatchObject({ accepted: true, units: 5 });
  });
});
