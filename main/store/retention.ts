import { statSync } from 'node:fs';
import type { Database } from 'better-sqlite3';
import type { RetentionSettings, RetentionResult, VacuumResult } from '../../common/history-types';
import { fail } from '../errors';
import { systemClock } from '../clock';
import { ExchangeRepository } from './exchange-repository';
import { getSetting, setSetting } from './settings-repository';
export type { RetentionSettings, RetentionResult, VacuumResult } from '../../common/history-types';

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

/** Bytes of headers and bodies of all exchanges, and how many there are (one index read). */
export function exchangeUsage(db: Database): { bytes: number; exchanges: number } {
  const r = db.prepare('SELECT coalesce(sum(size_bytes), 0) AS bytes, count(*) AS n FROM exchanges INDEXED BY exchanges_time_size').get() as {
    bytes: number;
    n: number;
  };
  return { bytes: r.bytes, exchanges: r.n };
}

/**
 * Deletes exchanges older than `exchangeDays` before `now`, then the oldest ones until what is left
 * weighs at most `exchangeMaxBytes`. One transaction. Messages are left as they are.
 */
export function applyRetention(db: Database, settings: RetentionSettings, now: number = systemClock.now()): RetentionResult {
  const s = validateRetention(settings);
  // The exchanges' one writer deletes them; this only decides which.
  const exchanges = new ExchangeRepository(db);
  return db.transaction((): RetentionResult => {
    let deletedByAge = 0;
    let deletedBySize = 0;
    if (s.exchangeDays !== null) {
      deletedByAge = exchanges.deleteStartedBefore(now - s.exchangeDays * DAY_MS);
    }
    let usage = exchangeUsage(db);
    if (s.exchangeMaxBytes !== null && usage.bytes > s.exchangeMaxBytes) {
      let excess = usage.bytes - s.exchangeMaxBytes;
      let cut: { started_at: number; id: number } | null = null;
      for (const row of db
        .prepare('SELECT started_at, id, size_bytes FROM exchanges INDEXED BY exchanges_time_size ORDER BY started_at, id')
        .iterate() as Iterable<{ started_at: number; id: number; size_bytes: number | null }>) {
        cut = row;
        excess -= row.size_bytes ?? 0;
        if (excess <= 0) break;
      }
      if (cut) deletedBySize = exchanges.deleteThrough(cut.started_at, cut.id);
      usage = exchangeUsage(db);
    }
    return { deletedByAge, deletedBySize, remainingBytes: usage.bytes, remainingExchanges: usage.exchanges };
  })();
}

function fileBytes(db: Database): number {
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
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
  return { bytesBefore, bytesAfter: fileBytes(db), ms: Math.round(performance.now() - t) };
}
