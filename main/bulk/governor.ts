// The rate governor: keeps the calls of one profile under the provider's limits (spec section 8:
// 20 concurrent calls per line, about 2,000 calls an hour per line).
//
// What counts as "concurrent": the provider limits concurrent CALLS, and a call lasts well beyond
// its send request (it rings, is answered or redialled, and talks: 20 s and more). So a slot is
// taken when a send starts and given back only when that call reaches a final state (the queue
// releases it when the tracker reports the call ended), or at once when the provider provably
// placed no call (rejected). The hourly limit is a sliding window over the START times of sends.
//
// Slots are handed to waiters the moment one frees (no polling), so while items wait the slots in
// use stay at the limit unless the hourly window is what holds them back.

export const CALLS_PER_LINE = 20;
export const CALLS_PER_HOUR_PER_LINE = 2000;
export const HOUR_MS = 60 * 60 * 1000;

export interface GovernorLimits {
  /** Calls at the same time. */
  concurrency: number;
  /** Send starts within any rolling hour. */
  perHour: number;
}

export function limitsForLines(lines: number): GovernorLimits {
  const n = Number.isInteger(lines) && lines > 0 ? lines : 1;
  return { concurrency: CALLS_PER_LINE * n, perHour: CALLS_PER_HOUR_PER_LINE * n };
}

export interface GovernorOptions {
  limits: GovernorLimits;
  /** Shrinks the hour: the window is HOUR_MS × timeScale real ms (tests and benchmarks against a sped-up sandbox). Default 1. */
  timeScale?: number;
  now?: () => number;
}

export interface Slot {
  readonly startedAt: number;
  /**
   * Gives the slot back. `refund: true` also removes its start from the hourly window: only when
   * the request provably never reached the provider.
   */
  release(opts?: { refund?: boolean }): void;
  readonly released: boolean;
}

export interface GovernorSnapshot {
  limits: GovernorLimits;
  /** Slots held now (sends in flight and calls not ended). */
  inUse: number;
  /** Callers waiting for a slot. */
  waiting: number;
  /** Send starts inside the current hourly window. */
  startsInWindow: number;
  /** Most slots ever held at once. */
  peak: number;
  /**
   * Mean of inUse / concurrency over the time someone was waiting for a slot while the hourly window
   * allowed more starts (0..1; null before any such time). This is what "the limit is used" means.
   */
  utilization: number | null;
  /** Milliseconds someone waited while the concurrency limit was what held them. */
  waitingMs: number;
  /** Milliseconds someone waited because the hourly window was full. */
  rateLimitedMs: number;
}

class AbortedError extends Error {
  constructor() {
    super('The wait for a call slot was cancelled.');
    this.name = 'AbortError';
  }
}

interface Waiter {
  resolve: (slot: Slot) => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** One profile's limits. */
export class Governor {
  private limitsValue: GovernorLimits;
  private readonly timeScale: number;
  private readonly now: () => number;
  private inUse = 0;
  private peak = 0;
  /** Start times inside (or just past) the window, oldest first. */
  private starts: number[] = [];
  private startsHead = 0;
  private readonly priority: Waiter[] = [];
  private readonly normal: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;
  // utilization accounting (time-weighted)
  private lastAt: number;
  private busyIntegral = 0;
  private waitingMs = 0;
  private rateLimitedMs = 0;
  /** The state since the last change (utilization is integrated under it). */
  private since = { waiting: false, inUse: 0, rateBlocked: false };

  constructor(options: GovernorOptions) {
    this.limitsValue = { ...options.limits };
    this.timeScale = options.timeScale ?? 1;
    this.now = options.now ?? Date.now;
    this.lastAt = this.now();
  }

  get limits(): GovernorLimits {
    return { ...this.limitsValue };
  }

  /** New limits (e.g. the profile's lines changed); they apply to the next start. */
  setLimits(limits: GovernorLimits): void {
    this.account();
    this.limitsValue = { ...limits };
    this.pump();
  }

  get windowMs(): number {
    return HOUR_MS * this.timeScale;
  }

  /** Waits for a free slot. Priority callers (a person dialling) go before queued batch items. */
  acquire(opts: { priority?: boolean; signal?: AbortSignal } = {}): Promise<Slot> {
    if (opts.signal?.aborted) return Promise.reject(new AbortedError());
    const queue = opts.priority ? this.priority : this.normal;
    return new Promise<Slot>((resolve, reject) => {
      this.account();
      const w: Waiter = { resolve, reject, signal: opts.signal };
      if (opts.signal) {
        w.onAbort = () => {
          this.account();
          const i = queue.indexOf(w);
          if (i >= 0) queue.splice(i, 1);
          reject(new AbortedError());
          this.pump();
        };
        opts.signal.addEventListener('abort', w.onAbort, { once: true });
      }
      queue.push(w);
      this.pump();
    });
  }

  /** A slot now, or null when the limits say wait. Never queues. */
  tryAcquire(): Slot | null {
    this.account();
    if (this.priority.length || this.normal.length || !this.canStart()) return null;
    const slot = this.take();
    this.record();
    return slot;
  }

  /**
   * Counts calls that already hold lines without starting them (calls still ringing after a restart).
   * May take the count above the limit for a while: nothing new starts until it is back under.
   */
  adopt(): Slot {
    this.account();
    const slot = this.makeSlot(this.now(), false);
    this.record();
    return slot;
  }

  snapshot(): GovernorSnapshot {
    this.account();
    return {
      limits: this.limits,
      inUse: this.inUse,
      waiting: this.priority.length + this.normal.length,
      startsInWindow: this.windowCount(),
      peak: this.peak,
      utilization: this.waitingMs > 0 ? this.busyIntegral / this.waitingMs : null,
      waitingMs: this.waitingMs,
      rateLimitedMs: this.rateLimitedMs,
    };
  }

  /** Forgets the measured utilization (a benchmark's run starts here). */
  resetStats(): void {
    this.account();
    this.busyIntegral = 0;
    this.waitingMs = 0;
    this.rateLimitedMs = 0;
    this.peak = this.inUse;
  }

  /** Rejects every waiter and stops the timer. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const w of [...this.priority.splice(0), ...this.normal.splice(0)]) {
      if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
      w.reject(new AbortedError());
    }
    this.record();
  }

  // ------------------------------------------------------------ internals

  private windowCount(): number {
    const cutoff = this.now() - this.windowMs;
    while (this.startsHead < this.starts.length && this.starts[this.startsHead]! <= cutoff) this.startsHead++;
    if (this.startsHead > 1024 && this.startsHead * 2 > this.starts.length) {
      this.starts = this.starts.slice(this.startsHead);
      this.startsHead = 0;
    }
    return this.starts.length - this.startsHead;
  }

  private canStart(): boolean {
    return this.inUse < this.limitsValue.concurrency && this.windowCount() < this.limitsValue.perHour;
  }

  /** Integrates utilization up to now, under the state that held since the last change. */
  private account(): void {
    const t = this.now();
    const dt = t - this.lastAt;
    this.lastAt = t;
    if (dt <= 0 || !this.since.waiting) return;
    if (this.since.rateBlocked) {
      this.rateLimitedMs += dt;
      return;
    }
    this.waitingMs += dt;
    this.busyIntegral += dt * Math.min(1, this.since.inUse / this.limitsValue.concurrency);
  }

  /** Notes the state after a change. The window only changes on its own when a start leaves it: the pump's timer is there then. */
  private record(): void {
    this.since = {
      waiting: this.priority.length + this.normal.length > 0,
      inUse: this.inUse,
      rateBlocked: this.windowCount() >= this.limitsValue.perHour,
    };
  }

  private take(): Slot {
    const at = this.now();
    this.starts.push(at);
    return this.makeSlot(at, true);
  }

  private makeSlot(at: number, counted: boolean): Slot {
    this.inUse++;
    this.peak = Math.max(this.peak, this.inUse);
    let released = false;
    return {
      startedAt: at,
      get released() {
        return released;
      },
      release: (opts) => {
        if (released) return;
        released = true;
        this.account();
        this.inUse--;
        if (opts?.refund && counted) {
          const i = this.starts.lastIndexOf(at);
          if (i >= this.startsHead) this.starts.splice(i, 1);
        }
        this.pump();
      },
    };
  }

  private pump(): void {
    while (this.priority.length + this.normal.length > 0 && this.canStart()) {
      const w = (this.priority.length ? this.priority : this.normal).shift()!;
      if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
      w.resolve(this.take());
    }
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    // The hourly window is full: wake up when its oldest start leaves it.
    if (this.priority.length + this.normal.length > 0 && this.windowCount() >= this.limitsValue.perHour) {
      const oldest = this.starts[this.startsHead];
      if (oldest !== undefined) {
        const delay = Math.max(1, oldest + this.windowMs - this.now() + 1);
        this.timer = setTimeout(() => {
          this.timer = null;
          this.account();
          this.pump();
        }, delay);
        // Not unref'd: a waiter is a batch that still has items to send.
      }
    }
    this.record();
  }
}

/** One governor per profile, shared by every batch and every quick dial of that profile. */
export class GovernorRegistry {
  private readonly governors = new Map<string, Governor>();

  constructor(
    private readonly linesOf: (profileId: string) => number,
    private readonly options: { timeScale?: number; now?: () => number } = {},
  ) {}

  for(profileId: string): Governor {
    let g = this.governors.get(profileId);
    if (!g) {
      g = new Governor({ limits: limitsForLines(this.linesOf(profileId)), ...this.options });
      this.governors.set(profileId, g);
    } else {
      const limits = limitsForLines(this.linesOf(profileId));
      const current = g.limits;
      if (limits.concurrency !== current.concurrency || limits.perHour !== current.perHour) g.setLimits(limits);
    }
    return g;
  }

  snapshots(): Record<string, GovernorSnapshot> {
    return Object.fromEntries([...this.governors].map(([id, g]) => [id, g.snapshot()]));
  }

  close(): void {
    for (const g of this.governors.values()) g.close();
    this.governors.clear();
  }
}
