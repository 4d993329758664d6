import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import type { ExchangeQuery } from '../../../../common/history-types';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { HistoryRepository } from '../../../../main/store/history-repository';
import { planRetention } from '../../../../main/store/retention';
import { indexAlone } from '../../../../main/store/exchange-words';
import { MESSAGES, T0, another, callExchange, searched, seed, seen } from './sandbox-calls';
import { openAt, storeWrittenBy19, tempDbFile } from './temp-db';
import { recording } from '../../../helpers/recording-db';
import { packBatch, packingProgress } from '../../../../main/store/exchange-packing';

// The time index no longer repeats the id SQLite adds to every entry, and a message's exchanges are
// found by their message alone: a store written at 27 keeps every byte, every list gives the same
// rows in the same order (exchanges of the same millisecond by id), retention plans the same, and the
// two indexes take less room.

const QUERIES: ExchangeQuery[] = [
  {},
  { order: 'oldest' },
  { messageId: 3 },
  { messageId: 3, order: 'oldest' },
  { messageId: 6, from: T0 + 5 * 60_000 + 3_000 },
  { from: T0 + 2 * 60_000, to: T0 + 9 * 60_000 },
  { from: T0 + 2 * 60_000, to: T0 + 9 * 60_000, order: 'oldest' },
  { profiles: ['p'] },
  { operation: 'status', from: T0 + 60_000 },
];

const SEARCHES = ['V007000005', 'answered', 'voice/status', 'Content-Length'];

/** Every page of a query, by its cursor (a small page: the cursor crosses the same millisecond). */
function pages(db: Database, q: ExchangeQuery): number[] {
  const repo = new HistoryRepository(db);
  const ids: number[] = [];
  let cursor: string | null | undefined;
  for (let guard = 0; guard < 200; guard++) {
    const page = repo.listExchanges({ ...q, limit: 3, ...(cursor ? { cursor } : {}) });
    ids.push(...page.rows.map((r) => r.id));
    cursor = page.nextCursor;
    if (!cursor) return ids;
  }
  throw new Error('more than 200 pages');
}

/** What a person sees of the store: every list, every search, what retention would delete. */
function lists(db: Database) {
  const at = T0 + 6 * 60_000 + 1_000;
  return {
    pages: QUERIES.map((q) => pages(db, q)),
    searches: SEARCHES.map((s) => searched(db, s)),
    retention: [planRetention(db, { exchangeDays: null, exchangeMaxBytes: 9_000 }, at), planRetention(db, { exchangeDays: 1, exchangeMaxBytes: null }, at)],
  };
}

const indexBytes = (db: Database, name: string) => (db.prepare('SELECT coalesce(sum(pgsize), 0) AS n FROM dbstat WHERE name = ?').get(name) as { n: number }).n;
const indexColumns = (db: Database, name: string) =>
  (db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(name) as { name: string }[]).map((r) => r.name);

/** Exchanges sharing one millisecond: the lists order them by id. */
function sameMillisecond(db: Database): void {
  const repo = new ExchangeRepository(db);
  for (let i = 0; i < 4; i++) repo.insert({ ...callExchange(4, 1), startedAt: T0 + 4 * 60_000 + 30_000 }, { messageId: 5, profile: 'p' });
}

describe('migration 0028: lean exchange indexes', () => {
  it('keeps every byte; every list, search and retention plan is the same, in the same order', async () => {
    const file = tempDbFile();
    const v27 = openAt(file, 27);
    seed(v27, 0, MESSAGES);
    sameMillisecond(v27);
    const before = await seen(v27);
    const listed = lists(v27);
    expect(listed.pages.every((p) => p.length > 0)).toBe(true);
    expect(listed.pages[2]!.length).toBeGreaterThan(3); // more than a page: the cursor is used
    expect(listed.retention[0]!.bySize.exchanges).toBeGreaterThan(0);
    v27.close();

    const db = openAt(file, 28);
    expect(await seen(db)).toEqual(before);
    expect(lists(db)).toEqual(listed);
    // Another connection too (nothing of this one's kept in memory).
    const other = another(file);
    try {
      expect(QUERIES.map((q) => pages(other, q))).toEqual(listed.pages);
    } finally {
      other.close();
    }
    db.close();
  });

  it('the time index keeps no id of its own and the message index no times: smaller, and the same rows in each', () => {
    const v27 = openAt(tempDbFile(), 27);
    seed(v27, 0, 60);
    const rows = (v27.prepare('SELECT count(*) AS n FROM exchanges').get() as { n: number }).n;
    const bytes27 = indexBytes(v27, 'exchanges_time_size') + indexBytes(v27, 'exchanges_message_time');
    expect(indexColumns(v27, 'exchanges_time_size')).toEqual(['started_at', 'id', 'size_bytes']);
    v27.close();

    const file = tempDbFile();
    const fresh27 = openAt(file, 27);
    seed(fresh27, 0, 60);
    fresh27.close();
    const db = openAt(file, 28);
    expect(indexColumns(db, 'exchanges_time_size')).toEqual(['started_at', 'size_bytes']);
    expect(indexColumns(db, 'exchanges_message')).toEqual(['message_id']);
    expect(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'exchanges_message_time'").get()).toBeUndefined();
    for (const name of ['exchanges_time_size', 'exchanges_message'])
      // An index b-tree keeps entries in its interior pages too: all of them, each row once.
      expect((db.prepare('SELECT coalesce(sum(ncell), 0) AS n FROM dbstat WHERE name = ?').get(name) as { n: number }).n, name).toBe(rows);
    const bytes28 = indexBytes(db, 'exchanges_time_size') + indexBytes(db, 'exchanges_message');
    expect(bytes28).toBeLessThan(bytes27 * 0.85);
    db.close();
  });

  it('the exchanges no message owns are indexed in id order from the message index: a range, never a sort of them all', () => {
    const db = openAt(tempDbFile(), 28);
    seed(db, 0, MESSAGES);
    const repo = new ExchangeRepository(db);
    for (let i = 0; i < 30; i++) repo.insert({ ...callExchange(i % MESSAGES, 1), startedAt: T0 + (30 - i) * 1_000 }, { profile: 'p' });
    const lone = (db.prepare('SELECT id FROM exchanges WHERE message_id IS NULL ORDER BY id').all() as { id: number }[]).map((r) => r.id);
    const rec = recording(db);
    db.exec('DELETE FROM exchange_words WHERE rowid < 0');
    const done: number[] = [];
    for (let after = 0, r; (r = db.transaction(() => indexAlone(rec.db, 'main', after, 7))()); after = r.last) done.push(r.last);
    // Every one of them, in batches of 7, each an entry of its own again.
    expect(done.at(-1)).toBe(lone.at(-1));
    expect(done).toHaveLength(Math.ceil(lone.length / 7));
    expect((db.prepare('SELECT count(*) AS n FROM exchange_words WHERE rowid < 0').get() as { n: number }).n).toBe(lone.length);
    const walk = rec.calls.find((c) => /message_id IS NULL/.test(c.sql))!;
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${walk.sql}`).all(...walk.params) as { detail: string }[]).map((r) => r.detail).join('\n');
    expect(plan).toMatch(/SEARCH (main\.)?exchanges USING COVERING INDEX exchanges_message \(message_id=\? AND rowid>\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('an indexing job an earlier build left walking the exchanges no message owns in time order starts that walk again, and misses none', () => {
    const file = storeWrittenBy19(40);
    const v27 = openAt(file, 27);
    const lone = v27.prepare('SELECT id, started_at FROM exchanges WHERE message_id IS NULL ORDER BY started_at, id').all() as {
      id: number;
      started_at: number;
    }[];
    expect(lone.length).toBeGreaterThan(3);
    // The job at 27, past the messages and part of the way through them in time order.
    while (
      (JSON.parse((v27.prepare("SELECT value FROM settings WHERE key = 'exchanges.indexing'").get() as { value: string }).value) as { alone: number[] })
        .alone[0] === Number.MIN_SAFE_INTEGER
    )
      packBatch(v27, 50);
    const mid = lone[Math.floor(lone.length / 2)]!;
    const state = JSON.parse((v27.prepare("SELECT value FROM settings WHERE key = 'exchanges.indexing'").get() as { value: string }).value) as object;
    v27.prepare("UPDATE settings SET value = ? WHERE key = 'exchanges.indexing'").run(JSON.stringify({ ...state, alone: [mid.started_at, mid.id] }));
    v27.prepare('DELETE FROM exchange_words WHERE rowid < 0').run();
    v27.close();

    const db = openAt(file, 28);
    while (packBatch(db) !== null);
    expect(packingProgress(db)).toBeNull();
    // Every exchange no message owns has its entry again, those before the old place too.
    expect((db.prepare('SELECT -rowid AS id FROM exchange_words WHERE rowid < 0 ORDER BY 1').all() as { id: number }[]).map((r) => r.id)).toEqual(
      lone.map((r) => r.id).sort((a, b) => a - b),
    );
  });
});
