import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS, type Migration } from './migrations';
import { commitVersion, runFills, storedVersion } from './migrations/fill';
import { fail } from '../errors';
import { registerExchangeFunctions } from './exchange-pack';

export type { Database } from 'better-sqlite3';

export interface OpenDatabaseOptions {
  migrations?: readonly Migration[];
  /** Stop at this schema version (migration tests). */
  targetVersion?: number;
  /** Told as an upgrade goes (nothing when the store is up to date). */
  onUpgrade?: (p: UpgradeProgress) => void;
  /** SQLite's wait for another connection's lock, in ms (default 5000). */
  busyTimeoutMs?: number;
}

/** The schema version of a store (a migration whose fills are unfinished counts: fill.ts). */
export function schemaVersion(db: Database): number {
  return storedVersion(db).version;
}

/** What an upgrade says as it goes (openDatabase's `onUpgrade`; the app's and the CLI's progress). */
export interface UpgradeProgress {
  /** 'step': a migration is running; 'waiting': another process holds the store (upgrading it too). */
  kind: 'step' | 'waiting';
  /** The schema version the store had, and the one it is brought to. */
  from: number;
  to: number;
  /** Which of the steps this upgrade has (1-based), of how many. */
  step: number;
  steps: number;
  /** The migration: its version and name. */
  version: number;
  name: string;
  /** How much of this step is done (0..1), once it says; null before. */
  share: number | null;
}

/**
 * Brings the schema up to date, one transaction per migration, each followed by its fills (a batch
 * per transaction, fill.ts); fills left unfinished by a store closed mid-way are finished first. A
 * database from a newer version is refused and left exactly as it was.
 */
export function migrate(
  db: Database,
  file: string,
  migrations: readonly Migration[] = MIGRATIONS,
  target?: number,
  onProgress?: (p: UpgradeProgress) => void,
): void {
  const latest = migrations.at(-1)?.version ?? 0;
  const { version: current, filling } = storedVersion(db);
  if (current > latest) throw fail('database-too-new', { version: current, supported: latest });
  const goal = target ?? latest;
  // A store closed while a migration's fills ran: that migration's fills first (fill.ts).
  const resumed = filling ? migrations.filter((m) => m.version === current) : [];
  const due = migrations.filter((m) => m.version > current && m.version <= goal);
  const steps = resumed.length + due.length;
  let step = 0;
  const say = (m: Migration, share: number | null) =>
    onProgress?.({ kind: 'step', from: current, to: Math.max(goal, current), step, steps, version: m.version, name: m.name, share });
  const sayShare = (m: Migration) => (done: number, total: number) => say(m, total > 0 ? Math.min(1, done / total) : null);
  const fill = (m: Migration) => runFills(db, m, sayShare(m));
  for (const m of resumed) {
    step++;
    say(m, null);
    fill(m);
  }
  for (const m of due) {
    step++;
    say(m, null);
    // IMMEDIATE, and the version read again inside: two processes opening one new data directory
    // together (two `callout send` at once) run each migration once; the second finds it done (and
    // joins its fills, a batch at a time, below).
    db.transaction(() => {
      if (schemaVersion(db) >= m.version) return;
      m.up(db, sayShare(m));
      commitVersion(db, m);
    }).immediate();
    fill(m);
  }
}

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new BetterSqlite3(file);
  try {
    // First, so that switching to WAL and migrating wait for another process opening the same file.
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    // A new file keeps pointer maps, so pages freed by retention go back to the disk at once
    // (retention.ts shrink); an older file gets them when it is next compacted. No effect once tables exist.
    if (schemaVersion(db) === 0) db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    // A pending send must survive a crash or power loss before its request leaves.
    db.pragma('synchronous = FULL');
    // Packed exchanges' text in SQL (migration 0020): the search index's triggers and view call it.
    registerExchangeFunctions(db);
    migrate(db, file, options.migrations ?? MIGRATIONS, options.targetVersion, options.onUpgrade);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
