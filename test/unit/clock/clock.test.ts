import { describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../../main/clock';

describe('ManualClock', () => {
  it('runs timers in time order, each at its own moment, only when advanced', async () => {
    const clock = new ManualClock(1_000);
    const seen: Array<[string, number]> = [];
    clock.setTimeout(() => seen.push(['b', clock.now()]), 200);
    clock.setTimeout(() => seen.push(['a', clock.now()]), 100);
    const cancelled = clock.setTimeout(() => seen.push(['never', clock.now()]), 150);
    cancelled.cancel();
    expect(seen).toEqual([]);
    await clock.advance(150);
    expect(seen).toEqual([['a', 1_100]]);
    expect(clock.now()).toBe(1_150);
    await clock.advance(1_000);
    expect(seen).toEqual([
      ['a', 1_100],
      ['b', 1_200],
    ]);
    expect(clock.now()).toBe(2_150);
    expect(clock.pending).toBe(0);
  });

  it('follows code that awaits and then waits again', async () => {
    const clock = new ManualClock(0);
    const marks: number[] = [];
    void (async () => {
      for (let i = 0; i < 3; i++) {
        await clock.sleep(60_000);
        marks.push(clock.now());
      }
    })();
    await clock.advance(3 * 60_000);
    expect(marks).toEqual([60_000, 120_000, 180_000]);
  });

  it('repeats intervals and wakes at a set time', async () => {
    const clock = new ManualClock(0);
    let ticks = 0;
    const every = clock.setInterval(() => ticks++, 10);
    let woke = -1;
    clock.wakeAt(35, () => (woke = clock.now()));
    await clock.advance(50);
    expect(ticks).toBe(5);
    expect(woke).toBe(35);
    every.cancel();
    await clock.advance(50);
    expect(ticks).toBe(5);
  });

  it('rejects a sleep whose signal aborts, and cancels its timer', async () => {
    const clock = new ManualClock(0);
    const ac = new AbortController();
    const slept = clock.sleep(1_000, ac.signal);
    ac.abort(new Error('stopped'));
    await expect(slept).rejects.toThrow('stopped');
    expect(clock.pending).toBe(0);
  });
});

describe('systemClock', () => {
  it('reads the system time', () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(systemClock.date().getTime()).toBeGreaterThanOrEqual(now);
  });
});

describe('systemClock, long waits', () => {
  it('does not fire a wait of 30 days at once (Node would, past 24.8 days)', async () => {
    let fired = false;
    const handle = systemClock.setTimeout(() => (fired = true), 30 * 24 * 3600_000);
    // Real time, on purpose: this checks Node's own timers, and an overflowed one fires after 1 ms.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fired).toBe(false);
    handle.cancel();
  });
});
