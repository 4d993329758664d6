// The one clock of main. Everything in main that reads the time or waits takes a `Clock` from the
// composition root: production runs on `systemClock`, tests on a `ManualClock` that they advance.
// This is the only module of main allowed to touch `Date.now()`, `setTimeout` and `setInterval`
// (eslint enforces it).

/** A pending timer: cancel it, or let it stop keeping a process alive. */
export interface TimerHandle {
  cancel(): void;
  /** The timer no longer keeps the process alive (Node's `unref`); a no-op on a manual clock. */
  unref(): TimerHandle;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** A `Date` for now. */
  date(): Date;
  /** Runs `fn` once after `ms` milliseconds (0 or less: on the next turn). */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Runs `fn` every `ms` milliseconds until cancelled. */
  setInterval(fn: () => void, ms: number): TimerHandle;
  /** Runs `fn` at the epoch time `at` (at once when it has passed). */
  wakeAt(at: number, fn: () => void): TimerHandle;
  /** Resolves after `ms` milliseconds; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

abstract class BaseClock implements Clock {
  abstract now(): number;
  abstract setTimeout(fn: () => void, ms: number): TimerHandle;
  abstract setInterval(fn: () => void, ms: number): TimerHandle;

  date(): Date {
    return new Date(this.now());
  }

  wakeAt(at: number, fn: () => void): TimerHandle {
    return this.setTimeout(fn, at - this.now());
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        timer.cancel();
        reject(signal?.reason);
      };
      const timer = this.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** The longest delay Node's timers take as given. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The real clock: the system's time and Node's timers. */
class SystemClock extends BaseClock {
  now(): number {
    return Date.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    // Node fires a delay past 2^31-1 ms (24.8 days) at once: a longer wait is taken in steps.
    if (ms > MAX_TIMER_MS) {
      let inner: TimerHandle | null = null;
      let unref = false;
      const outer = nodeHandle(
        setTimeout(() => {
          inner = this.setTimeout(fn, ms - MAX_TIMER_MS);
          if (unref) inner.unref();
        }, MAX_TIMER_MS),
        clearTimeout,
      );
      const handle: TimerHandle = {
        cancel: () => {
          outer.cancel();
          inner?.cancel();
        },
        unref: () => {
          unref = true;
          outer.unref();
          inner?.unref();
          return handle;
        },
      };
      return handle;
    }
    return nodeHandle(setTimeout(fn, Math.max(0, ms)), clearTimeout);
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    return nodeHandle(setInterval(fn, Math.max(1, ms)), clearInterval);
  }
}

function nodeHandle(t: NodeJS.Timeout, clear: (t: NodeJS.Timeout) => void): TimerHandle {
  const handle: TimerHandle = {
    cancel: () => clear(t),
    unref: () => {
      t.unref();
      return handle;
    },
  };
  return handle;
}

export const systemClock: Clock = new SystemClock();

interface ManualTimer {
  id: number;
  at: number;
  every: number | null;
  fn: () => void;
}

/**
 * A clock that moves only when a test moves it. `advance(ms)` runs every timer that falls due on
 * the way, in time order, each with `now()` at its own moment, and lets promises settle between them
 * (so code that awaits and then sets the next timer is followed through).
 */
export class ManualClock extends BaseClock {
  private current: number;
  private seq = 0;
  private readonly timers = new Map<number, ManualTimer>();

  constructor(start: number | Date = Date.UTC(2026, 10, 27, 2, 0, 0)) {
    super();
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.add(fn, Math.max(0, ms), null);
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    return this.add(fn, Math.max(1, ms), Math.max(1, ms));
  }

  /** How many timers are waiting. */
  get pending(): number {
    return this.timers.size;
  }

  /** When the next timer falls due, or null. */
  nextAt(): number | null {
    let next: number | null = null;
    for (const t of this.timers.values()) if (next === null || t.at < next) next = t.at;
    return next;
  }

  /** Moves the clock forward by `ms`, running every timer due on the way. */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.current + ms);
  }

  /** Moves the clock to `at` (an epoch time), running every timer due on the way. */
  async advanceTo(at: number): Promise<void> {
    await settle();
    for (;;) {
      const due = this.firstDue(at);
      if (!due) break;
      this.current = Math.max(this.current, due.at);
      if (due.every === null) this.timers.delete(due.id);
      else due.at += due.every;
      due.fn();
      await settle();
    }
    this.current = Math.max(this.current, at);
    await settle();
  }

  /** Runs timers until none is left or `limitMs` has passed (a safety bound). */
  async runAll(limitMs = 24 * 3600_000): Promise<void> {
    const end = this.current + limitMs;
    for (;;) {
      const next = this.nextAt();
      if (next === null || next > end) break;
      await this.advanceTo(next);
    }
  }

  /** Sets the time without running timers (a jump of the system clock). */
  set(at: number): void {
    this.current = at;
  }

  private firstDue(at: number): ManualTimer | undefined {
    let first: ManualTimer | undefined;
    for (const t of this.timers.values()) {
      if (t.at > at) continue;
      if (!first || t.at < first.at || (t.at === first.at && t.id < first.id)) first = t;
    }
    return first;
  }

  private add(fn: () => void, ms: number, every: number | null): TimerHandle {
    const id = ++this.seq;
    this.timers.set(id, { id, at: this.current + ms, every, fn });
    const handle: TimerHandle = {
      cancel: () => {
        this.timers.delete(id);
      },
      unref: () => handle,
    };
    return handle;
  }
}

/** Lets queued promise reactions (and I/O callbacks already due) run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
