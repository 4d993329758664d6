import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS, type Migration } from './migrations';
import { fail } from '../errors';
import { registerExchangeFunctions } from './exchange-pack';

export type { Database } from 'better-sqlite3';

export interface OpenDatabaseOptions {
  migrations?: readonly Migration[];
  /** Stop at this schema version (migration tests). */
  targetVersion?: number;
}

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings the schema up to date, one transaction per migration. A database from a newer
 * version is refused and left exactly as it was.
 */
export function migrate(db: Database, file: string, migrations: readonly Migration[] = MIGRATIONS, target?: number): void {
  const latest = migrations.at(-1)?.version ?? 0;
  const current = schemaVersion(db);
  if (current > latest) throw fail('database-too-new', { version: current, supported: latest });
  const goal = target ?? latest;
  for (const m of migrations) {
    if (m.version <= current || m.version > goal) continue;
    // IMMEDIATE, and the version read again inside: two processes opening one new data directory
    // together (two `callout send` at once) run each migration once; the second finds it done.
    db.transaction(() => {
      if (schemaVersion(db) >= m.version) return;
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new BetterSqlite3(file);
  try {
    // First, so that switching to WAL and migrating wait for another process opening the same file.
    db.pragma('busy_timeout = 5000');
    // A new file keeps pointer maps, so pages freed by retention go back to the disk at once
    // (retention.ts shrink); an older file gets them when it is next compacted. No effect once tables exist.
    if (schemaVersion(db) === 0) db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    // A pending send must survive a crash or power loss before its request leaves.
    db.pragma('synchronous = FULL');
    // Packed exchanges' text in SQL (migration 0020): the search index's triggers and view call it.
    registerExchangeFunctions(db);
    migrate(db, file, options.migrations ?? MIGRATIONS, options.targetVersion);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
