import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { migrate, NewerDatabaseError, openDatabase, schemaVersion } from '../../../main/store/database';
import { MIGRATIONS } from '../../../main/store/migrations';
import { tempHome } from '../../helpers/temp-home';

const homes: Array<() => void> = [];
afterEach(() => homes.splice(0).forEach((c) => c()));
function dbFile() {
  const h = tempHome();
  homes.push(h.cleanup);
  return join(h.dir, 'callout.db');
}

describe('migrations', () => {
  it('are numbered 1..N without gaps, one per file', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('open a new database at the latest version with WAL and foreign keys', () => {
    const db = openDatabase(dbFile());
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });

  it('0001 creates messages, events and exchanges, with events deleted with their message', () => {
    const db = openDatabase(dbFile(), { targetVersion: 1 });
    expect(schemaVersion(db)).toBe(1);
    db.prepare(
      "INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, created_at, updated_at) VALUES (1, 'p', 'http://x', 'id', '13800138000', 'hi', 1, 1, 1)",
    ).run();
    db.prepare("INSERT INTO message_events (message_id, at, kind) VALUES (1, 1, 'created')").run();
    expect(() => db.prepare("UPDATE messages SET outcome = 'maybe' WHERE id = 1").run()).toThrow(/CHECK/);
    db.prepare('DELETE FROM messages WHERE id = 1').run();
    expect(db.prepare('SELECT count(*) AS n FROM message_events').get()).toEqual({ n: 0 });
    db.close();
  });

  it('0002 adds templates and keeps the messages written at version 1', () => {
    const file = dbFile();
    const v1 = openDatabase(file, { targetVersion: 1 });
    v1.prepare(
      "INSERT INTO messages (profile, base_url, api_id, mobile, content, units, created_at, updated_at) VALUES ('p', 'http://x', 'id', '13800138000', 'kept', 1, 1, 1)",
    ).run();
    v1.close();
    const v2 = openDatabase(file, { targetVersion: 2 });
    expect(schemaVersion(v2)).toBe(2);
    expect(v2.prepare('SELECT content FROM messages').get()).toEqual({ content: 'kept' });
    v2.prepare("INSERT INTO templates (id, name, content, created_at, updated_at) VALUES ('t', 'n', '您好【变量】', 1, 1)").run();
    expect(() => v2.prepare("INSERT INTO templates (id, name, content, approved, created_at, updated_at) VALUES ('u', 'n', 'x', 2, 1, 1)").run()).toThrow(/CHECK/);
    v2.close();
  });

  it('0003 adds profiles (no key column) and keeps templates written at version 2', () => {
    const file = dbFile();
    const v2 = openDatabase(file, { targetVersion: 2 });
    v2.prepare("INSERT INTO templates (id, name, content, created_at, updated_at) VALUES ('t', 'n', '您好【变量】', 1, 1)").run();
    v2.close();
    const v3 = openDatabase(file, { targetVersion: 3 });
    expect(v3.prepare('SELECT id FROM templates').all()).toEqual([{ id: 't' }]);
    const columns = (v3.prepare('PRAGMA table_info(profiles)').all() as { name: string }[]).map((c) => c.name);
    expect(columns).toContain('api_id');
    expect(columns.some((c) => /key|secret|password/i.test(c))).toBe(false);
    v3.prepare("INSERT INTO profiles (id, name, base_url, api_id, created_at, updated_at) VALUES ('a', 'Ops', 'https://x', 'id', 1, 1)").run();
    expect(() => v3.prepare("INSERT INTO profiles (id, name, base_url, api_id, created_at, updated_at) VALUES ('b', 'ops', 'https://x', 'id', 1, 1)").run()).toThrow(/UNIQUE/);
    expect(() => v3.prepare("UPDATE profiles SET signing = 'md5'").run()).toThrow(/CHECK/);
    v3.close();
  });

  it('refuse a database from a newer version and leave it untouched', () => {
    const file = dbFile();
    openDatabase(file).close();
    const raw = new BetterSqlite3(file);
    raw.pragma(`user_version = ${MIGRATIONS.length + 5}`);
    raw.close();
    const before = readFileSync(file);
    expect(() => openDatabase(file)).toThrow(NewerDatabaseError);
    expect(() => openDatabase(file)).toThrow(/newer version of Callout/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('roll back a migration that fails, leaving the previous version', () => {
    const db = new BetterSqlite3(':memory:');
    const broken = [
      ...MIGRATIONS,
      { version: MIGRATIONS.length + 1, name: 'broken', up: (d: typeof db) => d.exec('CREATE TABLE half (x); SELECT * FROM missing_table;') },
    ];
    expect(() => migrate(db, ':memory:', broken)).toThrow(/missing_table/);
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half'").get()).toEqual({ n: 0 });
  });
});
