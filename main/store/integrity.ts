import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { openDatabase, type Database, type OpenDatabaseOptions } from './database';
import { checkWal } from './wal-check';
import { systemClock, type Clock } from '../clock';

/**
 * Damaged databases at start: detected, kept aside, never discarded or repaired in place.
 *
 * The check runs on a read-only connection of its own before the real open, so nothing is written
 * to a damaged file and its WAL (which may hold the latest committed rows) is neither checkpointed
 * nor removed: both are moved aside together, under names SQLite pairs again.
 *
 * Cost. `PRAGMA quick_check` reads every page of the file: ~4.6 ms per MB here, so ~6 s for the
 * bench's 1.4 GB store of a million messages, which is too long to wait for at every start. So:
 * - a file up to {@link FULL_CHECK_MAX_BYTES} gets the full `quick_check` (≤ ~150 ms);
 * - a larger one gets a bounded check (a few ms; bench figure historyOpenCheckMs): SQLite's own
 *   header checks (a truncated file or one that is not a database fails here), the schema, a
 *   full `quick_check` of every table except the history tables of {@link PROBED_TABLES}, and, for
 *   those, a read down both edges of each b-tree (first rows, and the most recent rows, where an
 *   interrupted write would land);
 * - {@link fullIntegrityCheck} runs the whole check on demand (a maintenance action, with vacuum);
 * - damage found later (a query failing with SQLITE_CORRUPT) can be recorded with
 *   {@link markDamaged}: the next start then sets the file aside like one that failed its check.
 */

/** Files up to this size get the full quick_check at open. */
export const FULL_CHECK_MAX_BYTES = 32 * 1024 * 1024;

/** Tables that grow with use: probed at their edges rather than read whole when the file is large. */
export const PROBED_TABLES: ReadonlySet<string> = new Set([
  'messages',
  'message_events',
  'exchanges',
  'exchange_messages',
  'message_stats',
  'exchange_hours',
  'exchange_bases',
  'messages_fts_data',
  'messages_fts_idx',
  'messages_fts_docsize',
  'exchanges_fts_data',
  'exchanges_fts_idx',
  'exchanges_fts_docsize',
  'exchange_words_data',
  'exchange_words_idx',
  'exchange_words_docsize',
  'batch_items',
]);

/** Rows read from the recent end of each probed table. */
const RECENT_ROWS = 200;

export interface RecoveredDatabase {
  /** Where the damaged file was moved (same folder); its -wal and -shm, if any, sit beside it with the same name. */
  movedTo: string;
  /** What was wrong, as SQLite said it (or as the WAL check found it). */
  reason: string;
  /**
   * `database`: the file was damaged: it was moved aside and a new database started.
   * `wal`: its write-ahead log was damaged: copies of both were kept aside as found, and the
   * database opened with what SQLite can read (everything committed before the damage).
   */
  kind: 'database' | 'wal';
}

export interface SafeOpenResult {
  db: Database;
  /** Set when the file was damaged: it was kept aside and a fresh database started. */
  recovered: RecoveredDatabase | null;
}

export interface IntegrityOptions {
  /** Default {@link FULL_CHECK_MAX_BYTES}. */
  fullCheckMaxBytes?: number;
  /** When a damaged file is set aside (its name says it). Default systemClock. */
  clock?: Clock;
}

/** SQLite's error codes for "this file is not (or no longer) a database". */
const CORRUPTION_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_CORRUPT_VTAB', 'SQLITE_CORRUPT_SEQUENCE', 'SQLITE_CORRUPT_INDEX']);

export function isCorruptionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CORRUPTION_CODES.has(code);
}

function firstProblem(rows: Array<Record<string, unknown>>): string | null {
  const first = rows[0] ? String(Object.values(rows[0])[0]) : 'no answer from the check';
  return first === 'ok' ? null : first;
}

/** The whole `PRAGMA quick_check(1)`: every page read (seconds on a multi-GB file). Null when sound. */
export function fullIntegrityCheck(db: Database): string | null {
  return firstProblem(db.pragma('quick_check(1)') as Array<Record<string, unknown>>);
}

/**
 * The check run at open: the full quick_check on a small file, the bounded one (see the module
 * comment) on a large one. Returns null when sound, or what is wrong. SQLite errors
 * (SQLITE_CORRUPT, SQLITE_NOTADB) are thrown as they are.
 */
export function checkIntegrity(db: Database, options: IntegrityOptions = {}): string | null {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  if (pages * pageSize <= (options.fullCheckMaxBytes ?? FULL_CHECK_MAX_BYTES)) return fullIntegrityCheck(db);

  const tables = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND rootpage > 0").all() as Array<{ name: string; sql: string }>;
  for (const t of tables) {
    if (PROBED_TABLES.has(t.name)) continue;
    const problem = firstProblem(db.prepare('SELECT * FROM pragma_quick_check(?)').all(t.name) as Array<Record<string, unknown>>);
    if (problem) return problem;
  }
  for (const t of tables) {
    if (!PROBED_TABLES.has(t.name)) continue;
    const name = `"${t.name.replace(/"/g, '""')}"`;
    const withoutRowid = /WITHOUT\s+ROWID/i.test(t.sql);
    const key = withoutRowid ? primaryKey(db, t.name) : 'rowid';
    // Reading every column also follows each row's overflow pages.
    db.prepare(`SELECT * FROM ${name} ORDER BY ${key} LIMIT 1`).all();
    db.prepare(
      `SELECT * FROM ${name} ORDER BY ${key
        .split(', ')
        .map((k) => `${k} DESC`)
        .join(', ')} LIMIT ${RECENT_ROWS}`,
    ).all();
  }
  return null;
}

function primaryKey(db: Database, table: string): string {
  const cols = (db.prepare('SELECT name, pk FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk').all(table) as Array<{ name: string }>).map(
    (c) => `"${c.name.replace(/"/g, '""')}"`,
  );
  return cols.length ? cols.join(', ') : 'rowid';
}

function stamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/**
 * Moves `file` and its -wal/-shm companions to `<file>.corrupt-<UTC time>` in the same folder,
 * never overwriting an earlier one. Returns the new path of the main file.
 */
export function moveAside(file: string, now: Date = systemClock.date()): string {
  const base = `${file}.corrupt-${stamp(now)}`;
  let target = base;
  for (let n = 2; existsSync(target) || existsSync(`${target}-wal`); n++) target = `${base}-${n}`;
  // The WAL holds committed pages not yet copied into the main file: it moves with it, under the
  // name SQLite looks for, so the kept copy opens with everything it had.
  for (const suffix of ['-wal', '-shm', '-journal']) {
    if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix);
  }
  renameSync(file, target);
  return target;
}

/** The marker that {@link markDamaged} leaves next to the database. */
export function damageMarkerPath(file: string): string {
  return `${file}.damaged`;
}

/**
 * Records that the database was found damaged while in use (e.g. a query failed with
 * SQLITE_CORRUPT): the next {@link openDatabaseSafely} sets it aside as if it had failed its check.
 */
export function markDamaged(file: string, reason: string, now: Date = systemClock.date()): void {
  writeFileSync(damageMarkerPath(file), JSON.stringify({ reason, at: now.toISOString() }));
}

function readMarker(file: string): string | null {
  const marker = damageMarkerPath(file);
  if (!existsSync(marker)) return null;
  try {
    const v = JSON.parse(readFileSync(marker, 'utf8')) as { reason?: unknown };
    return typeof v.reason === 'string' && v.reason ? v.reason : 'found damaged while in use';
  } catch {
    return 'found damaged while in use';
  }
}

/**
 * Checks the file on a read-only connection of its own: nothing is written, and closing it neither
 * checkpoints nor removes the WAL, so a damaged file (and its WAL, which may hold the latest
 * committed rows) is kept exactly as found. Null when sound or when it cannot tell (then the
 * normal open reports what is wrong).
 */
function probe(file: string, options: OpenDatabaseOptions & IntegrityOptions): string | null {
  let db: Database;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    return isCorruptionError(error) ? (error as Error).message : null;
  }
  try {
    return checkIntegrity(db, options);
  } catch (error) {
    if (isCorruptionError(error)) return (error as Error).message || 'damaged';
    return null; // e.g. busy or a hot journal a read-only connection cannot roll back
  } finally {
    db.close();
  }
}

/**
 * Whether openDatabaseSafely would find the file damaged before opening it (a WAL that would lose
 * committed rows, a damage marker, a failed check): the upgrade worker leaves such a file alone, so
 * that nothing writes to it before it is set aside as found (store/upgrade.ts).
 */
export function damagedBeforeOpen(file: string, options: OpenDatabaseOptions & IntegrityOptions = {}): boolean {
  if (!existsSync(file) || statSync(file).size === 0) return false;
  return checkWal(file) !== null || readMarker(file) !== null || probe(file, options) !== null;
}

/**
 * Opens the database as openDatabase does, after checking it (checkIntegrity, on a read-only
 * connection first). A file that is not a database, fails the check, or was marked damaged is never
 * deleted or repaired in place: it is moved aside (see moveAside) with its WAL and a fresh database
 * is started, and the result says so, for the UI to tell the user. Other failures (a newer schema,
 * permissions, a locked file) are thrown as they are.
 */
export function openDatabaseSafely(file: string, options: OpenDatabaseOptions & IntegrityOptions = {}): SafeOpenResult {
  if (file === ':memory:') return { db: openDatabase(file, options), recovered: null };
  if (!existsSync(file)) clearDamageMarker(file);
  const present = existsSync(file) && statSync(file).size > 0;
  // A damaged WAL: SQLite would drop committed rows without a word. The files are copied aside as
  // found (for whoever can recover more from them) and the database opens with what SQLite reads.
  const walRecovered = present ? keepDamagedWal(file, (options.clock ?? systemClock).date()) : null;
  let reason = present ? (readMarker(file) ?? probe(file, options)) : null;
  if (reason === null) {
    try {
      return { db: openDatabase(file, options), recovered: walRecovered };
    } catch (error) {
      // Damage the check did not reach (the middle of a big table) that a migration ran into.
      if (!isCorruptionError(error) || !existsSync(file)) throw error;
      reason = (error as Error).message || 'damaged';
    }
  }
  const movedTo = moveAside(file, (options.clock ?? systemClock).date());
  const marker = damageMarkerPath(file);
  if (existsSync(marker)) renameSync(marker, `${movedTo}.damaged`);
  return { db: openDatabase(file, options), recovered: { movedTo, reason, kind: 'database' } };
}

/**
 * When the WAL would lose committed frames (wal-check.ts), copies the database, its -wal and -shm
 * to `<file>.wal-damaged-<UTC time>` (never overwriting) and says so. Checked twice, a moment
 * apart, so that a WAL another process is rewriting at that instant is not taken for damage.
 */
function keepDamagedWal(file: string, now: Date): RecoveredDatabase | null {
  const first = checkWal(file);
  if (!first) return null;
  // A short synchronous pause: this runs before anything else opens the store.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  const damage = checkWal(file);
  if (!damage) return null;
  const base = `${file}.wal-damaged-${stamp(now)}`;
  let target = base;
  for (let n = 2; existsSync(target); n++) target = `${base}-${n}`;
  copyFileSync(file, target);
  for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) copyFileSync(file + suffix, target + suffix);
  return { movedTo: target, reason: damage.reason, kind: 'wal' };
}

/** Removes a stale marker (e.g. after the user restored a backup over the file). */
export function clearDamageMarker(file: string): void {
  rmSync(damageMarkerPath(file), { force: true });
}
