// What is not one migration: how they are numbered and filed, and how the runner applies them.
// Each migration has its own test file next to this one (NNNN-name.test.ts).
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { migrate, openDatabase, schemaVersion } from '../../../../main/store/database';
import { CalloutError } from '../../../../main/errors';
import { MIGRATIONS, type Migration } from '../../../../main/store/migrations';
import { tempDbFile } from './temp-db';

const MIGRATIONS_DIR = resolve(__dirname, '../../../../main/store/migrations');
/** The latest schema version (the last migration's number). */
const LATEST = MIGRATIONS.at(-1)!.version;
const fileName = (m: Migration) => `${String(m.version).padStart(4, '0')}-${m.name}`;

/** A migration that creates a table and then fails: nothing of it may remain. */
const broken = (version: number): Migration => ({
  version,
  name: 'broken',
  up: (db) => db.exec('CREATE TABLE half (x); SELECT * FROM missing_table;'),
});

describe('migrations', () => {
  it('are numbered 1..N without gaps', () => {
    expect(MIGRATIONS.length).toBeGreaterThan(0);
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('live one per file, named after their number and name, each with its own test', () => {
    const sources = readdirSync(MIGRATIONS_DIR)
      .filter((f) => /^\d{4}-.*\.ts$/.test(f))
      .sort();
    expect(sources).toEqual(MIGRATIONS.map((m) => `${fileName(m)}.ts`));
    const tests = readdirSync(__dirname)
      .filter((f) => /^\d{4}-.*\.test\.ts$/.test(f))
      .sort();
    expect(tests).toEqual(MIGRATIONS.map((m) => `${fileName(m)}.test.ts`));
  });
});

describe('the migration runner', () => {
  it('opens a new database at the latest version with WAL and foreign keys', () => {
    const db = openDatabase(tempDbFile());
    try {
      expect(schemaVersion(db)).toBe(LATEST);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    } finally {
      db.close();
    }
  });

  it('stops at the version asked for, and goes on from there on the next open', () => {
    const file = tempDbFile();
    const at3 = openDatabase(file, { targetVersion: 3 });
    expect(schemaVersion(at3)).toBe(3);
    expect(at3.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'batches'").get()).toEqual({ n: 0 });
    at3.close();
    const latest = openDatabase(file);
    expect(schemaVersion(latest)).toBe(LATEST);
    latest.close();
  });

  it('refuses a database from a newer version and leaves it untouched', () => {
    const file = tempDbFile();
    openDatabase(file).close();
    const raw = new BetterSqlite3(file);
    raw.pragma(`user_version = ${LATEST + 5}`);
    raw.close();
    const before = readFileSync(file);
    const filesBefore = readdirSync(dirname(file)).sort();

    let error: unknown;
    try {
      openDatabase(file).close();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CalloutError);
    expect(error).toMatchObject({ code: 'database-too-new', params: { version: LATEST + 5, supported: LATEST } });
    expect((error as Error).message).toMatch(/newer version of Callout/);

    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(dirname(file)).sort()).toEqual(filesBefore);
    const check = new BetterSqlite3(file, { readonly: true });
    expect(schemaVersion(check)).toBe(LATEST + 5);
    check.close();
  });

  it('rolls back a migration that fails, leaving the previous version', () => {
    const db = new BetterSqlite3(':memory:');
    expect(() => migrate(db, ':memory:', [...MIGRATIONS, broken(LATEST + 1)])).toThrow(/missing_table/);
    expect(schemaVersion(db)).toBe(LATEST);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half'").get()).toEqual({ n: 0 });
    db.close();
  });

  it('keeps the migrations before a failing one, on disk, and opens that database again', () => {
    const file = tempDbFile();
    expect(() => openDatabase(file, { migrations: [...MIGRATIONS.slice(0, 2), broken(3)] })).toThrow(/missing_table/);
    const db = openDatabase(file, { targetVersion: 2 });
    expect(schemaVersion(db)).toBe(2);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name IN ('templates', 'half')").all()).toEqual([{ name: 'templates' }]);
    db.close();
  });
});
