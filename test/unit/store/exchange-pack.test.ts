import { describe, expect, it, onTestFinished } from 'vitest';
import { join } from 'node:path';
import type { Exchange } from '../../../common/records';
import { openDatabase, type Database } from '../../../main/store/database';
import { MAX_UNPACKED_BYTES, TRAIN_AFTER, unpack } from '../../../main/store/exchange-pack';
import { deflateRawSync } from 'node:zlib';
import { ExchangeRepository } from '../../../main/store/exchange-repository';
import { HistoryRepository } from '../../../main/store/history-repository';
import { applyRetention, vacuum } from '../../../main/store/retention';
import { tempHome } from '../../helpers/temp-home';
import { scanDirectory } from '../../helpers/key-scan';
import { dirname } from 'node:path';
import { readFileSync } from 'node:fs';

const opened: Database[] = [];

/** A new store's file, in a folder removed (after its connections are closed) when the test ends. */
function file(): string {
  const home = tempHome('callout-pack-');
  onTestFinished(() => {
    for (const db of opened.splice(0)) if (db.open) db.close();
    home.cleanup();
  });
  return join(home.dir, 'callout.db');
}

/** A connection of its own, as another process has. */
function open(path: string): Database {
  const db = openDatabase(path);
  opened.push(db);
  return db;
}

/** A status poll as the follower stores it against the Sandbox (about 630 bytes of headers and bodies). */
function poll(i: number): Exchange {
  const smsid = `SBXMX01MCD${3_000_000 + i}`;
  const at = Date.UTC(2026, 10, 1) + i * 5_000;
  const reply = JSON.stringify({
    code: 2,
    msg: '查询成功',
    smsid,
    state: i % 3 ? 'calling' : 'answered',
    status: i % 3 ? '呼叫中' : '已接听',
    duration: i % 3 ? 0 : 17,
    attempts: 1,
    submittedAt: new Date(at - 4_000).toISOString(),
    calledAt: new Date(at - 3_000).toISOString(),
    answeredAt: i % 3 ? null : new Date(at - 1_000).toISOString(),
    endedAt: null,
  });
  const body = JSON.stringify({ account: 'bench', password: '[REDACTED]', smsid, format: 'json' });
  return {
    operation: 'status',
    method: 'POST',
    url: 'http://127.0.0.1:33515/voice/status',
    requestHeaders: [
      ['Content-Type', 'application/json; charset=utf-8'],
      ['Accept', 'application/json'],
      ['Host', '127.0.0.1:33515'],
      ['Content-Length', String(body.length)],
      ['Connection', 'close'],
    ],
    requestBody: body,
    status: 200,
    statusText: 'OK',
    responseHeaders: [
      ['Date', new Date(at).toUTCString()],
      ['Content-Type', 'application/json; charset=utf-8'],
      ['Content-Length', String(Buffer.byteLength(reply))],
      ['Connection', 'close'],
    ],
    responseBody: reply,
    error: null,
    startedAt: at,
    timings: { dnsMs: null, connectMs: 0.49, tlsMs: null, firstByteMs: 1 + (i % 7) / 10, totalMs: 1.08 + (i % 5) / 10 },
  };
}

const packedBytes = (db: Database, id: number) =>
  db.prepare('SELECT length(packed) AS n, size_bytes AS plain FROM exchanges WHERE id = ?').get(id) as { n: number; plain: number };
const dictionaries = (db: Database) => db.prepare('SELECT id, kind, after_exchange AS after FROM exchange_dicts ORDER BY id').all();

describe('packed exchanges', () => {
  it('a new store packs with the built-in dictionary, then with one made from its own exchanges: a status poll in about a tenth', () => {
    const db = open(file());
    const repo = new ExchangeRepository(db);
    const first = repo.insert(poll(1));
    expect(dictionaries(db)).toEqual([{ id: 1, kind: 'seed', after: 0 }]);
    const seeded = packedBytes(db, first);
    expect(seeded.plain).toBeGreaterThan(550);
    expect(seeded.n).toBeLessThan(seeded.plain / 2);
    for (let i = 2; i <= TRAIN_AFTER; i++) repo.insert(poll(i));
    expect(dictionaries(db)).toHaveLength(1);
    const later = repo.insert(poll(TRAIN_AFTER + 1));
    expect(dictionaries(db)).toEqual([
      { id: 1, kind: 'seed', after: 0 },
      { id: 2, kind: 'trained', after: TRAIN_AFTER },
    ]);
    const trained = packedBytes(db, later);
    expect(trained.n).toBeLessThan(trained.plain / 8);
    // Both read back exactly as they were stored.
    expect(repo.get(first)).toMatchObject({ ...poll(1), id: first });
    expect(repo.get(later)).toMatchObject({ ...poll(TRAIN_AFTER + 1), id: later });
  });

  it('another process reads, searches and deletes exchanges packed with a dictionary it has not seen', () => {
    const path = file();
    const reader = open(path);
    const readerHistory = new HistoryRepository(reader);
    // The reader has read the dictionaries once (none yet) before the writer makes them.
    expect(readerHistory.listExchanges({ search: 'SBXMX' }).rows).toEqual([]);
    const writer = open(path);
    const repo = new ExchangeRepository(writer);
    const ids: number[] = [];
    for (let i = 1; i <= TRAIN_AFTER + 5; i++) ids.push(repo.insert(poll(i)));
    expect(dictionaries(writer)).toHaveLength(2);

    // By the word index (3+ characters) and by the text itself (1–2 characters, read in SQL).
    expect(readerHistory.listExchanges({ search: `SBXMX01MCD${3_000_000 + TRAIN_AFTER + 5}` }).rows.map((e) => e.id)).toEqual([ids.at(-1)]);
    expect(readerHistory.listExchanges({ search: '已接 呼', limit: 500 }).rows).toHaveLength(0);
    expect(readerHistory.listExchanges({ search: '接听 ok', limit: 500 }).rows).toHaveLength(0);
    expect(readerHistory.listExchanges({ search: '已接', limit: 500 }).rows).toHaveLength(Math.floor((TRAIN_AFTER + 5) / 3));
    expect(new ExchangeRepository(reader).get(ids.at(-1)!)).toMatchObject(poll(TRAIN_AFTER + 5));

    const more = repo.insert(poll(10_000));
    const r = applyRetention(reader, { exchangeDays: null, exchangeMaxBytes: 0 }, Date.UTC(2027, 0, 1));
    expect(r.deletedBySize).toBe(TRAIN_AFTER + 6);
    expect(new ExchangeRepository(writer).get(more)).toBeUndefined();
    expect(readerHistory.listExchanges({ search: 'SBXMX' }).rows).toEqual([]);
  });

  it('the scan of a data directory for keys reads packed exchanges unpacked (their bytes on disk do not show a key)', () => {
    const path = file();
    const db = open(path);
    const key = 'Kx7 q/+r=Zé&9!m2~';
    new ExchangeRepository(db).insert({ ...poll(1), requestBody: `{"password":"${key}"}` });
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(path).includes(Buffer.from(key))).toBe(false);
    expect(scanDirectory(dirname(path), key)).toEqual([{ file: `${path} (exchange 1, unpacked)`, found: expect.arrayContaining(['plain']) }]);
  });

  it('a dictionary made in a transaction that rolled back is not used: every row stays readable by every connection', () => {
    const path = file();
    const db = open(path);
    const repo = new ExchangeRepository(db);
    // A foreign key that does not hold rolls the insert back, with the dictionary it made.
    expect(() => repo.insert(poll(1), { messageId: 999 })).toThrow(/FOREIGN KEY/);
    const ids = Array.from({ length: TRAIN_AFTER + 2 }, (_, i) => repo.insert(poll(i + 2)));
    // The rolled-back dictionary's id is given again (the table's sequence rolled back too), to another dictionary.
    expect(dictionaries(db)).toEqual([
      { id: 1, kind: 'seed', after: 0 },
      { id: 2, kind: 'trained', after: TRAIN_AFTER },
    ]);
    const other = new ExchangeRepository(open(path));
    for (const id of [ids[0]!, ids.at(-1)!]) expect(other.get(id)).toEqual(repo.get(id));
    expect(other.get(ids[0]!)).toMatchObject(poll(2));
    expect(new HistoryRepository(db).listExchanges({ search: `SBXMX01MCD${3_000_002}` }).rows.map((e) => e.id)).toEqual([ids[0]]);
  });

  it('retention deletes the dictionaries no stored exchange needs, and with them the pieces of exchanges they held', () => {
    const path = file();
    const db = open(path);
    const repo = new ExchangeRepository(db);
    for (let i = 1; i <= TRAIN_AFTER + 1; i++) repo.insert(poll(i));
    expect(dictionaries(db)).toHaveLength(2);
    const rowsOf = () => db.prepare('SELECT id, rows FROM exchange_dicts ORDER BY id').all();
    expect(rowsOf()).toEqual([
      { id: 1, rows: TRAIN_AFTER },
      { id: 2, rows: 1 },
    ]);
    // The oldest go: the seed's rows with them, so the seed goes; the newest stays for the next exchange.
    applyRetention(db, { exchangeDays: null, exchangeMaxBytes: 1_000 }, Date.UTC(2027, 0, 1));
    expect(rowsOf()).toEqual([{ id: 2, rows: 1 }]);
    // Everything goes: so do the dictionaries, and compacting leaves none of their words in the file.
    applyRetention(db, { exchangeDays: null, exchangeMaxBytes: 0 }, Date.UTC(2027, 0, 1));
    expect(rowsOf()).toEqual([]);
    vacuum(db);
    db.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(path).includes(Buffer.from('SBXMX01MCD3000150'))).toBe(false);
    // A new exchange starts again from the built-in dictionary, with an id never used before.
    repo.insert(poll(1));
    expect(dictionaries(db)).toEqual([{ id: 3, kind: 'seed', after: 0 }]);
  });

  it('a word holding a NUL is looked for on the text, not handed to the index', () => {
    const db = open(file());
    const id = new ExchangeRepository(db).insert({ ...poll(1), responseBody: 'l\u0000h' });
    expect(new HistoryRepository(db).listExchanges({ search: 'l\u0000h' }).rows.map((e) => e.id)).toEqual([id]);
  });
});

describe('a packed row made elsewhere', () => {
  it('that would unpack to more than Callout ever keeps is refused, not inflated', () => {
    const db = open(file());
    const id = new ExchangeRepository(db).insert(poll(1));
    const row = db.prepare('SELECT packed, dict_id AS dict FROM exchanges WHERE id = ?').get(id) as { packed: Buffer; dict: number };
    const dictionary = (db.prepare('SELECT data FROM exchange_dicts WHERE id = ?').get(row.dict) as { data: Buffer }).data;
    // The row's own header (format, dictionary id in one byte, checksum), then zeros a little over the limit.
    const header = row.packed.subarray(0, 6);
    const bomb = Buffer.concat([header, deflateRawSync(Buffer.alloc(MAX_UNPACKED_BYTES + 1), { dictionary })]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(unpack(db, row.packed).url).toBe(poll(1).url);
    expect(() => unpack(db, bomb)).toThrow(RangeError);
  });
});
