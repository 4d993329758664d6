// The receipt listeners of every profile that follows its calls by receipts: started when such a
// profile is saved (the app) or first used (the CLI), stopped when it goes back to polling, each
// post kept as an exchange and recorded on its messages by the call service, answered as the
// profile's dialect says. A port already taken is most likely another Callout (the app while the
// CLI runs): that one receives, and both read the same database.
import type { Dialect } from '../../common/dialects';
import type { CallService } from '../calls/call-service';
import { fail } from '../errors';
import type { ProfileRecord } from '../store';
import { parsePost } from '../voice/replies';
import { receiptUrl, startReceiptListener, type ReceiptAck, type ReceiptListener } from './listener';

import type { ListenerState } from '../../common/contract/profiles';
import { type Clock } from '../clock';
export type { ListenerState };

export interface ListenerStatus {
  state: ListenerState;
  /** Where the provider posts (with the path secret), when the profile follows by receipts. */
  url: string | null;
}

export interface ReceiptListenersOptions {
  /** The profile as stored (or as this process knows it). */
  record: (profileId: string) => ProfileRecord | undefined;
  calls: Pick<CallService, 'receive'>;
  /** A listener on port 0 got this port: keep it, so the address does not change. */
  keepPort?: (profileId: string, port: number) => void;
  log?: (error: unknown) => void;
  /** Default systemClock. */
  clock?: Clock;
}

interface Running {
  listener: ReceiptListener;
  key: string;
}

const followsByReceipts = (p: ProfileRecord) => p.follow !== 'poll' && p.receipts.secret !== null;
const settingsKey = (p: ProfileRecord) => `${p.receipts.host}\n${p.receipts.port}\n${p.receipts.secret}`;

/** What to answer a post: the dialect's acknowledgement, or 400 when the body cannot be read at all. */
export function ackFor(dialect: Dialect, contentType: string | null, body: string): ReceiptAck {
  const ack = dialect.receipt?.ack ?? { status: 200, body: 'ok' };
  if (parsePost(body, contentType) === null) return { status: 400, type: 'text/plain; charset=utf-8', body: 'unreadable receipt' };
  const type = ack.type ?? (/^\s*[{[]/.test(ack.body) ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8');
  return { status: ack.status, type, body: ack.body };
}

export class ReceiptListeners {
  private readonly running = new Map<string, Running>();
  private readonly states = new Map<string, ListenerState>();
  private readonly pending = new Map<string, Promise<void>>();
  private closed = false;

  constructor(private readonly o: ReceiptListenersOptions) {}

  status(profileId: string): ListenerStatus {
    const p = this.o.record(profileId);
    if (!p || !followsByReceipts(p)) return { state: 'off', url: null };
    const run = this.running.get(profileId);
    return {
      state: run ? 'listening' : (this.states.get(profileId) ?? 'off'),
      url: run ? run.listener.url : receiptUrl(p.receipts.host, p.receipts.port, p.receipts.secret!),
    };
  }

  /**
   * Brings the profile's listener in line with its settings: started, restarted on a new address
   * or secret, or stopped. With `strict`, a failure to listen (other than a port another Callout
   * holds) is thrown as listen-failed.
   */
  sync(profileId: string, opts: { strict?: boolean } = {}): Promise<void> {
    // One change at a time per profile.
    const prev = this.pending.get(profileId) ?? Promise.resolve();
    const next = prev.then(() => this.syncNow(profileId, opts.strict ?? false));
    const settled = next.catch(() => undefined);
    this.pending.set(profileId, settled);
    void settled.then(() => {
      if (this.pending.get(profileId) === settled) this.pending.delete(profileId);
    });
    return next;
  }

  /** Starts the listener of a profile that follows by receipts, if it is not running (a failure is logged, not thrown). */
  async ensure(profileId: string): Promise<void> {
    if (this.running.has(profileId)) return;
    await this.sync(profileId).catch((e: unknown) => this.o.log?.(e));
  }

  /** Starts the listeners of these profiles (the app, at start). */
  async startAll(profiles: ProfileRecord[]): Promise<void> {
    for (const p of profiles) if (followsByReceipts(p)) await this.ensure(p.id);
  }

  async stop(profileId: string): Promise<void> {
    const run = this.running.get(profileId);
    this.running.delete(profileId);
    this.states.delete(profileId);
    await run?.listener.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.pending.values()]);
    await Promise.all([...this.running.keys()].map((id) => this.stop(id)));
  }

  private async syncNow(profileId: string, strict: boolean): Promise<void> {
    const p = this.o.record(profileId);
    const run = this.running.get(profileId);
    if (!p || !followsByReceipts(p) || this.closed) {
      await this.stop(profileId);
      return;
    }
    if (run && run.key === settingsKey(p)) return;
    if (run) await this.stop(profileId);
    const { host, port } = p.receipts;
    const secret = p.receipts.secret!;
    try {
      const listener = await startReceiptListener({
        clock: this.o.clock,
        host,
        port,
        secret,
        answer: (post) => ackFor(this.o.record(profileId)?.dialect ?? p.dialect, post.contentType, post.body),
        record: (exchange) => {
          const now = this.o.record(profileId) ?? p;
          this.o.calls.receive(profileId, now.dialect, exchange);
        },
        log: this.o.log,
      });
      if (this.closed) {
        await listener.close();
        return;
      }
      if (port === 0) this.o.keepPort?.(profileId, listener.port);
      const kept = this.o.record(profileId) ?? p;
      this.running.set(profileId, { listener, key: settingsKey(kept) });
      this.states.set(profileId, 'listening');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') {
        // Most likely another Callout (the app, or another command) already listens for this profile.
        this.states.set(profileId, 'elsewhere');
        if (strict) throw fail('listen-failed', { kind: 'in-use', host, port });
        return;
      }
      this.states.set(profileId, 'failed');
      this.o.log?.(error);
      if (strict) {
        const kind = code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'address' : code === 'EACCES' ? 'denied' : 'other';
        throw fail('listen-failed', { kind, host, port });
      }
    }
  }
}
