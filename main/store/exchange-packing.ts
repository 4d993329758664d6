import type { Database } from 'better-sqlite3';
import type { Clock, TimerHandle } from '../clock';
import { packer, PACKED_COLUMNS, PACKED_PLACEHOLDERS, refreshDictionaries, type PackedParts } from './exchange-pack';
import { deleteSetting, getSetting, setSetting } from './settings-repository';

// The packing job: packs the exchanges stored before migration 0020, a batch per write transaction,
// oldest first. Its place is kept in `settings` ('exchanges.packing', written by the migration), in
// the same transaction as the batch, so a job stopped anywhere (the app closed, the process killed)
// goes on from the last batch written, and two processes on one store never pack a row twice.
// Until a row is packed it reads back as it was stored; packed, it reads back the same.

const KEY = 'exchanges.packing';
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

export interface PackingProgress {
  /** Exchanges packed so far, of `total` stored before the upgrade. */
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

/** How far the packing job is, or null when there is nothing (left) to pack. */
export function packingProgress(db: Database): PackingProgress | null {
  const s = readState(db);
  return s && { done: Math.min(s.done, s.total), total: s.total };
}

/** Whether a compaction would give back the space packing freed (see COMPACT_ADVISED_KEY). */
export function compactAdvised(db: Database): boolean {
  return getSetting(db, COMPACT_ADVISED_KEY) !== null;
}

/** Packs the next `limit` rows in one transaction; the progress after it, or null when all are packed. */
export function packBatch(db: Database, limit = PACK_BATCH): PackingProgress | null {
  return db
    .transaction(() => {
      const s = readState(db);
      if (!s) return null;
      refreshDictionaries(db);
      const rows = db
        .prepare(`SELECT id, ${PACKED_COLUMNS.join(', ')} FROM exchanges WHERE id > ? AND id <= ? AND packed IS NULL ORDER BY id LIMIT ?`)
        .all(s.after, s.through, limit) as (PackedParts & { id: number })[];
      const set = PACKED_COLUMNS.map((c) => `${c} = @${c}`).join(', ');
      const update = db.prepare(`UPDATE exchanges SET packed = @packed, dict_id = @dictId, ${set} WHERE id = @id`);
      const pack = packer(db);
      for (const row of rows) {
        const parts = Object.fromEntries(PACKED_COLUMNS.map((c) => [c, row[c]])) as PackedParts;
        update.run({ ...PACKED_PLACEHOLDERS, id: row.id, ...pack(parts) });
      }
      if (rows.length < limit) {
        deleteSetting(db, KEY);
        setSetting(db, COMPACT_ADVISED_KEY, '1');
        return null;
      }
      const next = { ...s, after: rows.at(-1)!.id, done: s.done + rows.length };
      setSetting(db, KEY, JSON.stringify(next));
      return { done: Math.min(next.done, next.total), total: next.total };
    })
    .immediate();
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
