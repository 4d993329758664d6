import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import type { Exchange } from '../../../../common/exchange';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { applyRetention } from '../../../../main/store/retention';
import { openDatabase } from '../../../../main/store/database';
import { packBatch } from '../../../../main/store/exchange-packing';
import { T0 as V19_T0 } from '../../../helpers/v19-store';
import { openAt, storeWrittenBy19, tempDbFile } from './temp-db';
import { MESSAGES, T0, another, callExchange, pollsOf, searched, seed, seen } from './sandbox-calls';

// A call's status polls are packed against the first of them (its base, kept once): the polls stored
// before are packed again, and every byte of every exchange reads back the same — the inspector, HAR,
// cURL and search — before and after, from this connection and from another.

const SEARCHES = ['V007000005', 'answered', '"ended"', 'voice/status', 'C2&password', '提交成功', 'Content-Length'];

function pollBytes(db: Database): { based: number; alone: number; bytes: number } {
  return db
    .prepare(
      `SELECT total(substr(packed, 1, 1) = x'02') AS based, total(substr(packed, 1, 1) = x'01') AS alone, sum(length(packed)) AS bytes
       FROM exchanges WHERE operation = 'status'`,
    )
    .get() as { based: number; alone: number; bytes: number };
}

describe('migration 0026: poll bases', () => {
  it("the polls stored before are packed against their message's first; every byte reads back the same, and search finds the same", async () => {
    const file = tempDbFile();
    const v25 = openAt(file, 25);
    seed(v25, 0, MESSAGES);
    const before = await seen(v25);
    const found = Object.fromEntries(SEARCHES.map((s) => [s, searched(v25, s)]));
    const bytesBefore = pollBytes(v25);
    expect(bytesBefore.based ?? 0).toBe(0);
    v25.close();

    const db = openAt(file, 26);
    expect(await seen(db)).toEqual(before);
    for (const s of SEARCHES) expect(searched(db, s), s).toEqual(found[s]);
    // A base a message with polls, none for the polls no message owns; those stay packed alone.
    const withPolls = Array.from({ length: MESSAGES }, (_, m) => m + 1);
    expect((db.prepare('SELECT message_id FROM exchange_bases ORDER BY message_id').all() as { message_id: number }[]).map((r) => r.message_id)).toEqual(
      withPolls,
    );
    const after = pollBytes(db);
    expect(after.alone).toBe(3);
    expect(after.based).toBe(bytesBefore.alone - 3);
    // The polls' blobs take less than half what they took (the bases included).
    const bases = (db.prepare('SELECT sum(length(packed)) AS n FROM exchange_bases').get() as { n: number }).n;
    expect(after.bytes + bases).toBeLessThan(bytesBefore.bytes * 0.75);
    expect(after.bytes).toBeLessThan(bytesBefore.bytes * 0.5);

    // Another connection reads them too (the bases read from the file, not this one's memory).
    const other = another(file);
    try {
      // Searching first: the words are checked on the rows' text with nothing read before.
      for (const s of SEARCHES) expect(searched(other, s), s).toEqual(found[s]);
      expect(await seen(other)).toEqual(before);
    } finally {
      other.close();
    }
  });

  it('new polls are packed against their base; their words are found at once; retention keeps a base while its message keeps an exchange', async () => {
    const file = tempDbFile();
    const db = openAt(file, 26);
    seed(db, 0, MESSAGES);
    const expected: unknown[] = [];
    for (let m = 0; m < MESSAGES; m++) for (let n = 0; n <= pollsOf(m); n++) expected.push(callExchange(m, n));
    const repo = new ExchangeRepository(db);
    const strip = (r: object) => {
      const { id: _id, messageId: _m, profile: _p, providerCode: _c, capture: _k, ...rest } = r as Record<string, unknown>;
      return rest;
    };
    const stored = (db.prepare("SELECT id FROM exchanges WHERE message_id IS NOT NULL AND operation <> 'receipt' ORDER BY id").all() as { id: number }[]).map(
      (r) => strip(repo.get(r.id)!),
    );
    expect(stored).toEqual(expected);
    expect(pollBytes(db).based).toBe(expected.filter((e) => (e as Exchange).operation === 'status').length);
    // A word only the last poll of a call holds (its "ended") is found by the index the insert's trigger wrote.
    const ended = searched(db, '"ended"');
    expect(ended.length).toBeGreaterThan(0);
    for (const id of ended) expect(repo.get(id)!.responseBody).toContain('"ended"');

    // A receipt stored for a call by another process (nothing read before): the call's entry in the
    // word index is remade from all its exchanges, its polls read against their base.
    const fresh = openDatabase(file);
    try {
      const receipt: Exchange = {
        ...callExchange(8, 1),
        operation: 'receipt',
        url: 'http://127.0.0.1:8088/receipts',
        requestBody: 'smsid=V007000008&state=zzreceipt',
        startedAt: T0 + 8 * 60_000 + 50_000,
      };
      new ExchangeRepository(fresh).insert(receipt, { messageId: 9, profile: 'p' });
    } finally {
      fresh.close();
    }
    const byReceipt = searched(db, 'zzreceipt');
    expect(byReceipt).toHaveLength(1);
    expect(searched(db, 'V007000008').length).toBe(pollsOf(8) + 2);

    // Retention by age cuts through message 6's polls (its send and first poll go): the ones left still read, from another connection too.
    const cut = T0 + 5 * 60_000 + 2 * 8_000 + 1;
    const left = (db.prepare('SELECT id FROM exchanges WHERE message_id = 6 AND started_at >= ? ORDER BY id').all(cut) as { id: number }[]).map((r) => r.id);
    expect(left.length).toBeGreaterThan(1);
    const leftSeen = left.map((id) => repo.get(id));
    applyRetention(db, { exchangeDays: 1, exchangeMaxBytes: null }, cut + 86_400_000);
    expect(left.map((id) => repo.get(id))).toEqual(leftSeen);
    const other = another(file);
    try {
      expect(left.map((id) => new ExchangeRepository(other).get(id))).toEqual(leftSeen);
    } finally {
      other.close();
    }
    // The bases of the messages with no exchange left went; the others stay; no dictionary a base needs went.
    const bases = (db.prepare('SELECT message_id FROM exchange_bases ORDER BY message_id').all() as { message_id: number }[]).map((r) => r.message_id);
    expect(bases).toEqual(Array.from({ length: MESSAGES - 5 }, (_, i) => i + 6));
    expect(db.prepare('SELECT count(*) AS n FROM exchange_bases b WHERE NOT EXISTS (SELECT 1 FROM exchange_dicts d WHERE d.id = b.dict_id)').get()).toEqual({
      n: 0,
    });
    expect(
      db
        .prepare(
          'SELECT id, rows FROM exchange_dicts d WHERE rows <> (SELECT count(*) FROM exchanges WHERE dict_id = d.id) + (SELECT count(*) FROM exchange_bases WHERE dict_id = d.id)',
        )
        .all(),
    ).toEqual([]);

    // A poll stored for message 6 after its earlier ones went is packed against the base it keeps.
    const later = repo.insert(callExchange(5, 9), { messageId: 6, profile: 'p' });
    expect(strip(repo.get(later)!)).toEqual(callExchange(5, 9));
    expect((db.prepare('SELECT count(*) AS n FROM exchange_bases WHERE message_id = 6').get() as { n: number }).n).toBe(1);

    // Everything goes: so do the bases, and the dictionaries but the newest.
    applyRetention(db, { exchangeDays: 1, exchangeMaxBytes: null }, T0 + 400 * 86_400_000);
    expect(db.prepare('SELECT count(*) AS n FROM exchange_bases').get()).toEqual({ n: 0 });
  });

  it('a store upgraded from before the words of a call were indexed once deletes its based polls, the old index kept or not', async () => {
    const file = storeWrittenBy19(60);
    const db = openAt(file, 26);
    // Packed (the polls against their bases) but not yet indexed: the index of each exchange is still there.
    for (let p; (p = packBatch(db)) && p.step === 'packing';);
    const has = (d: Database, name: string) => d.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(name) !== undefined;
    expect(has(db, 'exchanges_fts')).toBe(true);
    expect(pollBytes(db).based).toBeGreaterThan(100);
    const ids = (db.prepare('SELECT id FROM exchanges ORDER BY started_at, id').all() as { id: number }[]).map((r) => r.id);
    db.close();

    // The app started again (no base in memory): retention by age takes the older half, by size all but 50.
    const fresh = openDatabase(file);
    try {
      const repo = new ExchangeRepository(fresh);
      const middle = (fresh.prepare('SELECT started_at FROM exchanges WHERE id = ?').get(ids[Math.floor(ids.length / 2)]) as { started_at: number }).started_at;
      expect(repo.deleteStartedBefore(middle)).toBeGreaterThan(100);
      const [cutAt, cutId] = (() => {
        const r = fresh.prepare('SELECT started_at, id FROM exchanges ORDER BY started_at DESC, id DESC LIMIT 1 OFFSET 50').get() as {
          started_at: number;
          id: number;
        };
        return [r.started_at, r.id];
      })();
      repo.deleteThrough(cutAt, cutId);
      const left = fresh.prepare('SELECT id FROM exchanges').all() as { id: number }[];
      expect(left).toHaveLength(50);
      // The old index holds exactly the rows left (its entries were deleted with their rows), and they read back.
      expect(fresh.prepare("INSERT INTO exchanges_fts (exchanges_fts, rank) VALUES ('integrity-check', 1)").run()).toBeTruthy();
      expect(fresh.pragma('integrity_check', { simple: true })).toBe('ok');
      for (const { id } of left) expect(repo.get(id)?.id).toBe(id);
      // Indexed by the job, the old index goes; deleting goes on as one statement.
      while (packBatch(fresh) !== null);
      expect(has(fresh, 'exchanges_fts')).toBe(false);
      expect(repo.deleteStartedBefore(V19_T0 + 400 * 86_400_000)).toBe(50);
      expect(fresh.prepare('SELECT count(*) AS n FROM exchange_bases').get()).toEqual({ n: 0 });
    } finally {
      fresh.close();
    }
  });
});
