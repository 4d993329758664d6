// The model behind the follow-up schedule: where a call may end, from its text (70 characters ≈
// 20 s of speech), the ring time and the redial pattern, and how it learns a provider's timings
// from the calls that end on a profile.
import { describe, expect, it } from 'vitest';
import { CallClock, expectedEnds, LIKELY_SHARE, PRIOR_TIMINGS, within, type EndedCall } from '../../../../main/calls/follow/timings';

const answeredAt = (ends: ReturnType<typeof expectedEnds>) => ends.find((e) => e.kind === 'answered')!;

/** A call the sandbox would place: picked up `pickup` s after acceptance, reading 3.5 characters a second, seen ended within `lag` s. */
function answered(length: number, o: { pickup?: number; lag?: number; attempts?: number; gap?: number } = {}): EndedCall {
  const pickup = (o.pickup ?? 7) + ((o.attempts ?? 1) - 1) * (o.gap ?? 16);
  const duration = Math.ceil(length / 3.5);
  const end = pickup + duration;
  return { length, state: 'answered', attempts: o.attempts ?? 1, duration, after: end - (o.lag ?? 0.5), by: end + 0.01, talking: null, ringOuts: [] };
}

describe('where a call may end', () => {
  it('before anyone answers: a quick failure, a ring-out, or the pickup plus the text (70 characters ≈ 20 s)', () => {
    const ends = expectedEnds(PRIOR_TIMINGS, 140, null);
    expect(ends.map((e) => e.kind)).toEqual(['quick', 'ring-out', 'answered']);
    expect(answeredAt(ends).at).toBeCloseTo(PRIOR_TIMINGS.pickup.at + 40, 5);
    expect(answeredAt(ends).likely).toBe(true);
  });

  it('while the callee listens: the rest of the text from the running duration, and nothing else', () => {
    const ends = expectedEnds(PRIOR_TIMINGS, 140, { at: 30, state: 'calling', attempts: 1, duration: 20 });
    expect(ends).toHaveLength(1);
    // Picked up between 21 and 20 s before the sighting: 9.5 s, then 40 s of text.
    expect(ends[0]).toMatchObject({ kind: 'answered', at: 49.5 });
  });

  it('while the provider waits to redial: the next attempt is counted from the ring-out seen', () => {
    const t = { ...PRIOR_TIMINGS, ringOut: { at: 7, spread: 1 }, redialGap: { at: 16, spread: 1 }, pickup: { at: 7, spread: 1 } };
    const ends = expectedEnds(t, 70, { at: 9, state: 'pending', attempts: 1, duration: 0 }, { attempt: 1, at: 8 });
    expect(ends.map((e) => e.kind)).toEqual(['ring-out', 'answered']);
    expect(ends[0]!.at).toBe(8 + 16);
    expect(ends[1]!.at).toBeCloseTo(8 + 16 - 7 + 7 + 20, 5);
  });

  it('an end that is rare on the profile is not watched closely', () => {
    const rare = { ...PRIOR_TIMINGS, quickShare: LIKELY_SHARE / 2 };
    expect(expectedEnds(rare, 70, null).find((e) => e.kind === 'quick')!.likely).toBe(false);
  });

  it('places what was seen between two looks where the model expected it, or in the middle when the model was wrong', () => {
    expect(within(10, 20, 12)).toBe(12);
    expect(within(10, 20, 40)).toBe(15);
    expect(within(10, 20)).toBe(15);
  });

  it('between two looks close together (the dense looks around an expected moment), the middle: the expected moment would only confirm itself', () => {
    // Looks at 9.5 and 10.5 were placed around a ring-out expected at 10.5; it came between them.
    expect(within(9.5, 10.5, 10.5)).toBe(10);
    // So a ring-out the model expects too late, seen by the look placed at that moment, moves the model earlier, every time.
    const clock = new CallClock();
    let before = clock.timings('p').ringOut.at;
    for (let i = 0; i < 20; i++) {
      const by = Math.max(7.5, before);
      clock.learn('p', { length: 70, state: 'no_answer', attempts: 1, duration: 0, after: Math.min(6.9, by - 1), by, talking: null, ringOuts: [] });
      const after = clock.timings('p').ringOut.at;
      expect(after).toBeLessThan(before);
      before = after;
    }
  });

  it('learns when the provider redials from the redials seen, and knows nothing of it before', () => {
    const clock = new CallClock();
    expect(clock.redialWait('p')).toBeNull();
    for (let i = 0; i < 20; i++) clock.learnRedialWait('p', 9.6, 10.1);
    const wait = clock.redialWait('p')!;
    expect(wait.at).toBeGreaterThan(9.5);
    expect(wait.at).toBeLessThan(10.2);
    expect(wait.spread).toBeLessThanOrEqual(1);
  });

  it('keeps the redial wait it learned for the next start, and starts from it: lines are lent from the first wait', () => {
    const kept = new Map<string, unknown>();
    const redialWaits = { load: (p: string) => kept.get(p) ?? null, save: (p: string, w: unknown) => void kept.set(p, JSON.parse(JSON.stringify(w))) };
    const first = new CallClock({ redialWaits });
    for (let i = 0; i < 8; i++) first.learnRedialWait('p', 11.8, 12.2);
    expect(kept.get('p')).toMatchObject({ at: expect.closeTo(12, 0), samples: 8 });
    // The next start: known before any redial is seen there.
    const next = new CallClock({ redialWaits });
    expect(next.redialWait('p')!.at).toBeCloseTo(12, 0);
    expect(next.redialWait('q')).toBeNull();
    // A provider that changed its pause is followed within a few redials (a kept wait counts as 5 samples at most).
    for (let i = 0; i < 6; i++) next.learnRedialWait('p', 29.8, 30.2);
    expect(next.redialWait('p')!.at).toBeGreaterThan(21); // past halfway from 12 to 30 after six
  });

  it('ignores a kept redial wait that is not a sane one, and goes on when the store fails', () => {
    for (const bad of [
      null,
      'x',
      42,
      [],
      { at: -1, spread: 1, samples: 3 },
      { at: 5, spread: 1, samples: 0 },
      { at: Number.NaN, spread: 1, samples: 3 },
      { at: 1e9, spread: 1, samples: 3 },
      { at: 5, spread: 1, samples: 1.5 },
      { at: '5', spread: 1, samples: 3 },
    ]) {
      const clock = new CallClock({ redialWaits: { load: () => bad, save: () => undefined } });
      expect(clock.redialWait('p'), JSON.stringify(bad)).toBeNull();
    }
    const broken = new CallClock({
      redialWaits: {
        load: () => {
          throw new Error('SQLITE_CORRUPT');
        },
        save: () => {
          throw new Error('SQLITE_FULL');
        },
      },
    });
    expect(broken.redialWait('p')).toBeNull();
    expect(() => broken.learnRedialWait('p', 9.9, 10.1)).not.toThrow();
    expect(broken.redialWait('p')!.at).toBeCloseTo(10, 0);
  });
});

describe('learning a profile', () => {
  it('starts the speech rate from the durations already in the history', () => {
    const clock = new CallClock({ history: () => Array.from({ length: 20 }, () => ({ length: 105, duration: 30 })) });
    expect(clock.timings('p').secondsPerChar).toBeCloseTo(30 / 105, 2);
    // Another profile has its own.
    expect(new CallClock().timings('q').secondsPerChar).toBeCloseTo(20 / 70, 5);
  });

  it('a history that cannot be read leaves the priors', () => {
    const clock = new CallClock({
      history: () => {
        throw new Error('database is locked');
      },
    });
    expect(clock.timings('p')).toEqual(PRIOR_TIMINGS);
  });

  it('after a few answered calls, predicts their end within a second and narrows its spread', () => {
    const clock = new CallClock();
    for (let i = 0; i < 15; i++) clock.learn('p', answered(120 + (i % 5)));
    const end = answeredAt(clock.expectedEnds('p', 123, null));
    expect(Math.abs(end.at - (7 + Math.ceil(123 / 3.5)))).toBeLessThan(1);
    expect(end.spread).toBeLessThan(PRIOR_TIMINGS.answeredSpread / 2);
  });

  it('learns quick failures (busy, powered off) and how often they happen', () => {
    const clock = new CallClock();
    for (let i = 0; i < 10; i++) clock.learn('p', { length: 60, state: 'busy', attempts: 1, duration: 0, after: 2.8, by: 3.2, talking: null, ringOuts: [] });
    const t = clock.timings('p');
    expect(t.quickEnd.at).toBeCloseTo(3, 0);
    expect(t.quickShare).toBeGreaterThan(0.5);
  });

  it("learns the ring-out and the provider's redial gap from the calls nobody answered", () => {
    const clock = new CallClock();
    for (let i = 0; i < 20; i++) {
      clock.learn('p', {
        length: 60,
        state: 'no_answer',
        attempts: 3,
        duration: 0,
        after: 38.5,
        by: 39.2,
        talking: null,
        ringOuts: [
          { attempt: 1, after: 6.5, by: 7.5 },
          { attempt: 2, after: 22.5, by: 23.5 },
        ],
      });
    }
    const t = clock.timings('p');
    expect(t.ringOut.at).toBeCloseTo(7, 0);
    expect(t.redialGap.at).toBeCloseTo(16, 0);
    expect(t.ringOutShare).toBeGreaterThan(0.5);
  });

  it('samples seen only between looks far apart count for less', () => {
    const precise = new CallClock();
    const rough = new CallClock();
    precise.learn('p', { ...answered(70), after: 26.5, by: 27 });
    rough.learn('p', { ...answered(70), after: 7, by: 47 });
    const moved = (c: CallClock) => Math.abs(c.timings('p').pickup.at - PRIOR_TIMINGS.pickup.at);
    expect(moved(rough)).toBeLessThan(moved(precise));
  });
});
