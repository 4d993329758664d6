import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { HistoryRepository } from '../../../../main/store/history-repository';
import { TIME_BLOCK_BITS } from '../../../../main/store/time-blocks';
import { openAt, storeWrittenBy19, tempDbFile } from './temp-db';
import { T0 } from '../../../helpers/v19-store';
import { everything } from '../../../helpers/exchange-views';

// The time bounds of each block of message ids: every message's time inside its block's bounds,
// from the upgrade on and as messages are stored, changed and deleted; and a search reads the same
// page from them as a sort of every match gives.

const BLOCK = 2 ** TIME_BLOCK_BITS;
const MINUTE = 60_000;

type Bounds = { block: number; min_at: number; max_at: number };
const bounds = (db: Database) => db.prepare('SELECT block, min_at, max_at FROM message_time_blocks ORDER BY block').all() as Bounds[];
/** The bounds as the messages have them now (the tightest the table may hold). */
const tight = (db: Database) =>
  db
    .prepare(`SELECT id >> ${TIME_BLOCK_BITS} AS block, min(created_at) AS min_at, max(created_at) AS max_at FROM messages GROUP BY 1 ORDER BY 1`)
    .all() as Bounds[];
/** Every message's time is within its block's bounds. */
const outside = (db: Database) =>
  (
    db
      .prepare(
        `SELECT count(*) AS n FROM messages m LEFT JOIN message_time_blocks b ON b.block = m.id >> ${TIME_BLOCK_BITS}
         WHERE b.block IS NULL OR m.created_at < b.min_at OR m.created_at > b.max_at`,
      )
      .get() as { n: number }
  ).n;

function message(db: Database, id: number, at: number, mobile = '13800138000'): void {
  db.prepare(
    `INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, outcome, state, created_at, updated_at)
     VALUES (?, 'sandbox', 'http://x', 'id', ?, '您好，测试通知。', 1, 'accepted', 'answered', ?, ?)`,
  ).run(id, mobile, at, at);
}

describe('migration 0023: the time bounds of each block of message ids', () => {
  it('is the twenty-third migration', () => {
    expect(MIGRATIONS[22]).toMatchObject({ version: 23, name: 'message-time-blocks' });
  });

  it('upgrades a store written by schema 22: bounds for every block, the same pages, every byte readable', async () => {
    const file = storeWrittenBy19(30);
    const v22 = openAt(file, 22);
    // Messages far apart in ids (five blocks), one stored by a clock set back a day.
    for (let i = 0; i < 50; i++) message(v22, 10 * BLOCK + i * 1500, T0 + i * MINUTE, `1380013${String(8000 + i).padStart(4, '0')}`);
    message(v22, 12 * BLOCK + 3, T0 - 1440 * MINUTE, '13800139999');
    // The page a search must give: every match sorted by time (the old way).
    const sorted = (
      v22.prepare(`SELECT id FROM messages WHERE mobile LIKE '%0013%' OR content LIKE '%0013%' ORDER BY created_at DESC, id DESC`).all() as { id: number }[]
    ).map((r) => r.id);
    expect(sorted.length).toBeGreaterThan(40);
    const before = await everything(v22);
    v22.close();

    const db = openAt(file, 23);
    expect(bounds(db)).toEqual(tight(db));
    expect(bounds(db).length).toBeGreaterThanOrEqual(6);
    const history = new HistoryRepository(db);
    const first = history.page({ search: '0013' }, { limit: 20 });
    const second = history.page({ search: '0013' }, { limit: 20, cursor: first.nextCursor });
    expect([...first.rows, ...second.rows].map((m) => m.id)).toEqual(sorted.slice(0, 40));
    expect(await everything(db)).toEqual(before);
  });

  it('keeps every message inside its bounds as messages are stored, changed and deleted', () => {
    const db = openAt(tempDbFile(), 23);
    expect(bounds(db)).toEqual([]);
    message(db, 5, T0);
    message(db, 9, T0 + MINUTE);
    message(db, BLOCK + 1, T0 + 2 * MINUTE);
    expect(bounds(db)).toEqual([
      { block: 0, min_at: T0, max_at: T0 + MINUTE },
      { block: 1, min_at: T0 + 2 * MINUTE, max_at: T0 + 2 * MINUTE },
    ]);
    // A clock set back: the block's earliest widens.
    message(db, 12, T0 - 60 * MINUTE);
    db.prepare('UPDATE messages SET created_at = ? WHERE id = ?').run(T0 + 90 * MINUTE, 5);
    db.prepare('UPDATE messages SET id = ? WHERE id = ?').run(3 * BLOCK, 9);
    expect(outside(db)).toBe(0);
    expect(bounds(db)[0]).toEqual({ block: 0, min_at: T0 - 60 * MINUTE, max_at: T0 + 90 * MINUTE });
    // A message deleted leaves its block's bounds: still bounds for the ones left.
    db.prepare('DELETE FROM messages WHERE id = ?').run(12);
    expect(outside(db)).toBe(0);
    expect(bounds(db)[0]!.min_at).toBe(T0 - 60 * MINUTE);
  });
});
