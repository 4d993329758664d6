// When will a call end? A line of the provider is given back to the next call only once Callout
// knows the call on it ended, so Callout asks (a status query) at the moments the end is likely,
// not on a blind timer. This is the model behind those moments, learned per profile:
//
//   accepted ── pickup ──► the text is read (70 characters ≈ 20 s) ──► end (answered)
//      ├── quick end: busy, powered off, unreachable, vacant number, declined
//      └── ring-out ── the provider waits, then redials ──► ring-out … ──► end (no answer)
//
// Priors come from the spec (the speech rate) and common telephony, with wide spreads; every call
// that ends on a profile refines them (and the durations already in the history seed the speech
// rate), so the predictions and their spreads follow the provider actually behind the profile.
// Times are seconds on the provider's clock, counted from the moment the send was accepted.
import { isFinalState, type CallState } from '../../../common/domain/status';
import { CHARS_PER_UNIT, SPEECH_SECONDS_PER_UNIT } from '../../../common/domain/units';

/** A learned time and how far off it usually is (its mean absolute deviation), in seconds. */
export interface Timing {
  at: number;
  spread: number;
}

/** What Callout expects of the calls of one profile. */
export interface CallTimings {
  /** Seconds of speech per character of the text. */
  secondsPerChar: number;
  /** The callee picks up on the first attempt (dispatch and ringing), since acceptance. */
  pickup: Timing;
  /** A call that fails at once on its first attempt ends (busy, powered off, unreachable, vacant, declined), since acceptance. */
  quickEnd: Timing;
  /** The first attempt rings out when nobody answers, since acceptance. */
  ringOut: Timing;
  /** From one ring-out to the next (the provider's wait before it redials, and the ringing). */
  redialGap: Timing;
  /** How far off the end of an answered call predicted before it was answered usually is. */
  answeredSpread: number;
  /** How far off the end predicted while the callee listens (from the running duration) usually is. */
  talkSpread: number;
  /** Share of calls that end quickly on their first attempt. */
  quickShare: number;
  /** Share of attempts that ring out unanswered. */
  ringOutShare: number;
}

/** Before any call ended on a profile: the spec's speech rate and common telephony, held loosely. */
export const PRIOR_TIMINGS: Readonly<CallTimings> = Object.freeze({
  secondsPerChar: SPEECH_SECONDS_PER_UNIT / CHARS_PER_UNIT,
  pickup: { at: 10, spread: 5 },
  quickEnd: { at: 5, spread: 3 },
  ringOut: { at: 30, spread: 15 },
  redialGap: { at: 45, spread: 20 },
  answeredSpread: 6,
  talkSpread: 1.5,
  quickShare: 0.2,
  ringOutShare: 0.3,
});

/** Ends less likely than this get one look (once they would have happened); likelier ones are watched closely. */
export const LIKELY_SHARE = 0.15;
/** Spreads never shrink below this (whole-second durations, the provider's own timers). */
export const MIN_SPREAD_S = 0.5;

/** What one status query (or a receipt) said, and when. */
export interface Sighting {
  /** Seconds since acceptance. */
  at: number;
  state: CallState;
  attempts: number | null;
  /** Seconds; a running duration while the callee listens, where the provider reports one. */
  duration: number | null;
}

/** A ring-out seen between two looks: which attempt, and when it happened (best estimate). */
export interface RingOut {
  attempt: number;
  at: number;
}

/** Where a call may end; or, 'redial', the moment a call waiting to be redialled takes a line again (worth a look, not an end). */
export type EndKind = 'quick' | 'ring-out' | 'answered' | 'redial';

/** A moment the call may end at, how sure the model is (spread, in seconds) and whether it is likely. */
export interface ExpectedEnd {
  kind: EndKind;
  at: number;
  spread: number;
  likely: boolean;
}

/** The callee is listening: still going on, with a running duration. */
export function isTalking(s: Sighting | null): boolean {
  return s !== null && !isFinalState(s.state) && (s.duration ?? 0) > 0;
}

/** The provider is waiting to redial: back to pending after at least one attempt. */
export function isWaitingToRedial(s: Sighting | null): boolean {
  return s !== null && s.state === 'pending' && (s.attempts ?? 0) >= 1;
}

/**
 * A status reply says the provider waits to redial the stored call: it is waiting again after an
 * attempt that rang (the stored call, which never moves back, is ringing). Not a call still queued
 * before its first ring (a provider may count that attempt already), nor a reply older than what is
 * stored (fewer attempts). The attempts so far, or null.
 */
export function redialAfter(stored: { state: CallState; attempts: number | null }, reply: { state: CallState; attempts: number | null }): number | null {
  const attempts = reply.attempts ?? 0;
  return reply.state === 'pending' && attempts >= 1 && stored.state === 'calling' && attempts >= (stored.attempts ?? 1) ? attempts : null;
}

/** The attempt under way (or, while the provider waits to redial, the next one). */
export function attemptOf(s: Sighting | null): number {
  if (isWaitingToRedial(s)) return s!.attempts! + 1;
  return Math.max(1, s?.attempts ?? 1);
}

/**
 * When something seen between two looks happened: when the model expected it, if that lies between
 * looks far apart (and not at the second one); otherwise (looks close together, the model was wrong,
 * or has nothing) the middle of the two. Looks close together are placed around the expected moment, so the expected moment
 * would only confirm itself: a call that rang out before the look at its expected moment would
 * teach nothing, and the model would never learn that it comes earlier.
 */
export const NARROW_S = 2;
export function within(after: number, by: number, expected?: number): number {
  // An expected moment at the look that saw it is where the look was placed, not news.
  if (by - after > NARROW_S && expected !== undefined && expected >= after && expected < by - MIN_SPREAD_S) return expected;
  return (after + by) / 2;
}

const spreadOf = (...spreads: number[]) => Math.max(MIN_SPREAD_S, Math.hypot(...spreads));

/** When the given attempt rings out: after the previous ring-out seen, or counted from acceptance. */
export function ringOutOf(t: CallTimings, attempt: number, previous: RingOut | null): Timing {
  if (attempt <= 1) return t.ringOut;
  if (previous && previous.attempt === attempt - 1) return { at: previous.at + t.redialGap.at, spread: t.redialGap.spread };
  return { at: t.ringOut.at + (attempt - 1) * t.redialGap.at, spread: Math.hypot(t.ringOut.spread, (attempt - 1) * t.redialGap.spread) };
}

/**
 * Where the call may end, earliest first, given its text's length, the latest sighting and the
 * latest ring-out seen. While the callee listens, the end is the rest of the text away; before
 * that it is the pickup plus the text (likely), a ring-out, or, on the first attempt, a quick
 * failure. A redial's moments are counted from the ring-out before it.
 */
export function expectedEnds(t: CallTimings, length: number, seen: Sighting | null, previous: RingOut | null = null): ExpectedEnd[] {
  const talk = t.secondsPerChar * Math.max(0, length);
  if (seen && isTalking(seen)) {
    // The duration is counted in whole seconds: the callee picked up between d+1 and d seconds before.
    const end = seen.at - (seen.duration ?? 0) - 0.5 + talk;
    return [{ kind: 'answered', at: Math.max(seen.at + MIN_SPREAD_S, end), spread: spreadOf(t.talkSpread), likely: true }];
  }
  const attempt = attemptOf(seen);
  const ringOut = ringOutOf(t, attempt, previous);
  const ends: ExpectedEnd[] = [];
  if (attempt === 1) ends.push({ kind: 'quick', at: t.quickEnd.at, spread: spreadOf(t.quickEnd.spread), likely: t.quickShare >= LIKELY_SHARE });
  ends.push({ kind: 'ring-out', at: ringOut.at, spread: spreadOf(ringOut.spread), likely: t.ringOutShare >= LIKELY_SHARE });
  // The callee of a redial picks up as long before its ring-out would be as on a first attempt.
  const answers = attempt === 1 ? t.pickup.at : ringOut.at - t.ringOut.at + t.pickup.at;
  ends.push({ kind: 'answered', at: answers + talk, spread: spreadOf(t.answeredSpread, attempt === 1 ? 0 : ringOut.spread), likely: true });
  return ends.sort((a, b) => a.at - b.at);
}

/** What the follower saw of a call that ended: the facts the model learns from. */
export interface EndedCall {
  length: number;
  state: CallState;
  attempts: number | null;
  duration: number | null;
  /** The end happened after `after` (last seen going on) and by `by` (seen ended), seconds since acceptance. */
  after: number;
  by: number;
  /** The first sighting while the callee listened, if any. */
  talking: Sighting | null;
  /** Ring-outs seen along the way: which attempt, and between which two looks. */
  ringOuts: readonly { attempt: number; after: number; by: number }[];
}

/** A running mean (and mean absolute deviation) that starts from a prior and then follows recent calls. */
class Estimate {
  /** Samples taken (0: still the prior). */
  n = 0;
  constructor(
    public value: number,
    public dev: number,
    private readonly min: number,
    private readonly max: number,
  ) {}

  /**
   * The first sample replaces the prior (one real call says more than a guess); later ones move the
   * mean by at least a tenth. `weight` < 1: a sample known only roughly (seen between two looks far apart).
   */
  update(sample: number, weight = 1): void {
    if (!Number.isFinite(sample) || weight <= 0) return;
    const alpha = Math.max(0.1, 1 / (this.n + 1)) * Math.min(1, weight);
    // How far the prior was off says nothing about how much this provider's calls vary.
    if (this.n > 0) this.dev += alpha * (Math.abs(sample - this.value) - this.dev);
    this.value = Math.min(this.max, Math.max(this.min, this.value + alpha * (sample - this.value)));
    this.n++;
  }

  get timing(): Timing {
    return { at: this.value, spread: this.dev };
  }
}

/** A sample taken from an interval counts fully when the interval is narrow, less when it is wide. */
function weightOf(after: number, by: number): number {
  const width = by - after;
  return width <= NARROW_S ? 1 : NARROW_S / width;
}

/** One profile's learned timings. */
class ProfileClock {
  private readonly secondsPerChar = new Estimate(PRIOR_TIMINGS.secondsPerChar, 0, 0.02, 3);
  private readonly pickup = new Estimate(PRIOR_TIMINGS.pickup.at, PRIOR_TIMINGS.pickup.spread, 0, 600);
  private readonly quickEnd = new Estimate(PRIOR_TIMINGS.quickEnd.at, PRIOR_TIMINGS.quickEnd.spread, 0, 600);
  private readonly ringOut = new Estimate(PRIOR_TIMINGS.ringOut.at, PRIOR_TIMINGS.ringOut.spread, 0, 600);
  private readonly redialGap = new Estimate(PRIOR_TIMINGS.redialGap.at, PRIOR_TIMINGS.redialGap.spread, 0, 3600);
  /** From a ring-out to the redial taking a line (learned only from redials seen: the first replaces this placeholder). */
  private readonly redialWaitEstimate = new Estimate(0, 0, 0, 3600);
  /** Errors of the end predicted for answered calls: their running mean is the spread. */
  private readonly answeredError = new Estimate(PRIOR_TIMINGS.answeredSpread, 0, 0, 600);
  private readonly talkError = new Estimate(PRIOR_TIMINGS.talkSpread, 0, 0, 600);
  private readonly quickShare = new Estimate(PRIOR_TIMINGS.quickShare, 0, 0, 1);
  private readonly ringOutShare = new Estimate(PRIOR_TIMINGS.ringOutShare, 0, 0, 1);

  timings(): CallTimings {
    return {
      secondsPerChar: this.secondsPerChar.value,
      pickup: this.pickup.timing,
      quickEnd: this.quickEnd.timing,
      ringOut: this.ringOut.timing,
      redialGap: this.redialGap.timing,
      answeredSpread: this.answeredError.value,
      talkSpread: this.talkError.value,
      quickShare: this.quickShare.value,
      ringOutShare: this.ringOutShare.value,
    };
  }

  /** See CallClock.redialWait. */
  redialWait(): Timing | null {
    return this.redialWaitEstimate.n === 0 ? null : { at: this.redialWaitEstimate.value, spread: Math.max(MIN_SPREAD_S, this.redialWaitEstimate.dev) };
  }

  learnRedialWait(sample: number, weight: number): void {
    // The first redial seen replaces the placeholder whatever its weight: no guess is ever used.
    this.redialWaitEstimate.update(sample, this.redialWaitEstimate.n === 0 ? 1 : weight);
  }

  /** The redial wait as learned, to be kept across restarts (null before a redial was seen). */
  learnedRedialWait(): LearnedRedialWait | null {
    const e = this.redialWaitEstimate;
    return e.n === 0 ? null : { at: e.value, spread: e.dev, samples: e.n };
  }

  /** A redial wait learned before a restart; ignored unless it is a sane one. */
  restoreRedialWait(kept: unknown): void {
    if (typeof kept !== 'object' || kept === null) return;
    const { at, spread, samples } = kept as Record<string, unknown>;
    const ok = (v: unknown, max: number): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= max;
    if (!ok(at, 3600) || !ok(spread, 3600) || !ok(samples, Number.MAX_SAFE_INTEGER) || !Number.isInteger(samples) || samples < 1) return;
    const e = this.redialWaitEstimate;
    e.value = at;
    e.dev = spread;
    // A kept wait counts as a few samples at most: a provider that changed its pause is followed soon.
    e.n = Math.min(samples, 5);
  }

  /** A duration already in the history: how fast this provider reads. */
  seed(length: number, duration: number): void {
    if (length > 0 && duration > 0) this.secondsPerChar.update(duration / length);
  }

  learn(c: EndedCall): void {
    const before = this.timings();
    const attempts = Math.max(1, c.attempts ?? 1);
    const w = weightOf(c.after, c.by);

    // Ring-outs seen on the way, placed where the model expected them within the looks around them.
    const ringOuts = new Map<number, { at: number; w: number }>();
    for (const r of [...c.ringOuts].sort((a, b) => a.attempt - b.attempt)) {
      const prev = ringOuts.get(r.attempt - 1);
      const expected = ringOutOf(before, r.attempt, prev ? { attempt: r.attempt - 1, at: prev.at } : null).at;
      const at = within(r.after, r.by, expected);
      const weight = weightOf(r.after, r.by);
      ringOuts.set(r.attempt, { at, w: weight });
      if (r.attempt === 1) this.ringOut.update(at, weight);
      else if (prev) this.redialGap.update(at - prev.at, Math.min(weight, prev.w));
    }
    const previous = ringOuts.get(attempts - 1);
    const previousRingOut = previous ? { attempt: attempts - 1, at: previous.at } : null;
    /** A moment of the last attempt, as its ring-out time: teaches the gap from the ring-out before it. */
    const learnLastGap = (ringsOutAt: number, weight: number) => {
      if (previous) this.redialGap.update(ringsOutAt - previous.at, Math.min(weight, previous.w));
      else this.redialGap.update((ringsOutAt - before.ringOut.at) / (attempts - 1), weight);
    };

    if (c.state === 'answered') {
      for (let i = 1; i < attempts; i++) this.ringOutShare.update(1);
      this.ringOutShare.update(0);
      this.quickShare.update(0);
      const duration = c.duration ?? 0;
      if (duration > 0 && c.length > 0) this.secondsPerChar.update(duration / c.length);
      const talk = before.secondsPerChar * c.length;
      const predicted = expectedEnds(before, c.length, { at: c.after, state: 'calling', attempts, duration: null }, previousRingOut).find(
        (x) => x.kind === 'answered',
      )!.at;
      const end = within(c.after, c.by, c.talking ? c.talking.at - (c.talking.duration ?? 0) - 0.5 + talk : predicted);
      this.answeredError.update(Math.abs(end - predicted), w);
      if (c.talking) this.talkError.update(Math.abs(end - (c.talking.at - (c.talking.duration ?? 0) - 0.5 + talk)), w);
      // When the callee picked up: from a sighting while they listened (±0.5 s), else from the end and the duration.
      const answeredAt = c.talking ? c.talking.at - (c.talking.duration ?? 0) - 0.5 : end - duration;
      const answerWeight = c.talking ? 1 : w;
      if (attempts === 1) this.pickup.update(answeredAt, answerWeight);
      else learnLastGap(answeredAt + before.ringOut.at - before.pickup.at, answerWeight);
      return;
    }
    if (c.state === 'no_answer') {
      for (let i = 0; i < attempts; i++) this.ringOutShare.update(1);
      this.quickShare.update(0);
      // The call ended with its last attempt's ring-out (unless a sighting already placed it).
      if (!ringOuts.has(attempts)) {
        const end = within(c.after, c.by, ringOutOf(before, attempts, previousRingOut).at);
        if (attempts === 1) this.ringOut.update(end, w);
        else learnLastGap(end, w);
      }
      return;
    }
    if (attempts === 1) {
      // Busy, powered off, unreachable, vacant, declined, failed: known from the network quickly.
      this.quickShare.update(1);
      this.quickEnd.update(within(c.after, c.by, before.quickEnd.at), w);
    }
  }
}

/** The provider's wait before a redial as learned on a profile (seconds), and from how many redials. */
export interface LearnedRedialWait {
  at: number;
  spread: number;
  samples: number;
}

export interface CallClockOptions {
  /** Durations already seen on a profile (its recent answered calls, newest first): text length and seconds. Read once per profile. */
  history?: (profile: string) => readonly { length: number; duration: number }[];
  /**
   * Where the learned redial wait is kept across restarts (so lines are lent from the first redial
   * wait after a restart): read once per profile, written as it is learned. Either may throw.
   */
  redialWaits?: { load(profile: string): unknown; save(profile: string, wait: LearnedRedialWait): void };
}

/** The learned timings of every profile Callout follows calls on. */
export class CallClock {
  private readonly profiles = new Map<string, ProfileClock>();

  constructor(private readonly o: CallClockOptions = {}) {}

  timings(profile: string): CallTimings {
    return this.clock(profile).timings();
  }

  expectedEnds(profile: string, length: number, seen: Sighting | null, previous: RingOut | null = null): ExpectedEnd[] {
    return expectedEnds(this.timings(profile), length, seen, previous);
  }

  /** Where a ring-out seen between two looks most likely happened. */
  ringOutAt(profile: string, attempt: number, after: number, by: number, previous: RingOut | null): number {
    return within(after, by, ringOutOf(this.timings(profile), attempt, previous).at);
  }

  /**
   * From a ring-out to the provider's redial taking a line (seconds, and how far off it usually is),
   * learned from the redials seen on this profile; null until one was seen.
   */
  redialWait(profile: string): Timing | null {
    return this.clock(profile).redialWait();
  }

  /** A redial seen between two looks, `after` and `by` seconds after the ring-out before it. */
  learnRedialWait(profile: string, after: number, by: number): void {
    const clock = this.clock(profile);
    clock.learnRedialWait(within(after, by, clock.redialWait()?.at), weightOf(after, by));
    const learned = clock.learnedRedialWait();
    try {
      if (learned) this.o.redialWaits?.save(profile, learned);
    } catch {
      // Kept for the next start when it can be; following this call does not depend on it.
    }
  }

  learn(profile: string, ended: EndedCall): void {
    this.clock(profile).learn(ended);
  }

  private clock(profile: string): ProfileClock {
    let c = this.profiles.get(profile);
    if (!c) {
      c = new ProfileClock();
      this.profiles.set(profile, c);
      try {
        // Oldest first, so that the most recent durations weigh most.
        for (const h of [...(this.o.history?.(profile) ?? [])].reverse()) c.seed(h.length, h.duration);
      } catch {
        // The history is a head start, not a need: the priors do without it.
      }
      try {
        c.restoreRedialWait(this.o.redialWaits?.load(profile));
      } catch {
        // Likewise: without it, nothing is lent until a redial is seen again.
      }
    }
    return c;
  }
}
