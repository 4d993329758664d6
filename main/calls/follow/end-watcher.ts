// Waits for messages to settle: the call's final state (answered, no answer, busy, ...), an end of
// following, or an outcome that places no call to follow (rejected, unknown). Fed by every message
// change (notify), with a periodic look at the store as a safety net for a change made by another
// process (the app and the CLI share the database).
import { isSettled } from '../../../common/domain/status';
import type { MessageRecord } from '../../../common/records';
import { systemClock, type Clock, type TimerHandle } from '../../clock';

export interface EndWatcherOptions {
  /** Reads a message from the store. */
  get: (id: number) => MessageRecord | undefined;
  /** How often the store is checked for watched messages (real ms). Default 1000. */
  pollMs?: number;
  clock?: Clock;
}

interface Watch {
  resolve: (m: MessageRecord) => void;
  reject: (e: Error) => void;
  detach?: () => void;
}

export class EndWatcher {
  private readonly watches = new Map<number, Watch[]>();
  private timer: TimerHandle | null = null;
  private closed = false;

  constructor(private readonly o: EndWatcherOptions) {}

  /** Resolves with the message once it is settled (see isSettled). */
  awaitEnd(id: number, signal?: AbortSignal): Promise<MessageRecord> {
    if (this.closed) return Promise.reject(new Error('The watcher is closed.'));
    const now = this.o.get(id);
    if (!now) return Promise.reject(new Error(`Message ${id} does not exist.`));
    if (isSettled(now)) return Promise.resolve(now);
    return new Promise<MessageRecord>((resolve, reject) => {
      const w: Watch = { resolve, reject };
      const list = this.watches.get(id) ?? [];
      list.push(w);
      this.watches.set(id, list);
      if (signal) {
        const onAbort = () => {
          const l = this.watches.get(id);
          if (l) {
            const i = l.indexOf(w);
            if (i >= 0) l.splice(i, 1);
            if (l.length === 0) this.watches.delete(id);
          }
          reject(Object.assign(new Error('Stopped waiting for the call to end.'), { name: 'AbortError' }));
        };
        if (signal.aborted) onAbort();
        else {
          signal.addEventListener('abort', onAbort, { once: true });
          w.detach = () => signal.removeEventListener('abort', onAbort);
        }
      }
      this.schedule();
    });
  }

  /** Tell the watcher about a message change (every push of main:message-updated). */
  notify(m: MessageRecord): void {
    if (!isSettled(m)) return;
    const list = this.watches.get(m.id);
    if (!list) return;
    this.watches.delete(m.id);
    for (const w of list) {
      w.detach?.();
      w.resolve(m);
    }
  }

  watching(): number[] {
    return [...this.watches.keys()];
  }

  close(): void {
    this.closed = true;
    this.timer?.cancel();
    this.timer = null;
    for (const list of this.watches.values()) for (const w of list) w.reject(new Error('The watcher was closed.'));
    this.watches.clear();
  }

  private schedule(): void {
    if (this.timer || this.closed || this.watches.size === 0) return;
    this.timer = (this.o.clock ?? systemClock).setTimeout(() => {
      this.timer = null;
      for (const id of [...this.watches.keys()]) {
        const m = this.o.get(id);
        if (m) this.notify(m);
      }
      this.schedule();
    }, this.o.pollMs ?? 1000);
    // Not unref'd: while someone waits for a call to end, a plain Node process (the CLI) stays up.
  }
}
