import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { CALL_ENTRY_MAX } from '../../../../main/store/migrations/0021-call-words';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { HistoryRepository } from '../../../../main/store/history-repository';
import { compactAdvised, packBatch, packingProgress } from '../../../../main/store/exchange-packing';
import { openAt, storeWrittenBy19, tempDbFile } from './temp-db';
import { T0 } from '../../../helpers/v19-store';
import { everything } from '../../../helpers/exchange-views';

// A store written by the schema before this migration (its exchanges packed, each in the old index on
// its own): every search must find the same exchanges before the indexing job, halfway through it
// (the app closed mid-way) and after it, when the old index is gone.

const tableExists = (db: Database, name: string) => db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name) !== undefined;
const indexBytes = (db: Database, prefix: string) =>
  (db.prepare("SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE name LIKE ? || '%'").get(prefix) as { b: number }).b;
const entries = (db: Database) => (db.prepare('SELECT count(*) AS n FROM exchange_words').get() as { n: number }).n;
const checked = (db: Database) =>
  expect(() => db.prepare("INSERT INTO exchange_words (exchange_words, rank) VALUES ('integrity-check', 0)").run()).not.toThrow();

/** A status poll of message `messageId`, stored as the follower stores one. */
function storePoll(db: Database, messageId: number, requestBody: string, responseBody: string, startedAt: number): number {
  return new ExchangeRepository(db).insert(
    {
      operation: 'status',
      method: 'POST',
      url: 'http://127.0.0.1:33515/voice/status',
      requestHeaders: [],
      requestBody,
      status: 200,
      statusText: 'OK',
      responseHeaders: [],
      responseBody,
      error: null,
      startedAt,
      timings: { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: 1, totalMs: 2 },
    },
    { messageId },
  );
}

describe('migration 0021: the words of a call, indexed once', () => {
  it('is the twenty-first migration', () => {
    expect(MIGRATIONS[20]).toMatchObject({ version: 21, name: 'call-words' });
  });

  it('upgrades a store written by schema 20: search finds the same exchanges before indexing, after an interrupted job, and after', async () => {
    const file = storeWrittenBy19(60);
    const v20 = openAt(file, 20);
    while (packBatch(v20) !== null);
    const before = await everything(v20);
    const rows = before.records.length;
    // The searches find what they should (so that "the same" below means something).
    expect(before.searches[0]).toHaveLength(4);
    expect(before.searches[3]).toHaveLength(60);
    expect(before.searches[9]).toHaveLength(1);
    expect(before.searches[10]).toHaveLength(1);
    v20.close();

    let db = openAt(file, 21);
    // The old index serves search until the job is done; the new one is there, empty of what was stored before.
    expect(tableExists(db, 'exchanges_fts')).toBe(true);
    expect(entries(db)).toBe(0);
    expect(packingProgress(db)).toEqual({ step: 'indexing', done: 0, total: rows });
    expect(await everything(db)).toEqual(before);

    // Two batches, then the app is closed and opened again: the job goes on where it stopped.
    const first = packBatch(db, 40)!;
    expect(first.step).toBe('indexing');
    expect(first.done).toBeGreaterThanOrEqual(40);
    const second = packBatch(db, 40)!;
    expect(second.done).toBeGreaterThan(first.done);
    expect(await everything(db)).toEqual(before);
    db.close();
    db = openAt(file, 21);
    expect(packingProgress(db)).toEqual(second);
    // An exchange stored meanwhile (a status poll of call 5, already indexed, and one of call 50, not yet) is found at once.
    const poll = (messageId: number, word: string, at: number) => storePoll(db, messageId, `{"smsid":"${word}"}`, '{"code":2,"state":"busy"}', at);
    const history = new HistoryRepository(db);
    const found = (words: string) => history.listExchanges({ search: words, order: 'oldest' }).rows.map((e) => e.id);
    const early = poll(5, 'LATE-POLL-5', T0 + 20_000_000);
    const late = poll(50, 'LATE-POLL-50', T0 + 20_000_001);
    expect(found('LATE-POLL-5')).toEqual([early, late]);

    let last = packingProgress(db)!;
    for (let p; (p = packBatch(db, 40)); last = p) expect(p.done).toBeGreaterThan(last.done);
    expect(packingProgress(db)).toBeNull();
    // The old index is gone; the new one holds an entry a call (each with all its exchanges) and one for each exchange no call owns.
    expect(tableExists(db, 'exchanges_fts')).toBe(false);
    expect(tableExists(db, 'exchanges_search_text')).toBe(false);
    expect(entries(db)).toBe(60 + 4);
    checked(db);
    expect(compactAdvised(db)).toBe(true);
    expect(found('LATE-POLL-5')).toEqual([early, late]);
    expect(found('LATE-POLL-50')).toEqual([late]);
    expect(found('LATE-POLL-50 "state":"busy"')).toEqual([late]);
    // An entry holds a whole call, but an exchange is found only by words its own text holds, as before.
    expect(found('SBXMX01MCD3000050 LATE-POLL-50')).toEqual([]);
    // Everything else reads and is found as before (the two polls aside).
    db.prepare('DELETE FROM exchanges WHERE id IN (?, ?)').run(early, late);
    expect(await everything(db)).toEqual(before);

    // Its schema is the one a new store gets.
    const fresh = openAt(tempDbFile(), 21);
    const schema = (d: Database) => d.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all();
    expect(schema(db)).toEqual(schema(fresh));
  });

  it('an entry is a call: kept while one of its exchanges is, and gone with the last', () => {
    const file = storeWrittenBy19(200);
    const db = openAt(file, 21);
    while (packBatch(db) !== null);
    checked(db);
    const history = new HistoryRepository(db);
    const found = (words: string) => history.listExchanges({ search: words, order: 'oldest' }).rows.length;
    // Calls 1..200 start a minute apart: retention by age takes the exchanges of the first 100 calls, and one of the 101st.
    const cut = T0 + 101 * 60_000 + 1;
    expect(found('SBXMX01MCD3000101')).toBe(4);
    expect(new ExchangeRepository(db).deleteStartedBefore(cut)).toBe(100 * 4 + 1);
    expect(found('SBXMX01MCD3000100')).toBe(0);
    expect(found('SBXMX01MCD3000101')).toBe(3);
    expect(found('SBXMX01MCD3000102')).toBe(4);
    // Calls 2..100 have no entry left; call 101 keeps its own, and call 1 the post of receipts stored later.
    expect(db.prepare('SELECT count(*) AS n FROM exchange_words WHERE rowid BETWEEN 2 AND 100').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT rowid FROM exchange_words WHERE rowid IN (1, 101) ORDER BY rowid').all()).toEqual([{ rowid: 1 }, { rowid: 101 }]);
    expect(found('"smsid":"b"')).toBe(1);
    checked(db);
  });

  it('a call followed for long: its first exchanges remake its entry, each later one gets its own; all are found, and go with their exchanges', () => {
    const db = openAt(tempDbFile(), 21);
    db.prepare(
      "INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, created_at, updated_at) VALUES (1, 'p', 'http://x', 'a', '13900000001', 'x', 1, 0, 0)",
    ).run();
    const exchanges = new ExchangeRepository(db);
    const ids: number[] = [];
    const n = CALL_ENTRY_MAX + 8;
    for (let i = 1; i <= n; i++) ids.push(storePoll(db, 1, `{"smsid":"LONG-1","poll":"P${1000 + i}"}`, '{"code":2,"state":"calling"}', T0 + i * 8_000));
    // One entry for the call (its first CALL_ENTRY_MAX exchanges), one for each exchange after them.
    const rowids = (db.prepare('SELECT rowid FROM exchange_words ORDER BY rowid').all() as { rowid: number }[]).map((r) => r.rowid);
    expect(rowids).toEqual([
      ...ids
        .slice(CALL_ENTRY_MAX)
        .map((id) => -id)
        .reverse(),
      1,
    ]);
    checked(db);
    const history = new HistoryRepository(db);
    const found = (words: string) => history.listExchanges({ search: words, order: 'oldest', limit: 100 }).rows.map((e) => e.id);
    expect(found('LONG-1')).toEqual(ids);
    expect(found(`P${1000 + n}`)).toEqual([ids[n - 1]]);
    expect(found('P1001')).toEqual([ids[0]]);
    // Retention takes the oldest first: the entries go with the last exchange they hold.
    exchanges.deleteStartedBefore(T0 + (CALL_ENTRY_MAX + 4) * 8_000 + 1);
    expect(found('LONG-1')).toEqual(ids.slice(CALL_ENTRY_MAX + 4));
    exchanges.deleteStartedBefore(T0 + (n + 1) * 8_000);
    expect(db.prepare('SELECT count(*) AS n FROM exchange_words').get()).toEqual({ n: 0 });
    checked(db);
  });

  it('words a call holds only in different exchanges: a page reads at most RARE_MATCHES texts, says how far it looked, and paging on finds exactly what is there', () => {
    const db = openAt(tempDbFile(), 21);
    const message = db.prepare(
      "INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, created_at, updated_at) VALUES (?, 'p', 'http://x', 'a', '13900000001', 'x', 1, 0, 0)",
    );
    const store = (messageId: number, body: string, at: number) => storePoll(db, messageId, body, '{"code":2}', at);
    // 40 calls whose send holds one word and whose polls hold the other; the oldest call's last poll holds both.
    let both = 0;
    for (let m = 1; m <= 40; m++) {
      message.run(m);
      store(m, '{"w":"alphaword"}', T0 + m * 60_000);
      for (let k = 1; k <= 3; k++) {
        const id = store(m, `{"w":"betaword${m === 1 && k === 3 ? ' alphaword' : ''}"}`, T0 + m * 60_000 + k * 8_000);
        if (m === 1 && k === 3) both = id;
      }
    }
    const history = new HistoryRepository(db, { rareMatches: 50 });
    const pages: Array<{ rows: number[]; searchedTo?: number }> = [];
    let cursor: string | undefined;
    do {
      const page = history.listExchanges({ search: 'alphaword betaword', limit: 10, ...(cursor ? { cursor } : {}) });
      pages.push({ rows: page.rows.map((e) => e.id), ...(page.searchedTo !== undefined ? { searchedTo: page.searchedTo } : {}) });
      cursor = page.nextCursor ?? undefined;
    } while (cursor && pages.length < 10);
    // 160 candidates, 50 read a page: the first pages are empty but say how far back they looked.
    expect(pages.length).toBe(4);
    expect(pages[0]).toEqual({ rows: [], searchedTo: T0 + 28 * 60_000 + 16_000 });
    expect(pages.flatMap((p) => p.rows)).toEqual([both]);
  });

  it('takes far fewer bytes than an entry an exchange', () => {
    const file = storeWrittenBy19(300);
    const db = openAt(file, 21);
    while (packingProgress(db)?.step === 'packing') packBatch(db);
    db.exec("INSERT INTO exchanges_fts (exchanges_fts) VALUES ('optimize')");
    const old = indexBytes(db, 'exchanges_fts');
    while (packBatch(db) !== null);
    db.exec("INSERT INTO exchange_words (exchange_words) VALUES ('optimize')");
    const now = indexBytes(db, 'exchange_words');
    expect(now).toBeLessThan(old / 2);
  });
});
