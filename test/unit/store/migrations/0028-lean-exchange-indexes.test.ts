import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import type { ExchangeQuery } from '../../../../common/history-types';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { HistoryRepository } from '../../../../main/store/history-repository';
import { planRetention } from '../../../../main/store/retention';
import { MESSAGES, T0, another, callExchange, searched, seed, seen } from './sandbox-calls';
import { openAt, tempDbFile } from './temp-db';

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
});
