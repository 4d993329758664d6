// Lines (main/lines/): the rate governor (this file) and a profile's line settings (profile-lines.ts),
// used by the bulk queue, quick dial, the follower and the Profiles screen.
//
// The rate governor: keeps the calls of one profile under the provider's limits (spec section 8:
// 20 concurrent calls per line, about 2,000 calls an hour per line).
//
// What counts as "concurrent": the provider limits the calls on its lines, and a call lasts well
// beyond its send request (it rings, is answered or redialled, and talks: 20 s and more). So a slot
// is taken when a send starts and given back only when that call reaches a final state (the queue
// releases it when the tracker reports the call ended), or at once when the provider provably
// placed no call (rejected). The hourly limit is a sliding window over the START times of sends.
//
// One exception, the redial: after a no-answer the provider waits before it redials, and meanwhile
// the call holds no line. A slot whose call is seen waiting to redial is lent to the next call
// until the moment the redial is expected (learned per profile: see the follower) or is seen, then
// counted again. If the lent line is still busy then, the count stands over the limit for a while:
// nothing new starts until it is back under, and the provider, which never has more than its lines'
// calls on them, dials its redial when one of them frees. If the provider refuses a send that
// started on a lent line, lending stops on the profile. A profile can also be set not to lend
// (a provider that counts calls waiting for a redial against its lines).
//
// Slots are handed to waiters the moment one frees (no polling), so while items wait the slots in
// use stay at the limit unless the hourly window is what holds them back.

import { limitsForLines } from '../../common/domain/lines';
import { systemClock, type Clock, type TimerHandle } from '../clock';

export { CALLS_PER_HOUR_PER_LINE, CALLS_PER_LINE, limitsForLines } from '../../common/domain/lines';
export const HOUR_MS = 60 * 60 * 1000;

export interface GovernorLimits {
  /** Calls at the same time. */
  concurrency: number;
  /** Send starts within any rolling hour. */
  perHour: number;
}

export interface GovernorOptions {
  limits: GovernorLimits;
  /** The time and the timers (the hourly window, lent lines). Default systemClock. */
  clock?: Clock;
  /** Told when a refusal stops lending (the registry keeps it with the profile). */
  onLendRefused?: () => void;
}

export interface Slot {
  readonly startedAt: number;
  /**
   * Gives the slot back. `refund: true` also removes its start from the hourly window: only when
   * the request provably never reached the provider.
   */
  release(opts?: { refund?: boolean }): void;
  readonly released: boolean;
  /**
   * The call this slot's line is for, once the provider accepted it: news that the provider waits
   * to redial it lends the line (Governor.lend).
   */
  holds(messageId: number): void;
  /**
   * The provider refused this send for a reason that is not the number's. If it started on a lent
   * line, the provider may count calls waiting for a redial against its lines: lending stops on this
   * profile (until a person sets it to lend again) and every lent line counts again at once.
   */
  refused(): void;
}

export interface GovernorSnapshot {
  limits: GovernorLimits;
  /** Slots held now (sends in flight and calls not ended, less the calls waiting to be redialled). */
  inUse: number;
  /** Slots lent now: their calls wait for the provider's redial and hold no line. */
  lent: number;
  /** Lines are lent while calls wait for a redial (false when the profile is set not to, or once a send started on a lent line was refused). */
  lending: boolean;
  /** Lending stopped because the provider refused a send that started on a lent line (until the profile is set to lend again). */
  lendingRefused: boolean;
  /** Callers waiting for a slot. */
  waiting: number;
  /** Send starts inside the current hourly window. */
  startsInWindow: number;
  /** Most slots ever held at once (above the limit only while a redial came due on a lent line). */
  peak: number;
  /** Most slots held just after a start: never above the limit (a start waits while the count is at it). */
  peakAtStart: number;
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

/** A held slot's bookkeeping. */
interface SlotState {
  released: boolean;
  /** Taken while some line was lent. */
  onLent: boolean;
  /** Lent while its call waits for a redial: given back to the count at this timer. */
  lentTimer: TimerHandle | null;
  messageId: number | null;
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
  private readonly clock: Clock;
  private inUse = 0;
  private peak = 0;
  private peakAtStart = 0;
  /** Start times inside (or just past) the window, oldest first. */
  private starts: number[] = [];
  private startsHead = 0;
  private readonly priority: Waiter[] = [];
  private readonly normal: Waiter[] = [];
  private timer: TimerHandle | null = null;
  // utilization accounting (time-weighted)
  private lastAt: number;
  private busyIntegral = 0;
  private waitingMs = 0;
  private rateLimitedMs = 0;
  /** Slots by the call they hold a line for (see Slot.holds), and the lent ones' timers. */
  private readonly byMessage = new Map<number, SlotState>();
  /** The profile's setting (see GovernorRegistry): lines may be lent. */
  private lendAllowed = true;
  /** The provider refused a send that started on a lent line. */
  private lendRefused = false;
  private readonly onLendRefused: (() => void) | undefined;
  /** The state since the last change (utilization is integrated under it). */
  private since = { waiting: false, inUse: 0, rateBlocked: false };

  constructor(options: GovernorOptions) {
    this.limitsValue = { ...options.limits };
    this.clock = options.clock ?? systemClock;
    this.onLendRefused = options.onLendRefused;
    this.lastAt = this.clock.now();
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
    return HOUR_MS;
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
    const slot = this.makeSlot(this.clock.now(), false);
    this.record();
    return slot;
  }

  /**
   * The provider waits to redial this call until about `untilMs` (this governor's clock): its line
   * is free until then, so the next call may take it. At `untilMs` (or at `lend(id, null)`: the
   * call was seen on a line again) the slot counts again, over the limit if the lent line is still
   * busy: then nothing new starts until the count is back under. Unknown or released calls: nothing.
   */
  lend(messageId: number, untilMs: number | null): void {
    const st = this.byMessage.get(messageId);
    if (!st || st.released) return;
    const delay = untilMs === null || !this.lending ? 0 : untilMs - this.clock.now();
    if (delay <= 0) {
      this.reclaim(st);
      return;
    }
    this.account();
    if (st.lentTimer) st.lentTimer.cancel();
    else this.inUse--;
    st.lentTimer = this.clock.setTimeout(() => this.reclaim(st), delay).unref();
    this.pump();
  }

  /** The profile's setting as this governor follows it. */
  get lendingAllowed(): boolean {
    return this.lendAllowed;
  }

  /** Lines are lent while calls wait for a redial. */
  get lending(): boolean {
    return this.lendAllowed && !this.lendRefused;
  }

  /** Lending stopped after a refusal (here or, as kept with the profile, in another process). */
  get lendingRefused(): boolean {
    return this.lendRefused;
  }

  /** A refusal seen elsewhere (another process, or before a restart) stopped lending: every lent line counts again at once. */
  stopLending(): void {
    if (this.lendRefused) return;
    this.lendRefused = true;
    this.reclaimAll();
  }

  /**
   * The profile's setting. Off: every lent line counts again at once. On again (a person chose so):
   * lending resumes, also after a refusal had stopped it.
   */
  setLending(allowed: boolean): void {
    this.lendAllowed = allowed;
    if (allowed) this.lendRefused = false;
    else this.reclaimAll();
  }

  snapshot(): GovernorSnapshot {
    this.account();
    return {
      limits: this.limits,
      inUse: this.inUse,
      lent: this.lentCount(),
      lending: this.lending,
      lendingRefused: this.lendRefused,
      waiting: this.priority.length + this.normal.length,
      startsInWindow: this.windowCount(),
      peak: this.peak,
      peakAtStart: this.peakAtStart,
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
    this.peakAtStart = 0;
  }

  /** Rejects every waiter and stops the timer. */
  close(): void {
    this.timer?.cancel();
    this.timer = null;
    for (const st of this.byMessage.values()) st.lentTimer?.cancel();
    this.byMessage.clear();
    for (const w of [...this.priority.splice(0), ...this.normal.splice(0)]) {
      if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
      w.reject(new AbortedError());
    }
    this.record();
  }

  // ------------------------------------------------------------ internals

  private windowCount(): number {
    const cutoff = this.clock.now() - this.windowMs;
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
    const t = this.clock.now();
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

  private lentCount(): number {
    let n = 0;
    for (const st of this.byMessage.values()) if (st.lentTimer !== null) n++;
    return n;
  }

  private take(): Slot {
    const at = this.clock.now();
    this.starts.push(at);
    const slot = this.makeSlot(at, true, this.lentCount() > 0);
    this.peakAtStart = Math.max(this.peakAtStart, this.inUse);
    return slot;
  }

  private makeSlot(at: number, counted: boolean, onLent = false): Slot {
    this.inUse++;
    this.peak = Math.max(this.peak, this.inUse);
    const st: SlotState = { released: false, onLent, lentTimer: null, messageId: null };
    return {
      startedAt: at,
      get released() {
        return st.released;
      },
      holds: (messageId) => {
        if (st.released || st.messageId !== null) return;
        st.messageId = messageId;
        this.byMessage.set(messageId, st);
      },
      refused: () => {
        if (!st.onLent || !this.lending) return;
        this.stopLending();
        this.onLendRefused?.();
      },
      release: (opts) => {
        if (st.released) return;
        st.released = true;
        this.account();
        if (st.messageId !== null) this.byMessage.delete(st.messageId);
        // A lent slot no longer counts: only its timer goes.
        if (st.lentTimer) st.lentTimer.cancel();
        else this.inUse--;
        st.lentTimer = null;
        if (opts?.refund && counted) {
          const i = this.starts.lastIndexOf(at);
          if (i >= this.startsHead) this.starts.splice(i, 1);
        }
        this.pump();
      },
    };
  }

  private reclaimAll(): void {
    for (const st of this.byMessage.values()) this.reclaim(st);
  }

  /** A lent slot counts again (its redial is due, or its call was seen on a line). */
  private reclaim(st: SlotState): void {
    if (st.released || !st.lentTimer) return;
    this.account();
    st.lentTimer.cancel();
    st.lentTimer = null;
    this.inUse++;
    this.peak = Math.max(this.peak, this.inUse);
    this.record();
  }

  private pump(): void {
    while (this.priority.length + this.normal.length > 0 && this.canStart()) {
      const w = (this.priority.length ? this.priority : this.normal).shift()!;
      if (w.onAbort) w.signal?.removeEventListener('abort', w.onAbort);
      w.resolve(this.take());
    }
    if (this.timer) {
      this.timer.cancel();
      this.timer = null;
    }
    // The hourly window is full: wake up when its oldest start leaves it.
    if (this.priority.length + this.normal.length > 0 && this.windowCount() >= this.limitsValue.perHour) {
      const oldest = this.starts[this.startsHead];
      if (oldest !== undefined) {
        const delay = Math.max(1, oldest + this.windowMs - this.clock.now() + 1);
        this.timer = this.clock.setTimeout(() => {
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

/** Where a refusal that stopped lending is kept (with the profile, so every process and the next start know it). */
export interface LendRefusals {
  /** When lending stopped on the profile (epoch ms), or null. */
  at(profileId: string): number | null;
  /** Keeps (a time) or clears (null) it; false when the profile cannot keep it (e.g. it lives only in memory). */
  keep(profileId: string, at: number | null): boolean;
}

/** One governor per profile, shared by every batch and every quick dial of that profile. */
export class GovernorRegistry {
  private readonly governors = new Map<string, Governor>();
  /** Refusals seen in this process that the store could not keep (they still hold here). */
  private readonly unkept = new Map<string, number>();

  /**
   * @param linesOf a profile's lines
   * @param options.lendingOf whether a profile's lines may be lent while its calls wait for a redial (default: yes)
   * @param options.refusals where a refusal that stopped lending is kept (default: this process only)
   * @param options.log where a refusal that could not be kept is reported
   */
  constructor(
    private readonly linesOf: (profileId: string) => number,
    private readonly options: { clock?: Clock; lendingOf?: (profileId: string) => boolean; refusals?: LendRefusals; log?: (error: unknown) => void } = {},
  ) {}

  /**
   * The profile's governor, its limits and lending as the profile is set now (read again at every
   * start: another process, the CLI or the app, may have changed them, or seen a refusal).
   */
  for(profileId: string): Governor {
    const { clock } = this.options;
    let g = this.governors.get(profileId);
    if (!g) {
      g = new Governor({ limits: limitsForLines(this.linesOf(profileId)), clock, onLendRefused: () => this.keepRefusal(profileId) });
      this.governors.set(profileId, g);
    } else {
      const limits = limitsForLines(this.linesOf(profileId));
      const current = g.limits;
      if (limits.concurrency !== current.concurrency || limits.perHour !== current.perHour) g.setLimits(limits);
    }
    const allowed = this.options.lendingOf?.(profileId) ?? true;
    if (allowed !== g.lendingAllowed) g.setLending(allowed);
    this.retryUnkept(profileId);
    const refusal = this.refusal(profileId);
    // Unknown (the store cannot be read): the governor keeps what it knows.
    if (allowed && refusal !== undefined) {
      if (refusal !== null && !g.lendingRefused) g.stopLending();
      // Cleared elsewhere: a person set the profile to lend again (e.g. `callout profile update --lend-lines on`).
      else if (refusal === null && g.lendingRefused) g.setLending(true);
    }
    return g;
  }

  /** Lending stopped on this profile after a refusal, here, in another process or before a restart (false when not). */
  lendingStopped(profileId: string): boolean {
    return this.lendingStoppedAt(profileId) !== null;
  }

  /** When lending stopped on this profile after a refusal (epoch ms), or null. */
  lendingStoppedAt(profileId: string): number | null {
    return this.refusal(profileId) ?? null;
  }

  /** When a refusal stopped lending, null when none did, undefined when the store cannot be read. */
  private refusal(profileId: string): number | null | undefined {
    if (this.unkept.has(profileId)) return this.unkept.get(profileId)!;
    try {
      return this.options.refusals?.at(profileId) ?? null;
    } catch {
      return undefined;
    }
  }

  /**
   * A person set the profile's lending (on or off; the store forgets a kept refusal when it is set
   * on): its governor follows it at once, and set on, a refusal held only here is forgotten too.
   */
  applyLending(profileId: string): void {
    if (this.options.lendingOf?.(profileId) ?? true) this.unkept.delete(profileId);
    this.for(profileId);
  }

  /** A refusal stopped lending on this profile: kept with the profile, or here when it cannot be. */
  private keepRefusal(profileId: string): void {
    const at = (this.options.clock ?? systemClock).now();
    let kept: boolean;
    try {
      kept = this.options.refusals?.keep(profileId, at) ?? false;
    } catch (error) {
      this.options.log?.(error);
      kept = false;
    }
    if (!kept) this.unkept.set(profileId, at);
  }

  /** A refusal held only here is written again once the store can keep it (e.g. the disk has room again). */
  private retryUnkept(profileId: string): void {
    const at = this.unkept.get(profileId);
    if (at === undefined || !this.options.refusals) return;
    try {
      if (this.options.refusals.keep(profileId, at)) this.unkept.delete(profileId);
    } catch {
      // Still cannot be kept: it holds here (reported when first seen).
    }
  }

  /** Lends (or, with null, takes back) the line of the call with this message ID, whichever profile holds it. */
  lend(messageId: number, untilMs: number | null): void {
    for (const g of this.governors.values()) g.lend(messageId, untilMs);
  }

  snapshots(): Record<string, GovernorSnapshot> {
    return Object.fromEntries([...this.governors].map(([id, g]) => [id, g.snapshot()]));
  }

  close(): void {
    for (const g of this.governors.values()) g.close();
    this.governors.clear();
  }
}
