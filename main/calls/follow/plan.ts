// When to look next at a call that is still going on, given where it may end (timings.ts):
// closely around its likely ends, once at its unlikely ones, sparsely in between, and less and less
// often once every expected end has passed. Pure: seconds since the send was accepted.
import type { ExpectedEnd } from './timings';

export interface FollowPlan {
  /** Never two looks at one call closer than this. */
  minStepS: number;
  /** Looks around a likely end are at most this far apart. */
  maxStepS: number;
  /** Never longer than this between two looks (an end nobody expected: a hang-up, a provider's change). */
  maxGapS: number;
}

export const FOLLOW_PLAN: Readonly<FollowPlan> = Object.freeze({ minStepS: 0.5, maxStepS: 4, maxGapS: 20 });

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/**
 * The next look, in seconds since acceptance. A likely end is watched from `at − spread` to
 * `at + 2·spread`, every spread/2; an unlikely one gets one look at `at + spread/2`; after the last
 * expected end the waits grow with the time since (half of it), up to maxGapS.
 */
export function nextLookAt(now: number, ends: readonly ExpectedEnd[], lastLook: number | null, plan: FollowPlan = FOLLOW_PLAN): number {
  const floor = lastLook === null ? now : Math.max(now, lastLook + plan.minStepS);
  let next = now + plan.maxGapS;
  let ahead = false;
  for (const e of ends) {
    if (!e.likely) {
      const target = e.at + e.spread / 2;
      if (lastLook !== null && lastLook >= target) continue;
      ahead = true;
      next = Math.min(next, target);
      continue;
    }
    const from = e.at - e.spread;
    const to = e.at + 2 * e.spread;
    if (now > to) continue;
    ahead = true;
    const step = clamp(e.spread / 2, plan.minStepS, plan.maxStepS);
    next = Math.min(next, lastLook === null ? from : Math.max(from, lastLook + step));
  }
  if (!ahead) {
    const last = ends.reduce((latest, e) => Math.max(latest, e.at), 0);
    next = now + clamp((now - last) / 2, plan.minStepS, plan.maxGapS);
  }
  return Math.max(floor, next);
}
