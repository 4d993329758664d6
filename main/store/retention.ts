import { statSync } from 'node:fs';
import type { Database } from 'better-sqlite3';
import type { RetentionPreview, RetentionSettings, RetentionResult, VacuumResult } from '../../common/history-types';
import { fail } from '../errors';
import { systemClock } from '../clock';
import { ExchangeRepository } from './exchange-repository';
import { deleteSetting, getSetting, setSetting } from './settings-repository';
import { COMPACT_ADVISED_KEY } from './exchange-packing';
export type { RetentionPreview, RetentionSettings, RetentionResult, VacuumResult } from '../../common/history-types';

/**
 * Retention of captured exchanges, and vacuum. Messages (and their timelines) are never deleted
 * here: an exchange's message keeps its history, the raw bytes go.
 *
 * Sizes are the bytes of an exchange's headers and bodies (`exchanges.size_bytes`, set on insert by
 * migration 0005 and indexed with started_at), so the total and the walk oldest-first read one
 * index, never the bodies.
 */

export const DEFAULT_RETENTION: RetentionSettings = Object.freeze({ exchangeDays: null, exchangeMaxBytes: null });

const RETENTION_KEY = 'retention';
const DAY_MS = 86_400_000;

function checkLimit(name: string, v: unknown, min: number): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
    throw fail('retention-invalid', { field: name, min });
  }
  return v;
}

/** Validates settings (whole days ≥ 1, bytes ≥ 0, or null). Throws retention-invalid. */
export function validateRetention(s: Partial<RetentionSettings>): RetentionSettings {
  return { exchangeDays: checkLimit('exchangeDays', s.exchangeDays, 1), exchangeMaxBytes: checkLimit('exchangeMaxBytes', s.exchangeMaxBytes, 0) };
}

export function getRetentionSettings(db: Database): RetentionSettings {
  const raw = getSetting(db, RETENTION_KEY);
  if (raw === null) return { ...DEFAULT_RETENTION };
  try {
    return validateRetention(JSON.parse(raw) as Partial<RetentionSettings>);
  } catch {
    return { ...DEFAULT_RETENTION };
  }
}

export function setRetentionSettings(db: Database, s: RetentionSettings): RetentionSettings {
  const valid = validateRetention(s);
  setSetting(db, RETENTION_KEY, JSON.stringify(valid));
  return valid;
}

/** Bytes of headers and bodies of all exchanges, and how many there are (the hours' sums, migration 0022). */
export function exchangeUsage(db: Database): { bytes: number; exchanges: number } {
  const r = db.prepare('SELECT coalesce(sum(bytes), 0) AS bytes, coalesce(sum(n), 0) AS n FROM exchange_hours').get() as { bytes: number; n: number };
  return { bytes: r.bytes, exchanges: r.n };
}

const HOUR_MS = 3_600_000;

/** How many exchanges started before `cutoff`, and their bytes: the whole hours' sums, and the index for the part of the last hour. */
export function exchangesBefore(db: Database, cutoff: number): { exchanges: number; bytes: number } {
  const hour = Math.floor(cutoff / HOUR_MS);
  const whole = db.prepare('SELECT coalesce(sum(n), 0) AS exchanges, coalesce(sum(bytes), 0) AS bytes FROM exchange_hours WHERE hour < ?').get(hour) as {
    exchanges: number;
    bytes: number;
  };
  const part = db
    .prepare(
      'SELECT count(*) AS exchanges, coalesce(sum(size_bytes), 0) AS bytes FROM exchanges INDEXED BY exchanges_time_size WHERE started_at >= ? AND started_at < ?',
    )
    .get(hour * HOUR_MS, cutoff) as { exchanges: number; bytes: number };
  return { exchanges: whole.exchanges + part.exchanges, bytes: whole.bytes + part.bytes };
}

/**
 * What the settings would delete, and what would be left: by age (exchanges older than
 * `exchangeDays` before `now`), then by size (the oldest of the rest until what is left weighs at
 * most `exchangeMaxBytes`). Reads the (started_at, size_bytes) index only, never a body. The one
 * rule both the preview the Store drawer shows as settings are typed and `applyRetention` follow.
 */
export function planRetention(db: Database, settings: RetentionSettings, now: number): RetentionPlan {
  const s = validateRetention(settings);
  const ageCutoff = s.exchangeDays === null ? null : now - s.exchangeDays * DAY_MS;
  const byAge = ageCutoff === null ? { exchanges: 0, bytes: 0 } : exchangesBefore(db, ageCutoff);
  const usage = exchangeUsage(db);
  const bySize = { exchanges: 0, bytes: 0 };
  let sizeCut: RetentionPlan['sizeCut'] = null;
  const afterAge = usage.bytes - byAge.bytes;
  if (s.exchangeMaxBytes !== null && afterAge > s.exchangeMaxBytes) {
    // The oldest of the rest until the excess is covered: whole hours from their sums, then the
    // index inside the hour where it is (walking every exchange's size took minutes at ten million
    // calls, and the Storage drawer asks as a size is typed).
    let excess = afterAge - s.exchangeMaxBytes;
    const from = ageCutoff ?? Number.MIN_SAFE_INTEGER;
    const firstHour = Math.floor(from / HOUR_MS);
    const rowsFrom = db.prepare(
      'SELECT started_at, id, size_bytes FROM exchanges INDEXED BY exchanges_time_size WHERE started_at >= ? AND started_at < ? ORDER BY started_at, id',
    );
    const hours = db.prepare('SELECT hour, n, bytes FROM exchange_hours WHERE hour >= ? ORDER BY hour').iterate(firstHour) as Iterable<{
      hour: number;
      n: number;
      bytes: number;
    }>;
    for (const h of hours) {
      const start = Math.max(from, h.hour * HOUR_MS);
      const end = (h.hour + 1) * HOUR_MS;
      // The age cut's own hour counts from the cut only.
      const part = start > h.hour * HOUR_MS ? (rowsFrom.all(start, end) as { started_at: number; id: number; size_bytes: number | null }[]) : null;
      const hourBytes = part ? part.reduce((a, r) => a + (r.size_bytes ?? 0), 0) : h.bytes;
      if (hourBytes < excess) {
        bySize.exchanges += part ? part.length : h.n;
        bySize.bytes += hourBytes;
        excess -= hourBytes;
        continue;
      }
      for (const row of part ?? (rowsFrom.iterate(start, end) as Iterable<{ started_at: number; id: number; size_bytes: number | null }>)) {
        sizeCut = { startedAt: row.started_at, id: row.id };
        bySize.exchanges++;
        bySize.bytes += row.size_bytes ?? 0;
        excess -= row.size_bytes ?? 0;
        if (excess <= 0) break;
      }
      break;
    }
  }
  return {
    ageCutoff,
    sizeCut,
    byAge,
    bySize,
    remaining: { exchanges: usage.exchanges - byAge.exchanges - bySize.exchanges, bytes: usage.bytes - byAge.bytes - bySize.bytes },
  };
}

/** What `planRetention` decided, and where: the age cutoff and the last exchange the size cap takes. */
export interface RetentionPlan extends RetentionPreview {
  ageCutoff: number | null;
  sizeCut: { startedAt: number; id: number } | null;
}

/**
 * Deletes what `planRetention` says, in one transaction, then hands the freed pages back to the
 * file system when the file allows it (auto_vacuum incremental: new stores, and any store once it
 * was compacted). Messages are left as they are.
 */
export function applyRetention(db: Database, settings: RetentionSettings, now: number = systemClock.now()): RetentionResult {
  // The exchanges' one writer deletes them; this only decides which.
  const exchanges = new ExchangeRepository(db);
  const fileBytesBefore = fileBytes(db);
  const deleted = db.transaction(() => {
    const plan = planRetention(db, settings, now);
    const deletedByAge = plan.ageCutoff === null ? 0 : exchanges.deleteStartedBefore(plan.ageCutoff);
    const deletedBySize = plan.sizeCut ? exchanges.deleteThrough(plan.sizeCut.startedAt, plan.sizeCut.id) : 0;
    const usage = exchangeUsage(db);
    return { deletedByAge, deletedBySize, remainingBytes: usage.bytes, remainingExchanges: usage.exchanges };
  })();
  shrink(db);
  return { ...deleted, fileBytesBefore, fileBytesAfter: fileBytes(db) };
}

/** auto_vacuum's mode: 0 none, 1 full, 2 incremental. */
function autoVacuum(db: Database): number {
  return db.pragma('auto_vacuum', { simple: true }) as number;
}

/**
 * Gives the file's free pages back (incremental vacuum) and empties the WAL, when the file keeps the
 * pointer maps that allow it; else the free pages wait for the next write or a compaction.
 */
export function shrink(db: Database): void {
  // Inside a caller's transaction the pages are not free yet: they are given back by a later apply.
  if (!db.inTransaction && autoVacuum(db) === 2 && (db.pragma('freelist_count', { simple: true }) as number) > 0) {
    db.pragma('incremental_vacuum');
    db.pragma('wal_checkpoint(TRUNCATE)');
  }
}

/** The database file and its WAL, in bytes (what the store takes on disk). */
export function fileBytes(db: Database): number {
  const file = db.name;
  let total = 0;
  for (const f of [file, `${file}-wal`]) {
    try {
      total += statSync(f).size;
    } catch {
      // no such file (in memory, or no WAL)
    }
  }
  return total;
}

/**
 * Rebuilds the file without its free pages (after retention deleted a lot) and empties the WAL.
 * Needs free disk space about the size of the database and blocks the connection while it runs
 * (seconds per GB): offer it as an explicit action. Sizes are the database file plus its WAL.
 */
export function vacuum(db: Database): VacuumResult {
  const bytesBefore = fileBytes(db);
  const t = performance.now();
  // Rebuilt with pointer maps: from now on retention gives freed pages back at once (see shrink).
  if (autoVacuum(db) !== 2) db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
  // The space packing left inside pages (exchange-packing.ts) is given back now.
  deleteSetting(db, COMPACT_ADVISED_KEY);
  return { bytesBefore, bytesAfter: fileBytes(db), ms: Math.round(performance.now() - t) };
}
