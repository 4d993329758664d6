// The sandbox pushing receipts, as providers that only push do: when a call ends, a receipt in the
// dialect's shape is posted to the address set (a profile's receipt listener). Several calls ending
// close together go in one post when the dialect's shape says so; a post that fails is tried again
// twice. Every post is logged for testers (GET /__sandbox/receipts).
import http from 'node:http';
import type { Dialect } from '../../common/dialects';
import { decodeBody } from '../voice/charset';
import { renderReceipts, type ReceiptFacts } from './dialect-shape';
import type { Scheduler } from './scheduler';
import type { PushedReceipt } from './types';

const RETRY_DELAYS_MS = [500, 2000];
const BATCH_WAIT_MS = 150;
const MAX_LOG = 1000;

export class ReceiptPusher {
  private waiting: ReceiptFacts[] = [];
  private timer = false;
  private seq = 0;
  private readonly sent: PushedReceipt[] = [];
  private readonly open = new Set<http.ClientRequest>();
  private stopped = false;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly dialect: () => Dialect | null,
    private readonly target: () => string | null,
  ) {}

  /** A call ended: its receipt goes out (now, or with the next ones of the same post). */
  ended(facts: ReceiptFacts): void {
    const d = this.dialect();
    if (this.stopped || !this.target() || !d?.receipt) return;
    this.waiting.push(facts);
    const batch = d.shape?.receipt?.batch ?? 1;
    if (this.waiting.length >= batch) this.flush();
    else if (!this.timer) {
      this.timer = true;
      this.scheduler.afterReal(BATCH_WAIT_MS, () => {
        this.timer = false;
        this.flush();
      });
    }
  }

  log(): PushedReceipt[] {
    return structuredClone(this.sent);
  }

  stop(): void {
    this.stopped = true;
    this.waiting = [];
    for (const r of this.open) r.destroy();
    this.open.clear();
  }

  private flush(): void {
    const d = this.dialect();
    const url = this.target();
    const calls = this.waiting;
    this.waiting = [];
    if (!d?.receipt || !url || !calls.length) return;
    // A form without a field for the list carries one receipt per post.
    const oneEach = d.shape?.receipt?.format === 'form' && !d.shape.receipt.field && d.receipt.list === undefined;
    for (const group of oneEach ? calls.map((c) => [c]) : [calls]) {
      const { body, contentType } = renderReceipts(d, group);
      this.seq += 1;
      const entry: PushedReceipt = {
        seq: this.seq,
        at: new Date(this.scheduler.now()).toISOString(),
        url,
        smsids: group.map((c) => c.smsid),
        contentType,
        body: decodeBody(body, contentType).text,
        status: null,
        error: null,
        attempts: 0,
      };
      this.sent.push(entry);
      if (this.sent.length > MAX_LOG) this.sent.splice(0, this.sent.length - MAX_LOG);
      this.post(entry, body);
    }
  }

  private post(entry: PushedReceipt, body: Buffer): void {
    if (this.stopped) return;
    entry.attempts += 1;
    entry.at = new Date(this.scheduler.now()).toISOString();
    const retry = (error: string | null, status: number | null) => {
      entry.error = error;
      entry.status = status;
      const delay = RETRY_DELAYS_MS[entry.attempts - 1];
      if (delay !== undefined) this.scheduler.afterReal(delay, () => this.post(entry, body));
    };
    let req: http.ClientRequest;
    try {
      req = http.request(entry.url, {
        method: 'POST',
        headers: { 'Content-Type': entry.contentType, 'Content-Length': body.length },
        timeout: 5000,
        agent: false,
      });
    } catch (e) {
      entry.error = e instanceof Error ? e.message : String(e);
      return;
    }
    this.open.add(req);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => {
        this.open.delete(req);
        const status = res.statusCode ?? null;
        if (status !== null && status >= 200 && status < 300) {
          entry.status = status;
          entry.error = null;
        } else retry(`HTTP ${status}`, status);
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => {
      this.open.delete(req);
      if (!this.stopped) retry(e.message, null);
    });
    req.end(body);
  }
}
