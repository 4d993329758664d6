// The pure core of following one call, with plain numbers: no clock, no store, no provider. A call
// accepted at `T0`; times below are epoch ms (`T0 + seconds * 1000`).
import { describe, expect, it } from 'vitest';
import {
  endedCall,
  isOverdue,
  lineFreeUntil,
  lookFailed,
  lookFoundOpen,
  lookStarted,
  nextLook,
  note,
  redialMoment,
  sightingOf,
  startFollowing,
  type Known,
} from '../../../../main/calls/follow/core';
import { PRIOR_TIMINGS } from '../../../../main/calls/follow/timings';

const T0 = 1_000_000;
const at = (s: number) => T0 + s * 1000;
const prior: Known = { timings: PRIOR_TIMINGS, redialWait: null };
/** A profile that taught a redial wait of 20 s (± 2 s). */
const redials: Known = { timings: PRIOR_TIMINGS, redialWait: { at: 20, spread: 2 } };
const sighting = (s: number, state: 'pending' | 'calling' | 'answered', attempts: number | null, duration: number | null = null) =>
  sightingOf({ state, attempts, duration }, s);

describe('when to look next', () => {
  it('a fresh call is first looked at when a quick end becomes likely (5 s ± 3 s: at 2 s)', () => {
    const f = startFollowing(70, T0);
    expect(nextLook(f, prior, T0, { lendsLines: true })).toBe(at(2));
  });

  it('while the callee listens, at the end of the text less its spread', () => {
    const f = startFollowing(70, T0);
    note(f, sighting(20, 'calling', 1, 3), prior);
    const talk = PRIOR_TIMINGS.secondsPerChar * 70;
    const end = 20 - 3 - 0.5 + talk;
    expect(nextLook(f, prior, at(20))).toBeCloseTo(at(end - PRIOR_TIMINGS.talkSpread), 6);
  });

  it('a provider that cannot be reached is looked at further apart each time, never more than 20 s apart', () => {
    const f = startFollowing(70, T0);
    lookStarted(f, at(40));
    lookFailed(f);
    lookFailed(f);
    expect(nextLook(f, prior, at(40))).toBeGreaterThanOrEqual(at(42));
    for (let i = 0; i < 10; i++) lookFailed(f);
    expect(nextLook(f, prior, at(40))).toBeLessThanOrEqual(at(60));
  });
});

describe('its line while it waits to be redialled', () => {
  it('is free from the ring-out until the learned redial wait has passed (30 s + 20 s), then no longer', () => {
    const f = startFollowing(70, T0);
    note(f, sighting(10, 'calling', 1), redials);
    const noted = note(f, sightingOf({ state: 'pending', attempts: 1, duration: 0 }, 32), redials);
    expect(noted).toEqual({ redialSeen: null, waiting: true });
    // The ring-out seen between 10 s and 32 s is placed where it was expected: 30 s.
    expect(redialMoment(f, redials)).toEqual({ at: 50, spread: 2 });
    expect(lineFreeUntil(f, redials, at(32))).toBe(at(50));
    expect(lineFreeUntil(f, redials, at(51))).toBeNull();
    // Nothing is lent before the profile taught how long its redials wait.
    expect(lineFreeUntil(f, prior, at(32))).toBeNull();
  });

  it('the redial seen ringing teaches its wait: between the last look that found it waiting and this one', () => {
    const f = startFollowing(70, T0);
    note(f, sighting(10, 'calling', 1), redials);
    note(f, sightingOf({ state: 'pending', attempts: 1, duration: 0 }, 32), redials);
    note(f, sightingOf({ state: 'pending', attempts: 1, duration: 0 }, 40), redials);
    const noted = note(f, sighting(52, 'calling', 2), redials);
    expect(noted).toEqual({ redialSeen: { after: 10, by: 22 }, waiting: false });
    expect(lineFreeUntil(f, redials, at(52))).toBeNull();
  });

  it('the same sighting twice says nothing new', () => {
    const f = startFollowing(70, T0);
    note(f, sighting(10, 'calling', 1), prior);
    expect(note(f, sighting(12, 'calling', 1), prior)).toBeNull();
  });
});

describe('the end of following', () => {
  it('a call followed longer than its maximum age is overdue, not a moment before', () => {
    const f = startFollowing(70, T0);
    expect(isOverdue(f, T0 + 7200_000, 7200_000)).toBe(false);
    expect(isOverdue(f, T0 + 7200_001, 7200_000)).toBe(true);
  });

  it('an ended call teaches that it ended after the last look that found it going on and by now', () => {
    const f = startFollowing(70, T0);
    const started = lookStarted(f, at(20));
    const placed = lookFoundOpen(f, started, at(21));
    expect(placed).toBe(20.5);
    const ended = endedCall(f, { state: 'answered', attempts: 1, duration: 18 }, 38, at(40));
    expect(ended).toMatchObject({ length: 70, state: 'answered', attempts: 1, duration: 18, after: 20, by: 40 });
  });
});
