import type { Database } from 'better-sqlite3';
import type { CallState } from '../../common/domain/status';
import { parseReason } from './message-repository';
import { ownerAlive, processOwner } from './process-owner';
import { reason, type Reason } from '../../common/reasons';
import type { BatchStatus, ItemStatus, StopReason, BatchRecord, BatchListRow, BatchItemRecord, BatchItemView, BatchCounts } from '../../common/bulk-types';
import { systemClock } from '../clock';
export type { BatchStatus, ItemStatus, StopReason, BatchRecord, BatchItemRecord, BatchItemView, BatchCounts } from '../../common/bulk-types';
export { BATCH_STATUSES, ITEM_STATUSES } from '../../common/bulk-types';

export interface NewBatchItem {
  rowNumber: number;
  mobile: string;
  content: string;
  units: number;
  /** 'queued' to send, or 'skipped' (invalid row, duplicate) with the reason. */
  status: 'queued' | 'skipped';
  errorKind?: string | null;
  reason?: Reason | null;
  /** The row's own cells in the sheet. */
  cells?: readonly string[] | null;
}

interface BatchRow {
  id: number;
  profile: string;
  template_id: string | null;
  name: string;
  status: BatchStatus;
  paused_reason: StopReason | null;
  status_reason: string | null;
  total: number;
  owner: string | null;
  created_at: number;
  started_at: number | null;
  ended_at: number | null;
  updated_at: number;
  columns?: string | null;
}

interface ItemRow {
  id: number;
  batch_id: number;
  row_number: number;
  mobile: string;
  content: string;
  units: number;
  status: ItemStatus;
  message_id: number | null;
  code: number | null;
  error_kind: string | null;
  reason: string | null;
  updated_at: number;
  cells?: string | null;
}

/** A stored JSON array of strings (a sheet's header or a row's cells), or null. */
function stringList(json: string | null | undefined): string[] | null {
  if (!json) return null;
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String(x ?? ''))) : null;
  } catch {
    return null;
  }
}

const toBatch = (r: BatchRow): BatchRecord => ({
  id: r.id,
  profile: r.profile,
  templateId: r.template_id,
  name: r.name,
  status: r.status,
  pausedReason: r.paused_reason,
  statusReason: parseReason(r.status_reason),
  total: r.total,
  owner: r.owner,
  createdAt: r.created_at,
  startedAt: r.started_at,
  endedAt: r.ended_at,
  updatedAt: r.updated_at,
  columns: stringList(r.columns),
});

const toItem = (r: ItemRow): BatchItemRecord => ({
  id: r.id,
  batchId: r.batch_id,
  rowNumber: r.row_number,
  mobile: r.mobile,
  content: r.content,
  units: r.units,
  status: r.status,
  messageId: r.message_id,
  code: r.code,
  errorKind: r.error_kind,
  reason: parseReason(r.reason),
  updatedAt: r.updated_at,
  cells: stringList(r.cells),
});

const json = (r: Reason | null | undefined): string | null => (r ? JSON.stringify(r) : null);

/** Batches and their items. Every state change is its own committed write. */
export class BatchRepository {
  private readonly getStmt;
  private readonly itemStmt;
  private readonly nextStmt;
  private readonly inFlightStmt;
  private readonly outcomeStmt;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = () => systemClock.now(),
  ) {
    this.getStmt = db.prepare('SELECT * FROM batches WHERE id = ?');
    this.itemStmt = db.prepare('SELECT * FROM batch_items WHERE id = ?');
    this.nextStmt = db.prepare("SELECT * FROM batch_items WHERE batch_id = ? AND status = 'queued' AND id > ? ORDER BY id LIMIT ?");
    this.inFlightStmt = db.prepare("UPDATE batch_items SET status = 'in_flight', updated_at = ? WHERE id = ? AND status = 'queued'");
    this.outcomeStmt = db.prepare(
      "UPDATE batch_items SET status = ?, message_id = coalesce(?, message_id), code = ?, error_kind = ?, reason = ?, updated_at = ? WHERE id = ? AND status = 'in_flight'",
    );
  }

  /** A draft batch with all its rows, in one transaction. */
  create(b: { profile: string; templateId: string | null; name: string; columns?: readonly string[] | null }, items: readonly NewBatchItem[]): BatchRecord {
    const at = this.now();
    const id = this.db.transaction(() => {
      const info = this.db
        .prepare("INSERT INTO batches (profile, template_id, name, status, total, columns, created_at, updated_at) VALUES (?, ?, ?, 'draft', ?, ?, ?, ?)")
        .run(b.profile, b.templateId, b.name, items.length, b.columns ? JSON.stringify(b.columns) : null, at, at);
      const batchId = Number(info.lastInsertRowid);
      const insert = this.db.prepare(
        'INSERT INTO batch_items (batch_id, row_number, mobile, content, units, status, error_kind, reason, cells, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      for (const it of items)
        insert.run(
          batchId,
          it.rowNumber,
          it.mobile,
          it.content,
          it.units,
          it.status,
          it.errorKind ?? null,
          json(it.reason),
          it.cells ? JSON.stringify(it.cells) : null,
          at,
        );
      return batchId;
    })();
    return this.require(id);
  }

  get(id: number): BatchRecord | undefined {
    const r = this.getStmt.get(id) as BatchRow | undefined;
    return r && toBatch(r);
  }

  require(id: number): BatchRecord {
    const b = this.get(id);
    if (!b) throw new Error(`Batch ${id} does not exist.`);
    return b;
  }

  /** The newest batches, each with how many of its calls still ring (so the list never says "done" while they do). */
  list(limit = 100): BatchListRow[] {
    const rows = this.db
      .prepare(
        `SELECT b.*, (SELECT count(*) FROM batch_items i JOIN messages m ON m.id = i.message_id
                      WHERE i.batch_id = b.id AND i.status = 'accepted' AND m.ended_at IS NULL) AS calling
         FROM batches b ORDER BY b.created_at DESC, b.id DESC LIMIT ?`,
      )
      .all(limit) as (BatchRow & { calling: number })[];
    return rows.map((r) => ({ ...toBatch(r), calling: r.calling }));
  }

  remove(id: number): boolean {
    return this.db.prepare("DELETE FROM batches WHERE id = ? AND status IN ('draft', 'done', 'cancelled')").run(id).changes > 0;
  }

  /** Marks the batch running in this process. */
  markRunning(id: number): BatchRecord {
    const at = this.now();
    this.db
      .prepare(
        "UPDATE batches SET status = 'running', paused_reason = NULL, status_reason = NULL, owner = ?, started_at = coalesce(started_at, ?), ended_at = NULL, updated_at = ? WHERE id = ?",
      )
      .run(processOwner(), at, at, id);
    return this.require(id);
  }

  setStatus(id: number, status: Exclude<BatchStatus, 'running' | 'draft'>, stop: StopReason | null, why: Reason | null): BatchRecord {
    const at = this.now();
    const ended = status === 'done' || status === 'cancelled' ? at : null;
    // The owner stays until the runner has stopped (its last sends may still be returning): see releaseOwner.
    this.db
      .prepare('UPDATE batches SET status = ?, paused_reason = ?, status_reason = ?, ended_at = ?, updated_at = ? WHERE id = ?')
      .run(status, stop, json(why), ended, at, id);
    return this.require(id);
  }

  /** The runner in this process has stopped: no send of this batch is in flight any more. */
  releaseOwner(id: number): void {
    this.db.prepare('UPDATE batches SET owner = NULL WHERE id = ?').run(id);
  }

  /** The next queued items after `afterId`, in row order. Served by batch_items_next. */
  nextQueued(batchId: number, afterId = 0, limit = 200): BatchItemRecord[] {
    return (this.nextStmt.all(batchId, afterId, limit) as ItemRow[]).map(toItem);
  }

  getItem(id: number): BatchItemRecord | undefined {
    const r = this.itemStmt.get(id) as ItemRow | undefined;
    return r && toItem(r);
  }

  /** Committed before the send starts. False when the item was no longer queued (skipped or cancelled meanwhile). */
  markInFlight(itemId: number): boolean {
    return this.inFlightStmt.run(this.now(), itemId).changes === 1;
  }

  /** Records what became of an in-flight item. */
  recordOutcome(
    itemId: number,
    status: 'accepted' | 'rejected' | 'unknown',
    r: { messageId: number | null; code: number | null; errorKind?: string | null; reason?: Reason | null },
  ): void {
    this.outcomeStmt.run(status, r.messageId, r.code, r.errorKind ?? null, json(r.reason), this.now(), itemId);
  }

  /** Puts an in-flight item back in the queue: the provider provably did not place its call (e.g. 402). */
  returnToQueue(itemId: number, r: { code: number | null; errorKind: string; reason: Reason }): void {
    this.db
      .prepare("UPDATE batch_items SET status = 'queued', code = ?, error_kind = ?, reason = ?, updated_at = ? WHERE id = ? AND status = 'in_flight'")
      .run(r.code, r.errorKind, json(r.reason), this.now(), itemId);
  }

  /** Queued items of a cancelled batch. */
  cancelQueued(batchId: number): number {
    return this.db.prepare("UPDATE batch_items SET status = 'cancelled', updated_at = ? WHERE batch_id = ? AND status = 'queued'").run(this.now(), batchId)
      .changes;
  }

  /** A person chose to send these unknown (or cancelled / rejected) items again. */
  requeue(batchId: number, itemIds: readonly number[], from: readonly ItemStatus[] = ['unknown']): number {
    const at = this.now();
    const placeholders = from.map(() => '?').join(', ');
    const stmt = this.db.prepare(
      `UPDATE batch_items SET status = 'queued', error_kind = 'requeued', reason = '${JSON.stringify(reason('requeued', {}))}', updated_at = ?
       WHERE id = ? AND batch_id = ? AND status IN (${placeholders})`,
    );
    return this.db.transaction(() => itemIds.reduce((n, id) => n + stmt.run(at, id, batchId, ...from).changes, 0))();
  }

  /** A person chose not to send these items (unknown or still queued). */
  skip(batchId: number, itemIds: readonly number[]): number {
    const at = this.now();
    const stmt = this.db.prepare(
      "UPDATE batch_items SET status = 'skipped', error_kind = coalesce(error_kind, 'skipped-by-person'), updated_at = ? WHERE id = ? AND batch_id = ? AND status IN ('unknown', 'queued')",
    );
    return this.db.transaction(() => itemIds.reduce((n, id) => n + stmt.run(at, id, batchId).changes, 0))();
  }

  counts(batchId: number): BatchCounts {
    const c: BatchCounts = {
      total: 0,
      queued: 0,
      inFlight: 0,
      accepted: 0,
      rejected: 0,
      unknown: 0,
      skipped: 0,
      cancelled: 0,
      answered: 0,
      notAnswered: 0,
      calling: 0,
      unitsRemaining: 0,
      refusedSends: 0,
      refusedNow: 0,
    };
    const rows = this.db.prepare('SELECT status, count(*) AS n, sum(units) AS units FROM batch_items WHERE batch_id = ? GROUP BY status').all(batchId) as {
      status: ItemStatus;
      n: number;
      units: number;
    }[];
    for (const r of rows) {
      c.total += r.n;
      if (r.status === 'in_flight') c.inFlight = r.n;
      else c[r.status] = r.n;
      if (r.status === 'queued' || r.status === 'in_flight') c.unitsRemaining += r.units;
    }
    const calls = this.db
      .prepare(
        `SELECT sum(m.ended_at IS NOT NULL AND m.state = 'answered') AS answered,
                sum(m.ended_at IS NOT NULL AND m.state <> 'answered') AS notAnswered,
                sum(m.ended_at IS NULL) AS calling
         FROM batch_items i JOIN messages m ON m.id = i.message_id
         WHERE i.batch_id = ? AND i.status = 'accepted'`,
      )
      .get(batchId) as { answered: number | null; notAnswered: number | null; calling: number | null };
    c.answered = calls.answered ?? 0;
    c.notAnswered = calls.notAnswered ?? 0;
    c.calling = calls.calling ?? 0;
    // The sends History lists as rejected for this batch (served by messages_batch_item).
    c.refusedSends = (
      this.db
        .prepare("SELECT count(*) AS n FROM batch_items i JOIN messages m ON m.batch_item_id = i.id WHERE i.batch_id = ? AND m.outcome = 'rejected'")
        .get(batchId) as { n: number }
    ).n;
    // Rows whose latest send was refused: sent again since, a row no longer counts.
    c.refusedNow = (
      this.db
        .prepare(
          `SELECT count(*) AS n FROM (SELECT max(m.id) AS last FROM batch_items i JOIN messages m ON m.batch_item_id = i.id WHERE i.batch_id = ? GROUP BY i.id) x
           JOIN messages l ON l.id = x.last WHERE l.outcome = 'rejected'`,
        )
        .get(batchId) as { n: number }
    ).n;
    return c;
  }

  /** Whether this row's latest send was refused by the provider (it counts in refusedNow). */
  lastSendRefused(itemId: number): boolean {
    const r = this.db.prepare('SELECT outcome FROM messages WHERE batch_item_id = ? ORDER BY id DESC LIMIT 1').get(itemId) as { outcome: string } | undefined;
    return r?.outcome === 'rejected';
  }

  /** Items with their call, in row order; optionally one status; paged. */
  items(batchId: number, q: { status?: ItemStatus; offset?: number; limit?: number } = {}): BatchItemView[] {
    const where = ['i.batch_id = ?'];
    const params: unknown[] = [batchId];
    if (q.status) {
      where.push('i.status = ?');
      params.push(q.status);
    }
    params.push(Math.max(1, Math.min(q.limit ?? 500, 200_000)), Math.max(0, q.offset ?? 0));
    const rows = this.db
      .prepare(
        `SELECT i.*, m.smsid AS smsid, m.state AS state, m.duration AS duration, m.created_at AS sent_at, m.ended_at AS call_ended_at,
                (SELECT count(*) FROM messages r WHERE r.batch_item_id = i.id AND r.outcome = 'rejected') AS refused_sends
         FROM batch_items i LEFT JOIN messages m ON m.id = i.message_id
         WHERE ${where.join(' AND ')} ORDER BY i.id LIMIT ? OFFSET ?`,
      )
      .all(...params) as (ItemRow & {
      smsid: string | null;
      state: CallState | null;
      duration: number | null;
      sent_at: number | null;
      call_ended_at: number | null;
      refused_sends: number;
    })[];
    return rows.map((r) => ({
      ...toItem(r),
      smsid: r.smsid,
      state: r.state,
      duration: r.duration,
      sentAt: r.sent_at,
      endedAt: r.call_ended_at,
      refusedSends: r.refused_sends,
    }));
  }

  /** Accepted items whose call has not ended (they still hold a line). */
  openCalls(batchId: number): { itemId: number; messageId: number }[] {
    return this.db
      .prepare(
        `SELECT i.id AS itemId, i.message_id AS messageId FROM batch_items i JOIN messages m ON m.id = i.message_id
         WHERE i.batch_id = ? AND i.status = 'accepted' AND m.ended_at IS NULL`,
      )
      .all(batchId) as { itemId: number; messageId: number }[];
  }

  /**
   * After a crash: every batch left `running` by a process that is gone reopens `paused`
   * (interrupted), and every item left `in_flight` by such a process becomes `unknown`: its request
   * may have reached the provider. The message the send wrote (pending, committed before the request
   * left) is linked when there is one. Returns the batches reopened and the items marked.
   */
  recoverInterrupted(): { batches: BatchRecord[]; items: BatchItemRecord[] } {
    const at = this.now();
    return this.db.transaction(() => {
      const stale = (
        this.db.prepare("SELECT id, owner FROM batches WHERE status = 'running' OR owner IS NOT NULL").all() as { id: number; owner: string | null }[]
      ).filter((b) => !ownerAlive(b.owner));
      const staleIds = new Set(stale.map((b) => b.id));
      // In-flight items of batches no live process owns (a paused batch's last sends included).
      const inFlight = (
        this.db
          .prepare("SELECT i.*, b.owner AS batch_owner FROM batch_items i JOIN batches b ON b.id = i.batch_id WHERE i.status = 'in_flight'")
          .all() as (ItemRow & {
          batch_owner: string | null;
        })[]
      ).filter((r) => staleIds.has(r.batch_id) || !ownerAlive(r.batch_owner));
      // The row's own send (linked when its pending row was written); rows from before that link, by number and text.
      const ownMessage = this.db.prepare('SELECT id, outcome, code FROM messages WHERE batch_item_id = ? ORDER BY id DESC LIMIT 1');
      const guessMessage = this.db.prepare(
        'SELECT id FROM messages WHERE mobile = ? AND content = ? AND created_at >= ? AND batch_item_id IS NULL ORDER BY id LIMIT 1',
      );
      // The provider's answer was written before the process died: the item is what its message says (a call to follow), not unknown.
      const accepted = this.db.prepare(
        "UPDATE batch_items SET status = 'accepted', message_id = ?, code = ?, error_kind = NULL, reason = NULL, updated_at = ? WHERE id = ? AND status = 'in_flight'",
      );
      const mark = this.db.prepare(
        "UPDATE batch_items SET status = 'unknown', message_id = coalesce(?, message_id), error_kind = 'interrupted', reason = ?, updated_at = ? WHERE id = ? AND status = 'in_flight'",
      );
      const items: BatchItemRecord[] = [];
      for (const r of inFlight) {
        const own = ownMessage.get(r.id) as { id: number; outcome: string; code: number | null } | undefined;
        const m = own ?? (guessMessage.get(r.mobile, r.content, r.updated_at) as { id: number } | undefined);
        if (own?.outcome === 'accepted') {
          accepted.run(own.id, own.code, at, r.id);
          items.push(this.getItem(r.id)!);
          continue;
        }
        mark.run(m?.id ?? null, json(reason('interrupted', { kind: m ? 'item' : 'item-unrecorded' })), at, r.id);
        items.push(this.getItem(r.id)!);
      }
      const batches: BatchRecord[] = [];
      for (const b of stale) {
        const current = this.require(b.id);
        if (current.status === 'running') {
          this.db
            .prepare("UPDATE batches SET status = 'paused', paused_reason = 'interrupted', status_reason = ?, owner = NULL, updated_at = ? WHERE id = ?")
            .run(json(reason('stop', { kind: 'interrupted' })), at, b.id);
          batches.push(this.require(b.id));
        } else {
          this.db.prepare('UPDATE batches SET owner = NULL WHERE id = ?').run(b.id);
        }
      }
      return { batches, items };
    })();
  }
}
