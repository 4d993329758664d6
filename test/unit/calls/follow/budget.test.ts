// The status-query budget: on average no more than the rate, bursts no larger than stated, and no
// query dropped (a query over the budget waits for its moment).
import { describe, expect, it } from 'vitest';
import { PollBudget } from '../../../../main/calls/follow/budget';

describe('the status-query budget', () => {
  it('lets a burst go at once, then spaces the rest by the interval', () => {
    const b = new PollBudget(() => 100, 3);
    expect([b.book(0), b.book(0), b.book(0), b.book(0), b.book(0)]).toEqual([0, 0, 0, 100, 200]);
  });

  it('never goes over rate × time + burst in any window, whatever the arrivals', () => {
    const interval = 50;
    const burst = 4;
    const b = new PollBudget(() => interval, burst);
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const at: number[] = [];
    let now = 0;
    for (let i = 0; i < 2000; i++) {
      now += random() < 0.7 ? 0 : random() * 200;
      const t = b.book(now);
      expect(t).toBeGreaterThanOrEqual(now);
      at.push(t);
    }
    at.sort((x, y) => x - y);
    for (const window of [100, 1000, 10_000]) {
      let j = 0;
      for (let i = 0; i < at.length; i++) {
        while (at[i]! - at[j]! >= window) j++;
        expect(i - j + 1).toBeLessThanOrEqual(window / interval + burst);
      }
    }
  });

  it('follows a change of rate (a profile given more lines) from the next booking on', () => {
    let interval = 100;
    const b = new PollBudget(() => interval, 1);
    expect(b.book(0)).toBe(0);
    expect(b.book(0)).toBe(100);
    interval = 10;
    expect([b.book(100), b.book(100), b.book(100)]).toEqual([200, 210, 220]);
  });

  it('holds the queries actually started to a ceiling per window, however late their timers ran', () => {
    const b = new PollBudget(() => 100, 5);
    // Ten looks booked over a second ran late and all start at 1,000 ms: the ceiling is 10 a second.
    for (let i = 0; i < 10; i++) {
      expect(b.hold(1000, 10, 1000)).toBe(0);
      b.started(1000);
    }
    expect(b.hold(1000, 10, 1000)).toBe(1000);
    expect(b.hold(1500, 10, 1000)).toBe(500);
    expect(b.hold(2000, 10, 1000)).toBe(0);
  });
});
