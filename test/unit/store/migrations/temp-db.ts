// Shared by the migration tests: a database file in a throwaway folder, opened at an exact schema
// version. Everything opened here is closed, and the folder removed, when the test ends.
import { expect, onTestFinished } from 'vitest';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { openDatabase, schemaVersion } from '../../../../main/store/database';
import { tempHome } from '../../../helpers/temp-home';
import type { Exchange } from '../../../../common/exchange';
import { seedV19 } from '../../../helpers/v19-store';

const opened = new Map<string, Database[]>();

/** A path for a new database, in a temporary folder removed (after its databases are closed) when the test ends. */
export function tempDbFile(): string {
  const home = tempHome('callout-migration-');
  const file = join(home.dir, 'callout.db');
  const dbs: Database[] = [];
  opened.set(file, dbs);
  onTestFinished(() => {
    for (const db of dbs) if (db.open) db.close();
    opened.delete(file);
    home.cleanup();
  });
  return file;
}

/** Opens `file` migrated up to exactly `version` (0: no migration at all), and checks it got there. */
export function openAt(file: string, version: number): Database {
  const db = openDatabase(file, { targetVersion: version });
  opened.get(file)?.push(db);
  expect(schemaVersion(db)).toBe(version);
  return db;
}

/**
 * The shape of every migration test: a database at version N − 1, `seed` writes rows as that
 * version knew them, it is closed, and it is opened again at version N (returned).
 */
export function upgradeTo(version: number, seed: (db: Database) => void): Database {
  const file = tempDbFile();
  const before = openAt(file, version - 1);
  seed(before);
  before.close();
  return openAt(file, version);
}

/** A database file as schema 19 wrote it, with `calls` calls (test/helpers/v19-store.ts), closed. */
export function storeWrittenBy19(calls: number): string {
  const file = tempDbFile();
  const v19 = openAt(file, 19);
  seedV19(v19, calls);
  v19.close();
  return file;
}

/** The lines of `EXPLAIN QUERY PLAN` for a query, joined: what SQLite will do to answer it. */
export function queryPlan(db: Database, sql: string, ...params: unknown[]): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((p) => p.detail).join('\n');
}

/** The column names of a table. */
export function columns(db: Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
}

/**
 * The i-th of a run of exchanges a second apart from `t0`, answered 200 with code 2 unless told
 * otherwise (`status` null: no reply at all, a timeout).
 */
export function numberedExchange(i: number, t0: number, o: { operation: Exchange['operation']; status?: number | null; code?: number }): Exchange {
  const status = o.status === undefined ? 200 : o.status;
  return {
    operation: o.operation,
    method: 'POST',
    url: `http://127.0.0.1/voice/${o.operation}`,
    requestHeaders: [['Content-Type', 'application/json']],
    requestBody: `{"n":${i}}`,
    status,
    statusText: status === null ? null : status === 200 ? 'OK' : 'Internal Server Error',
    responseHeaders: status === null ? null : [['Content-Type', 'application/json']],
    responseBody: status === null ? null : `{"code":${o.code ?? 2},"n":${i}}`,
    error: status === null ? { kind: 'timeout', message: 'No complete reply within 15000 ms' } : null,
    startedAt: t0 + i * 1000,
    timings: { dnsMs: null, connectMs: 1, tlsMs: null, firstByteMs: 3, totalMs: 4 },
  };
}
