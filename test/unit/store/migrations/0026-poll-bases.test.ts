import { describe, expect, it } from 'vitest';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import type { Exchange } from '../../../../common/exchange';
import { toCurl, toHar } from '../../../../main/export';
import { registerExchangeFunctions } from '../../../../main/store/exchange-pack';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { HistoryRepository } from '../../../../main/store/history-repository';
import { applyRetention } from '../../../../main/store/retention';
import { openDatabase } from '../../../../main/store/database';
import { packBatch } from '../../../../main/store/exchange-packing';
import { T0 as V19_T0 } from '../../../helpers/v19-store';
import { openAt, storeWrittenBy19, tempDbFile } from './temp-db';

// A call's status polls are packed against the first of them (its base, kept once): the polls stored
// before are packed again, and every byte of every exchange reads back the same — the inspector, HAR,
// cURL and search — before and after, from this connection and from another.

const T0 = Date.UTC(2026, 10, 1, 8);
const STATES = ['calling', 'calling', 'calling', 'ringing', 'ringing', 'answered', 'answered', 'ended'];

const iso = (t: number) => new Date(t).toISOString();

/** Message m's n-th exchange: its send (n = 0), then status polls 8 s apart, as the Sandbox answers them. */
function callExchange(m: number, n: number): Exchange {
  const smsid = `V${String(7_000_000 + m).padStart(9, '0')}`;
  const at = T0 + m * 60_000 + n * 8_000;
  const date = new Date(at).toUTCString();
  if (n === 0) {
    const body = `{"account":"C${m % 3}","password":"[REDACTED]","mobile":"138${String(m).padStart(8, '0')}","content":"您的验证码是${100000 + m}。","format":"json"}`;
    return {
      operation: 'send',
      method: 'POST',
      url: 'https://api.example.com/voice/vm',
      requestHeaders: [
        ['Content-Type', 'application/json; charset=utf-8'],
        ['Content-Length', String(body.length)],
      ],
      requestBody: body,
      status: 200,
      statusText: 'OK',
      responseHeaders: [
        ['Date', date],
        ['Content-Type', 'application/json; charset=utf-8'],
      ],
      responseBody: `{"code":2,"msg":"提交成功","smsid":"${smsid}","count":1}`,
      error: null,
      startedAt: at,
      timings: { dnsMs: null, connectMs: 0.4 + (m % 5) / 10, tlsMs: null, firstByteMs: 1, totalMs: 1.1 },
    };
  }
  const state = STATES[Math.min(n - 1, STATES.length - 1)]!;
  return {
    operation: 'status',
    method: 'POST',
    url: 'https://api.example.com/voice/status',
    requestHeaders: [
      ['Content-Type', 'application/x-www-form-urlencoded'],
      ['Content-Length', '86'],
    ],
    requestBody: `account=C${m % 3}&password=[REDACTED]&smsid=${smsid}&format=json`,
    status: 200,
    statusText: 'OK',
    responseHeaders: [
      ['Date', date],
      ['Content-Type', 'application/json; charset=utf-8'],
    ],
    responseBody: `{"code":2,"msg":"查询成功","smsid":"${smsid}","state":"${state}","duration":${state === 'ended' ? 31 : 0},"submittedAt":"${iso(T0 + m * 60_000)}","answeredAt":${state === 'answered' || state === 'ended' ? `"${iso(at - 4_000)}"` : 'null'}}`,
    error: null,
    startedAt: at,
    timings: { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: 1 + (n % 3), totalMs: 1.2 + n / 10 },
  };
}

const MESSAGES = 12;
const pollsOf = (m: number) => (m % 4 === 3 ? 1 : 3 + (m % 6));

function seed(db: Database, from: number, to: number): void {
  const repo = new ExchangeRepository(db);
  db.transaction(() => {
    for (let m = from; m < to; m++) {
      db.prepare(
        `INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, created_at, updated_at)
         VALUES (?, 'p', 'https://api.example.com', 'C', ?, 'hi', 1, ?, ?)`,
      ).run(m + 1, `138${String(m).padStart(8, '0')}`, T0 + m * 60_000, T0 + m * 60_000);
      for (let n = 0; n <= pollsOf(m); n++) repo.insert(callExchange(m, n), { messageId: m + 1, profile: 'p' });
      // A poll no message owns (a balance check's sort): packed on its own.
      if (m % 5 === 0) repo.insert({ ...callExchange(m, 1), startedAt: T0 + m * 60_000 + 59_000 }, { profile: 'p' });
    }
  })();
}

/** Everything a tester sees of the store's exchanges: each record, its HAR entry and its cURL. */
async function seen(db: Database): Promise<unknown[]> {
  const repo = new ExchangeRepository(db);
  const ids = (db.prepare('SELECT id FROM exchanges ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  const out: unknown[] = [];
  for (const id of ids) {
    const record = repo.get(id)!;
    out.push(record, toHar([record], { name: 'Callout', version: 't' }).log.entries[0], await toCurl(record));
  }
  return out;
}

/** The ids a search finds, every page. */
function searched(db: Database, search: string, extra: { limit?: number } = {}): number[] {
  const history = new HistoryRepository(db, { rareMatches: 4 });
  const ids: number[] = [];
  let cursor: string | undefined;
  do {
    const page = history.listExchanges({ search, limit: extra.limit ?? 7, ...(cursor ? { cursor } : {}) });
    ids.push(...page.rows.map((r) => r.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

const SEARCHES = ['V007000005', 'answered', '"ended"', 'voice/status', 'C2&password', '提交成功', 'Content-Length'];

function pollBytes(db: Database): { based: number; alone: number; bytes: number } {
  return db
    .prepare(
      `SELECT total(substr(packed, 1, 1) = x'02') AS based, total(substr(packed, 1, 1) = x'01') AS alone, sum(length(packed)) AS bytes
       FROM exchanges WHERE operation = 'status'`,
    )
    .get() as { based: number; alone: number; bytes: number };
}

/** Another connection to the same file (another process's view: nothing of this one's kept in memory). */
function another(file: string): Database {
  const db = new BetterSqlite3(file, { readonly: true });
  registerExchangeFunctions(db);
  return db;
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
