import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { HistoryRepository } from '../../../../main/store/history-repository';
import { compactAdvised, packBatch, packingProgress } from '../../../../main/store/exchange-packing';
import { unpackRow } from '../../../../main/store/exchange-pack';
import { fileBytes, vacuum } from '../../../../main/store/retention';
import { openAt, tempDbFile } from './temp-db';
import { seedV19, T0 } from '../../../helpers/v19-store';
import { everything } from '../../../helpers/exchange-views';

// A store written by the schema before this migration, with every kind of exchange a tester sees:
// each must read back byte for byte, before the packing job, halfway (the app closed mid-way), and after.

/** Each row's columns as schema 19 kept them (a packed row's unpacked), by id. */
function columnsAsStored(db: Database) {
  const rows = db.prepare('SELECT * FROM exchanges ORDER BY id').all() as (Record<string, unknown> & { packed?: Buffer | null })[];
  return rows.map((row) => {
    const { packed: _packed, dict_id: _dict, ...columns } = unpackRow(db, row);
    return columns;
  });
}

const packedRows = (db: Database) => (db.prepare('SELECT count(*) AS n FROM exchanges WHERE packed IS NOT NULL').get() as { n: number }).n;

describe('migration 0020: packed exchanges', () => {
  it('is the twentieth migration', () => {
    expect(MIGRATIONS[19]).toMatchObject({ version: 20, name: 'packed-exchanges' });
  });

  it('upgrades a store written by schema 19 and keeps every byte readable: before packing, after an interrupted pack, and after', async () => {
    const file = tempDbFile();
    const v19 = openAt(file, 19);
    seedV19(v19, 30);
    const stored = columnsAsStored(v19);
    v19.close();

    // The upgrade itself rewrites nothing: every row reads back as it was stored.
    let db = openAt(file, 20);
    expect(packedRows(db)).toBe(0);
    expect(columnsAsStored(db)).toEqual(stored);
    const before = await everything(db);
    const rows = before.records.length;
    expect(rows).toBe(30 * 4 + 5);
    // The searches find what they should (so that "the same" below means something).
    expect(before.searches[0]).toHaveLength(4);
    expect(before.searches[1]).toHaveLength(1);
    expect(before.searches[3]).toHaveLength(30);
    expect(before.searches[8]).toHaveLength(1);
    expect(packingProgress(db)).toEqual({ step: 'packing', done: 0, total: rows });

    // The packing job, a batch at a time; the app is closed after two batches and opened again.
    expect(packBatch(db, 40)).toEqual({ step: 'packing', done: 40, total: rows });
    expect(packBatch(db, 40)).toEqual({ step: 'packing', done: 80, total: rows });
    expect(packedRows(db)).toBe(80);
    expect(await everything(db)).toEqual(before);
    db.close();
    db = openAt(file, 20);
    expect(packingProgress(db)).toEqual({ step: 'packing', done: 80, total: rows });
    expect(packBatch(db, 40)).toEqual({ step: 'packing', done: 120, total: rows });
    expect(compactAdvised(db)).toBe(false);
    expect(packBatch(db, 40)).toBeNull();
    expect(packingProgress(db)).toBeNull();
    expect(packedRows(db)).toBe(rows);
    // Packed rows keep their parts only packed: the columns they came from are empty.
    expect(db.prepare("SELECT count(*) AS n FROM exchanges WHERE url <> '' OR request_body IS NOT NULL OR response_body IS NOT NULL").get()).toEqual({
      n: 0,
    });
    expect(await everything(db)).toEqual(before);
    // Byte for byte, column by column, as schema 19 stored them.
    expect(columnsAsStored(db)).toEqual(stored);

    // Smaller: the parts of a call's exchanges take a fraction of what they took.
    const sizes = db.prepare('SELECT sum(length(packed)) AS packed, sum(size_bytes) AS plain FROM exchanges').get() as { packed: number; plain: number };
    expect(sizes.packed).toBeLessThan(sizes.plain / 4);
    // The rows shrank inside their pages; compacting once gives that back (and the advice goes).
    expect(compactAdvised(db)).toBe(true);
    const sizeBefore = fileBytes(db);
    vacuum(db);
    expect(fileBytes(db)).toBeLessThan(sizeBefore);
    expect(compactAdvised(db)).toBe(false);
    expect(await everything(db)).toEqual(before);

    // Exchanges stored from now on are packed as they are stored, found by search, and deleted with their words.
    const exchanges = new ExchangeRepository(db);
    const id = exchanges.insert({
      operation: 'status',
      method: 'POST',
      url: 'http://127.0.0.1:33515/voice/status',
      requestHeaders: [['Content-Type', 'application/json']],
      requestBody: '{"smsid":"FRESH-77"}',
      status: 200,
      statusText: 'OK',
      responseHeaders: [],
      responseBody: '{"code":2,"state":"busy"}',
      error: null,
      startedAt: T0 + 20_000_000,
      timings: { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: 1, totalMs: 2 },
    });
    expect(packedRows(db)).toBe(rows + 1);
    const history = new HistoryRepository(db);
    expect(history.listExchanges({ search: 'FRESH-77' }).rows.map((e) => e.id)).toEqual([id]);
    // Deleted as retention deletes (a statement over the rows; retention's own figures need schema 22's hours).
    db.prepare('DELETE FROM exchanges WHERE started_at < ?').run(T0 + 30_000_000);
    expect(history.listExchanges({ search: 'FRESH-77' }).rows).toEqual([]);
    // The index agrees with the text it was given (it throws when not).
    expect(() => db.prepare("INSERT INTO exchanges_fts (exchanges_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
  });

  it('an empty store has nothing to pack', () => {
    const file = tempDbFile();
    openAt(file, 19).close();
    expect(packingProgress(openAt(file, 20))).toBeNull();
  });
});
