// The driver of following: runs the pure core (core.ts) on the Clock and does the I/O. When to look
// again at a call that is still going on. A desktop has no address the provider could
// push to, so calls are followed by asking (status queries), and a bulk batch's line is given back
// to the next call only once Callout knows the call on it ended: asking at the right moment is what
// keeps the provider's lines busy. So the looks follow each call's predicted end (timings.ts:
// its text, the ring time, the redial pattern and the durations seen on that profile), densely
// around it and sparsely elsewhere (plan.ts), and all the looks of a profile stay inside a
// stated budget per line (budget.ts).
//
// What one look does (query the provider, record what it said, decide) is the call service's: this
// keeps the timers. A call's news may also arrive from elsewhere (a receipt the provider pushed,
// another process): `observe` takes every change of a followed message; an end stops its looks at
// once, and news of a call going on re-plans them. Status queries place no call, so a look that
// failed in transit is simply tried again later (further apart each time).
import { isFinalState, isSettled } from '../../../common/domain/status';
import { textLength } from '../../../common/domain/units';
import type { MessageRecord } from '../../../common/records';
import { systemClock, type Clock, type TimerHandle } from '../../clock';
import { PollBudget } from './budget';
import * as core from './core';
import type { FollowPlan } from './plan';
import { CallClock } from './timings';

/**
 * What one look found: the call ended, is still going on, can no longer be followed, or the provider
 * could not say (try again); or it is going on and the provider waits to redial it after this many
 * attempts (a stored call never moves back from ringing to waiting, so only the look can tell).
 */
export type LookResult = 'final' | 'open' | 'stop' | 'retry' | { redialAfter: number };

/**
 * The status-query budget of a profile, per line (a line carries 20 calls at once): at most 5
 * queries a second on average (one every 4 s per call), and almost a second's worth at once after a
 * quiet time, so never more than 10 in any one second. Counted by the benchmark (`statusPollsPerCall`,
 * `statusPollsPerLineSecond`, `statusPollsPeakPerLineSecond`).
 */
export const STATUS_QUERIES_PER_LINE_PER_SECOND = 5;
export const STATUS_QUERY_BURST_SECONDS = 1;
export { LATE_RING_OUT_STEP_S } from './core';
/** A call not final after this long is no longer followed (the provider redials for minutes, not hours). */
export const DEFAULT_MAX_AGE_MS = 2 * 60 * 60 * 1000;

export interface FollowerOptions {
  /** Reads the message as stored. */
  get: (id: number) => MessageRecord | undefined;
  /** Looks once at this message's call (the call service queries the provider and records it). */
  look: (message: MessageRecord) => Promise<LookResult>;
  /** The call was not final after maxAgeMs: stop following it, saying why. */
  expire: (message: MessageRecord) => void;
  /** Told when a followed call reached its final state (however the news came). */
  onFinal?: (id: number) => void;
  /**
   * Told when a followed call holds no line at the provider: it waits to be redialled until about
   * `untilMs` (epoch ms); null when it is seen on a line again (or is no longer followed). The
   * governor lends its line meanwhile.
   */
  onLineFree?: (id: number, untilMs: number | null) => void;
  /** The learned timings (shared with whoever wants them); default a fresh one. */
  clock?: CallClock;
  /** Lines of a profile (its status-query budget); default 1. */
  linesOf?: (profile: string) => number;
  /** Status queries per second per line; default STATUS_QUERIES_PER_LINE_PER_SECOND. */
  budgetPerLine?: number;
  plan?: FollowPlan;
  maxAgeMs?: number;
  /** The time and the timers of the looks (not `clock`: that one is the learned call timings). Default systemClock. */
  time?: Clock;
  log?: (error: unknown) => void;
}

interface Entry {
  id: number;
  profile: string;
  /** What is known of the call (the pure core's state). */
  call: core.CallFollow;
  timer: TimerHandle | null;
  /** The call's line was said free (onLineFree) while it waits to be redialled. */
  lineFree: boolean;
  /** The next look has its moment in the budget already. */
  booked: boolean;
  looking: boolean;
}

export class Follower {
  private readonly entries = new Map<number, Entry>();
  private readonly budgets = new Map<string, PollBudget>();
  private readonly clock: CallClock;
  private readonly time: Clock;
  private stopped = false;

  constructor(private readonly o: FollowerOptions) {
    this.clock = o.clock ?? new CallClock();
    this.time = o.time ?? systemClock;
  }

  /** Starts following a message (idempotent). `since`: when its send was accepted (default now; a call resumed after a restart: its creation). */
  follow(id: number, since?: number): void {
    if (this.stopped || this.entries.has(id)) return;
    const m = this.o.get(id);
    if (!m) return;
    const entry: Entry = {
      id,
      profile: m.profile,
      call: core.startFollowing(textLength(m.content), since ?? this.time.now()),
      timer: null,
      lineFree: false,
      booked: false,
      looking: false,
    };
    this.entries.set(id, entry);
    this.note(entry, core.sightingOf(m, core.secondsAt(entry.call, this.time.now())));
    this.plan(id, entry);
  }

  /**
   * News of a followed message, from anywhere (a look, a receipt, another caller): an end stops
   * following it at once (no more looks); a change while it goes on re-plans the next look.
   */
  observe(m: MessageRecord): void {
    const entry = this.entries.get(m.id);
    if (!entry) return;
    // News brought by a look in progress: the provider answered between the look's start and now.
    const at = core.newsAt(entry.call, this.time.now(), entry.looking);
    if (isSettled(m)) {
      this.drop(m.id, entry);
      if (m.endedAt !== null && isFinalState(m.state)) {
        this.clock.learn(entry.profile, core.endedCall(entry.call, m, at, this.time.now()));
        this.o.onFinal?.(m.id);
      }
      return;
    }
    this.note(entry, core.sightingOf(m, at));
    if (!entry.looking && !entry.booked) this.plan(m.id, entry);
  }

  following(): number[] {
    return [...this.entries.keys()];
  }

  /** Stops every look (the service closes); lines still lent come back by the governor's own timers. */
  stop(): void {
    this.stopped = true;
    for (const { timer } of this.entries.values()) timer?.cancel();
    this.entries.clear();
  }

  // ------------------------------------------------------------ internals

  /** What the call's profile taught so far. */
  private known(profile: string): core.Known {
    return { timings: this.clock.timings(profile), redialWait: this.clock.redialWait(profile) };
  }

  private drop(id: number, entry: Entry): void {
    entry.timer?.cancel();
    entry.timer = null;
    this.entries.delete(id);
    // Whoever holds its line releases it now (its end is known, or following stopped); a line still
    // lent then is simply not counted again.
    entry.lineFree = false;
  }

  /** Says the call's line is taken again, if it was said free. */
  private lineTaken(entry: Entry): void {
    if (!entry.lineFree) return;
    entry.lineFree = false;
    this.o.onLineFree?.(entry.id, null);
  }

  /** Takes a sighting of the call going on; says its line free (or taken again) when that changed. */
  private note(entry: Entry, s: core.Sighting): void {
    const noted = core.note(entry.call, s, this.known(entry.profile));
    if (!noted) return;
    if (noted.redialSeen) this.clock.learnRedialWait(entry.profile, noted.redialSeen.after, noted.redialSeen.by);
    if (!noted.waiting) {
      this.lineTaken(entry);
      return;
    }
    // Waiting to be redialled: no line until the redial is expected (or seen, if sooner: see tick).
    if (entry.lineFree || !this.o.onLineFree) return;
    const until = core.lineFreeUntil(entry.call, this.known(entry.profile), this.time.now());
    if (until !== null) {
      entry.lineFree = true;
      this.o.onLineFree(entry.id, until);
    }
  }

  private budget(profile: string): PollBudget {
    let b = this.budgets.get(profile);
    if (!b) {
      const perLine = this.o.budgetPerLine ?? STATUS_QUERIES_PER_LINE_PER_SECOND;
      const lines = () => Math.max(1, this.o.linesOf?.(profile) ?? 1);
      // A burst one short of a second's worth: a look that runs a moment after its booked time (a busy
      // event loop) still leaves every second within rate + burst.
      b = new PollBudget(() => 1000 / (perLine * lines()), Math.max(1, Math.round(perLine * STATUS_QUERY_BURST_SECONDS * lines()) - 1));
      this.budgets.set(profile, b);
    }
    return b;
  }

  /** Sets the timer for the entry's next look. */
  private plan(id: number, entry: Entry): void {
    entry.timer?.cancel();
    const at = core.nextLook(entry.call, this.known(entry.profile), this.time.now(), { plan: this.o.plan, lendsLines: this.o.onLineFree !== undefined });
    this.arm(id, entry, at);
  }

  private arm(id: number, entry: Entry, at: number): void {
    entry.timer = this.time.wakeAt(at, () => void this.tick(id, entry)).unref();
  }

  private async tick(id: number, entry: Entry): Promise<void> {
    entry.timer = null;
    if (this.stopped || this.entries.get(id) !== entry) return;
    const message = this.o.get(id);
    if (!message || isSettled(message) || !message.smsid) {
      if (message) this.observe(message);
      this.drop(id, entry);
      return;
    }
    if (core.isOverdue(entry.call, this.time.now(), this.o.maxAgeMs ?? DEFAULT_MAX_AGE_MS)) {
      this.drop(id, entry);
      this.o.expire(message);
      return;
    }
    if (!entry.booked) {
      // The profile's status-query budget: wait for this look's moment.
      const now = this.time.now();
      const at = this.budget(entry.profile).book(now);
      if (at > now) {
        entry.booked = true;
        this.arm(id, entry, at);
        return;
      }
    }
    // The ceiling on queries actually started (rate + burst in any second), whatever the timers' lateness.
    const budget = this.budget(entry.profile);
    const perLine = this.o.budgetPerLine ?? STATUS_QUERIES_PER_LINE_PER_SECOND;
    const lines = Math.max(1, this.o.linesOf?.(entry.profile) ?? 1);
    const hold = budget.hold(this.time.now(), Math.round(perLine * (1 + STATUS_QUERY_BURST_SECONDS) * lines), 1000);
    if (hold > 0) {
      entry.booked = true;
      this.arm(id, entry, this.time.now() + hold);
      return;
    }
    budget.started(this.time.now());
    entry.booked = false;
    entry.looking = true;
    const startedAt = core.lookStarted(entry.call, this.time.now());
    let result: LookResult = 'retry';
    try {
      result = await this.o.look(message);
    } catch (error) {
      this.o.log?.(error);
    }
    entry.looking = false;
    if (this.stopped || this.entries.get(id) !== entry) return; // ended meanwhile (observe)
    if (result === 'final' || result === 'stop') {
      const m = this.o.get(id);
      if (m && isSettled(m)) this.observe(m);
      this.drop(id, entry);
      return;
    }
    if (result === 'retry') core.lookFailed(entry.call);
    else {
      // The provider no longer says it waits to redial: the call is on a line again (even while the stored call says nothing new).
      if (typeof result !== 'object') this.lineTaken(entry);
      const at = core.lookFoundOpen(entry.call, startedAt, this.time.now());
      const m = this.o.get(id);
      if (m) this.note(entry, core.sightingOf(m, at, typeof result === 'object' ? result.redialAfter : undefined));
    }
    this.plan(id, entry);
  }
}
