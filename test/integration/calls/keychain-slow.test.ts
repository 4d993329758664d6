// A keychain that does not answer for a while (slow under load, or locked for a moment) while a call
// is followed: the call is still followed and ends as the provider says, never stopped as "the profile
// could not be used". And following a call does not ask the keychain at every look.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/clock';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { SecretStoreError, SessionSecretStore } from '../../../main/secrets';
import { createServices } from '../../../main/services';
import { scriptedServer } from '../../helpers/scripted-server';
import { tempHome } from '../../helpers/temp-home';

const KEY = 'keychain-slow-key-1';
const TEXT = '您的验证码是2468，5分钟内有效。';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a keychain that does not answer while a call is followed', () => {
  it('keeps following the call and ends it as the provider says; the keychain is asked far less often than the provider', async () => {
    let state = 'calling';
    const server = await scriptedServer((req, _body, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.endsWith('/voice/vm')) res.end(JSON.stringify({ code: 2, msg: '提交成功', smsid: 'SMS-K', count: 1 }));
      else if (req.url?.endsWith('/voice/status'))
        res.end(JSON.stringify(state === 'calling' ? { code: 2, msg: 'ok', state } : { code: 2, msg: 'ok', state, duration: 9 }));
      else res.end(JSON.stringify({ code: 2, msg: 'ok', num: 5 }));
    });
    cleanups.push(server.close);
    const looks = () => server.received.filter((r) => r.url?.endsWith('/voice/status')).length;

    const inner = new SessionSecretStore();
    const keychain = { reads: 0, failing: false };
    const store = {
      kind: inner.kind,
      async get(account: string) {
        keychain.reads++;
        if (keychain.failing) throw new SecretStoreError('keychain-failed', {}, 'The system keychain did not answer within 60 s.');
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
    const sent = await call<{ message: { id: number; outcome: string } }>('messages.send', { profileId: profile.id, mobile: '13900000001', content: TEXT });
    expect(sent.message.outcome).toBe('accepted');
    const id = sent.message.id;
    /** Moves the clock a second at a time; the provider's replies come over real sockets between steps. */
    const run = async (seconds: number) => {
      for (let i = 0; i < seconds; i++) {
        await clock.advance(1000);
        // Real time: lets a look's HTTP exchange (a loopback socket) finish before the clock moves on.
        await new Promise((r) => setTimeout(r, 5));
      }
    };

    // The call rings for two minutes: looked at many times, the key read from the keychain a few.
    await run(120);
    expect(looks()).toBeGreaterThanOrEqual(8);
    expect(keychain.reads).toBeLessThanOrEqual(Math.ceil(looks() / 2));

    // The keychain stops answering for two minutes: the call is still followed, nothing ends it.
    keychain.failing = true;
    const readsBefore = keychain.reads;
    await run(120);
    expect(keychain.reads).toBeGreaterThan(readsBefore); // it was asked, and failed
    expect(services.sent.detail(id).message).toMatchObject({ state: 'calling', endedAt: null });
    expect(services.calls.following()).toContain(id);

    // It answers again; the provider says the call was answered: that is how the call ends.
    keychain.failing = false;
    state = 'answered';
    for (let i = 0; i < 60 && services.sent.detail(id).message?.endedAt == null; i++) await run(5);
    expect(services.sent.detail(id).message).toMatchObject({ state: 'answered', duration: 9 });
    expect(services.sent.detail(id).message?.reason ?? null).toBeNull();
  });
});
