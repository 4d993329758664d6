// Follows accepted messages to the end of their call. A desktop has no address the provider could
// push to, so it polls /voice/status with backoff until a final state. Status queries are safe to
// repeat (they place no call), so transport failures are simply retried later.
import type { MessageRecord } from '../../common/records';
import type { MessageRepository } from '../store/message-repository';

/** What one poll found. */
export type PollResult = 'final' | 'open' | 'stop';

/** Seconds between polls: quick while the phone rings, slower while a call goes on. */
export const DEFAULT_BACKOFF_MS: readonly number[] = [2_000, 3_000, 4_000, 5_000, 5_000, 8_000, 10_000, 15_000, 20_000, 30_000];
/** A call not final after this long is no longer followed (the provider redials for minutes, not hours). */
export const DEFAULT_MAX_AGE_MS = 2 * 60 * 60 * 1000;

export interface TrackerOptions {
  repo: MessageRepository;
  /** Queries the provider once for this message and records what it said. */
  poll: (message: MessageRecord) => Promise<PollResult>;
  /** Told when a message reaches its final state (desktop notification). */
  onFinal?: (message: MessageRecord) => void;
  backoffMs?: readonly number[];
  /** Multiplies every delay (tests, and the sandbox's time scale). */
  delayScale?: number;
  maxAgeMs?: number;
  now?: () => number;
  log?: (error: unknown) => void;
}

export class CallTracker {
  private readonly timers = new Map<number, { attempt: number; timer: NodeJS.Timeout | null }>();
  private stopped = false;

  constructor(private readonly o: TrackerOptions) {}

  /** Starts following a message (idempotent). */
  track(id: number): void {
    if (this.stopped || this.timers.has(id)) return;
    const entry = { attempt: 0, timer: null as NodeJS.Timeout | null };
    this.timers.set(id, entry);
    this.schedule(id, entry);
  }

  /** Resumes every accepted message whose call had not ended (after a restart). */
  resumeOpen(): number[] {
    const ids = this.o.repo.openMessages().map((m) => m.id);
    ids.forEach((id) => this.track(id));
    return ids;
  }

  tracked(): number[] {
    return [...this.timers.keys()];
  }

  stop(): void {
    this.stopped = true;
    for (const { timer } of this.timers.values()) if (timer) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(id: number, entry: { attempt: number; timer: NodeJS.Timeout | null }): void {
    const backoff = this.o.backoffMs ?? DEFAULT_BACKOFF_MS;
    const delay = (backoff[Math.min(entry.attempt, backoff.length - 1)] ?? 30_000) * (this.o.delayScale ?? 1);
    entry.timer = setTimeout(() => void this.tick(id, entry), delay);
    entry.timer.unref?.();
  }

  private async tick(id: number, entry: { attempt: number; timer: NodeJS.Timeout | null }): Promise<void> {
    entry.timer = null;
    if (this.stopped) return;
    const message = this.o.repo.get(id);
    const now = (this.o.now ?? Date.now)();
    if (!message || message.endedAt !== null || message.outcome !== 'accepted' || !message.smsid) {
      this.timers.delete(id);
      return;
    }
    if (now - message.createdAt > (this.o.maxAgeMs ?? DEFAULT_MAX_AGE_MS)) {
      this.timers.delete(id);
      this.o.onFinal?.(this.o.repo.endTracking(id, 'Stopped following this call: no final state was reported in time.'));
      return;
    }
    let result: PollResult = 'open';
    try {
      result = await this.o.poll(message);
    } catch (error) {
      this.o.log?.(error);
      result = 'open';
    }
    if (this.stopped) return;
    if (result === 'open') {
      entry.attempt++;
      this.schedule(id, entry);
      return;
    }
    this.timers.delete(id);
    if (result === 'final') this.o.onFinal?.(this.o.repo.require(id));
  }
}
