import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { upgradeTo } from './temp-db';

// The plans of the history queries these structures serve are asserted in ../history-plans.test.ts.
describe('migration 0005: history search and retention', () => {
  it('is the fifth migration', () => {
    expect(MIGRATIONS[4]).toMatchObject({ version: 5, name: 'history-search-and-retention' });
  });

  it('makes messages written at version 4 searchable and counted, sizes their exchanges, and keeps all three in step', () => {
    const hour = 490_000; // whole UTC hours since the epoch
    const body = JSON.stringify({ account: 'id', password: '[REDACTED]', content: '验证码' });
    const db = upgradeTo(5, (v4) => {
      const insert = v4.prepare(
        `INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, outcome, state, billed_units, created_at, updated_at)
         VALUES (?, 'p', 'http://x', 'id', ?, ?, 1, ?, ?, ?, ?, ?)`,
      );
      insert.run(1, '13800138000', '您的验证码是123456，5分钟内有效。', 'accepted', 'answered', 1, hour * 3_600_000 + 5, hour * 3_600_000 + 5);
      insert.run(2, '13912345678', '华东机房告警：磁盘空间不足，请立即处理。', 'unknown', 'unknown', null, hour * 3_600_000 + 9, hour * 3_600_000 + 9);
      v4.prepare(
        `INSERT INTO exchanges (message_id, operation, method, url, request_headers, request_body, status, response_headers, response_body, started_at, timings)
         VALUES (1, 'send', 'POST', 'http://x/voice/vm', '[["Content-Type","application/json"]]', ?, 200, '[]', '{"code":2}', 5, '{}')`,
      ).run(body);
    });

    const found = (q: string) =>
      (db.prepare('SELECT rowid AS id FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid').all(q) as { id: number }[]).map((r) => r.id);
    // Rows written before the upgrade are found by any 3+ character part of their text or number.
    expect(found('"验证码"')).toEqual([1]);
    expect(found('"磁盘空间"')).toEqual([2]);
    expect(found('"0013"')).toEqual([1]);
    expect(found('"91234"')).toEqual([2]);
    // Counted per hour for the overview, and sized for retention (bytes, not characters).
    expect(db.prepare('SELECT hour, outcome, state, n, units FROM message_stats ORDER BY outcome').all()).toEqual([
      { hour, outcome: 'accepted', state: 'answered', n: 1, units: 1 },
      { hour, outcome: 'unknown', state: 'unknown', n: 1, units: 0 },
    ]);
    const size =
      Buffer.byteLength('[["Content-Type","application/json"]]') + Buffer.byteLength(body) + Buffer.byteLength('[]') + Buffer.byteLength('{"code":2}');
    expect(db.prepare('SELECT size_bytes FROM exchanges').get()).toEqual({ size_bytes: size });

    // Later writes keep the index, the counts and the sizes in step.
    db.prepare("UPDATE messages SET content = '您好，您的订单已发货。' WHERE id = 1").run();
    expect(found('"验证码"')).toEqual([]);
    expect(found('"已发货"')).toEqual([1]);
    db.prepare("UPDATE messages SET outcome = 'accepted', state = 'busy' WHERE id = 2").run();
    db.prepare('DELETE FROM messages WHERE id = 1').run();
    expect(found('"已发货"')).toEqual([]);
    expect(found('"0013"')).toEqual([]);
    expect(db.prepare('SELECT outcome, state, n FROM message_stats').all()).toEqual([{ outcome: 'accepted', state: 'busy', n: 1 }]);
    db.prepare(
      `INSERT INTO exchanges (operation, method, url, request_headers, request_body, started_at, timings) VALUES ('raw', 'POST', 'http://x', '[]', '中文', 6, '{}')`,
    ).run();
    expect(db.prepare('SELECT size_bytes FROM exchanges WHERE started_at = 6').get()).toEqual({ size_bytes: 2 + 6 });

    // The settings table keeps one value per key.
    db.prepare("INSERT INTO settings (key, value) VALUES ('k', 'a') ON CONFLICT (key) DO UPDATE SET value = excluded.value").run();
    db.prepare("INSERT INTO settings (key, value) VALUES ('k', 'b') ON CONFLICT (key) DO UPDATE SET value = excluded.value").run();
    expect(db.prepare('SELECT key, value FROM settings').all()).toEqual([{ key: 'k', value: 'b' }]);
  });
});
