// When to look again at a call that is still going on. A desktop has no address the provider could
// push to, so calls are followed by polling: quick while the phone rings, slower while a call goes
// on, until a final state. What one look does (query the provider, record what it said, decide)
// is the call service's: this only keeps the timers. Status queries place no call, so a look that
// failed in transit is simply tried again later.
import type { MessageRecord } from '../../common/records';

/** What one look found: the call ended, is still going on, or can no longer be followed. */
export type LookResult = 'final' | 'open' | 'stop';

/** Waits between looks: quick while the phone rings, slower while a call goes on. */
export const DEFAULT_BACKOFF_MS: readonly number[] = [2_000, 3_000, 4_000, 5_000, 5_000, 8_000, 10_000, 15_000, 20_000, 30_000];
/** A call not final after this long is no longer followed (the provider redials for minutes, not hours). */
export const DEFAULT_MAX_AGE_MS = 2 * 60 * 60 * 1000;

export interface FollowerOptions {
  /** Reads the message as stored. */
  get: (id: number) => MessageRecord | undefined;
  /** Looks once at this message's call (the call service queries the provider and records it). */
  look: (message: MessageRecord) => Promise<LookResult>;
  /** The call was not final after maxAgeMs: stop following it, saying why. */
  expire: (message: MessageRecord) => void;
  /** Told when a followed call reached its final state. */
  onFinal?: (id: number) => void;
  backoffMs?: readonly number[];
  /** Multiplies every wait (tests, and the sandbox's time scale). */
  delayScale?: number;
  maxAgeMs?: number;
  now?: () => number;
  log?: (error: unknown) => void;
}

interface Entry {
  attempt: number;
  timer: NodeJS.Timeout | null;
}

export class Follower {
  private readonly entries = new Map<number, Entry>();
  private stopped = false;

  constructor(private readonly o: FollowerOptions) {}

  /** Starts following a message (idempotent). */
  follow(id: number): void {
    if (this.stopped || this.entries.has(id)) return;
    const entry: Entry = { attempt: 0, timer: null };
    this.entries.set(id, entry);
    this.schedule(id, entry);
  }

  following(): number[] {
    return [...this.entries.keys()];
  }

  stop(): void {
    this.stopped = true;
    for (const { timer } of this.entries.values()) if (timer) clearTimeout(timer);
    this.entries.clear();
  }

  private schedule(id: number, entry: Entry): void {
    const backoff = this.o.backoffMs ?? DEFAULT_BACKOFF_MS;
    const delay = (backoff[Math.min(entry.attempt, backoff.length - 1)] ?? 30_000) * (this.o.delayScale ?? 1);
    entry.timer = setTimeout(() => void this.tick(id, entry), delay);
    entry.timer.unref?.();
  }

  private async tick(id: number, entry: Entry): Promise<void> {
    entry.timer = null;
    if (this.stopped) return;
    const message = this.o.get(id);
    if (!message || message.endedAt !== null || message.outcome !== 'accepted' || !message.smsid) {
      this.entries.delete(id);
      return;
    }
    if ((this.o.now ?? Date.now)() - message.createdAt > (this.o.maxAgeMs ?? DEFAULT_MAX_AGE_MS)) {
      this.entries.delete(id);
      this.o.expire(message);
      return;
    }
    let result: LookResult = 'open';
    try {
      result = await this.o.look(message);
    } catch (error) {
      this.o.log?.(error);
    }
    if (this.stopped) return;
    if (result === 'open') {
      entry.attempt++;
      this.schedule(id, entry);
      return;
    }
    this.entries.delete(id);
    if (result === 'final') this.o.onFinal?.(id);
  }
}
