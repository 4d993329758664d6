import { afterEach, describe, expect, it } from 'vitest';
import type { CallState } from '../../../common/domain/status';
import { EndWatcher } from '../../../main/calls/follow';
import { reason } from '../../../common/reasons';
import { GovernorRegistry } from '../../../main/lines/governor';
import type { SendInput, SendLike } from '../../../main/bulk/queue';
import { ContactService } from '../../../main/dial/contacts';
import { Dialer, type DialProgress } from '../../../main/dial/dialer';
import { openStore } from '../../../main/store';
import { tempHome } from '../../helpers/temp-home';
import { ManualClock } from '../../../main/clock';
import { drive as driveClock } from '../../helpers/manual-clock';
import { dialDefaults, dialOptions, LIST_DIAL_DEFAULTS } from '../../../common/domain/dial-defaults';
import { DEFAULT_RING_SECONDS } from '../../../common/paging/timeline';
import { nextText, progressText } from '../../../main/cli/dial-command';
import { cliWords } from '../../../main/cli/text';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const ALERT = { id: 'alert', content: '【变量】告警：【变量】，请立即处理。' };
type Script = CallState | 'unknown' | 402 | 404;

/**
 * A provider in memory: each call to a number takes the next outcome of that number's script
 * (default: answered), ends after `callMs`, and is written to the store as a real message.
 */
function setup(scripts: Record<string, Script[]> = {}, opts: { callMs?: number; limits?: boolean; sharing?: { home: string; clock: ManualClock } } = {}) {
  // `sharing`: another process on the same data directory (its own connection), on the same clock.
  const home = opts.sharing ? { dir: opts.sharing.home, cleanup: () => undefined } : tempHome();
  // Time passes only as the test moves it: pauses, limits and calls take no wall-clock time.
  const clock = opts.sharing?.clock ?? new ManualClock();
  const store = openStore(home.dir, { clock });
  if (!opts.limits) store.dialSettings.save({ scope: '*', perMinute: null, perHour: null, perDay: null, quietStart: null, quietEnd: null });
  const watcher = new EndWatcher({ get: (id) => store.messages.get(id), pollMs: 10, clock });
  const contacts = new ContactService(store.contacts);
  const sends: SendInput[] = [];
  const progress: DialProgress[] = [];
  const timers: Array<{ cancel(): void }> = [];
  const send = async (_p: string, input: SendInput): Promise<SendLike> => {
    sends.push(input);
    const next = scripts[input.mobile]?.shift() ?? 'answered';
    const pending = store.messages.insertPending({
      profile: 'p',
      baseUrl: 'http://x',
      apiId: 'a',
      mobile: input.mobile,
      content: input.content,
      templateId: input.templateId,
      units: 1,
    });
    if (next === 'unknown') {
      const why = reason('transport', { kind: 'timeout', ms: 1000 });
      return {
        message: store.messages.markUnknown(pending.id, { errorKind: 'timeout', reason: why }),
        failure: { kind: 'timeout', outcome: 'unknown', reason: why },
      };
    }
    if (next === 402 || next === 404)
      return { message: store.messages.markRejected(pending.id, { code: next, msg: `code ${next}`, errorKind: 'provider-code' }), failure: null };
    const accepted = store.messages.markAccepted(pending.id, { code: 2, msg: 'ok', smsid: `S${pending.id}`, count: 1 });
    timers.push(clock.setTimeout(() => watcher.notify(store.messages.updateState(accepted.id, next, { final: true })), opts.callMs ?? 5));
    return { message: accepted, failure: null };
  };
  const governors = new GovernorRegistry(() => 1, { clock });
  const dialer = new Dialer({
    contacts,
    settings: store.dialSettings,
    templates: { get: (id) => (id === ALERT.id ? ALERT : undefined) },
    send,
    awaitEnd: (id, s) => watcher.awaitEnd(id, s),
    governors,
    onProgress: (p) => progress.push(p),
    clock,
  });
  cleanups.push(
    home.cleanup,
    () => store.close(),
    () => watcher.close(),
    () => timers.forEach((t) => t.cancel()),
    () => dialer.close(),
  );
  return { home: home.dir, store, contacts, dialer, sends, progress, governors, clock, drive: <T>(work: Promise<T>) => driveClock(clock, work) };
}

describe('quick dial', () => {
  it('calls until answered: repeats after the pause and stops at the first answer', async () => {
    const { dialer, contacts, sends, progress, drive } = setup({ '13800138000': ['no_answer', 'no_answer', 'answered', 'answered'] });
    const a = contacts.save({ name: '张三', mobile: '13800138000' });
    const r = await drive(
      dialer.run({ profileId: 'p', targets: [{ contactId: a.id }], templateId: 'alert', values: ['db1', '磁盘满'], attempts: 5, pauseSeconds: 30 }),
    );
    expect(r).toMatchObject({ status: 'answered', answered: { contactId: a.id, name: '张三', targetIndex: 0 } });
    expect(sends).toHaveLength(3);
    expect(sends[0]!.content).toBe('db1告警：磁盘满，请立即处理。');
    expect(r.attempts.map((x) => x.state)).toEqual(['no_answer', 'no_answer', 'answered']);
    const waits = progress.filter((p) => p.phase === 'waiting');
    expect(waits).toHaveLength(2);
    expect(waits.map((w) => w.attempt)).toEqual([2, 3]);
    expect(waits[0]!.nextAttemptAt! - r.attempts[0]!.endedAt!).toBeGreaterThan(20_000); // 30 s after the call ended
    expect(progress.at(-1)).toMatchObject({ phase: 'done', result: expect.objectContaining({ status: 'answered' }) });
  });

  it('gives up after the maximum number of attempts', async () => {
    const { dialer, sends, drive } = setup({ '13800138000': ['no_answer', 'no_answer', 'no_answer', 'answered'] });
    const r = await drive(dialer.run({ profileId: 'p', targets: [{ mobile: '138 0013 8000' }], content: 'x', attempts: 3, pauseSeconds: 1 }));
    expect(r.status).toBe('not-answered');
    expect(sends).toHaveLength(3);
  });

  it('escalates: calls A until its attempts run out, then B, and stops at the first answer (C is never called)', async () => {
    const { dialer, contacts, sends, progress, drive } = setup({ '13800138001': ['no_answer', 'rejected'], '13800138002': ['answered'] });
    const [a, b, c] = ['A', 'B', 'C'].map((n, i) => contacts.save({ name: n, mobile: `1380013800${i + 1}` }));
    const group = contacts.saveGroup({ name: 'on-call', memberIds: [a!.id, b!.id, c!.id] });
    const r = await drive(dialer.run({ profileId: 'p', groupId: group.id, templateId: 'alert', values: ['db1', 'down'], attempts: 2, pauseSeconds: 1 }));
    expect(r).toMatchObject({ status: 'answered', answered: { name: 'B', targetIndex: 1 } });
    expect(sends.map((s) => s.mobile)).toEqual(['13800138001', '13800138001', '13800138002']);
    expect(progress.filter((p) => p.phase === 'next-target').map((p) => p.target.name)).toEqual(['B']);
  });

  it.each(['busy', 'rejected', 'powered_off', 'unreachable'] as const)(
    'moves to the next person at once when the call ends %s (no retry of that person, no pause)',
    async (state) => {
      const { dialer, sends, progress, drive } = setup({ '13800138001': [state, 'answered'], '13800138002': ['answered'] });
      const r = await drive(
        dialer.run({ profileId: 'p', targets: [{ mobile: '13800138001' }, { mobile: '13800138002' }], content: 'x', attempts: 3, pauseSeconds: 30 }),
      );
      expect(r).toMatchObject({ status: 'answered', answered: { mobile: '13800138002', targetIndex: 1 } });
      expect(sends.map((s) => s.mobile)).toEqual(['13800138001', '13800138002']);
      expect(r.attempts[1]!.startedAt).toBe(r.attempts[0]!.endedAt);
      expect(progress.filter((p) => p.phase === 'waiting')).toEqual([]);
      // The call's end says what comes next: the next person, now.
      expect(progress.find((p) => p.phase === 'ended' && p.targetIndex === 0)!.next).toMatchObject({ targetIndex: 1, attempt: 1, at: r.attempts[0]!.endedAt });
    },
  );

  it('busy ends a one-person run instead of calling them again', async () => {
    const { dialer, sends, drive } = setup({ '13800138000': ['busy', 'answered'] });
    const r = await drive(dialer.run({ profileId: 'p', targets: [{ mobile: '13800138000' }], content: 'x', attempts: 3, pauseSeconds: 30 }));
    expect(r.status).toBe('not-answered');
    expect(sends).toHaveLength(1);
  });

  it('says what it does next and when: while a call rings, if nobody answers; while it waits, who and at what time', async () => {
    const { dialer, progress, drive } = setup({ '13800138001': ['no_answer', 'no_answer'], '13800138002': ['no_answer', 'no_answer'] }, { callMs: 30_000 });
    const r = await drive(
      dialer.run({ profileId: 'p', targets: [{ mobile: '13800138001' }, { mobile: '13800138002' }], content: 'x', attempts: 2, pauseSeconds: 20 }),
    );
    expect(r.status).toBe('not-answered');
    const [a1, a2, b1] = r.attempts;
    const ringing = progress.filter((p) => p.phase === 'calling' && p.messageId !== null);
    expect(
      ringing.map((p) => p.next && { targetIndex: p.next.targetIndex, attempt: p.next.attempt, at: p.next.at, afterSeconds: p.next.afterSeconds }),
    ).toEqual([
      { targetIndex: 0, attempt: 2, at: null, afterSeconds: 20 },
      { targetIndex: 1, attempt: 1, at: null, afterSeconds: null },
      { targetIndex: 1, attempt: 2, at: null, afterSeconds: 20 },
      null, // the last call of the run: nothing follows
    ]);
    const wait = progress.find((p) => p.phase === 'waiting')!;
    expect(wait.next).toMatchObject({ targetIndex: 0, attempt: 2, at: a1!.endedAt! + 20_000 });
    // The announced time is when the call goes out.
    expect(a2!.startedAt).toBe(wait.next!.at);
    expect(b1!.startedAt).toBe(a2!.endedAt);
    // In both languages, and in the CLI's live line.
    const at = new Date(wait.next!.at!);
    const hhmmss = [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
    expect(nextText(cliWords('en'), wait, a1!.endedAt!)).toBe(`next: 138****8001 again at ${hhmmss} attempt 2/2`);
    expect(nextText(cliWords('zh-CN'), wait, a1!.endedAt!)).toBe(`下一步：${hhmmss} 再次呼叫 138****8001 第 2/2 次`);
    const ended = progress.find((p) => p.phase === 'ended' && p.targetIndex === 0 && p.attempt === 2)!;
    expect(progressText(cliWords('en'), ended, a2!.endedAt!)).toMatch(/^138\*{4}8001: .+ · next: 138\*{4}8002 at \d\d:\d\d:\d\d$/);
    expect(progressText(cliWords('zh-CN'), ringing[1]!, a2!.startedAt)).toMatch(/ · 如未接听：接着呼叫 138\*{4}8002$/);
  });

  it('reaches the third person of a list in under 3 minutes with the defaults when nobody answers (the old 3 attempts 60 s apart took 7 minutes)', async () => {
    // Every call rings out: 30 s, the time the policy timeline assumes for an unanswered call.
    const third = async (options: { attempts: number; pauseSeconds?: number }) => {
      const nobody = ['no_answer', 'no_answer', 'no_answer'] as Script[];
      const { dialer, contacts, drive, clock } = setup(
        { '13800138001': [...nobody], '13800138002': [...nobody], '13800138003': [...nobody] },
        { callMs: DEFAULT_RING_SECONDS * 1000 },
      );
      const ids = ['王工', '李雷', '张三'].map((name, i) => contacts.save({ name, mobile: `1380013800${i + 1}` }).id);
      const group = contacts.saveGroup({ name: 'DB', memberIds: ids });
      const t0 = clock.now();
      const r = await drive(dialer.run({ profileId: 'p', groupId: group.id, content: 'x', ...options }));
      expect(r.status).toBe('not-answered');
      return (r.attempts.find((a) => a.targetIndex === 2)!.startedAt - t0) / 1000;
    };
    const defaults = dialDefaults(3);
    expect(defaults).toBe(LIST_DIAL_DEFAULTS);
    // As the palette sends it for a list (and the CLI without --until-answered): once each, the next at once.
    expect(await third(dialOptions(defaults))).toBe(60);
    // "Until answered" switched on for a list: 2 calls 20 s apart.
    expect(await third(dialOptions({ ...defaults, untilAnswered: true }))).toBe(160);
    // The old defaults, for comparison: 3 attempts 60 s apart.
    expect(await third({ attempts: 3, pauseSeconds: 60 })).toBe(420);
  });

  it('moves on to the next person when a number cannot be called, and stops everything when the account cannot call', async () => {
    const first = setup({ '13800138001': [404] });
    const r = await first.drive(
      first.dialer.run({ profileId: 'p', targets: [{ mobile: '13800138001' }, { mobile: '13800138002' }], content: 'x', attempts: 3, pauseSeconds: 0 }),
    );
    expect(r).toMatchObject({ status: 'answered', answered: { mobile: '13800138002' } });
    const second = setup({ '13800138001': [402] });
    const s = await second.drive(second.dialer.run({ profileId: 'p', targets: [{ mobile: '13800138001' }, { mobile: '13800138002' }], content: 'x' }));
    expect(s.status).toBe('failed');
    expect(s.attempts).toEqual([expect.objectContaining({ code: 402, outcome: 'rejected' })]);
    expect(second.sends).toHaveLength(1);
  });

  it('does not call again after an unknown outcome (the call may have been placed and answered)', async () => {
    const { dialer, sends, drive } = setup({ '13800138000': ['unknown', 'answered'] });
    const r = await drive(
      dialer.run({ profileId: 'p', targets: [{ mobile: '13800138000' }, { mobile: '13900139000' }], content: 'x', attempts: 3, pauseSeconds: 0 }),
    );
    expect(r.status).toBe('unknown');
    expect(r.attempts).toEqual([expect.objectContaining({ outcome: 'unknown', reason: { code: 'transport', params: { kind: 'timeout', ms: 1000 } } })]);
    expect(sends).toHaveLength(1);
  });

  it('refuses a call the per-number limits forbid, saying which limit and when it frees; an override calls anyway', async () => {
    const { dialer, store, sends, drive, clock } = setup({}, { limits: true });
    store.dialSettings.save({ scope: '*', perMinute: 1, perHour: 5, perDay: 20, quietStart: null, quietEnd: null });
    const first = await drive(dialer.run({ profileId: 'p', targets: [{ mobile: '13800138000' }], content: 'x' }));
    expect(first.status).toBe('answered');
    const again = dialer.start({ profileId: 'p', targets: [{ mobile: '13800138000' }], content: 'x' });
    expect(again.started).toBe(false);
    expect(again.plan.refusals).toEqual([expect.objectContaining({ limit: 'per-minute', count: 1, max: 1, mobile: '13800138000' })]);
    expect(again.plan.refusals[0]!.freesAt).toBeGreaterThan(clock.now());
    expect(sends).toHaveLength(1);
    const forced = await drive(dialer.run({ profileId: 'p', targets: [{ mobile: '13800138000' }], content: 'x', override: true }));
    expect(forced.status).toBe('answered');
    expect(sends).toHaveLength(2);
  });

  it('two dials of one number at once, from two processes on one data directory: the per-minute limit holds (one call, the other refused)', async () => {
    const a = setup({}, { limits: true });
    a.store.dialSettings.save({ scope: '*', perMinute: 1, perHour: null, perDay: null, quietStart: null, quietEnd: null });
    const b = setup({}, { limits: true, sharing: { home: a.home, clock: a.clock } });
    const dial = (d: typeof a) => d.dialer.run({ profileId: 'p', targets: [{ mobile: '13800138000' }], content: 'x', attempts: 1 });
    // Both check the limits before either has sent: the first's place is already taken when the second checks.
    const [ra, rb] = await a.drive(Promise.all([dial(a), dial(b)]));
    expect(a.sends.length + b.sends.length).toBe(1);
    expect([ra.status, rb.status]).toEqual(['answered', 'refused']);
    expect(rb.refusals).toEqual([expect.objectContaining({ limit: 'per-minute', count: 1, max: 1 })]);
    // The claim was let go once the call had its message row: one call counted, not two.
    expect(a.store.dialSettings.callTimes('13800138000', 0)).toHaveLength(1);
  });

  it('waits out the per-minute limit between attempts of a run instead of giving up', async () => {
    const { dialer, store, sends, progress, drive } = setup({ '13800138000': ['no_answer', 'answered'] }, { limits: true });
    store.dialSettings.save({ scope: '*', perMinute: 1, perHour: null, perDay: null, quietStart: null, quietEnd: null });
    const r = await drive(dialer.run({ profileId: 'p', targets: [{ mobile: '13800138000' }], content: 'x', attempts: 2, pauseSeconds: 0 }));
    expect(r.status).toBe('answered');
    expect(sends).toHaveLength(2);
    const wait = progress.find((p) => p.phase === 'waiting' && p.refusals.length > 0)!;
    expect(wait.refusals[0]).toMatchObject({ limit: 'per-minute' });
    expect(r.refusals).toEqual([]);
  });

  it('refuses during quiet hours unless overridden', async () => {
    const { dialer, store, sends, drive, clock } = setup({}, { limits: true });
    const now = clock.date();
    const hhmm = (d: Date) => `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    store.dialSettings.save({
      scope: '*',
      perMinute: null,
      perHour: null,
      perDay: null,
      quietStart: hhmm(now),
      quietEnd: hhmm(new Date(now.getTime() + 2 * 3_600_000)),
    });
    const r = await drive(dialer.run({ profileId: 'p', targets: [{ mobile: '13800138000' }], content: 'x' }));
    expect(r.status).toBe('refused');
    expect(r.refusals[0]).toMatchObject({ limit: 'quiet-hours' });
    expect(sends).toHaveLength(0);
    expect((await drive(dialer.run({ profileId: 'p', targets: [{ mobile: '13800138000' }], content: 'x', override: true }))).status).toBe('answered');
  });

  it("fills the template from the contact's last values when none are given, and remembers them", async () => {
    const { dialer, contacts, sends, drive } = setup();
    const a = contacts.save({ name: 'A', mobile: '13800138000' });
    await drive(dialer.run({ profileId: 'p', targets: [{ contactId: a.id }], templateId: 'alert', values: ['web', '502'] }));
    expect(contacts.get(a.id)).toMatchObject({ lastTemplateId: 'alert', lastValues: ['web', '502'] });
    await drive(dialer.run({ profileId: 'p', targets: [{ contactId: a.id }], templateId: 'alert' }));
    expect(sends[1]!.content).toBe('web告警：502，请立即处理。');
    const thrown = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return error;
      }
      throw new Error('did not throw');
    };
    expect(thrown(() => dialer.plan({ profileId: 'p', targets: [{ mobile: '13900139000' }], templateId: 'alert' }))).toMatchObject({
      code: 'invalid-input',
      issues: [
        { path: 'values.0', message: 'value-required' },
        { path: 'values.1', message: 'value-required' },
      ],
    });
    expect(thrown(() => dialer.plan({ profileId: 'p', targets: [{ mobile: '123' }], content: 'x' }))).toMatchObject({
      code: 'invalid-mobile',
      params: { kind: 'wrong-length' },
    });
    expect(thrown(() => dialer.plan({ profileId: 'p', targets: [{ mobile: '13900139000' }], content: 'x', attempts: 11 }))).toMatchObject({
      code: 'invalid-input',
      issues: [{ path: 'attempts', message: 'attempts-range' }],
    });
  });

  it('can be cancelled during the pause: no further call starts', async () => {
    const { dialer, sends, progress, clock, drive } = setup({ '13800138000': ['no_answer', 'answered'] });
    const s = dialer.start({ profileId: 'p', targets: [{ mobile: '13800138000' }], content: 'x', attempts: 3, pauseSeconds: 3600 });
    expect(s.started).toBe(true);
    if (!s.started) return;
    while (!progress.some((p) => p.phase === 'waiting')) await clock.advance(5);
    expect(dialer.active()).toEqual([expect.objectContaining({ runId: s.runId, phase: 'waiting' })]);
    expect(dialer.cancel(s.runId)).toBe(true);
    const done = dialer.result(s.runId);
    const r = done && (await drive(done));
    expect(r?.status).toBe('cancelled');
    expect(sends).toHaveLength(1);
  });

  it("takes a line from the profile's governor before queued batch items, and gives it back when the call ends", async () => {
    const { dialer, governors, clock, drive } = setup({}, { callMs: 20 });
    const g = governors.for('p');
    const held = Array.from({ length: 20 }, () => g.tryAcquire()!);
    const batchWaiter = g.acquire();
    const run = dialer.run({ profileId: 'p', targets: [{ mobile: '13800138000' }], content: 'x' });
    await clock.advance(10);
    held[0]!.release(); // the dial gets this line, not the waiting batch item
    const r = await drive(run);
    expect(r.status).toBe('answered');
    const slot = await batchWaiter; // freed when the dial's call ended
    slot.release();
    held.slice(1).forEach((s) => s.release());
    expect(g.snapshot().inUse).toBe(0);
  });
});
