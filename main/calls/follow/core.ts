// The pure core of following one call: no I/O, no clock. Given what is known of the call (its
// sightings, the ring-outs seen, the looks so far), what its profile taught (`Known`: the learned
// timings, see timings.ts) and the time `now` (epoch ms, passed in), it answers when to look next,
// until when the call's line is free while it waits to be redialled, whether it is overdue, and
// what an ended call teaches. The driver (follower.ts) runs it on the Clock and does the I/O.
// Inside, times are seconds since the send was accepted (the provider's clock).
import { isFinalState } from '../../../common/domain/status';
import type { MessageRecord } from '../../../common/records';
import { FOLLOW_PLAN, nextLookAt, type FollowPlan } from './plan';
import {
  attemptOf,
  expectedEnds,
  isTalking,
  isWaitingToRedial,
  ringOutOf,
  within,
  type CallTimings,
  type EndedCall,
  type ExpectedEnd,
  type RingOut,
  type Sighting,
  type Timing,
} from './timings';

/** Looks for a ring-out later than expected are at least this far apart (seconds on the provider's clock). */
export const LATE_RING_OUT_STEP_S = 1;

/** What a profile's calls taught so far: read from the learned timings once per decision. */
export interface Known {
  timings: CallTimings;
  /** From a ring-out to the redial taking a line; null until a redial was seen on the profile. */
  redialWait: Timing | null;
}

/** What is known of one followed call. */
export interface CallFollow {
  /** Epoch ms the send was accepted (the call's clock starts there). */
  since: number;
  /** The text's length in characters. */
  length: number;
  /** Seconds since acceptance of the last look that went out, and of the last one that found the call going on. */
  lastLook: number | null;
  lastOpen: number;
  seen: Sighting | null;
  talking: Sighting | null;
  ringOuts: { attempt: number; after: number; by: number }[];
  /** Looks in a row that could not reach the provider. */
  failures: number;
  /** The latest look that found the call waiting to be redialled (seconds since acceptance). */
  waitingAt: number | null;
}

export type { Sighting };

export function startFollowing(length: number, since: number): CallFollow {
  return { since, length, lastLook: null, lastOpen: 0, seen: null, talking: null, ringOuts: [], failures: 0, waitingAt: null };
}

/** Seconds on the provider's clock since the send was accepted. */
export function secondsAt(f: CallFollow, now: number): number {
  return (now - f.since) / 1000;
}

/** The epoch ms of a moment given in seconds since acceptance. */
export function epochOf(f: CallFollow, seconds: number): number {
  return f.since + seconds * 1000;
}

/** When news arriving now happened: during a look in progress, between its start and now. */
export function newsAt(f: CallFollow, now: number, looking: boolean): number {
  return looking && f.lastLook !== null ? (f.lastLook + secondsAt(f, now)) / 2 : secondsAt(f, now);
}

/** A stored message (or, `redialAfter`, a look that found the provider waiting to redial) as a sighting at `at` seconds. */
export function sightingOf(m: Pick<MessageRecord, 'state' | 'attempts' | 'duration'>, at: number, redialAfter?: number): Sighting {
  return redialAfter === undefined
    ? { at, state: m.state, attempts: m.attempts, duration: m.duration }
    : { at, state: 'pending', attempts: redialAfter, duration: 0 };
}

/** What a new sighting changed: null when it said nothing new. */
export interface Noted {
  /** A redial was seen: it took its line between these two moments after the ring-out before it (learn it). */
  redialSeen: { after: number; by: number } | null;
  /** The call waits to be redialled (holds no line). */
  waiting: boolean;
}

/** Takes a sighting of the call going on. */
export function note(f: CallFollow, s: Sighting, known: Known): Noted | null {
  const prev = f.seen;
  const at = s.at;
  if (isWaitingToRedial(s)) f.waitingAt = Math.max(f.waitingAt ?? at, at);
  if (prev && prev.state === s.state && prev.attempts === s.attempts && prev.duration === s.duration) return null;
  // Seen waiting to be redialled: the stored call, which never moves back to waiting, says nothing new until the redial (a further attempt), the callee listening or the end.
  if (isWaitingToRedial(prev) && !isWaitingToRedial(s) && !isFinalState(s.state) && !isTalking(s) && (s.attempts ?? 0) <= prev!.attempts!) return null;
  // An attempt rang out between the previous sighting and this one: the provider waits to redial, or has redialled.
  if (isWaitingToRedial(s) && !isWaitingToRedial(prev)) f.ringOuts.push({ attempt: s.attempts!, after: prev?.at ?? 0, by: at });
  else if (prev && !isWaitingToRedial(prev) && attemptOf(s) > attemptOf(prev)) f.ringOuts.push({ attempt: attemptOf(prev), after: prev.at, by: at });
  if (isTalking(s) && !isTalking(f.talking)) f.talking = s;
  // The redial was seen (ringing again): it took its line between the last look that found the call waiting and this one.
  const ringOut = lastRingOut(f, known);
  let redialSeen: Noted['redialSeen'] = null;
  if (isWaitingToRedial(prev) && !isWaitingToRedial(s) && !isFinalState(s.state) && ringOut && f.waitingAt !== null) {
    redialSeen = { after: f.waitingAt - ringOut.at, by: at - ringOut.at };
  }
  f.seen = s;
  const waiting = isWaitingToRedial(s);
  if (!waiting) f.waitingAt = null;
  return { redialSeen, waiting };
}

/** The latest ring-out seen: when the model expected it, moved into the interval it was seen in. */
export function lastRingOut(f: CallFollow, known: Known): RingOut | null {
  let previous: RingOut | null = null;
  for (const r of f.ringOuts) {
    const linked: RingOut | null = previous && previous.attempt === r.attempt - 1 ? previous : null;
    previous = { attempt: r.attempt, at: within(r.after, r.by, ringOutOf(known.timings, r.attempt, linked).at) };
  }
  return previous;
}

/** When a call waiting to be redialled likely takes a line again (seconds since acceptance), once the profile's redials taught it. */
export function redialMoment(f: CallFollow, known: Known): Timing | null {
  if (!isWaitingToRedial(f.seen)) return null;
  const ringOut = lastRingOut(f, known);
  return known.redialWait && ringOut ? { at: ringOut.at + known.redialWait.at, spread: known.redialWait.spread } : null;
}

/** Until when (epoch ms) the call holds no line: it waits to be redialled and the redial is still ahead. Null otherwise. */
export function lineFreeUntil(f: CallFollow, known: Known, now: number): number | null {
  const redial = redialMoment(f, known);
  if (!redial) return null;
  const until = epochOf(f, redial.at);
  return until > now ? until : null;
}

/** Where the call may end (and, waiting to be redialled, when the redial takes its line), seconds since acceptance. */
export function expectedEndsOf(f: CallFollow, known: Known): ExpectedEnd[] {
  const ends = expectedEnds(known.timings, f.length, f.seen, lastRingOut(f, known));
  // Waiting to be redialled: its line was lent until the redial, so the redial is looked for like an end.
  const redial = redialMoment(f, known);
  if (redial) ends.push({ kind: 'redial', at: redial.at, spread: redial.spread, likely: true });
  return ends;
}

/** When to look next (epoch ms). `lendsLines`: a late ring-out is looked for, to lend its line for the wait it starts. */
export function nextLook(f: CallFollow, known: Known, now: number, o: { plan?: FollowPlan; lendsLines?: boolean } = {}): number {
  const plan = o.plan ?? FOLLOW_PLAN;
  const t = secondsAt(f, now);
  const ends = expectedEndsOf(f, known);
  let at = nextLookAt(t, ends, f.lastLook, plan);
  // Still ringing (neither listening nor waiting) up to one redial wait after its ring-out was
  // expected: a ring-out later than expected (the call waited for a line at the provider) is caught
  // while most of the wait it starts is ahead, to lend its line.
  const wait = o.lendsLines ? known.redialWait : null;
  const ringOut = ends.find((e) => e.kind === 'ring-out');
  if (wait && ringOut && !isTalking(f.seen) && !isWaitingToRedial(f.seen) && t <= ringOut.at + 2 * ringOut.spread + wait.at) {
    const from = ringOut.at - ringOut.spread;
    at = Math.min(at, Math.max(t, from, (f.lastLook ?? t) + Math.max(LATE_RING_OUT_STEP_S, wait.at / 3)));
  }
  // The provider could not be reached: further apart each time (but never beyond the longest gap).
  if (f.failures > 0) at = Math.max(at, t + Math.min(plan.maxGapS, plan.minStepS * 2 ** f.failures));
  return now + Math.max(0, at - t) * 1000;
}

/** Followed longer than `maxAgeMs` without an end: no longer followed. */
export function isOverdue(f: CallFollow, now: number, maxAgeMs: number): boolean {
  return now - f.since > maxAgeMs;
}

/** A look goes out now: returns its moment (seconds since acceptance). */
export function lookStarted(f: CallFollow, now: number): number {
  f.lastLook = secondsAt(f, now);
  return f.lastLook;
}

/** The look could not reach the provider. */
export function lookFailed(f: CallFollow): void {
  f.failures++;
}

/** The look that started at `startedAt` found the call going on: the moment its answer is placed at (between its start and now). */
export function lookFoundOpen(f: CallFollow, startedAt: number, now: number): number {
  f.failures = 0;
  f.lastOpen = startedAt;
  return (startedAt + secondsAt(f, now)) / 2;
}

/** What a call that ended (news at `at` seconds, learned now) teaches its profile. */
export function endedCall(f: CallFollow, m: Pick<MessageRecord, 'state' | 'attempts' | 'duration'>, at: number, now: number): EndedCall {
  return {
    length: f.length,
    state: m.state,
    attempts: m.attempts,
    duration: m.duration,
    after: Math.min(f.lastOpen, at),
    by: secondsAt(f, now),
    talking: f.talking,
    ringOuts: f.ringOuts,
  };
}
