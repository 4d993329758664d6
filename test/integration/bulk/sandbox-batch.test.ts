import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import type { ServicesOptions } from '../../../main/services';
import { withStore } from '../../helpers/stored';
import { tempHome } from '../../helpers/temp-home';
import { acceptedPerItem, receivedPerItem, rowsFor, servicesFor } from './helpers';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const SCALE = 0.004;

async function setup(
  account: { balance?: number; lines?: number } = {},
  opts: { totalTimeoutMs?: number; apiKey?: string; timeScale?: number; testOnlyWrapStore?: ServicesOptions['testOnlyWrapStore'] } = {},
) {
  const timeScale = opts.timeScale ?? SCALE;
  const sandbox: Sandbox = await startSandbox({
    timeScale,
    accounts: [{ apiId: 'bulk', apiKey: 'bulk-key', balance: account.balance ?? 100_000, lines: account.lines ?? 1 }],
  });
  const home = tempHome();
  const s = await servicesFor(home.dir, sandbox, 'bulk', opts.apiKey ?? 'bulk-key', {
    timeScale,
    totalTimeoutMs: opts.totalTimeoutMs,
    testOnlyWrapStore: opts.testOnlyWrapStore,
  });
  cleanups.push(
    home.cleanup,
    () => sandbox.close(),
    () => s.services.close(),
  );
  return { sandbox, ...s };
}

const mobiles = (n: number, lastDigit: (i: number) => number) => Array.from({ length: n }, (_, i) => `1380${String(i).padStart(6, '0')}${lastDigit(i)}`);

describe('bulk batch against the sandbox provider', () => {
  it('sends every row once, never more than 20 calls at once on one line, and counts answers as the calls end', async () => {
    // At 33 times the speed: the provider's 10 s wait before a redial is 300 ms here, long enough for
    // the follower's looks (real HTTP requests) to see it on a loaded machine. At 100 times (100 ms),
    // runs with the other core busy saw none about one time in two; at 250 times (40 ms), more often.
    const { sandbox, runtime } = await setup({}, { timeScale: 0.03 });
    // What the follower tells the governors: lines lent while calls wait for their redial.
    const lent: number[] = [];
    const lend = runtime.governors.lend.bind(runtime.governors);
    runtime.governors.lend = (id, until) => {
      if (until !== null) lent.push(id);
      lend(id, until);
    };
    const list = mobiles(70, (i) => [7, 8, 9, 0, 1, 5, 4][i % 7]!);
    const batch = runtime.queue.create({ profileId: 'ext', templateId: 'ship', name: 'list.csv', duplicates: 'none', rows: rowsFor(list) });
    runtime.queue.start(batch.id);
    const sent = await runtime.queue.whenStopped(batch.id);
    expect(sent).toMatchObject({ status: 'done', accepted: 70, remaining: 0 });
    const p = await runtime.queue.whenCallsEnded(batch.id);
    // 7, 8, 9 answer; 5 answers on the provider's own redial; 0, 1, 4 do not.
    expect(p).toMatchObject({ answered: 40, notAnswered: 30, calling: 0, failed: 30 });
    // Lines in use at the provider never exceed the limit. Callout started calls up to the limit and
    // never over it (a call holds its line from its send until its end is seen, except while the
    // provider waits to redial it: then its line is lent, and its count may pass 20 when the redial comes).
    expect(sandbox.stats().peakConcurrency).toBeLessThanOrEqual(20);
    const own = runtime.governors.for('ext').snapshot();
    expect(own.peakAtStart).toBe(20);
    expect(own.peak).toBeGreaterThanOrEqual(20);
    // Lines were lent, only for calls the provider redials (numbers ending in 5 or 0), and lending still stands.
    expect(lent.length).toBeGreaterThan(0);
    const lentNumbers = new Set(lent.map((id) => runtime.sent.detail(id).message.mobile.slice(-1)));
    expect([...lentNumbers].every((d) => d === '5' || d === '0')).toBe(true);
    expect(own.lending).toBe(true);
    // The wait learned is kept for the next start: the sandbox redials 10 s after a ring-out, seen
    // here through looks that run late at 100 times the speed, on a loaded machine later still (so only roughly).
    const kept = withStore(runtime.home, (s) => s.dialSettings.learnedRedialWait('ext')) as { at: number; samples: number };
    expect(kept.samples).toBeGreaterThanOrEqual(1);
    expect(kept.at).toBeGreaterThan(2);
    expect(kept.at).toBeLessThan(60);
    const received = [...receivedPerItem(sandbox).values()];
    expect(received).toHaveLength(70);
    expect(received.every((n) => n === 1)).toBe(true);
    const items = runtime.queue.items(batch.id);
    expect(
      items
        .filter((i) => i.state === 'answered')
        .map((i) => i.mobile.slice(-1))
        .sort(),
    ).toEqual(
      list
        .filter((m) => /[5789]$/.test(m))
        .map((m) => m.slice(-1))
        .sort(),
    );
  });

  it('on a profile set not to lend its lines, a call waiting for its redial keeps its line: Callout never counts more than 20', async () => {
    // The profile's setting, as SQLite would give it (this test's profile lives in memory only).
    const { sandbox, runtime } = await setup({}, { testOnlyWrapStore: (store) => void (store.dialSettings.profileLending = () => false) });
    let lentSeen = 0;
    const timer = setInterval(() => (lentSeen = Math.max(lentSeen, runtime.governors.for('ext').snapshot().lent)), 5);
    // 5 answers on the provider's redial, 0 is redialled and never answers: many calls wait for a redial.
    const list = mobiles(60, (i) => [5, 0, 8][i % 3]!);
    const batch = runtime.queue.create({ profileId: 'ext', templateId: 'ship', name: 'list.csv', duplicates: 'none', rows: rowsFor(list) });
    runtime.queue.start(batch.id);
    await runtime.queue.whenStopped(batch.id);
    const p = await runtime.queue.whenCallsEnded(batch.id);
    clearInterval(timer);
    expect(p).toMatchObject({ answered: 40, notAnswered: 20, calling: 0 });
    const own = runtime.governors.for('ext').snapshot();
    expect(own).toMatchObject({ lending: false, lent: 0, peak: 20, peakAtStart: 20 });
    expect(lentSeen).toBe(0);
    expect(sandbox.stats().peakConcurrency).toBeLessThanOrEqual(20);
    expect([...receivedPerItem(sandbox).values()].every((n) => n === 1)).toBe(true);
  });

  it('pauses on insufficient balance, and after a recharge resumes to the end, each call placed once', async () => {
    const { sandbox, runtime } = await setup({ balance: 6 });
    const list = mobiles(30, () => 8);
    const batch = runtime.queue.create({ profileId: 'ext', templateId: 'ship', name: 'x', duplicates: 'none', rows: rowsFor(list) });
    runtime.queue.start(batch.id);
    const paused = await runtime.queue.whenStopped(batch.id);
    expect(paused).toMatchObject({ status: 'paused', pausedReason: 'insufficient-balance' });
    expect(paused.accepted).toBeGreaterThanOrEqual(6);
    expect(paused.queued).toBeGreaterThan(0);
    sandbox.setBalance('bulk', 1000);
    runtime.queue.resume(batch.id);
    const done = await runtime.queue.whenStopped(batch.id);
    expect(done).toMatchObject({ status: 'done', accepted: 30, rejected: 0, unknown: 0 });
    expect([...acceptedPerItem(sandbox).values()].every((n) => n === 1)).toBe(true);
    expect(acceptedPerItem(sandbox).size).toBe(30);
  });

  it('stops the batch when the credentials are refused (401)', async () => {
    const { sandbox, runtime } = await setup({}, { apiKey: 'wrong-key' });
    const batch = runtime.queue.create({ profileId: 'ext', templateId: 'ship', name: 'x', duplicates: 'none', rows: rowsFor(mobiles(50, () => 8)) });
    runtime.queue.start(batch.id);
    const p = await runtime.queue.whenStopped(batch.id);
    expect(p).toMatchObject({ status: 'cancelled', pausedReason: 'credentials', accepted: 0, queued: 0 });
    expect(p.rejected + p.cancelled).toBe(50);
    expect(sandbox.requests().filter((r) => r.op === 'send').length).toBe(p.rejected);
  });

  it('marks provider errors and lost replies unknown and goes on; the sandbox placed those calls once, never twice', async () => {
    const { sandbox, runtime } = await setup({}, { totalTimeoutMs: 2000 });
    sandbox.setFault({ kind: 'http500', op: 'send', times: 2 });
    const batch = runtime.queue.create({ profileId: 'ext', templateId: 'ship', name: 'x', duplicates: 'none', rows: rowsFor(mobiles(12, () => 9)) });
    const first = runtime.queue.items(batch.id)[0]!;
    runtime.queue.start(batch.id);
    // One turn of the event loop (not a wait for time): the batch starts before it is awaited.
    await new Promise((r) => setTimeout(r, 0));
    const p = await runtime.queue.whenStopped(batch.id);
    expect(p).toMatchObject({ status: 'done', unknown: 2, accepted: 10 });
    const unknown = runtime.queue.unknownItems(batch.id);
    expect(unknown).toHaveLength(2);
    expect(unknown.some((u) => u.id === first.id)).toBe(true);
    expect([...receivedPerItem(sandbox).values()].every((n) => n === 1)).toBe(true);

    // A reply that never comes: the provider placed the call, the item is unknown, and it is not sent again.
    sandbox.clearFaults();
    sandbox.setFault({ kind: 'timeout', op: 'send', times: 1 });
    const second = runtime.queue.create({
      profileId: 'ext',
      templateId: 'ship',
      name: 'y',
      duplicates: 'none',
      rows: rowsFor(mobiles(3, () => 7)).map((r) => ({ ...r, content: r.content.replace('SO', 'PO') })),
    });
    runtime.queue.start(second.id);
    const q = await runtime.queue.whenStopped(second.id);
    expect(q).toMatchObject({ status: 'done', unknown: 1, accepted: 2 });
    const [lost] = runtime.queue.unknownItems(second.id);
    expect(sandbox.calls().filter((c) => c.mobile === lost!.mobile && c.content === lost!.content)).toHaveLength(1);
    expect(receivedPerItem(sandbox).get(`${lost!.mobile}\n${lost!.content}`)).toBe(1);
  });

  it('uses more lines when the profile has them', async () => {
    const { sandbox, runtime, services, progress } = await setup({ lines: 2 }, { timeScale: 0.02 });
    // An ephemeral profile has no row; save a real one with 2 lines.
    // 2 s and 5 s of real time on Callout's clock, fifty times faster.
    const saved = withStore(services.home, (s) =>
      s.profiles.save({
        name: 'Two lines',
        baseUrl: sandbox.baseUrl,
        apiId: 'bulk',
        signing: 'off',
        format: 'json',
        connectTimeoutMs: 100_000,
        totalTimeoutMs: 250_000,
        lowBalanceThreshold: null,
      }),
    );
    withStore(services.home, (s) => s.dialSettings.setProfileLines(saved.id, 2));
    await services.profiles.setKey(saved.id, 'bulk-key');
    const batch = runtime.queue.create({ profileId: saved.id, templateId: 'ship', name: 'x', duplicates: 'none', rows: rowsFor(mobiles(60, () => 8)) });
    runtime.queue.start(batch.id);
    await runtime.queue.whenCallsEnded(batch.id);
    expect(runtime.governors.for(saved.id).snapshot()).toMatchObject({ limits: { concurrency: 40, perHour: 4000 }, peakAtStart: 40 });
    // More than one line's worth of calls were open at once, and never more than two lines' worth.
    expect(Math.max(...progress.map((p) => p.calling + p.inFlight))).toBeGreaterThan(20);
    expect(Math.max(...progress.map((p) => p.calling + p.inFlight))).toBeLessThanOrEqual(40);
    expect(sandbox.stats().peakConcurrency).toBeLessThanOrEqual(40);
  });
});
