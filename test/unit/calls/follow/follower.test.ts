// Following calls to their end, on a provider simulated in fake time: how soon an end is seen (a
// bulk batch's line is given back only then), how many status queries it takes, the budget that
// bounds them, and news of a call that arrives from elsewhere (a receipt) stopping the looks at once.
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../main/clock';
import type { CallState } from '../../../../common/domain/status';
import type { MessageRecord } from '../../../../common/records';
import { redialAfter } from '../../../../main/calls/follow/timings';
import { FOLLOW_PLAN } from '../../../../main/calls/follow/plan';
import { Follower, STATUS_QUERIES_PER_LINE_PER_SECOND, STATUS_QUERY_BURST_SECONDS, type LookResult } from '../../../../main/calls/follow/follower';

interface Moment {
  state: CallState;
  attempts: number;
  duration: number;
}
/** What the provider says about a call `t` seconds after accepting it. */
type Script = (t: number) => Moment;

const TEXT = '您好，您的订单已发货，请注意查收，如有疑问请联系客服。'.repeat(4); // 108 characters
const talkOf = (text: string) => Math.ceil([...text].length / 3.5);

/** Picked up after `pickup` s (dispatch and ringing), then the text is read: as the sandbox does. */
const answers = (pickup: number, text = TEXT): Script => {
  const talk = talkOf(text);
  return (t) =>
    t < 1
      ? { state: 'pending', attempts: 0, duration: 0 }
      : t < pickup
        ? { state: 'calling', attempts: 1, duration: 0 }
        : t < pickup + talk
          ? { state: 'calling', attempts: 1, duration: Math.floor(t - pickup) }
          : { state: 'answered', attempts: 1, duration: talk };
};
const endOf = (pickup: number, text = TEXT) => pickup + talkOf(text);

/** As the sandbox's "answered on redial": dispatch 1 s, rings out at `ringOut`, waits `wait` s, redials and is picked up after the same ringing. */
const answersOnRedial = (ringOut: number, wait: number, text = TEXT): Script => {
  const redial = ringOut + wait;
  const pickup = redial + (ringOut - 1);
  const talk = talkOf(text);
  return (t) =>
    t < 1
      ? { state: 'pending', attempts: 0, duration: 0 }
      : t < ringOut
        ? { state: 'calling', attempts: 1, duration: 0 }
        : t < redial
          ? { state: 'pending', attempts: 1, duration: 0 }
          : t < pickup + talk
            ? { state: 'calling', attempts: 2, duration: Math.max(0, Math.floor(t - pickup)) }
            : { state: 'answered', attempts: 2, duration: talk };
};

class SimulatedProvider {
  readonly messages = new Map<number, MessageRecord>();
  readonly scripts = new Map<number, { script: Script; since: number }>();
  readonly looks: { id: number; at: number }[] = [];
  readonly ended: { id: number; at: number }[] = [];
  /** What the follower said of lines: free until a moment (ms), or taken again (null). */
  readonly lines: { id: number; at: number; until: number | null }[] = [];
  unreachable = false;
  readonly follower: Follower;
  private next = 1;

  constructor(opts: { lines?: number } = {}) {
    this.follower = new Follower({
      get: (id) => this.messages.get(id),
      look: (m) => this.look(m),
      expire: (m) => this.messages.set(m.id, { ...m, endedAt: clock.now() }),
      onFinal: (id) => this.ended.push({ id, at: clock.now() }),
      onLineFree: (id, until) => this.lines.push({ id, at: clock.now(), until }),
      linesOf: () => opts.lines ?? 1,
      time: clock,
    });
  }

  place(script: Script, content = TEXT): number {
    const id = this.next++;
    const now = clock.now();
    this.messages.set(id, {
      id,
      profile: 'p',
      baseUrl: 'http://127.0.0.1',
      apiId: 'a',
      mobile: '13800138008',
      content,
      templateId: null,
      units: 2,
      outcome: 'accepted',
      code: 2,
      providerMsg: null,
      smsid: `S${id}`,
      billedUnits: null,
      state: 'pending',
      duration: null,
      errorKind: null,
      reason: null,
      createdAt: now,
      updatedAt: now,
      endedAt: null,
      attempts: null,
      resendOf: null,
      batchItemId: null,
    });
    this.scripts.set(id, { script, since: now });
    this.follower.follow(id);
    return id;
  }

  /** What the provider says now; records it as the call service does, telling the follower of every change. */
  private async look(m: MessageRecord): Promise<LookResult> {
    this.looks.push({ id: m.id, at: clock.now() });
    await Promise.resolve();
    if (this.unreachable) return 'retry';
    return this.report(m.id, this.momentOf(m.id));
  }

  momentOf(id: number): Moment {
    const { script, since } = this.scripts.get(id)!;
    return script((clock.now() - since) / 1000);
  }

  /** News of a call, from a look or from elsewhere (a receipt). */
  report(id: number, s: Moment): LookResult {
    const m = this.messages.get(id)!;
    const final = !['pending', 'calling', 'unknown'].includes(s.state);
    // As the call service: a ringing call is never stored back as waiting; the look says the provider waits to redial.
    const waiting = redialAfter(m, s);
    if (waiting !== null) return { redialAfter: waiting };
    if (m.state === 'calling' && s.state === 'pending') return 'open';
    if (m.state === s.state && m.attempts === s.attempts && m.duration === s.duration) return 'open';
    const updated = { ...m, state: s.state, attempts: s.attempts, duration: s.duration, updatedAt: clock.now(), endedAt: final ? clock.now() : null };
    this.messages.set(id, updated);
    this.follower.observe(updated);
    return final ? 'final' : 'open';
  }

  looksOf(id: number): number[] {
    return this.looks.filter((l) => l.id === id).map((l) => l.at);
  }
}

const settle = async (ms: number) => {
  await clock.advance(ms);
};

// The follower and the simulated provider run on a manual clock: time passes only in settle().
let clock: ManualClock;
beforeEach(() => {
  clock = new ManualClock(Date.parse('2026-11-21T02:00:00Z'));
});

describe('following calls to their end', () => {
  it('once a few calls have ended on the profile, sees an answered call end within a second, in a handful of looks', async () => {
    const sim = new SimulatedProvider();
    const results: { lag: number; looks: number }[] = [];
    for (let i = 0; i < 25; i++) {
      const pickup = 6 + (i % 3) * 0.7; // the ring time varies a little
      const id = sim.place(answers(pickup));
      await settle(90_000);
      const seen = (sim.messages.get(id)!.endedAt! - sim.scripts.get(id)!.since) / 1000;
      results.push({ lag: seen - endOf(pickup), looks: sim.looksOf(id).length });
    }
    const learned = results.slice(10);
    expect(Math.max(...learned.map((r) => r.lag))).toBeLessThanOrEqual(1);
    expect(Math.max(...learned.map((r) => r.looks))).toBeLessThanOrEqual(8);
    // The first call, with nothing learned yet, is still seen ending (later).
    expect(results[0]!.lag).toBeGreaterThanOrEqual(0);
  });

  it('an end reported from elsewhere (a receipt) stops the looks at once, and is told once', async () => {
    const sim = new SimulatedProvider();
    const id = sim.place(answers(7));
    await settle(10_000);
    const before = sim.looksOf(id).length;
    sim.report(id, { state: 'answered', attempts: 1, duration: 3 });
    expect(sim.follower.following()).toEqual([]);
    await settle(120_000);
    expect(sim.looksOf(id).length).toBe(before);
    expect(sim.ended.map((e) => e.id)).toEqual([id]);
  });

  it('news that the callee is listening moves the next look to the end of the text', async () => {
    const sim = new SimulatedProvider();
    const id = sim.place(answers(7));
    await settle(8_000);
    // A receipt at 8 s: answered 1 s ago.
    sim.report(id, { state: 'calling', attempts: 1, duration: 1 });
    const reportedAt = clock.now();
    await settle(90_000);
    const later = sim.looksOf(id).filter((t) => t > reportedAt);
    const since = sim.scripts.get(id)!.since;
    const expectedEnd = since + endOf(7) * 1000;
    // Until just before the end, only the sparse looks that catch a hang-up (one per longest gap);
    // then the end is seen within a second.
    const early = later.filter((t) => t < expectedEnd - 2_000);
    expect(early.length).toBeLessThanOrEqual(Math.ceil((expectedEnd - reportedAt) / 1000 / FOLLOW_PLAN.maxGapS));
    expect(sim.messages.get(id)!.endedAt! - expectedEnd).toBeLessThanOrEqual(1_000);
  });

  it('keeps every profile inside its status-query budget, and still sees every call end', async () => {
    const sim = new SimulatedProvider({ lines: 1 });
    const ids = Array.from({ length: 100 }, (_, i) => sim.place(answers(6 + (i % 5))));
    await settle(300_000);
    expect(ids.every((id) => sim.messages.get(id)!.endedAt !== null)).toBe(true);
    const at = sim.looks.map((l) => l.at).sort((a, b) => a - b);
    const burst = STATUS_QUERIES_PER_LINE_PER_SECOND * STATUS_QUERY_BURST_SECONDS;
    for (const window of [1_000, 10_000]) {
      let j = 0;
      for (let i = 0; i < at.length; i++) {
        while (at[i]! - at[j]! >= window) j++;
        expect(i - j + 1).toBeLessThanOrEqual((window / 1000) * STATUS_QUERIES_PER_LINE_PER_SECOND + burst);
      }
    }
  });

  it('asks less and less often while the provider cannot be reached, and resumes when it can', async () => {
    const sim = new SimulatedProvider();
    sim.unreachable = true;
    const id = sim.place(answers(7));
    await settle(200_000);
    const at = sim.looksOf(id);
    const gaps = at.slice(1).map((t, i) => (t - at[i]!) / 1000);
    expect(gaps.slice(-3).every((g) => g >= FOLLOW_PLAN.maxGapS - 0.001)).toBe(true);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(FOLLOW_PLAN.maxGapS + 0.001);
    sim.unreachable = false;
    await settle(30_000);
    expect(sim.messages.get(id)!.state).toBe('answered');
  });

  it('stops following a call with no final state after the longest time a call is followed', async () => {
    const sim = new SimulatedProvider();
    const id = sim.place(() => ({ state: 'calling', attempts: 1, duration: 0 }));
    await settle(2 * 60 * 60 * 1000 + 60_000);
    expect(sim.follower.following()).toEqual([]);
    expect(sim.messages.get(id)!.endedAt).not.toBeNull();
  });

  it('while the provider waits to redial a call, lends its line until about when the redial comes, and takes it back once it is seen ringing again', async () => {
    const sim = new SimulatedProvider();
    const ringOut = 7;
    const wait = 10;
    const placed: number[] = [];
    for (let i = 0; i < 60; i++) {
      // Calls answered at once teach the ringing; calls answered on a redial teach the wait.
      placed.push(sim.place(i % 2 ? answersOnRedial(ringOut, wait) : answers(6)));
      await settle(120_000);
    }
    const redialled = placed.filter((_, i) => i % 2);
    // Nothing is lent before the profile's calls taught when a redial comes: the first one keeps its line.
    expect(sim.lines.filter((l) => l.id === redialled[0])).toEqual([]);
    // Calls answered at once never free their line.
    expect(sim.lines.filter((l) => !redialled.includes(l.id))).toEqual([]);
    for (const id of redialled.slice(-10)) {
      const since = sim.scripts.get(id)!.since;
      const redialAt = since + (ringOut + wait) * 1000;
      const said = sim.lines.filter((l) => l.id === id);
      // Said free once, after the ring-out; then taken again once seen ringing.
      expect(said).toHaveLength(2);
      const [free, taken] = said as [(typeof said)[number], (typeof said)[number]];
      expect(free.at).toBeGreaterThanOrEqual(since + ringOut * 1000);
      expect(free.until).not.toBeNull();
      expect(taken.until).toBeNull();
      expect(taken.at).toBeGreaterThanOrEqual(redialAt);
      // The line counts again within a second of the redial (at the moment expected, or when seen), and most of the wait was lent.
      const back = Math.min(free.until!, taken.at);
      expect(Math.abs(back - redialAt)).toBeLessThanOrEqual(1_000);
      expect(back - free.at).toBeGreaterThanOrEqual(5_000);
    }
  });

  it('a call that rings out later than usual (it waited for a line at the provider) is still caught early in its wait, and its line lent', async () => {
    const sim = new SimulatedProvider();
    for (let i = 0; i < 30; i++) {
      sim.place(i % 2 ? answersOnRedial(7, 10) : answers(6));
      await settle(120_000);
    }
    // Rings out at 14 s instead of 7 s.
    const id = sim.place(answersOnRedial(14, 10));
    await settle(120_000);
    const since = sim.scripts.get(id)!.since;
    const free = sim.lines.find((l) => l.id === id && l.until !== null);
    expect(free).toBeDefined();
    // Seen within a third of the wait (and the looks' own step), with most of the wait still ahead.
    expect(free!.at - since).toBeLessThanOrEqual((14 + 10 / 3 + 0.5) * 1000);
    expect(sim.messages.get(id)!.state).toBe('answered');
  });

  it('a call that ends while its line is lent is not followed further, and its line is not counted again (its holder releases it)', async () => {
    const sim = new SimulatedProvider();
    for (let i = 0; i < 12; i++) {
      sim.place(i % 2 ? answersOnRedial(7, 10) : answers(6));
      await settle(120_000);
    }
    const id = sim.place(answersOnRedial(7, 10));
    await settle(12_000);
    expect(sim.lines.filter((l) => l.id === id).map((l) => l.until === null)).toEqual([false]);
    // A receipt says it ended (e.g. the provider gave up redialling).
    sim.report(id, { state: 'no_answer', attempts: 1, duration: 0 });
    expect(sim.follower.following()).toEqual([]);
    expect(sim.lines.filter((l) => l.id === id).map((l) => l.until === null)).toEqual([false]);
  });

  it('never lends the line of a call still waiting for its first ring, even when the provider already counts that attempt', async () => {
    const sim = new SimulatedProvider();
    for (let i = 0; i < 12; i++) {
      sim.place(i % 2 ? answersOnRedial(7, 10) : answers(6));
      await settle(120_000);
    }
    // Queued at the provider for 4 s, reported as pending with one attempt, then rings and is answered.
    const queued: Script = (t) => (t < 4 ? { state: 'pending', attempts: 1, duration: 0 } : answers(9)(t));
    const id = sim.place(queued);
    await settle(120_000);
    expect(sim.messages.get(id)!.state).toBe('answered');
    expect(sim.lines.filter((l) => l.id === id)).toEqual([]);
  });
});
