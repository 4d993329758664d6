import { beforeEach, describe, expect, it } from 'vitest';
import { Governor, GovernorRegistry, HOUR_MS, limitsForLines, type Slot } from '../../../main/lines/governor';
import { ManualClock } from '../../../main/clock';

// The governors run on a manual clock: the hour, lent lines and refusals' times pass as the test says.
let clock: ManualClock;
beforeEach(() => {
  clock = new ManualClock(Date.parse('2026-11-21T10:00:00Z'));
});

/** Lets granted acquires settle. */
const flush = () => clock.advance(0);

describe('governor', () => {
  it('derives its limits from the lines: 20 calls at once and 2,000 an hour per line', () => {
    expect(limitsForLines(1)).toEqual({ concurrency: 20, perHour: 2000 });
    expect(limitsForLines(3)).toEqual({ concurrency: 60, perHour: 6000 });
    expect(limitsForLines(0)).toEqual({ concurrency: 20, perHour: 2000 });
  });

  it('never hands out more slots than the concurrency limit, and gives a freed slot to the next waiter at once', async () => {
    const g = new Governor({ clock, limits: { concurrency: 3, perHour: 1000 } });
    const granted: Slot[] = [];
    for (let i = 0; i < 5; i++) void g.acquire().then((s) => granted.push(s));
    await flush();
    expect(granted).toHaveLength(3);
    expect(g.snapshot()).toMatchObject({ inUse: 3, waiting: 2 });
    granted[0]!.release();
    granted[0]!.release(); // twice is once
    await Promise.resolve();
    expect(granted).toHaveLength(4);
    expect(g.snapshot()).toMatchObject({ inUse: 3, waiting: 1, peak: 3 });
  });

  it('holds starts to the hourly limit over a sliding window, then lets the next one go when the oldest leaves it', async () => {
    const g = new Governor({ clock, limits: { concurrency: 10, perHour: 3 } }); // a whole hour, on the manual clock
    const granted: number[] = [];
    for (let i = 0; i < 4; i++) {
      void g.acquire().then((s) => {
        granted.push(clock.now());
        s.release(); // the call ends at once: only the rate limits
      });
      await clock.advance(100);
    }
    expect(granted).toHaveLength(3);
    expect(g.snapshot().startsInWindow).toBe(3);
    // now 400 ms after the first start; it leaves the window an hour after it
    await clock.advance(HOUR_MS - 400 - 10);
    expect(granted).toHaveLength(3);
    await clock.advance(20);
    expect(granted).toHaveLength(4);
    // The 4th start came one window after the 1st.
    expect(granted[3]! - granted[0]!).toBeGreaterThanOrEqual(HOUR_MS);
    expect(g.snapshot().rateLimitedMs).toBeGreaterThan(HOUR_MS - 600);
  });

  it('refunds the hourly count only for a request that provably never left', async () => {
    const g = new Governor({ clock, limits: { concurrency: 5, perHour: 2 } });
    const a = await g.acquire();
    a.release({ refund: true });
    const b = await g.acquire();
    b.release();
    expect(g.snapshot().startsInWindow).toBe(1);
  });

  it('serves a person dialling before queued batch items', async () => {
    const g = new Governor({ clock, limits: { concurrency: 1, perHour: 100 } });
    const first = await g.acquire();
    const order: string[] = [];
    void g.acquire().then((s) => {
      order.push('batch');
      s.release();
    });
    void g.acquire({ priority: true }).then((s) => {
      order.push('dial');
      s.release();
    });
    first.release();
    await flush();
    expect(order).toEqual(['dial', 'batch']);
  });

  it('drops a waiter whose wait is aborted (a paused batch) without losing the slot', async () => {
    const g = new Governor({ clock, limits: { concurrency: 1, perHour: 100 } });
    const held = await g.acquire();
    const abort = new AbortController();
    const waiting = g.acquire({ signal: abort.signal });
    abort.abort();
    await expect(waiting).rejects.toThrow(/cancelled/);
    expect(g.snapshot().waiting).toBe(0);
    held.release();
    expect(g.tryAcquire()).not.toBeNull();
  });

  it('measures utilization while someone waits: full when every slot is busy, half when half are', async () => {
    const full = new Governor({ clock, limits: { concurrency: 2, perHour: 100 } });
    const a = await full.acquire();
    const b = await full.acquire();
    const c = full.acquire();
    await clock.advance(1000);
    a.release();
    await c;
    expect(full.snapshot().utilization).toBeCloseTo(1, 5);
    b.release();

    const half = new Governor({ clock, limits: { concurrency: 2, perHour: 1 } });
    const x = await half.acquire();
    x.release(); // the hour's single start is used: the next waiter is rate-limited, not measured
    const y = half.acquire();
    await clock.advance(1000);
    expect(half.snapshot().utilization).toBeNull();
    expect(half.snapshot().rateLimitedMs).toBe(1000);
    half.close();
    await expect(y).rejects.toThrow();

    const adopted = new Governor({ clock, limits: { concurrency: 2, perHour: 100 } });
    const ringing = adopted.adopt(); // a call from before a restart holds a line
    const one = await adopted.acquire();
    const w = adopted.acquire();
    await clock.advance(500);
    ringing.release();
    await w;
    one.release();
    expect(adopted.snapshot().utilization).toBeCloseTo(1, 5);
  });

  it('keeps one governor per profile and follows a change of lines', () => {
    let lines = 1;
    const reg = new GovernorRegistry(() => lines, { clock });
    const g = reg.for('p');
    expect(reg.for('p')).toBe(g);
    expect(g.limits.concurrency).toBe(20);
    lines = 2;
    expect(reg.for('p').limits).toEqual({ concurrency: 40, perHour: 4000 });
    expect(reg.for('q')).not.toBe(g);
  });

  it('lends the line of a call waiting for its redial to the next call until the redial is due, then counts it again and starts nothing until back under', async () => {
    const reg = new GovernorRegistry(() => 1, { clock });
    const g = reg.for('p');
    g.setLimits({ concurrency: 2, perHour: 100 });
    const a = await g.acquire();
    const b = await g.acquire();
    a.holds(101);
    b.holds(102);
    const granted: Slot[] = [];
    void g.acquire().then((s) => granted.push(s));
    void g.acquire().then((s) => granted.push(s));
    await flush();
    expect(granted).toHaveLength(0);
    // The provider waits 10 s to redial call 101: its line goes to the next call meanwhile.
    reg.lend(101, clock.now() + 10_000);
    await flush();
    expect(granted).toHaveLength(1);
    expect(g.snapshot()).toMatchObject({ inUse: 2, lent: 1, waiting: 1 });
    // The redial is due: counted again, over the limit (the lent line is still busy).
    await clock.advance(10_000);
    expect(g.snapshot()).toMatchObject({ inUse: 3, lent: 0, peak: 3, peakAtStart: 2 });
    // One call ends: still at the limit, nothing starts.
    b.release();
    await flush();
    expect(granted).toHaveLength(1);
    // Another ends: under the limit, the waiter starts.
    granted[0]!.release();
    await flush();
    expect(granted).toHaveLength(2);
    expect(g.snapshot().inUse).toBe(2);
    // A lent slot whose call ends while lent is not given back twice.
    reg.lend(101, clock.now() + 5_000);
    a.release();
    await clock.advance(10_000);
    expect(g.snapshot()).toMatchObject({ inUse: 1, lent: 0 });
  });

  it('takes a lent line back at once when the call is seen on a line again, and ignores calls it does not hold', async () => {
    const g = new Governor({ clock, limits: { concurrency: 1, perHour: 100 } });
    const a = await g.acquire();
    a.holds(7);
    g.lend(8, clock.now() + 10_000); // not a call this governor holds a line for
    expect(g.tryAcquire()).toBeNull();
    g.lend(7, clock.now() + 10_000);
    const b = g.tryAcquire();
    expect(b).not.toBeNull();
    g.lend(7, null); // the redial came early
    expect(g.snapshot()).toMatchObject({ inUse: 2, lent: 0 });
    g.lend(7, clock.now() - 1); // a moment already past lends nothing
    expect(g.snapshot().inUse).toBe(2);
    b!.release();
    a.release();
    expect(g.snapshot().inUse).toBe(0);
    await clock.advance(20_000);
    expect(g.snapshot().inUse).toBe(0);
  });

  it('stops lending on a profile once the provider refuses a send that started on a lent line, and counts every lent line again', async () => {
    const g = new Governor({ clock, limits: { concurrency: 2, perHour: 100 } });
    const a = await g.acquire();
    const b = await g.acquire();
    a.holds(1);
    b.holds(2);
    g.lend(1, clock.now() + 10_000);
    const onLent = g.tryAcquire()!;
    // A refusal of a send taken with no line lent says nothing about lending.
    const plain = new Governor({ clock, limits: { concurrency: 1, perHour: 100 } });
    (await plain.acquire()).refused();
    expect(plain.snapshot().lending).toBe(true);
    // The one taken on the lent line is refused (not for its number): lending stops, line 1 counts again.
    onLent.refused();
    onLent.release();
    expect(g.snapshot()).toMatchObject({ lending: false, lent: 0, inUse: 2 });
    g.lend(2, clock.now() + 10_000);
    expect(g.snapshot()).toMatchObject({ lent: 0, inUse: 2, lendingRefused: true });
    expect(g.tryAcquire()).toBeNull();
    // A person sets the profile to lend again: lending resumes.
    g.setLending(true);
    g.lend(2, clock.now() + 10_000);
    expect(g.snapshot()).toMatchObject({ lending: true, lendingRefused: false, lent: 1, inUse: 1 });
  });

  it('lends nothing on a profile set not to lend, and counts every lent line again the moment it is set so', async () => {
    let lend = false;
    const reg = new GovernorRegistry(() => 1, { clock, lendingOf: () => lend });
    const g = reg.for('p');
    const slots = await Promise.all(Array.from({ length: 20 }, () => g.acquire()));
    slots.forEach((s, i) => s.holds(i + 1));
    // Set not to lend: a call waiting for its redial keeps its line, nothing more starts.
    reg.lend(1, clock.now() + 10_000);
    expect(g.snapshot()).toMatchObject({ lending: false, lendingRefused: false, inUse: 20, lent: 0 });
    expect(g.tryAcquire()).toBeNull();
    // Set to lend (a person's choice, applied at once): the next redial wait lends the line.
    lend = true;
    reg.applyLending('p');
    reg.lend(1, clock.now() + 10_000);
    reg.lend(2, clock.now() + 10_000);
    expect(g.snapshot()).toMatchObject({ lending: true, inUse: 18, lent: 2 });
    const next = g.tryAcquire();
    expect(next).not.toBeNull();
    // Set not to lend again while two lines are lent: both count again at once, over the limit; nothing starts.
    lend = false;
    reg.applyLending('p');
    expect(g.snapshot()).toMatchObject({ lending: false, inUse: 21, lent: 0 });
    expect(g.tryAcquire()).toBeNull();
    // The lent lines' timers are gone with them: nothing is counted twice when their redials come due.
    await clock.advance(20_000);
    expect(g.snapshot().inUse).toBe(21);
    // A governor made for a profile set not to lend starts so.
    expect(new GovernorRegistry(() => 1, { clock, lendingOf: () => false }).for('q').snapshot().lending).toBe(false);
  });

  /** A refusal on a lent line, on governor `g` (one line): a call waits for its redial, the send on its line is refused. */
  const refuseOnLent = async (reg: GovernorRegistry, id: string, messageId: number) => {
    const g = reg.for(id);
    const held = await g.acquire();
    held.holds(messageId);
    reg.lend(messageId, clock.now() + 10_000);
    const onLent = g.tryAcquire()!;
    onLent.refused();
    onLent.release();
    return held;
  };

  it('keeps a refusal that stopped lending with the profile: another process and the next start see it, until a person sets lending on', async () => {
    const kept = new Map<string, number>();
    const store = {
      at: (id: string) => kept.get(id) ?? null,
      keep: (id: string, at: number | null) => (at === null ? kept.delete(id) : kept.set(id, at), true),
    };
    const app = new GovernorRegistry(() => 1, { clock, refusals: store });
    const held = await refuseOnLent(app, 'p', 1);
    expect(kept.get('p')).toBe(clock.now());
    expect(app.lendingStoppedAt('p')).toBe(clock.now());
    // Another process (or the app after a restart) reads it: its governor starts with lending stopped.
    const cli = new GovernorRegistry(() => 1, { clock, refusals: store });
    expect(cli.lendingStopped('p')).toBe(true);
    const g2 = cli.for('p');
    (await g2.acquire()).holds(5);
    cli.lend(5, clock.now() + 10_000);
    expect(g2.snapshot()).toMatchObject({ lending: false, lendingRefused: true, lent: 0, inUse: 1 });
    // A person sets lending on in that process (the store forgets the refusal in the same write): the
    // governor there lends at once, and the app's at its next start.
    kept.delete('p');
    cli.applyLending('p');
    expect(g2.snapshot()).toMatchObject({ lending: true, lendingRefused: false });
    expect(app.lendingStopped('p')).toBe(false);
    expect(app.for('p').snapshot().lending).toBe(true);
    held.release();
  });

  it('holds a refusal in memory when the store cannot keep it (a profile with no row, a store that throws), and never lends again by mistake', async () => {
    const noRow = new GovernorRegistry(() => 1, { clock, refusals: { at: () => null, keep: () => false } });
    await refuseOnLent(noRow, 'mem', 1);
    expect(noRow.lendingStopped('mem')).toBe(true);
    expect(noRow.for('mem').snapshot().lending).toBe(false);
    noRow.applyLending('mem'); // set on by a person: forgotten here too
    expect(noRow.for('mem').snapshot().lending).toBe(true);

    const broken = new GovernorRegistry(() => 1, {
      clock,
      refusals: {
        at: () => {
          throw new Error('disk I/O error');
        },
        keep: () => {
          throw new Error('database or disk is full');
        },
      },
    });
    await refuseOnLent(broken, 'b', 2);
    expect(broken.lendingStoppedAt('b')).toBe(clock.now());
    expect(broken.for('b').snapshot()).toMatchObject({ lending: false, lendingRefused: true });

    // A full disk that later has room: the refusal is reported, held here, and written at the next start.
    let full = true;
    const logged: unknown[] = [];
    const store = new Map<string, number>();
    const disk = new GovernorRegistry(() => 1, {
      clock,
      log: (e) => logged.push(e),
      refusals: {
        at: (id) => store.get(id) ?? null,
        keep: (id, at) => {
          if (full) throw new Error('database or disk is full');
          if (at === null) store.delete(id);
          else if (!store.has(id)) store.set(id, at);
          return true;
        },
      },
    });
    await refuseOnLent(disk, 'd', 6);
    expect(logged).toHaveLength(1);
    expect(store.has('d')).toBe(false);
    const refusedAt = disk.lendingStoppedAt('d');
    await clock.advance(5_000);
    full = false;
    expect(disk.for('d').snapshot().lending).toBe(false);
    expect(store.get('d')).toBe(refusedAt);
    // Kept, then the store cannot be read: lending stays stopped.
    let readable = true;
    const kept = new Map<string, number>();
    const flaky = new GovernorRegistry(() => 1, {
      clock,
      refusals: {
        at: (id) => {
          if (!readable) throw new Error('disk I/O error');
          return kept.get(id) ?? null;
        },
        keep: (id, at) => (at === null ? kept.delete(id) : kept.set(id, at), true),
      },
    });
    await refuseOnLent(flaky, 'f', 4);
    readable = false;
    expect(flaky.for('f').snapshot()).toMatchObject({ lending: false, lendingRefused: true });
    // Without a store at all (the default), the refusal holds for this process.
    const plain = new GovernorRegistry(() => 1, { clock });
    await refuseOnLent(plain, 'x', 3);
    expect(plain.for('x').snapshot().lending).toBe(false);
  });
});
