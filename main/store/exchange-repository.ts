import type { Database, Statement } from 'better-sqlite3';
import type { CaptureInfo } from '../../common/capture';
import type { Exchange, ExchangeRecord } from '../../common/records';
import { bodyReplyCode } from '../voice/replies';
import { pack, PACKED_PLACEHOLDERS, packPoll, readyBase, refreshDictionaries, unpackRow, type PackedParts } from './exchange-pack';
import { profileOfStored, storedForms, storedProfile } from './profile-keys';

interface ExchangeRow {
  id: number;
  message_id: number | null;
  operation: Exchange['operation'];
  profile: string | null;
  method: string;
  url: string;
  request_headers: string;
  request_body: string | null;
  status: number | null;
  status_text: string | null;
  response_headers: string | null;
  response_body: string | null;
  error_kind: string | null;
  error_message: string | null;
  error_ms: number | null;
  started_at: number;
  timings: string;
  provider_code: number | null;
  capture: string | null;
  /** The parts above, packed (migration 0020); null for a row stored before it and not packed yet. */
  packed: Buffer | null;
}

function toRecord(db: Database, row: ExchangeRow): ExchangeRecord {
  const r = unpackRow(db, row);
  return {
    id: r.id,
    messageId: r.message_id,
    profile: profileOfStored(db, r.profile),
    operation: r.operation,
    method: r.method,
    url: r.url,
    requestHeaders: JSON.parse(r.request_headers),
    requestBody: r.request_body,
    status: r.status,
    statusText: r.status_text,
    responseHeaders: r.response_headers === null ? null : JSON.parse(r.response_headers),
    responseBody: r.response_body,
    error: r.error_kind
      ? { kind: r.error_kind as NonNullable<Exchange['error']>['kind'], message: r.error_message ?? '', ...(r.error_ms !== null ? { ms: r.error_ms } : {}) }
      : null,
    startedAt: r.started_at,
    timings: JSON.parse(r.timings),
    providerCode: r.provider_code ?? null,
    capture: r.capture == null ? null : (JSON.parse(r.capture) as CaptureInfo),
  };
}

/**
 * The setting below which no new exchange id is given: archived exchanges keep their ids, so once the
 * newest exchanges were archived the live store must not give theirs again (the table is not
 * AUTOINCREMENT). Set by the archiver (archive.ts) before it removes anything.
 */
export const EXCHANGE_ID_FLOOR_KEY = 'exchanges.idFloor';

/** Stores exchanges exactly as captured. They arrive redacted: the transport redacts before anything else sees them. */
export class ExchangeRepository {
  private insertStmt: Statement | null = null;
  private linkStmt: Statement | null = null;

  constructor(private readonly db: Database) {}

  /** Prepared on first use (reading works on any schema version a migration test opens). */
  private get insertStatement(): Statement {
    this.insertStmt ??= this.db.prepare(`
      INSERT INTO exchanges (id, message_id, operation, profile, method, url, request_headers, request_body, status, status_text,
        response_headers, response_body, error_kind, error_message, error_ms, started_at, timings, provider_code, capture, capture_verdict,
        packed, dict_id, size_bytes)
      VALUES ((SELECT max(coalesce(max(id), 0) + 1, coalesce((SELECT CAST(value AS INTEGER) FROM settings WHERE key = '${EXCHANGE_ID_FLOOR_KEY}'), 0)) FROM exchanges),
        @messageId, @operation, @profile, @method, @url, @request_headers, @request_body, @status, @status_text,
        @response_headers, @response_body, @errorKind, @error_message, @errorMs, @startedAt, @timings, @providerCode, @capture, @captureVerdict,
        @packed, @dictId, @sizeBytes)`);
    return this.insertStmt;
  }

  /**
   * Stores an exchange; `capture` marks one the capture proxy recorded (with its checks). `messageIds`:
   * every message it belongs to (a post of receipts: each message it names), stored once however
   * many they are: the first as its messageId, the others linked (exchange_messages, migration 0016).
   */
  insert(e: Exchange, link: { messageId?: number | null; messageIds?: readonly number[]; profile?: string | null; capture?: CaptureInfo | null } = {}): number {
    // One write: the row, its search text (a trigger), and a new dictionary when one is due (exchange-pack.ts).
    if (!this.db.inTransaction) return this.db.transaction(() => this.insert(e, link)).immediate();
    const ids = [...new Set(link.messageIds ?? [])];
    const [first = link.messageId ?? null, ...others] = ids;
    const parts: PackedParts = {
      url: e.url,
      request_headers: JSON.stringify(e.requestHeaders),
      request_body: e.requestBody,
      status_text: e.statusText,
      response_headers: e.responseHeaders === null ? null : JSON.stringify(e.responseHeaders),
      response_body: e.responseBody,
      error_message: e.error?.message ?? null,
      timings: JSON.stringify(e.timings),
      capture: link.capture ? JSON.stringify(link.capture) : null,
    };
    const bytes = (v: string | null) => (v === null ? 0 : Buffer.byteLength(v, 'utf8'));
    // A status poll of a message is packed against the message's first (exchange-pack.ts, migration
    // 0026); the insert's trigger reads the message's other exchanges' text, so their base is read first.
    const packed = e.operation === 'status' && first !== null ? packPoll(this.db, parts, first) : pack(this.db, parts);
    if (first !== null && e.operation !== 'status') readyBase(this.db, first);
    const info = this.insertStatement.run({
      ...PACKED_PLACEHOLDERS,
      messageId: first,
      profile: storedProfile(this.db, link.profile ?? null),
      operation: e.operation,
      method: e.method,
      status: e.status,
      errorKind: e.error?.kind ?? null,
      errorMs: e.error?.ms ?? null,
      startedAt: e.startedAt,
      providerCode: bodyReplyCode(e.responseBody),
      captureVerdict: link.capture?.verdict ?? null,
      ...packed,
      // What retention counts: the bytes of the headers and bodies as captured (migration 0005).
      sizeBytes: bytes(parts.request_headers) + bytes(parts.request_body) + bytes(parts.response_headers) + bytes(parts.response_body),
    });
    const id = Number(info.lastInsertRowid);
    if (others.length) {
      const linkStmt = (this.linkStmt ??= this.db.prepare('INSERT INTO exchange_messages (message_id, started_at, exchange_id) VALUES (?, ?, ?)'));
      for (const m of others) linkStmt.run(m, e.startedAt, id);
    }
    return id;
  }

  /** A message's exchanges, oldest first: its own, and the posts linked to it (migration 0016). */
  forMessage(messageId: number): ExchangeRecord[] {
    return (
      this.db
        .prepare(
          `SELECT * FROM exchanges WHERE message_id = ?
           UNION ALL SELECT e.* FROM exchange_messages l JOIN exchanges e ON e.id = l.exchange_id WHERE l.message_id = ?
           ORDER BY started_at, id`,
        )
        .all(messageId, messageId) as ExchangeRow[]
    ).map((r) => toRecord(this.db, r));
  }

  /** The newest exchanges of a profile of these operations (the teach preview reads them again with a candidate dialect). */
  recentForProfile(profile: string, operations: readonly Exchange['operation'][], limit: number): ExchangeRecord[] {
    const marks = operations.map(() => '?').join(', ');
    const forms = storedForms(this.db, [profile]);
    return (
      this.db
        .prepare(`SELECT * FROM exchanges WHERE profile IN (${forms.map(() => '?').join(', ')}) AND operation IN (${marks}) ORDER BY id DESC LIMIT ?`)
        .all(...forms, ...operations, limit) as ExchangeRow[]
    ).map((r) => toRecord(this.db, r));
  }

  get(id: number): ExchangeRecord | undefined {
    const row = this.db.prepare('SELECT * FROM exchanges WHERE id = ?').get(id) as ExchangeRow | undefined;
    return row && toRecord(this.db, row);
  }

  /** Retention: deletes the exchanges started before `at`; how many went. */
  deleteStartedBefore(at: number): number {
    return this.deleting(() => this.db.prepare('DELETE FROM exchanges WHERE started_at < ?').run(at).changes);
  }

  /** Retention: deletes the oldest exchanges, up to and including (startedAt, id); how many went. */
  deleteThrough(startedAt: number, id: number): number {
    return this.deleting(() => this.db.prepare('DELETE FROM exchanges WHERE (started_at, id) <= (?, ?)').run(startedAt, id).changes);
  }

  /**
   * Archiving (archive.ts): deletes these exchanges, each only while its id still has that start
   * time (the row the archive holds); how many went.
   */
  deleteArchived(rows: ReadonlyArray<readonly [id: number, startedAt: number]>): number {
    // One statement for the batch: the search index flushes what it holds at each statement that
    // writes to it (a statement per row took 15 times as long).
    return this.deleting(
      () =>
        this.db.prepare('DELETE FROM exchanges WHERE (id, started_at) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))').run(JSON.stringify(rows))
          .changes,
    );
  }

  /**
   * One step of merging the search index's segments (about 500 pages of work): a deletion leaves a
   * marker per entry in the index until its segment is merged, so after a large one the index grows
   * before it shrinks. True while there is more to merge.
   */
  mergeSearchIndex(): boolean {
    const changes = () => (this.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    // The word index of calls (migration 0021), and the index of each exchange (0012) while the indexing job keeps it.
    const exists = (name: string) => this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
    let more = false;
    for (const index of ['exchange_words', 'exchanges_fts']) {
      if (!exists(index)) continue;
      const before = changes();
      this.db.prepare(`INSERT INTO ${index} (${index}, rank) VALUES ('merge', -500)`).run();
      if (changes() - before > 1) more = true;
    }
    return more;
  }

  /**
   * A deletion, in one snapshot with the dictionaries it reads (the search index's trigger reads each
   * row's text); then the dictionaries no row needs any more go, and with them the pieces of
   * exchanges they were made from (all of them when no exchange is left; else every one but the newest,
   * which the next exchange is packed with).
   */
  private deleting(remove: () => number): number {
    if (!this.db.inTransaction) return this.db.transaction(() => this.deleting(remove)).immediate();
    refreshDictionaries(this.db);
    const n = remove();
    this.db
      .prepare(
        `DELETE FROM exchange_dicts WHERE rows <= 0
           AND (id < (SELECT max(id) FROM exchange_dicts) OR NOT EXISTS (SELECT 1 FROM exchanges))`,
      )
      .run();
    return n;
  }
}
