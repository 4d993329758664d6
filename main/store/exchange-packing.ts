import type { Database } from 'better-sqlite3';
import type { Clock, TimerHandle } from '../clock';
import { packer, PACKED_COLUMNS, PACKED_PLACEHOLDERS, refreshDictionaries, type PackedParts } from './exchange-pack';
import { indexAlone, indexMessages } from './exchange-words';
import { DROP_OLD_INDEX } from './migrations/0021-call-words';
import { deleteSetting, getSetting, setSetting } from './settings-repository';

// The packing job: packs the exchanges stored before migration 0020, a batch per write transaction,
// oldest first. Its place is kept in `settings` ('exchanges.packing', written by the migration), in
// the same transaction as the batch, so a job stopped anywhere (the app closed, the process killed)
// goes on from the last batch written, and two processes on one store never pack a row twice.
// Until a row is packed it reads back as it was stored; packed, it reads back the same.
//
// Then, the same way, the indexing job makes the word index's entries of the exchanges stored before
// migration 0021 (a message's exchanges together, exchange-words.ts), messages in id order and then
// the exchanges no message owns, keeping its place under 'exchanges.indexing'. Search reads the old
// index until the last batch, which drops it.

const KEY = 'exchanges.packing';
const INDEXING_KEY = 'exchanges.indexing';
/**
 * Set when the last batch is packed: packing shrinks rows in place, and SQLite does not give the
 * pages back until the file is rebuilt, so Storage advises compacting once (vacuum clears it).
 */
export const COMPACT_ADVISED_KEY = 'exchanges.compact-advised';
/** Rows per transaction: about 40 ms of work, so other writers wait little. */
export const PACK_BATCH = 500;
/** The pause between batches (the app stays responsive), and after a failed batch. */
export const PACK_PAUSE_MS = 25;
export const PACK_RETRY_MS = 5_000;

interface PackingState {
  /** Rows up to this id were packed. */
  after: number;
  /** The newest row stored before migration 0020 (later ones are packed when stored). */
  through: number;
  total: number;
  done: number;
}

/** The indexing job's `alone` walks the exchanges no message owns in id order (migration 0028). */
const ALONE_BY_ID = -1;

interface IndexingState {
  /** Messages up to this id have their entry. */
  message: number;
  /**
   * Then the exchanges no message owns: [ALONE_BY_ID, the last id done]. [Number.MIN_SAFE_INTEGER, 0]
   * while the messages are still being done; a (started_at, id) an earlier build walked in time
   * order starts the walk again (making an entry again is harmless).
   */
  alone: [number, number];
  total: number;
  done: number;
}

export interface PackingProgress {
  /** `packing` the rows, then `indexing` them for search anew (migration 0021). */
  step: 'packing' | 'indexing';
  /** Exchanges done so far in this step, of `total` stored before the upgrade. */
  done: number;
  total: number;
}

function readState(db: Database): PackingState | null {
  const raw = getSetting(db, KEY);
  if (raw === null) return null;
  try {
    const s = JSON.parse(raw) as PackingState;
    return Number.isSafeInteger(s.after) && Number.isSafeInteger(s.through) ? s : null;
  } catch {
    return null;
  }
}

/**
 * When the indexing job is still to end (a store upgraded from before migration 0021), starts it
 * again from the first message: the index it was making has been made anew, empty (migration 0027).
 * True when it was.
 */
export function restartIndexing(db: Database): boolean {
  const s = readIndexing(db);
  if (!s) return false;
  setSetting(db, INDEXING_KEY, JSON.stringify({ ...s, message: 0, alone: [Number.MIN_SAFE_INTEGER, 0], done: 0 }));
  return true;
}

/** Whether the indexing job is still to end: it makes every entry of the word index itself. */
export function indexingPending(db: Database): boolean {
  return getSetting(db, INDEXING_KEY) !== null;
}

function readIndexing(db: Database): IndexingState | null {
  const raw = getSetting(db, INDEXING_KEY);
  if (raw === null) return null;
  try {
    const s = JSON.parse(raw) as IndexingState;
    const ok = Number.isSafeInteger(s.message) && Array.isArray(s.alone) && s.alone.length === 2 && s.alone.every((x) => Number.isSafeInteger(x));
    // A place that cannot be read starts again from the beginning: an entry made twice is the same.
    return ok ? s : { message: 0, alone: [Number.MIN_SAFE_INTEGER, 0], total: Number(s.total) || 0, done: 0 };
  } catch {
    return { message: 0, alone: [Number.MIN_SAFE_INTEGER, 0], total: 0, done: 0 };
  }
}

/** How far the packing job is, or null when there is nothing (left) to pack or index. */
export function packingProgress(db: Database): PackingProgress | null {
  const s = readState(db);
  if (s) return { step: 'packing', done: Math.min(s.done, s.total), total: s.total };
  const i = readIndexing(db);
  return i && { step: 'indexing', done: Math.min(i.done, i.total), total: Math.max(i.total, i.done) };
}

/** Whether a compaction would give back the space packing freed (see COMPACT_ADVISED_KEY). */
export function compactAdvised(db: Database): boolean {
  return getSetting(db, COMPACT_ADVISED_KEY) !== null;
}

/**
 * Packs the next `limit` rows in one transaction, or (all packed) makes the word index's entries of
 * about `limit` more; the progress after it, or null when all are packed and indexed.
 */
export function packBatch(db: Database, limit = PACK_BATCH): PackingProgress | null {
  return db
    .transaction(() => {
      const s = readState(db);
      if (!s) return indexBatch(db, limit);
      refreshDictionaries(db);
      const rows = db
        .prepare(
          `SELECT id, message_id, operation, ${PACKED_COLUMNS.join(', ')} FROM exchanges WHERE id > ? AND id <= ? AND packed IS NULL ORDER BY id LIMIT ?`,
        )
        .all(s.after, s.through, limit) as (PackedParts & { id: number; message_id: number | null; operation: string })[];
      const set = PACKED_COLUMNS.map((c) => `${c} = @${c}`).join(', ');
      const update = db.prepare(`UPDATE exchanges SET packed = @packed, dict_id = @dictId, ${set} WHERE id = @id`);
      const pack = packer(db);
      for (const row of rows) {
        const parts = Object.fromEntries(PACKED_COLUMNS.map((c) => [c, row[c]])) as PackedParts;
        // A status poll of a message against the message's base (migration 0026).
        const poll = row.operation === 'status' && row.message_id !== null ? { messageId: row.message_id } : null;
        update.run({ ...PACKED_PLACEHOLDERS, id: row.id, ...pack(parts, poll) });
      }
      if (rows.length < limit) {
        deleteSetting(db, KEY);
        setSetting(db, COMPACT_ADVISED_KEY, '1');
        return packingProgress(db);
      }
      const next = { ...s, after: rows.at(-1)!.id, done: s.done + rows.length };
      setSetting(db, KEY, JSON.stringify(next));
      return { step: 'packing' as const, done: Math.min(next.done, next.total), total: next.total };
    })
    .immediate();
}

/** One batch of the indexing job, inside packBatch's transaction. */
function indexBatch(db: Database, limit: number): PackingProgress | null {
  const s = readIndexing(db);
  if (!s) return null;
  refreshDictionaries(db);
  let next: IndexingState | null = null;
  const messages = s.alone[0] === Number.MIN_SAFE_INTEGER ? indexMessages(db, 'main', s.message, limit) : null;
  if (messages) next = { ...s, message: messages.last, done: s.done + messages.exchanges };
  else {
    const alone = indexAlone(db, 'main', s.alone[0] === ALONE_BY_ID ? s.alone[1] : 0, limit);
    if (alone) next = { ...s, alone: [ALONE_BY_ID, alone.last], done: s.done + alone.exchanges };
  }
  if (!next) {
    // Every entry is made: the old index goes, and with it most of the file's pages (given back by compacting).
    db.exec(DROP_OLD_INDEX);
    deleteSetting(db, INDEXING_KEY);
    setSetting(db, COMPACT_ADVISED_KEY, '1');
    return null;
  }
  setSetting(db, INDEXING_KEY, JSON.stringify(next));
  return { step: 'indexing', done: Math.min(next.done, next.total), total: Math.max(next.total, next.done) };
}

export interface PackingJob {
  /** Resolves when nothing is left to pack (or the job was stopped). */
  readonly done: Promise<void>;
  stop(): void;
}

/**
 * Runs packBatch on the clock until nothing is left: a batch, a pause, the next. A failed batch (the
 * store busy or full) goes to `log` and is tried again after PACK_RETRY_MS; nothing is lost, the batch
 * was rolled back (and a dictionary it made with it: exchange-pack.ts).
 * `finished` runs once, after the last batch.
 */
export function startPacking(db: Database, clock: Clock, finished?: () => void, log?: (error: unknown) => void): PackingJob {
  let timer: TimerHandle | null = null;
  let stopped = false;
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  const step = () => {
    timer = null;
    if (stopped || !db.open) return resolve();
    let wait = PACK_PAUSE_MS;
    try {
      if (packBatch(db) === null) {
        finished?.();
        return resolve();
      }
    } catch (error) {
      log?.(error);
      wait = PACK_RETRY_MS;
    }
    timer = clock.setTimeout(step, wait).unref();
  };
  if (packingProgress(db) === null) resolve();
  else timer = clock.setTimeout(step, 0).unref();
  return {
    done,
    stop: () => {
      stopped = true;
      timer?.cancel();
      resolve();
    },
  };
}
