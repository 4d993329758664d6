// When the follower looks again: closely around a likely end, once at an unlikely one, sparsely in
// between, less and less often once every expected end has passed.
import { describe, expect, it } from 'vitest';
import type { ExpectedEnd } from '../../../../main/calls/follow/timings';
import { FOLLOW_PLAN, nextLookAt } from '../../../../main/calls/follow/plan';

const likely = (at: number, spread = 1): ExpectedEnd => ({ kind: 'answered', at, spread, likely: true });
const unlikely = (at: number, spread = 1): ExpectedEnd => ({ kind: 'quick', at, spread, likely: false });

/** Every look from `from` until `until`, as the follower would make them. */
function looks(ends: ExpectedEnd[], until: number, from = 0): number[] {
  const out: number[] = [];
  let last: number | null = null;
  let now = from;
  while (now < until) {
    now = nextLookAt(now, ends, last);
    if (now >= until) break;
    out.push(now);
    last = now;
  }
  return out;
}

describe('the follow-up schedule', () => {
  it('waits for a likely end, then looks every half spread around it', () => {
    const seq = looks([likely(40, 1)], 43);
    expect(seq[0]).toBe(20); // never longer than the longest gap
    expect(seq.filter((t) => t >= 39)).toEqual([39, 39.5, 40, 40.5, 41, 41.5, 42, 42.5]);
    expect(seq.filter((t) => t > 20 && t < 39)).toEqual([]);
  });

  it('gives an unlikely end one look, once it would have happened', () => {
    const seq = looks([unlikely(4, 2), likely(40, 1)], 41);
    expect(seq[0]).toBe(5);
    expect(seq.filter((t) => t < 20)).toEqual([5]);
  });

  it('backs off once every expected end has passed without the call ending', () => {
    const seq = looks([likely(10, 1)], 120, 12.1);
    const gaps = seq.slice(1).map((t, i) => t - seq[i]!);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]!).toBeGreaterThanOrEqual(gaps[i - 1]! - 1e-9);
    expect(Math.max(...gaps)).toBeCloseTo(FOLLOW_PLAN.maxGapS, 9);
  });

  it('never looks at one call twice within the shortest step, whatever the ends say', () => {
    const ends = [likely(5, 0.1), likely(5.1, 0.1), unlikely(5.2, 0.1)];
    const seq = looks(ends, 8, 4);
    for (let i = 1; i < seq.length; i++) expect(seq[i]! - seq[i - 1]!).toBeGreaterThanOrEqual(FOLLOW_PLAN.minStepS - 1e-9);
  });

  it('looks at once when a window has been reached (a look overdue is not pushed further)', () => {
    expect(nextLookAt(50, [likely(50, 2)], 40)).toBe(50);
  });
});
