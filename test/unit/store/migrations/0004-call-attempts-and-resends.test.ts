import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { columns, queryPlan, upgradeTo } from './temp-db';

const insertV3 = (db: Database, id: number, templateId: string | null, createdAt: number) =>
  db
    .prepare(
      `INSERT INTO messages (id, profile, base_url, api_id, mobile, content, template_id, units, outcome, state, created_at, updated_at)
       VALUES (?, 'p', 'http://x', 'id', '13800138000', 'hi', ?, 1, 'unknown', 'unknown', ?, ?)`,
    )
    .run(id, templateId, createdAt, createdAt);

describe('migration 0004: call attempts and resends', () => {
  it('is the fourth migration', () => {
    expect(MIGRATIONS[3]).toMatchObject({ version: 4, name: 'call-attempts-and-resends' });
  });

  it('adds attempts and resend_of to messages, NULL for the messages written at version 3', () => {
    const db = upgradeTo(4, (v3) => {
      expect(columns(v3, 'messages')).not.toContain('attempts');
      insertV3(v3, 1, 't1', 10);
      insertV3(v3, 2, null, 20);
    });
    expect(columns(db, 'messages')).toEqual(expect.arrayContaining(['attempts', 'resend_of']));
    expect(db.prepare('SELECT id, template_id, outcome, attempts, resend_of FROM messages ORDER BY id').all()).toEqual([
      { id: 1, template_id: 't1', outcome: 'unknown', attempts: null, resend_of: null },
      { id: 2, template_id: null, outcome: 'unknown', attempts: null, resend_of: null },
    ]);
    // The provider redials: the count is stored as reported.
    db.prepare('UPDATE messages SET attempts = 3 WHERE id = 1').run();
    expect(db.prepare('SELECT attempts FROM messages WHERE id = 1').get()).toEqual({ attempts: 3 });
  });

  it('links a resend to an existing message only, and unlinks it (keeping it) when the original is deleted', () => {
    const db = upgradeTo(4, (v3) => insertV3(v3, 1, null, 10));
    db.prepare(
      `INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, resend_of, created_at, updated_at)
       VALUES (2, 'p', 'http://x', 'id', '13800138000', 'hi', 1, 1, 20, 20)`,
    ).run();
    expect(db.prepare('SELECT resend_of FROM messages WHERE id = 2').get()).toEqual({ resend_of: 1 });
    expect(() => db.prepare('UPDATE messages SET resend_of = 99 WHERE id = 2').run()).toThrow(/FOREIGN KEY/);
    db.prepare('DELETE FROM messages WHERE id = 1').run();
    expect(db.prepare('SELECT id, resend_of FROM messages').all()).toEqual([{ id: 2, resend_of: null }]);
  });

  it('indexes messages by template: the latest sends of a template are read from the index, without a sort', () => {
    const db = upgradeTo(4, (v3) => {
      for (let i = 1; i <= 20; i++) insertV3(v3, i, i % 3 === 0 ? null : `t${i % 2}`, i * 10);
    });
    const sql = 'SELECT * FROM messages WHERE template_id = ? ORDER BY created_at DESC';
    const plan = queryPlan(db, sql, 't1');
    expect(plan).toMatch(/USING INDEX messages_template/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
    // The rows written before the index are in it.
    const ids = (db.prepare(sql).all('t1') as { id: number }[]).map((r) => r.id);
    expect(ids).toEqual([19, 17, 13, 11, 7, 5, 1]);
    expect(db.prepare('SELECT count(*) AS n FROM messages INDEXED BY messages_template WHERE template_id IS NOT NULL').get()).toEqual({ n: 14 });
  });
});
