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

  it('0005 makes messages written at version 4 searchable and counted, sizes their exchanges, and keeps all three in step', () => {
    const file = dbFile();
    const v4 = openDatabase(file, { targetVersion: 4 });
    const hour = 490_000; // whole UTC hours since the epoch
    const insert = v4.prepare(
      `INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, outcome, state, billed_units, created_at, updated_at)
       VALUES (?, 'p', 'http://x', 'id', ?, ?, 1, ?, ?, ?, ?, ?)`,
    );
    insert.run(1, '13800138000', '您的验证码是123456，5分钟内有效。', 'accepted', 'answered', 1, hour * 3_600_000 + 5, hour * 3_600_000 + 5);
    insert.run(2, '13912345678', '华东机房告警：磁盘空间不足，请立即处理。', 'unknown', 'unknown', null, hour * 3_600_000 + 9, hour * 3_600_000 + 9);
    const body = JSON.stringify({ account: 'id', password: '[REDACTED]', content: '验证码' });
    v4.prepare(
      `INSERT INTO exchanges (message_id, operation, method, url, request_headers, request_body, status, response_headers, response_body, started_at, timings)
       VALUES (1, 'send', 'POST', 'http://x/voice/vm', '[["Content-Type","application/json"]]', ?, 200, '[]', '{"code":2}', 5, '{}')`,
    ).run(body);
    v4.close();

    const v5 = openDatabase(file, { targetVersion: 5 });
    expect(schemaVersion(v5)).toBe(5);
    const found = (q: string) => (v5.prepare('SELECT rowid AS id FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid').all(q) as { id: number }[]).map((r) => r.id);
    // Rows written before the upgrade are found by any 3+ character part of their text or number.
    expect(found('"验证码"')).toEqual([1]);
    expect(found('"磁盘空间"')).toEqual([2]);
    expect(found('"0013"')).toEqual([1]);
    expect(found('"91234"')).toEqual([2]);
    // Counted per hour for the overview, and sized for retention (bytes, not characters).
    expect(v5.prepare('SELECT hour, outcome, state, n, units FROM message_stats ORDER BY outcome').all()).toEqual([
      { hour, outcome: 'accepted', state: 'answered', n: 1, units: 1 },
      { hour, outcome: 'unknown', state: 'unknown', n: 1, units: 0 },
    ]);
    const size = Buffer.byteLength('[["Content-Type","application/json"]]') + Buffer.byteLength(body) + Buffer.byteLength('[]') + Buffer.byteLength('{"code":2}');
    expect(v5.prepare('SELECT size_bytes FROM exchanges').get()).toEqual({ size_bytes: size });

    // Later writes keep the index, the counts and the sizes in step.
    v5.prepare("UPDATE messages SET content = '您好，您的订单已发货。' WHERE id = 1").run();
    expect(found('"验证码"')).toEqual([]);
    expect(found('"已发货"')).toEqual([1]);
    v5.prepare("UPDATE messages SET outcome = 'accepted', state = 'busy' WHERE id = 2").run();
    v5.prepare('DELETE FROM messages WHERE id = 1').run();
    expect(found('"已发货"')).toEqual([]);
    expect(found('"0013"')).toEqual([]);
    expect(v5.prepare('SELECT outcome, state, n FROM message_stats').all()).toEqual([{ outcome: 'accepted', state: 'busy', n: 1 }]);
    v5.prepare(
      `INSERT INTO exchanges (operation, method, url, request_headers, request_body, started_at, timings) VALUES ('raw', 'POST', 'http://x', '[]', '中文', 6, '{}')`,
    ).run();
    expect(v5.prepare('SELECT size_bytes FROM exchanges WHERE started_at = 6').get()).toEqual({ size_bytes: 2 + 6 });

    // The settings table keeps one value per key.
    v5.prepare("INSERT INTO settings (key, value) VALUES ('k', 'a') ON CONFLICT (key) DO UPDATE SET value = excluded.value").run();
    v5.prepare("INSERT INTO settings (key, value) VALUES ('k', 'b') ON CONFLICT (key) DO UPDATE SET value = excluded.value").run();
    expect(v5.prepare('SELECT key, value FROM settings').all()).toEqual([{ key: 'k', value: 'b' }]);
    v5.close();
  });

  it('0006 adds batches, contacts, dial limits and profile lines, keeping profiles and messages written at version 5', () => {
    const file = dbFile();
    const v5 = openDatabase(file, { targetVersion: 5 });
    v5.prepare("INSERT INTO profiles (id, name, base_url, api_id, created_at, updated_at) VALUES ('p', 'Ops', 'https://x', 'id', 1, 1)").run();
    v5.prepare("INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, created_at, updated_at) VALUES (7, 'p', 'http://x', 'id', '13800138000', 'hi', 1, 1, 1)").run();
    v5.close();
    const v6 = openDatabase(file, { targetVersion: 6 });
    expect(schemaVersion(v6)).toBe(6);
    // Existing profiles get one line; lines must be positive.
    expect(v6.prepare('SELECT lines FROM profiles').get()).toEqual({ lines: 1 });
    expect(() => v6.prepare("UPDATE profiles SET lines = 0 WHERE id = 'p'").run()).toThrow(/CHECK/);
    // The default per-number limits and quiet hours exist.
    expect(v6.prepare("SELECT per_minute, per_hour, per_day, quiet_start, quiet_end FROM dial_settings WHERE scope = '*'").get()).toEqual({ per_minute: 1, per_hour: 5, per_day: 20, quiet_start: '22:00', quiet_end: '08:00' });
    v6.prepare("INSERT INTO batches (id, profile, name, created_at, updated_at) VALUES (1, 'p', 'list.csv', 1, 1)").run();
    v6.prepare("INSERT INTO batch_items (batch_id, row_number, mobile, content, message_id, updated_at) VALUES (1, 2, '13800138000', 'hi', 7, 1)").run();
    expect(() => v6.prepare("UPDATE batch_items SET status = 'sent'").run()).toThrow(/CHECK/);
    expect(() => v6.prepare("UPDATE batches SET status = 'stopped'").run()).toThrow(/CHECK/);
    // The next queued item of a batch is read from the index, without a sort.
    const plan = v6.prepare("EXPLAIN QUERY PLAN SELECT * FROM batch_items WHERE batch_id = 1 AND status = 'queued' AND id > 0 ORDER BY id LIMIT 200").all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/USING INDEX batch_items_next/);
    expect(plan.map((p) => p.detail).join('\n')).not.toMatch(/TEMP B-TREE/);
    // Deleting a message keeps the item (unlinked); deleting a batch deletes its items.
    v6.prepare('DELETE FROM messages WHERE id = 7').run();
    expect(v6.prepare('SELECT message_id FROM batch_items').get()).toEqual({ message_id: null });
    v6.prepare('DELETE FROM batches WHERE id = 1').run();
    expect(v6.prepare('SELECT count(*) AS n FROM batch_items').get()).toEqual({ n: 0 });
    // Group members go with their contact; the order in a group is kept.
    v6.prepare("INSERT INTO contacts (id, name, mobile, created_at, updated_at) VALUES (1, '张三', '13800138000', 1, 1), (2, 'Li', '13900139000', 1, 1)").run();
    v6.prepare("INSERT INTO contact_groups (id, name, created_at, updated_at) VALUES (1, 'On call', 1, 1)").run();
    v6.prepare('INSERT INTO contact_group_members (group_id, contact_id, position) VALUES (1, 2, 0), (1, 1, 1)').run();
    v6.prepare('DELETE FROM contacts WHERE id = 2').run();
    expect(v6.prepare('SELECT contact_id FROM contact_group_members').all()).toEqual([{ contact_id: 1 }]);
    v6.close();
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
