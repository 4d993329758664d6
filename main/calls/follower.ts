// When to look again at a call that is still going on. A desktop has no address the provider could
// push to, so calls are followed by asking (status queries), and a bulk batch's line is given back
// to the next call only once Callout knows the call on it ended: asking at the right moment is what
// keeps the provider's lines busy. So the looks follow each call's predicted end (call-clock.ts:
// its text, the ring time, the redial pattern and the durations seen on that profile), densely
// around it and sparsely elsewhere (follow-plan.ts), and all the looks of a profile stay inside a
// stated budget per line (poll-budget.ts).
//
// What one look does (query the provider, record what it said, decide) is the call service's: this
// keeps the timers. A call's news may also arrive from elsewhere (a receipt the provider pushed,
// another process): `observe` takes every change of a followed message; an end stops its looks at
// once, and news of a call going on re-plans them. Status queries place no call, so a look that
// failed in transit is simply tried again later (further apart each time).
import { isFinalState, isSettled } from '../../common/domain/status';
import { textLength } from '../../common/domain/units';
import type { MessageRecord } from '../../common/records';
import { systemClock, type Clock, type TimerHandle } from '../clock';
import { CallClock, attemptOf, isTalking, isWaitingToRedial, type RingOut, type Sighting, type Timing } from './call-clock';
import { FOLLOW_PLAN, nextLookAt, type FollowPlan } from './follow-plan';
import { PollBudget } from './poll-budget';

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
/** Looks for a ring-out later than expected are at least this far apart (seconds on the provider's clock). */
export const LATE_RING_OUT_STEP_S = 1;
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
   * `untilMs` (real ms); null when it is seen on a line again (or is no longer followed). The
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
  /** Multiplies every wait: the provider's seconds are this many real seconds (tests, and the sandbox's time scale). */
  delayScale?: number;
  maxAgeMs?: number;
  /** The time and the timers of the looks (not `clock`: that one is the learned call timings). Default systemClock. */
  time?: Clock;
  log?: (error: unknown) => void;
}

interface Entry {
  id: number;
  profile: string;
  length: number;
  /** Real ms the send was accepted (the call's clock starts there). */
  since: number;
  timer: TimerHandle | null;
  /** Seconds since acceptance of the last look that went out, and of the last one that found the call going on. */
  lastLook: number | null;
  lastOpen: number;
  seen: Sighting | null;
  talking: Sighting | null;
  ringOuts: { attempt: number; after: number; by: number }[];
  /** Looks in a row that could not reach the provider. */
  failures: number;
  /** The call's line was said free (onLineFree) while it waits to be redialled. */
  lineFree: boolean;
  /** The latest look that found the call waiting to be redialled (seconds since acceptance). */
  waitingAt: number | null;
  /** The next look has its moment in the budget already. */
  booked: boolean;
  looking: boolean;
}

export class Follower {
  private readonly entries = new Map<number, Entry>();
  private readonly budgets = new Map<string, PollBudget>();
  private readonly clock: CallClock;
  private readonly scale: number;
  private readonly time: Clock;
  private stopped = false;

  constructor(private readonly o: FollowerOptions) {
    this.clock = o.clock ?? new CallClock();
    this.scale = o.delayScale ?? 1;
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
      length: textLength(m.content),
      since: since ?? this.time.now(),
      timer: null,
      lastLook: null,
      lastOpen: 0,
      seen: null,
      talking: null,
      ringOuts: [],
      failures: 0,
      lineFree: false,
      waitingAt: null,
      booked: false,
      looking: false,
    };
    this.entries.set(id, entry);
    this.note(entry, m, this.seconds(entry));
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
    const at = entry.looking && entry.lastLook !== null ? (entry.lastLook + this.seconds(entry)) / 2 : this.seconds(entry);
    if (isSettled(m)) {
      this.drop(m.id, entry);
      if (m.endedAt !== null && isFinalState(m.state)) {
        this.clock.learn(entry.profile, {
          length: entry.length,
          state: m.state,
          attempts: m.attempts,
          duration: m.duration,
          after: Math.min(entry.lastOpen, at),
          by: this.seconds(entry),
          talking: entry.talking,
          ringOuts: entry.ringOuts,
        });
        this.o.onFinal?.(m.id);
      }
      return;
    }
    this.note(entry, m, at);
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

  /** Seconds on the provider's clock since the entry's send was accepted. */
  private seconds(entry: Entry): number {
    return (this.time.now() - entry.since) / (1000 * this.scale);
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

  /** Takes what the stored message (or, `redialAfter`, the look) says about the call going on. */
  private note(entry: Entry, m: MessageRecord, at: number, redialAfter?: number): void {
    const s: Sighting = redialAfter === undefined ? { at, state: m.state, attempts: m.attempts, duration: m.duration } : { at, state: 'pending', attempts: redialAfter, duration: 0 };
    const prev = entry.seen;
    if (isWaitingToRedial(s)) entry.waitingAt = Math.max(entry.waitingAt ?? at, at);
    if (prev && prev.state === s.state && prev.attempts === s.attempts && prev.duration === s.duration) return;
    // Seen waiting to be redialled: the stored call, which never moves back to waiting, says nothing new until the redial (a further attempt), the callee listening or the end.
    if (isWaitingToRedial(prev) && !isWaitingToRedial(s) && !isFinalState(s.state) && !isTalking(s) && (s.attempts ?? 0) <= prev!.attempts!) return;
    // An attempt rang out between the previous sighting and this one: the provider waits to redial, or has redialled.
    if (isWaitingToRedial(s) && !isWaitingToRedial(prev)) entry.ringOuts.push({ attempt: s.attempts!, after: prev?.at ?? 0, by: at });
    else if (prev && !isWaitingToRedial(prev) && attemptOf(s) > attemptOf(prev)) entry.ringOuts.push({ attempt: attemptOf(prev), after: prev.at, by: at });
    if (isTalking(s) && !isTalking(entry.talking)) entry.talking = s;
    // The redial was seen (ringing again): it took its line between the last look that found the call waiting and this one.
    const ringOut = this.lastRingOut(entry);
    if (isWaitingToRedial(prev) && !isWaitingToRedial(s) && !isFinalState(s.state) && ringOut && entry.waitingAt !== null) {
      this.clock.learnRedialWait(entry.profile, entry.waitingAt - ringOut.at, at - ringOut.at);
    }
    entry.seen = s;
    if (!isWaitingToRedial(s)) {
      entry.waitingAt = null;
      this.lineTaken(entry);
      return;
    }
    // Waiting to be redialled: no line until the redial is expected (or seen, if sooner: see tick).
    const redial = this.redialMoment(entry);
    if (!entry.lineFree && redial && this.o.onLineFree) {
      const untilMs = entry.since + redial.at * 1000 * this.scale;
      if (untilMs > this.time.now()) {
        entry.lineFree = true;
        this.o.onLineFree(entry.id, untilMs);
      }
    }
  }

  /** When a call waiting to be redialled likely takes a line again (seconds since acceptance), once the profile's redials taught it. */
  private redialMoment(entry: Entry): Timing | null {
    if (!isWaitingToRedial(entry.seen)) return null;
    const wait = this.clock.redialWait(entry.profile);
    const ringOut = this.lastRingOut(entry);
    return wait && ringOut ? { at: ringOut.at + wait.at, spread: wait.spread } : null;
  }

  private budget(profile: string): PollBudget {
    let b = this.budgets.get(profile);
    if (!b) {
      const perLine = this.o.budgetPerLine ?? STATUS_QUERIES_PER_LINE_PER_SECOND;
      const lines = () => Math.max(1, this.o.linesOf?.(profile) ?? 1);
      // A burst one short of a second's worth: a look that runs a moment after its booked time (a busy
      // event loop) still leaves every second within rate + burst.
      b = new PollBudget(() => (1000 * this.scale) / (perLine * lines()), Math.max(1, Math.round(perLine * STATUS_QUERY_BURST_SECONDS * lines()) - 1));
      this.budgets.set(profile, b);
    }
    return b;
  }

  /** Sets the timer for the entry's next look. */
  private plan(id: number, entry: Entry): void {
    entry.timer?.cancel();
    const plan = this.o.plan ?? FOLLOW_PLAN;
    const now = this.seconds(entry);
    const ends = this.clock.expectedEnds(entry.profile, entry.length, entry.seen, this.lastRingOut(entry));
    // Waiting to be redialled: its line was lent until the redial, so the redial is looked for like an end.
    const redial = this.redialMoment(entry);
    if (redial) ends.push({ kind: 'redial', at: redial.at, spread: redial.spread, likely: true });
    let at = nextLookAt(now, ends, entry.lastLook, plan);
    // Still ringing (neither listening nor waiting) up to one redial wait after its ring-out was
    // expected: a ring-out later than expected (the call waited for a line at the provider) is caught
    // while most of the wait it starts is ahead, to lend its line.
    const wait = this.o.onLineFree ? this.clock.redialWait(entry.profile) : null;
    const ringOut = ends.find((e) => e.kind === 'ring-out');
    if (wait && ringOut && !isTalking(entry.seen) && !isWaitingToRedial(entry.seen) && now <= ringOut.at + 2 * ringOut.spread + wait.at) {
      const from = ringOut.at - ringOut.spread;
      at = Math.min(at, Math.max(now, from, (entry.lastLook ?? now) + Math.max(LATE_RING_OUT_STEP_S, wait.at / 3)));
    }
    // The provider could not be reached: further apart each time (but never beyond the longest gap).
    if (entry.failures > 0) at = Math.max(at, now + Math.min(plan.maxGapS, plan.minStepS * 2 ** entry.failures));
    this.arm(id, entry, (at - now) * 1000 * this.scale);
  }

  /** The latest ring-out seen: when the model expected it, moved into the interval it was seen in. */
  private lastRingOut(entry: Entry): RingOut | null {
    let previous: RingOut | null = null;
    for (const r of entry.ringOuts) {
      const linked: RingOut | null = previous && previous.attempt === r.attempt - 1 ? previous : null;
      previous = { attempt: r.attempt, at: this.clock.ringOutAt(entry.profile, r.attempt, r.after, r.by, linked) };
    }
    return previous;
  }

  private arm(id: number, entry: Entry, delayMs: number): void {
    entry.timer = this.time.setTimeout(() => void this.tick(id, entry), Math.max(0, delayMs)).unref();
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
    if (this.time.now() - entry.since > (this.o.maxAgeMs ?? DEFAULT_MAX_AGE_MS)) {
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
        this.arm(id, entry, at - now);
        return;
      }
    }
    // The ceiling on queries actually started (rate + burst in any second), whatever the timers' lateness.
    const budget = this.budget(entry.profile);
    const perLine = this.o.budgetPerLine ?? STATUS_QUERIES_PER_LINE_PER_SECOND;
    const lines = Math.max(1, this.o.linesOf?.(entry.profile) ?? 1);
    const hold = budget.hold(this.time.now(), Math.round(perLine * (1 + STATUS_QUERY_BURST_SECONDS) * lines), 1000 * this.scale);
    if (hold > 0) {
      entry.booked = true;
      this.arm(id, entry, hold);
      return;
    }
    budget.started(this.time.now());
    entry.booked = false;
    entry.looking = true;
    const startedAt = this.seconds(entry);
    entry.lastLook = startedAt;
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
    if (result === 'retry') entry.failures++;
    else {
      // The provider no longer says it waits to redial: the call is on a line again (even while the stored call says nothing new).
      if (typeof result !== 'object') this.lineTaken(entry);
      entry.failures = 0;
      // The provider said "going on" at some moment after the look left.
      entry.lastOpen = startedAt;
      const m = this.o.get(id);
      if (m) this.note(entry, m, (startedAt + this.seconds(entry)) / 2, typeof result === 'object' ? result.redialAfter : undefined);
    }
    this.plan(id, entry);
  }
}
