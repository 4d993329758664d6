// The follow-up schedule with the real services and the sandbox: news of a call's end that comes
// from elsewhere (a status query someone else asked for, or a receipt the provider pushed) stops
// the follower's own queries at once, and the speech rate starts from the durations already in the
// profile's history (read with the profile's index, newest first).
import { afterEach, describe, expect, it } from 'vitest';
import { builtinDialect, type Dialect } from '../../../common/dialects';
import type { MessageRecord } from '../../../common/records';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { SANDBOX_API_ID } from '../../../main/profiles/profile-service';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices } from '../../../main/services';
import { MessageRepository } from '../../../main/store/message-repository';
import { recording } from '../../helpers/recording-db';
import { FASTEST_SCALE, ScaledClock } from '../../helpers/scaled-clock';
import { closeStored, storedIn } from '../../helpers/stored';
import { tempHome } from '../../helpers/temp-home';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TEXT = '您的验证码是4321，5分钟内有效。';

async function start(scale: number, followScale = scale, sandboxDialect?: Dialect) {
  const home = tempHome();
  // Callout runs on a sped-up clock (a provider's second is `followScale` real seconds, at most 20
  // times faster so that a local request fits in the transport's timeouts); the embedded sandbox
  // runs on it too, its own time scale on top, so that its calls take `scale` real seconds a second.
  const clock = new ScaledClock(Math.max(followScale, FASTEST_SCALE));
  const services = await createServices({
    home: home.dir,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'test' } },
    clock,
    sandbox: { timeScale: scale / clock.scale, ...(sandboxDialect ? { dialect: sandboxDialect } : {}) },
  });
  cleanups.push(home.cleanup, () => services.close());
  const handlers = createHandlers(services);
  const call = async <T>(channel: string, input?: unknown): Promise<T> => {
    const r = await dispatch(handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.code), r.error);
    return r.value as T;
  };
  return { services, call, home: home.dir };
}

const statusQueries = (services: Awaited<ReturnType<typeof start>>['services'], id: number) =>
  services.sent.detail(id).exchanges.filter((e) => e.operation === 'status').length;

describe('the follow-up schedule, end to end', () => {
  it('stops its own status queries at once when the end is learnt from elsewhere', async () => {
    // The follower's clock runs 50 times slower than the sandbox's: left alone, it would look only
    // long after the call ended.
    const { services, call } = await start(0.002, 0.1);
    const sent = await call<{ message: MessageRecord }>('messages.send', { profileId: 'sandbox', mobile: '13800138008', content: TEXT });
    const id = sent.message.id;
    expect(services.calls.following()).toEqual([id]);
    // Wait until the provider has ended the call, then ask about it (as the CLI's `callout status` would).
    const sandbox = services.sandbox!;
    const deadline = Date.now() + 10_000;
    while (!sandbox.calls().find((c) => c.smsid === sent.message.smsid)?.endedAt) {
      if (Date.now() > deadline) throw new Error('the sandbox never ended the call');
      // Real time: a poll interval while the sandbox (a real HTTP server on the system clock, sped up by its time scale) runs the call; the loop is bounded by its deadline.
      await new Promise((r) => setTimeout(r, 10));
    }
    const before = statusQueries(services, id);
    const status = await call<{ message: MessageRecord | null }>('messages.queryStatus', { profileId: 'sandbox', smsid: sent.message.smsid });
    expect(status.message).toMatchObject({ id, state: 'answered' });
    expect(services.calls.following()).toEqual([]);
    // No more queries of the follower's own, even once its clock has run past every expected end.
    // Real time: the follower runs on the system clock here (the call goes through the sandbox over HTTP); this checks that no look comes later.
    await new Promise((r) => setTimeout(r, 600));
    expect(statusQueries(services, id)).toBe(before + 1);
    expect((await services.calls.awaitEnd(id)).state).toBe('answered');
  });

  it('stops polling a call at once when its receipt says it ended (a profile followed by both)', async () => {
    // The sandbox speaks the spec's dialect and pushes a receipt when a call ends.
    const { services, call } = await start(0.002, 0.1, builtinDialect('spec')!);
    const sandbox = services.sandbox!;
    let profile = await call<{ id: string }>('profiles.save', { name: 'Receipts', baseUrl: sandbox.baseUrl, apiId: SANDBOX_API_ID });
    profile = await call<{ id: string }>('profiles.setKey', { id: profile.id, apiKey: sandbox.demo.apiKey });
    const both = await call<{ follow: string; receipts: { url: string | null } }>('profiles.setFollow', { id: profile.id, follow: 'both' });
    expect(both.follow).toBe('both');
    sandbox.setReceiptsUrl(both.receipts.url!);
    const sent = await call<{ message: MessageRecord }>('messages.send', { profileId: profile.id, mobile: '13800138008', content: TEXT });
    const id = sent.message.id;
    expect(services.calls.following()).toEqual([id]);
    // The follower's clock is 50 times slower than the provider's: the receipt arrives long before its next look.
    const ended = await Promise.race([
      services.calls.awaitEnd(id),
      // Real time: a hang guard (fails, never waits) for a receipt posted over HTTP by the sandbox on the system clock.
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no receipt')), 10_000)),
    ]);
    expect(ended.state).toBe('answered');
    expect(services.sent.detail(id).exchanges.some((e) => e.operation === 'receipt')).toBe(true);
    expect(services.calls.following()).toEqual([]);
    const before = statusQueries(services, id);
    // Real time: as above, no look may come once the receipt ended the call.
    await new Promise((r) => setTimeout(r, 600));
    expect(statusQueries(services, id)).toBe(before);
  });

  it('reads the durations already seen on a profile, newest first, through the profile index', async () => {
    const { services } = await start(0.002);
    // The repository's query, on a connection of the test's own (closed before the data directory goes).
    const stored = storedIn(services.home);
    cleanups.push(closeStored);
    const { messages } = stored;
    for (const [i, duration] of [20, 30, 40].entries()) {
      const m = messages.insertPending({
        profile: 'sandbox',
        baseUrl: 'http://127.0.0.1',
        apiId: 'a',
        mobile: '13800138008',
        content: 'x'.repeat(70 * (i + 1)),
        templateId: null,
        units: i + 1,
        resendOf: null,
      });
      messages.markAccepted(m.id, { code: 2, msg: 'ok', smsid: `S${i}`, count: i + 1 });
      messages.updateState(m.id, 'answered', { duration, final: true });
    }
    const other = messages.insertPending({
      profile: 'other',
      baseUrl: 'http://127.0.0.1',
      apiId: 'a',
      mobile: '13800138008',
      content: 'y',
      templateId: null,
      units: 1,
      resendOf: null,
    });
    messages.markAccepted(other.id, { code: 2, msg: 'ok', smsid: 'S9', count: 1 });
    messages.updateState(other.id, 'answered', { duration: 99, final: true });
    // Sent within the same millisecond: equal times keep the insertion order's reverse or not; compare as sets.
    const read = messages.recentDurations('sandbox', 10);
    expect(new Set(read.map((r) => `${r.length}:${r.duration}`))).toEqual(new Set(['70:20', '140:30', '210:40']));
    // The plan of the statement recentDurations runs (with the forms the rows keep of the profile, migration 0029).
    const r = recording(stored.db);
    new MessageRepository(r.db).recentDurations('sandbox', 50);
    const run = r.calls.find((c) => /duration > 0/.test(c.sql))!;
    const plan = stored.db.prepare(`EXPLAIN QUERY PLAN ${run.sql}`).all(...run.params) as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/USING INDEX messages_profile_time/);
    expect(plan.map((p) => p.detail).join('\n')).not.toMatch(/TEMP B-TREE/);
  });
});
