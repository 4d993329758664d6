import type { Database, Statement } from 'better-sqlite3';
import type { MessageEventRecord, MessageRecord } from '../../common/records';
import type { CallState, Outcome } from '../../common/domain/status';
import { textLength } from '../../common/domain/units';
import { reason as makeReason, type Reason } from '../../common/reasons';
import { ownerAlive, processOwner } from './process-owner';
import { systemClock } from '../clock';
import { profileOfStored, storedForms, storedProfile } from './profile-keys';

interface MessageRow {
  id: number;
  profile: string;
  base_url: string;
  api_id: string;
  mobile: string;
  content: string;
  template_id: string | null;
  units: number;
  outcome: Outcome;
  code: number | null;
  provider_msg: string | null;
  smsid: string | null;
  billed_units: number | null;
  state: CallState;
  duration: number | null;
  error_kind: string | null;
  reason: string | null;
  created_at: number;
  updated_at: number;
  ended_at: number | null;
  attempts: number | null;
  resend_of: number | null;
  batch_item_id?: number | null;
  owner?: string | null;
}

/** A stored reason (JSON), or null for none (or for a row written before reasons were codes). */
export function parseReason(json: string | null): Reason | null {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as Reason;
    return v && typeof v.code === 'string' ? ({ code: v.code, params: v.params ?? {} } as Reason) : null;
  } catch {
    return null;
  }
}

const reasonJson = (r: Reason | null | undefined): string | null => (r ? JSON.stringify(r) : null);

/** A row as the app sees it: its profile by id (a row keeps its key, migration 0029). */
function toRecord(db: Database, r: MessageRow): MessageRecord {
  return {
    id: r.id,
    profile: profileOfStored(db, r.profile) ?? r.profile,
    baseUrl: r.base_url,
    apiId: r.api_id,
    mobile: r.mobile,
    content: r.content,
    templateId: r.template_id,
    units: r.units,
    outcome: r.outcome,
    code: r.code,
    providerMsg: r.provider_msg,
    smsid: r.smsid,
    billedUnits: r.billed_units,
    state: r.state,
    duration: r.duration,
    errorKind: r.error_kind,
    reason: parseReason(r.reason),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    endedAt: r.ended_at,
    attempts: r.attempts,
    resendOf: r.resend_of,
    batchItemId: r.batch_item_id ?? null,
  };
}

export interface NewMessage {
  profile: string;
  baseUrl: string;
  apiId: string;
  mobile: string;
  content: string;
  templateId?: string | null;
  units: number;
  resendOf?: number | null;
  /** The bulk-send row it is sent for. */
  batchItemId?: number | null;
}

/** What claimPending found: the new `pending` row, or the same send already in flight in another running process. */
export type PendingClaim = { claimed: MessageRecord; busy?: undefined } | { claimed?: undefined; busy: MessageRecord };

/**
 * Calls not ended, from the partial index of open messages (migration 0005). Named: asked for the
 * time order, SQLite walked (outcome, created_at) over every accepted call instead, 7 s at ten
 * million messages (and minutes with a cold cache) each time Callout started.
 */
/** How many of the newest messages `recentMobiles` reads back for the numbers called last. */
export const RECENT_WINDOW = 2000;

const OPEN_CALLS = "messages INDEXED BY messages_open WHERE ended_at IS NULL AND outcome = 'accepted' AND smsid IS NOT NULL";

export class MessageRepository {
  private insertStmtCache: Statement | undefined;
  private readonly eventStmt;
  private readonly getStmt;

  /** Prepared on first use, so that the repository can read a database of an older schema (migration tests). */
  private get insertStmt(): Statement {
    return (this.insertStmtCache ??= this.db.prepare(`
      INSERT INTO messages (profile, base_url, api_id, mobile, content, template_id, units, resend_of, batch_item_id, outcome, state, owner, created_at, updated_at)
      VALUES (@profile, @baseUrl, @apiId, @mobile, @content, @templateId, @units, @resendOf, @batchItemId, 'pending', 'pending', @owner, @at, @at)`));
  }

  constructor(
    private readonly db: Database,
    private readonly now: () => number = () => systemClock.now(),
  ) {
    this.eventStmt = db.prepare('INSERT INTO message_events (message_id, at, kind, state, detail, reason) VALUES (?, ?, ?, ?, ?, ?)');
    this.getStmt = db.prepare('SELECT * FROM messages WHERE id = ?');
  }

  /**
   * `profile IN (?, …)`, one mark for each form rows keep of the profile (storedForms: its key, and
   * its id while an upgrade has not given every row the key), and those forms.
   */
  private ofProfile(profile: string): { sql: string; params: string[] } {
    const params = storedForms(this.db, [profile], 'messages');
    return { sql: `profile IN (${params.map(() => '?').join(', ')})`, params };
  }

  /**
   * Runs `fn` in one transaction (a savepoint inside another): what it writes to the store's tables
   * is all kept, or none of it. The write lock is taken first, so a write by another process in
   * between fails it only after the store's busy wait.
   */
  atomically<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * Written and committed before the request leaves: if the process dies, the row says so. IMMEDIATE:
   * a write by another process makes it wait (the busy timeout), never fail at once.
   */
  insertPending(m: NewMessage): MessageRecord {
    const at = this.now();
    const id = this.db
      .transaction(() => {
        const info = this.insertStmt.run({
          ...m,
          profile: storedProfile(this.db, m.profile, 'messages'),
          templateId: m.templateId ?? null,
          resendOf: m.resendOf ?? null,
          batchItemId: m.batchItemId ?? null,
          owner: processOwner(),
          at,
        });
        // Its first event (`created`) is the row itself (migration 0031: `events` makes it).
        return Number(info.lastInsertRowid);
      })
      .immediate();
    return this.require(id);
  }

  /**
   * Writes a send's `pending` row unless another running process is sending the same text to the
   * same number with the same profile and address right now: both checked and written in one
   * IMMEDIATE transaction, so two processes starting together on one data directory cannot both
   * claim it. The claim is the row: it is released when its outcome is recorded (a full disk keeps
   * it held while its owner runs). A row left `pending` by a process that is gone does not block
   * (it was interrupted, and becomes `unknown` at the next start). This process's own rows are its
   * in-memory guard's business (CallService), so a row it could not settle never blocks it forever.
   */
  claimPending(m: NewMessage): PendingClaim {
    const me = processOwner();
    return this.db
      .transaction((): PendingClaim => {
        const of = this.ofProfile(m.profile);
        const rows = this.db
          .prepare(
            `SELECT * FROM messages WHERE mobile = ? AND outcome = 'pending' AND content = ? AND ${of.sql} AND base_url = ? AND owner IS NOT ? ORDER BY id`,
          )
          .all(m.mobile, m.content, ...of.params, m.baseUrl, me) as MessageRow[];
        const busy = rows.find((r) => ownerAlive(r.owner ?? null));
        if (busy) return { busy: toRecord(this.db, busy) };
        return { claimed: this.insertPending(m) };
      })
      .immediate();
  }

  /**
   * The provider accepted the send. With `unfollowable` (no message ID came back) its call can never
   * be followed: it ends at once as `unknown`, saying why — settled, so nobody waits for it forever.
   */
  markAccepted(id: number, r: { code: number | null; msg: string | null; smsid: string | null; count: number | null; unfollowable?: Reason }): MessageRecord {
    const at = this.now();
    this.db.transaction(() => {
      this.db
        .prepare(`UPDATE messages SET outcome = 'accepted', code = ?, provider_msg = ?, smsid = ?, billed_units = ?, owner = ?, updated_at = ? WHERE id = ?`)
        // The process that placed the call follows it (its owner), so that another one sharing this
        // database (the desktop app and `callout ui`, the CLI) leaves it alone while it runs.
        .run(r.code, r.msg, r.smsid, r.count, processOwner(), at, id);
      this.eventStmt.run(id, at, 'submitted', 'pending', r.msg, null);
      if (r.unfollowable) {
        this.db.prepare(`UPDATE messages SET state = 'unknown', reason = ?, ended_at = ? WHERE id = ?`).run(reasonJson(r.unfollowable), at, id);
        this.eventStmt.run(id, at, 'error', 'unknown', null, reasonJson(r.unfollowable));
      }
    })();
    return this.require(id);
  }

  /**
   * The provider reported a state value the profile's dialect does not map: the call's state is
   * unknown for now, and the message says which value (an event each time the value changes).
   */
  markUnmapped(id: number, value: string, why: Reason): MessageRecord {
    const current = this.require(id);
    if (current.state === 'unknown' && current.reason && JSON.stringify(current.reason) === reasonJson(why)) return current;
    const at = this.now();
    this.db.transaction(() => {
      this.db.prepare(`UPDATE messages SET state = 'unknown', reason = ?, updated_at = ? WHERE id = ?`).run(reasonJson(why), at, id);
      this.eventStmt.run(id, at, 'state', 'unknown', value, reasonJson(why));
    })();
    return this.require(id);
  }

  markRejected(id: number, r: { code: number | null; msg: string | null; errorKind?: string | null; reason?: Reason | null }): MessageRecord {
    const at = this.now();
    this.db.transaction(() => {
      this.db
        .prepare(
          `UPDATE messages SET outcome = 'rejected', state = 'failed', code = ?, provider_msg = ?, error_kind = ?, reason = ?,
             owner = NULL, updated_at = ?, ended_at = ? WHERE id = ?`,
        )
        .run(r.code, r.msg, r.errorKind ?? null, reasonJson(r.reason), at, at, id);
      this.eventStmt.run(id, at, 'rejected', 'failed', r.msg, reasonJson(r.reason));
    })();
    return this.require(id);
  }

  /** The request may have reached the provider: never resent automatically. */
  markUnknown(id: number, r: { errorKind: string; reason: Reason; code?: number | null; msg?: string | null }): MessageRecord {
    const at = this.now();
    this.db.transaction(() => {
      this.db
        .prepare(
          `UPDATE messages SET outcome = 'unknown', state = 'unknown', code = ?, provider_msg = ?, error_kind = ?, reason = ?,
             owner = NULL, updated_at = ? WHERE id = ?`,
        )
        .run(r.code ?? null, r.msg ?? null, r.errorKind, reasonJson(r.reason), at, id);
      this.eventStmt.run(id, at, 'unknown', 'unknown', r.msg ?? null, reasonJson(r.reason));
    })();
    return this.require(id);
  }

  /**
   * Records a call state; an event is added only when something changed. A rise in the attempt
   * count past the first is a redial, recorded as its own event.
   */
  updateState(
    id: number,
    state: CallState,
    opts: { duration?: number | null; attempts?: number | null; final?: boolean; detail?: string | null } = {},
  ): MessageRecord {
    const current = this.require(id);
    const duration = opts.duration ?? current.duration;
    const attempts = opts.attempts ?? current.attempts;
    const redial = attempts !== null && attempts > 1 && attempts > (current.attempts ?? 1);
    if (current.state === state && duration === current.duration && attempts === current.attempts && !opts.final) return current;
    const at = this.now();
    // A value that was not recognised is no longer the story once a state is read.
    const reason = current.reason?.code === 'unmapped-state' ? null : reasonJson(current.reason);
    this.db.transaction(() => {
      this.db
        .prepare('UPDATE messages SET state = ?, duration = ?, attempts = ?, reason = ?, updated_at = ?, ended_at = ? WHERE id = ?')
        .run(state, duration, attempts, reason, at, opts.final ? (current.endedAt ?? at) : current.endedAt, id);
      if (redial) this.eventStmt.run(id, at, 'redial', state, String(attempts), null);
      if (current.state !== state) this.eventStmt.run(id, at, 'state', state, opts.detail ?? null, null);
    })();
    return this.require(id);
  }

  /** Ends following a message without a final state (the provider no longer knows it, tracking gave up...), saying why. */
  endTracking(id: number, why: Reason): MessageRecord {
    const at = this.now();
    this.db.transaction(() => {
      this.db
        .prepare('UPDATE messages SET ended_at = ?, updated_at = ?, reason = coalesce(reason, ?) WHERE id = ? AND ended_at IS NULL')
        .run(at, at, reasonJson(why), id);
      this.eventStmt.run(id, at, 'error', null, null, reasonJson(why));
    })();
    return this.require(id);
  }

  /** A profile's accepted calls that could not be followed: the send reply gave no message ID (it may, read again). */
  unfollowed(profile: string): MessageRecord[] {
    const of = this.ofProfile(profile);
    const rows = this.db
      .prepare(
        `SELECT * FROM messages WHERE ${of.sql} AND outcome = 'accepted' AND smsid IS NULL AND json_extract(reason, '$.code') = 'no-message-id' ORDER BY created_at`,
      )
      .all(...of.params) as MessageRow[];
    return rows.map((r) => toRecord(this.db, r));
  }

  /**
   * The message ID of a call that could not be followed, read from its send reply after all: the
   * call is open again (state pending, not ended), to be followed; the event says where the ID came from.
   */
  recoverMessageId(id: number, smsid: string): MessageRecord {
    const at = this.now();
    const why = reasonJson({ code: 'message-id-read', params: { smsid } });
    this.db.transaction(() => {
      const changed = this.db
        .prepare(`UPDATE messages SET smsid = ?, state = 'pending', reason = NULL, ended_at = NULL, updated_at = ? WHERE id = ? AND smsid IS NULL`)
        .run(smsid, at, id).changes;
      if (changed) this.eventStmt.run(id, at, 'state', 'pending', smsid, why);
    })();
    return this.require(id);
  }

  /**
   * Numbers called most recently, newest first, distinct: read from the newest messages back (by
   * `messages_created`), at most RECENT_WINDOW of them. Grouping every message by number took seconds
   * on a store of years (the Send screen asks at every visit); a number last called before the newest
   * RECENT_WINDOW calls is not "recent".
   */
  recentMobiles(limit = 10): string[] {
    const out = new Set<string>();
    for (const r of this.db.prepare('SELECT mobile FROM messages ORDER BY created_at DESC LIMIT ?').iterate(RECENT_WINDOW) as Iterable<{ mobile: string }>) {
      out.add(r.mobile);
      if (out.size >= limit) break;
    }
    return [...out];
  }

  /** Numbers called (not refused) since `since`, with each text, the last time (for the bulk check before a list is called again). */
  calledSince(since: number): { mobile: string; content: string; at: number }[] {
    return this.db
      .prepare("SELECT mobile, content, max(created_at) AS at FROM messages WHERE created_at >= ? AND outcome <> 'rejected' GROUP BY mobile, content")
      .all(since) as { mobile: string; content: string; at: number }[];
  }

  /**
   * The text of the latest message sent from each template, with its number and time. The templates
   * are found by skipping through `messages_template` (one seek each) and each one's latest is that
   * index's last entry: a lookup per template, not per message (the correlated max() was quadratic,
   * minutes at ten million messages, and the Send screen asks at every visit).
   */
  latestPerTemplate(): { templateId: string; content: string; mobile: string; createdAt: number }[] {
    return this.db
      .prepare(
        `WITH RECURSIVE t(template_id) AS (
           SELECT min(template_id) FROM messages WHERE template_id IS NOT NULL
           UNION ALL
           SELECT (SELECT min(template_id) FROM messages WHERE template_id IS NOT NULL AND template_id > t.template_id)
           FROM t WHERE t.template_id IS NOT NULL
         )
         SELECT m.template_id AS templateId, m.content, m.mobile, m.created_at AS createdAt
         FROM t JOIN messages m ON m.id = (
           SELECT id FROM messages WHERE template_id = t.template_id ORDER BY created_at DESC, id DESC LIMIT 1
         )`,
      )
      .all() as { templateId: string; content: string; mobile: string; createdAt: number }[];
  }

  /** The newest message with the same text to the same number created after this one (by the `messages_mobile` index). */
  laterSend(m: Pick<MessageRecord, 'id' | 'mobile' | 'content' | 'createdAt'>): MessageRecord | undefined {
    const row = this.db
      .prepare('SELECT * FROM messages WHERE mobile = ? AND created_at >= ? AND id > ? AND content = ? ORDER BY created_at DESC, id DESC LIMIT 1')
      .get(m.mobile, m.createdAt, m.id, m.content) as MessageRow | undefined;
    return row && toRecord(this.db, row);
  }

  addEvent(id: number, kind: MessageEventRecord['kind'], state: CallState | null, detail: string | null, why: Reason | null = null): void {
    this.eventStmt.run(id, this.now(), kind, state, detail, reasonJson(why));
  }

  get(id: number): MessageRecord | undefined {
    const row = this.getStmt.get(id) as MessageRow | undefined;
    return row && toRecord(this.db, row);
  }

  require(id: number): MessageRecord {
    const m = this.get(id);
    if (!m) throw new Error(`Message ${id} does not exist.`);
    return m;
  }

  /** The latest message with this provider ID (of this profile, when one is named). */
  findBySmsid(smsid: string, profile?: string): MessageRecord | undefined {
    const of = profile === undefined ? null : this.ofProfile(profile);
    const row = (
      of === null
        ? this.db.prepare('SELECT * FROM messages WHERE smsid = ? ORDER BY id DESC LIMIT 1').get(smsid)
        : this.db.prepare(`SELECT * FROM messages WHERE smsid = ? AND ${of.sql} ORDER BY id DESC LIMIT 1`).get(smsid, ...of.params)
    ) as MessageRow | undefined;
    return row && toRecord(this.db, row);
  }

  /**
   * A message's events in time order, from its `created` (made from the row since migration 0031,
   * id 0; a store's older one that says more is read as stored).
   */
  events(messageId: number): MessageEventRecord[] {
    return this.db.transaction(() => {
      const created = this.db.prepare('SELECT created_at AS at FROM messages WHERE id = ?').get(messageId) as { at: number } | undefined;
      const rows = this.db
        .prepare('SELECT id, message_id AS messageId, at, kind, state, detail, reason FROM message_events WHERE message_id = ? ORDER BY at, id')
        .all(messageId) as (Omit<MessageEventRecord, 'reason'> & { reason: string | null })[];
      const events: MessageEventRecord[] = rows.map((r) => ({ ...r, reason: parseReason(r.reason) }));
      if (!created || events.some((e) => e.kind === 'created')) return events;
      const first: MessageEventRecord = { id: 0, messageId, at: created.at, kind: 'created', state: 'pending', detail: null, reason: null };
      const after = events.findIndex((e) => e.at >= created.at);
      events.splice(after === -1 ? events.length : after, 0, first);
      return events;
    })();
  }

  /**
   * The latest answered calls of a profile with their duration, newest first: how long this
   * provider takes to read a text (the follower's starting point). Reads the profile's rows newest
   * first (messages_profile_time) and stops at `limit`.
   */
  recentDurations(profile: string, limit = 50): { length: number; duration: number }[] {
    const of = this.ofProfile(profile);
    const rows = this.db
      .prepare(`SELECT content, duration FROM messages WHERE ${of.sql} AND state = 'answered' AND duration > 0 ORDER BY created_at DESC LIMIT ?`)
      .all(...of.params, limit) as { content: string; duration: number }[];
    return rows.map((r) => ({ length: textLength(r.content), duration: r.duration }));
  }

  /**
   * Calls still going on that no running process follows (their owner is gone, or unknown), claimed
   * by this one: tracking resumes these. A call another running process placed stays with it.
   * `ids`: only among these messages (a resumed batch's calls).
   */
  claimOrphanedOpen(ids?: readonly number[]): MessageRecord[] {
    const me = processOwner();
    const claim = this.db.prepare('UPDATE messages SET owner = ? WHERE id = ? AND owner IS ?');
    const claimed: number[] = [];
    this.db.transaction(() => {
      const rows = this.db.prepare(`SELECT id, owner FROM ${OPEN_CALLS} ORDER BY created_at`).all() as { id: number; owner: string | null }[];
      const only = ids === undefined ? null : new Set(ids);
      for (const row of rows) {
        if (only && !only.has(row.id)) continue;
        if (row.owner === me || !ownerAlive(row.owner)) {
          if (claim.run(me, row.id, row.owner).changes === 1) claimed.push(row.id);
        }
      }
    })();
    return claimed.map((id) => this.require(id));
  }

  /** Accepted messages whose call has not reached a final state (of one profile, when named): whoever follows them. */
  openMessages(profile?: string): MessageRecord[] {
    const sql = `SELECT * FROM ${OPEN_CALLS}`;
    const of = profile === undefined ? null : this.ofProfile(profile);
    const rows =
      of === null ? this.db.prepare(`${sql} ORDER BY created_at`).all() : this.db.prepare(`${sql} AND ${of.sql} ORDER BY created_at`).all(...of.params);
    return (rows as MessageRow[]).map((r) => toRecord(this.db, r));
  }

  /**
   * Sends left `pending` by a process that is no longer running were interrupted mid-flight:
   * the request may have left, so they become `unknown` for a person to decide.
   */
  recoverInterrupted(): MessageRecord[] {
    const rows = this.db.prepare("SELECT id, owner FROM messages WHERE outcome = 'pending'").all() as { id: number; owner: string | null }[];
    const recovered: MessageRecord[] = [];
    for (const row of rows) {
      if (ownerAlive(row.owner)) continue;
      recovered.push(this.markUnknown(row.id, { errorKind: 'interrupted', reason: makeReason('interrupted', {}) }));
    }
    return recovered;
  }
}
