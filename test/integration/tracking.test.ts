import { afterEach, describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../common/records';
import { dispatch } from '../../main/dispatch';
import { createHandlers } from '../../main/handlers';
import { startSandbox, type Sandbox } from '../../main/sandbox';
import { SessionSecretStore } from '../../main/secrets';
import { createServices, type Services, type ServicesOptions } from '../../main/services';
import { FASTEST_SCALE, ScaledClock } from '../helpers/scaled-clock';
import { tempHome } from '../helpers/temp-home';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * Callout on a clock twenty times faster (its looks come as fast as the sped-up calls end), and the
 * embedded sandbox on it, its calls taking `sandboxScale` real seconds a second.
 */
const fast = (sandboxScale = 1) => ({ clock: new ScaledClock(FASTEST_SCALE), sandbox: { timeScale: sandboxScale / FASTEST_SCALE } });
/** A clock a hundred times slower: a process that sends and closes never looks at its call. */
const idle = () => ({ clock: new ScaledClock(100) });

async function open({ secrets, ...options }: Omit<Partial<ServicesOptions>, 'secrets'> & { home: string; secrets: SessionSecretStore }) {
  const services = await createServices({ ...options, secrets: { store: secrets, status: { kind: 'session', keychainAvailable: false, reason: 't' } } });
  const handlers = createHandlers(services);
  const call = async <T>(channel: string, input?: unknown): Promise<T> => {
    const r = await dispatch(handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.code), { code: r.error.code, params: r.error.params });
    return r.value as T;
  };
  return { services, call };
}

function until(services: Services, pred: (m: MessageRecord) => boolean, ms = 8000): Promise<MessageRecord> {
  return new Promise((resolve, reject) => {
    // Real time: a hang guard (fails, never waits) for pushes from services on a sped-up system clock.
    const t = setTimeout(() => reject(new Error('timed out waiting for a message update')), ms);
    const off = services.subscribe((channel, p) => {
      // Only the messages' pushes (a profile's key check is pushed too).
      if (channel !== 'main:message-updated') return;
      const m = p as MessageRecord;
      if (pred(m)) {
        clearTimeout(t);
        off();
        resolve(m);
      }
    });
  });
}

const OTP = (n: string) => `您的验证码是${n}，5分钟内有效。`;

describe('live call tracking', () => {
  it('follows a call through ringing to answered with its duration, pushes each change, and notifies once', async () => {
    const home = tempHome();
    const notified: [MessageRecord, string][] = [];
    // The call rings for about 200 ms: long enough for a look to see it ringing.
    const { services, call } = await open({ home: home.dir, secrets: new SessionSecretStore(), ...fast(0.02), notify: (m, l) => notified.push([m, l]) });
    cleanups.push(home.cleanup, () => services.close());
    await call('app.setLocale', { locale: 'zh-CN' });
    const states: string[] = [];
    services.subscribe((c, p) => c === 'main:message-updated' && states.push((p as MessageRecord).state));
    const done = until(services, (m) => m.endedAt !== null);
    const sent = await call<{ message: MessageRecord }>('messages.send', { profileId: 'sandbox', mobile: '13800138008', content: OTP('1') });
    const final = await done;
    expect(final).toMatchObject({ id: sent.message.id, state: 'answered', outcome: 'accepted' });
    expect(final.duration).toBeGreaterThanOrEqual(3);
    expect(states).toContain('calling');
    expect(states.at(-1)).toBe('answered');
    // Real time: checks that no second notification comes; the services run on a sped-up wall clock against the sandbox over HTTP.
    await new Promise((r) => setTimeout(r, 100));
    expect(notified).toHaveLength(1);
    expect(notified[0]![1]).toBe('zh-CN');
    const detail = await call<{ events: { kind: string; state: string | null }[] }>('messages.get', { id: final.id });
    expect(detail.events.map((e) => e.kind)).toEqual(['created', 'submitted', 'state', 'state']);
    expect(services.calls.following()).toEqual([]);
  });

  it('records each redial in the timeline (a number that answers on the second attempt)', async () => {
    const home = tempHome();
    const { services, call } = await open({ home: home.dir, secrets: new SessionSecretStore(), ...fast(0.003) });
    cleanups.push(home.cleanup, () => services.close());
    const done = until(services, (m) => m.endedAt !== null);
    await call('messages.send', { profileId: 'sandbox', mobile: '13800138005', content: OTP('2') });
    const final = await done;
    expect(final).toMatchObject({ state: 'answered', attempts: 2 });
    const { events } = await call<{ events: { kind: string; detail: string | null }[] }>('messages.get', { id: final.id });
    expect(events.filter((e) => e.kind === 'redial')).toEqual([expect.objectContaining({ detail: '2' })]);
  });

  it('ends a call nobody answers as no_answer after the redials', async () => {
    const home = tempHome();
    const { services, call } = await open({ home: home.dir, secrets: new SessionSecretStore(), ...fast(0.002) });
    cleanups.push(home.cleanup, () => services.close());
    const done = until(services, (m) => m.endedAt !== null);
    await call('messages.send', { profileId: 'sandbox', mobile: '13800138000', content: OTP('3') });
    expect(await done).toMatchObject({ state: 'no_answer', attempts: 3 });
  });

  it('resumes following open calls after the services restart', async () => {
    const sandbox: Sandbox = await startSandbox({ timeScale: 0.02, accounts: [{ apiId: 'acct', apiKey: 'k-restart', balance: 100 }] });
    const home = tempHome();
    const secrets = new SessionSecretStore();
    cleanups.push(home.cleanup, () => sandbox.close());
    const first = await open({ home: home.dir, secrets, sandbox: false, ...idle() });
    const profile = await first.call<{ id: string }>('profiles.save', { name: 'External', baseUrl: sandbox.baseUrl, apiId: 'acct' });
    await first.call('profiles.setKey', { id: profile.id, apiKey: 'k-restart' });
    const sent = await first.call<{ message: MessageRecord }>('messages.send', { profileId: profile.id, mobile: '13800138008', content: OTP('4') });
    expect(sent.message.outcome).toBe('accepted');
    await first.services.close();

    // As fast as the sandbox's calls.
    const second = await open({ home: home.dir, secrets, sandbox: false, clock: new ScaledClock(0.02) });
    cleanups.push(() => second.services.close());
    expect(second.services.calls.following()).toEqual([sent.message.id]);
    const final = await until(second.services, (m) => m.id === sent.message.id && m.endedAt !== null, 15000);
    expect(final.state).toBe('answered');
  });

  it('stops following a message the provider no longer knows, and says so', async () => {
    const home = tempHome();
    const secrets = new SessionSecretStore();
    const first = await open({ home: home.dir, secrets, sandbox: { timeScale: 1 }, ...idle() });
    const sent = await first.call<{ message: MessageRecord }>('messages.send', { profileId: 'sandbox', mobile: '13800138008', content: OTP('5') });
    await first.services.close();
    // The embedded sandbox starts afresh: it has never heard of that smsid.
    const second = await open({ home: home.dir, secrets, ...fast() });
    cleanups.push(home.cleanup, () => second.services.close());
    const ended = await until(second.services, (m) => m.id === sent.message.id && m.endedAt !== null);
    expect(ended.state).not.toBe('answered');
    const { events } = await second.call<{ events: { kind: string; reason: unknown }[] }>('messages.get', { id: sent.message.id });
    expect(events.at(-1)).toMatchObject({ kind: 'error', reason: { code: 'tracking-unknown-message', params: { code: 400 } } });
    expect(ended.reason).toMatchObject({ code: 'tracking-unknown-message' });
  });
});

describe('sending again, recents and template import', () => {
  it('re-sends only on a deliberate, confirmed request, linked to the original', async () => {
    const home = tempHome();
    const { services, call } = await open({ home: home.dir, secrets: new SessionSecretStore(), sandbox: { timeScale: 0.002 } });
    cleanups.push(home.cleanup, () => services.close());
    services.sandbox!.setFault({ kind: 'reset', op: 'send', times: 1 });
    const first = await call<{ message: MessageRecord }>('messages.send', { profileId: 'sandbox', mobile: '13800138008', content: OTP('6') });
    expect(first.message.outcome).toBe('unknown');
    await expect(call('messages.sendAgain', { id: first.message.id })).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(call('messages.sendAgain', { id: first.message.id, confirm: false })).rejects.toMatchObject({ code: 'invalid-input' });
    const again = await call<{ message: MessageRecord }>('messages.sendAgain', { id: first.message.id, confirm: true });
    expect(again.message).toMatchObject({ outcome: 'accepted', resendOf: first.message.id, mobile: '13800138008', content: OTP('6') });
    expect(services.sandbox!.requests().filter((r) => r.op === 'send')).toHaveLength(2);
  });

  it('double submission of the same send while in flight places one call', async () => {
    const home = tempHome();
    const { services, call } = await open({ home: home.dir, secrets: new SessionSecretStore(), sandbox: { timeScale: 0.002 } });
    cleanups.push(home.cleanup, () => services.close());
    services.sandbox!.setFault({ kind: 'delay', delayMs: 200, op: 'send', times: 1 });
    const input = { profileId: 'sandbox', mobile: '13800138008', content: OTP('7') };
    const results = await Promise.allSettled([call('messages.send', input), call('messages.send', input)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'send-in-flight' } });
    expect(services.sandbox!.requests().filter((r) => r.op === 'send')).toHaveLength(1);
  });

  it('remembers recent numbers and the last values per template', async () => {
    const home = tempHome();
    const { services, call } = await open({ home: home.dir, secrets: new SessionSecretStore(), sandbox: { timeScale: 0.002 } });
    cleanups.push(home.cleanup, () => services.close());
    await call('templates.save', { id: 'otp', content: '您的验证码是【变量】，5分钟内有效。', approved: true });
    await call('messages.send', { profileId: 'sandbox', mobile: '13911112228', content: OTP('111'), templateId: 'otp' });
    await call('messages.send', { profileId: 'sandbox', mobile: '13800138008', content: OTP('222'), templateId: 'otp' });
    // The last values come with whose they were (the number and the time), for the form to say so.
    const recents = await call<{ mobiles: string[]; lastSends: Record<string, { values: string[]; mobile: string; at: number }> }>('messages.recents');
    expect(recents).toEqual({
      mobiles: ['13800138008', '13911112228'],
      lastSends: { otp: { values: ['222'], mobile: '13800138008', at: expect.any(Number) } },
    });
    const { rows } = await call<{ rows: MessageRecord[] }>('history.page', { limit: 1 });
    expect(recents.lastSends.otp!.at).toBe(rows[0]!.createdAt);
  });

  it('imports templates, saving the valid ones and naming the rows that are not', async () => {
    const home = tempHome();
    const { services, call } = await open({ home: home.dir, secrets: new SessionSecretStore(), sandbox: false });
    cleanups.push(home.cleanup, () => services.close());
    const r = await call<{ saved: number; errors: { index: number; error: { code: string; params: unknown } }[] }>('templates.import', {
      templates: [{ content: '您好【变量】', approved: true }, { content: '' }, { content: 'x'.repeat(501) }, { name: 'Alert', content: '【变量】告警' }],
    });
    expect(r.saved).toBe(2);
    expect(r.errors.map((e) => [e.index, e.error])).toEqual([
      [1, { code: 'invalid-template', params: { kind: 'empty', length: 0 } }],
      [2, { code: 'invalid-template', params: { kind: 'too-long', length: 501 } }],
    ]);
    expect((await call<unknown[]>('templates.list')).length).toBe(2);
  });
});
