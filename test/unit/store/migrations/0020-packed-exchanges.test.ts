import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import type { ExchangeRecord } from '../../../../common/records';
import { toCurl, toHar } from '../../../../main/export';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { HistoryRepository } from '../../../../main/store/history-repository';
import { packBatch, packingProgress } from '../../../../main/store/exchange-packing';
import { unpackRow } from '../../../../main/store/exchange-pack';
import { exchangeUsage, applyRetention } from '../../../../main/store/retention';
import { openAt, tempDbFile } from './temp-db';

// A store written by the schema before this migration, with every kind of exchange a tester sees:
// each must read back byte for byte, before the packing job, halfway (the app closed mid-way), and after.

/** What the writer of schema 19 stored (its INSERT, verbatim; size_bytes came from a trigger). */
const V19_INSERT = `
  INSERT INTO exchanges (message_id, operation, profile, method, url, request_headers, request_body, status, status_text,
    response_headers, response_body, error_kind, error_message, error_ms, started_at, timings, provider_code, capture, capture_verdict)
  VALUES (@messageId, @operation, @profile, @method, @url, @requestHeaders, @requestBody, @status, @statusText,
    @responseHeaders, @responseBody, @errorKind, @errorMessage, @errorMs, @startedAt, @timings, @providerCode, @capture, @captureVerdict)`;

const T0 = Date.UTC(2026, 9, 1);
const timings = (total: number) => JSON.stringify({ dnsMs: null, connectMs: 0.49, tlsMs: null, firstByteMs: 1, totalMs: total });
const headers = (length: number, date?: string) =>
  JSON.stringify([
    ...(date ? [['Date', date]] : []),
    ['Content-Type', 'application/json; charset=utf-8'],
    ['Accept', 'application/json'],
    ['Host', '127.0.0.1:33515'],
    ['Content-Length', String(length)],
    ['Connection', 'close'],
  ]);

interface V19Row {
  messageId: number | null;
  operation: string;
  profile: string | null;
  method: string;
  url: string;
  requestHeaders: string;
  requestBody: string | null;
  status: number | null;
  statusText: string | null;
  responseHeaders: string | null;
  responseBody: string | null;
  errorKind: string | null;
  errorMessage: string | null;
  errorMs: number | null;
  startedAt: number;
  timings: string;
  providerCode: number | null;
  capture: string | null;
  captureVerdict: string | null;
}

const base: V19Row = {
  messageId: null,
  operation: 'send',
  profile: 'p',
  method: 'POST',
  url: 'http://127.0.0.1:33515/voice/vm',
  requestHeaders: '[]',
  requestBody: null,
  status: 200,
  statusText: 'OK',
  responseHeaders: '[]',
  responseBody: null,
  errorKind: null,
  errorMessage: null,
  errorMs: null,
  startedAt: T0,
  timings: timings(1),
  providerCode: null,
  capture: null,
  captureVerdict: null,
};

/** Calls as the follower stores them (a send, then status polls), and the other kinds once each. */
function seed(v19: Database, calls: number): void {
  const message = v19.prepare(
    "INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, created_at, updated_at) VALUES (?, 'p', 'http://x', 'bench', ?, ?, 1, ?, ?)",
  );
  const insert = v19.prepare(V19_INSERT);
  const link = v19.prepare('INSERT INTO exchange_messages (message_id, started_at, exchange_id) VALUES (?, ?, ?)');
  v19.transaction(() => {
    for (let i = 1; i <= calls; i++) {
      const at = T0 + i * 60_000;
      const mobile = `139${String(i).padStart(8, '0')}`;
      const content = `您好，客户${i}，您的订单SO-${String(i).padStart(6, '0')}已发货，请注意查收。`;
      const smsid = `SBXMX01MCD${String(3_000_000 + i)}`;
      message.run(i, mobile, content, at, at);
      const send = JSON.stringify({ account: 'bench', password: '[REDACTED]', mobile, content, format: 'json' });
      const accepted = JSON.stringify({ code: 2, msg: '提交成功', smsid, count: 1 });
      insert.run({
        ...base,
        messageId: i,
        startedAt: at,
        requestHeaders: headers(Buffer.byteLength(send)),
        requestBody: send,
        responseHeaders: headers(accepted.length, new Date(at).toUTCString()),
        responseBody: accepted,
        providerCode: 2,
      });
      for (const [k, state] of ['calling', 'calling', 'answered'].entries()) {
        const asked = JSON.stringify({ account: 'bench', password: '[REDACTED]', smsid, format: 'json' });
        const reply = JSON.stringify({ code: 2, msg: '查询成功', smsid, state, status: state === 'answered' ? '已接听' : '呼叫中', duration: k * 7 });
        insert.run({
          ...base,
          messageId: i,
          operation: 'status',
          url: 'http://127.0.0.1:33515/voice/status',
          startedAt: at + (k + 1) * 5_000,
          requestHeaders: headers(asked.length),
          requestBody: asked,
          responseHeaders: headers(Buffer.byteLength(reply), new Date(at + (k + 1) * 5_000).toUTCString()),
          responseBody: reply,
          providerCode: 2,
          timings: timings(1 + k / 100),
        });
      }
    }
    // A post of receipts naming two messages (stored once, linked to the second).
    const receipt = insert.run({
      ...base,
      messageId: 1,
      operation: 'receipt',
      url: 'http://127.0.0.1:8080/%5BREDACTED%5D',
      startedAt: T0 + 10_000_000,
      requestBody: '[{"smsid":"a","state":"busy"},{"smsid":"b","state":"busy"}]',
      responseBody: 'ok',
    });
    link.run(2, T0 + 10_000_000, receipt.lastInsertRowid);
    // No reply at all; an XML refusal; a captured exchange with its checks; bytes a tester must see exactly.
    insert.run({
      ...base,
      startedAt: T0 + 10_000_001,
      status: null,
      statusText: null,
      responseHeaders: null,
      errorKind: 'timeout',
      errorMessage: 'no answer in 5000 ms',
      errorMs: 5000,
    });
    insert.run({
      ...base,
      operation: 'balance',
      startedAt: T0 + 10_000_002,
      status: 400,
      statusText: 'Bad Request',
      responseBody: '<?xml version="1.0"?><SubmitResult><code>403</code><msg>模板未审核</msg></SubmitResult>',
      providerCode: 403,
    });
    insert.run({
      ...base,
      operation: 'tunnel',
      startedAt: T0 + 10_000_003,
      capture: JSON.stringify({ mode: 'forward', verdict: 'warn', checks: [{ check: 'signature', verdict: 'warn', code: 'unsigned', params: {} }] }),
      captureVerdict: 'warn',
    });
    insert.run({
      ...base,
      operation: 'raw',
      startedAt: T0 + 10_000_004,
      requestHeaders: '[["X-Trace","needle-4411"],["Accept-Language","zh-CN,zh;q=0.9"]]',
      requestBody: 'line one\r\nline two\ttab "quotes" \\ backslash \u0000 nul 😀 emoji',
      responseBody: '',
    });
  })();
}

/** Everything a tester can read of the exchanges: the inspector (each by id and by message), search, HAR, cURL, sizes. */
async function everything(db: Database) {
  const exchanges = new ExchangeRepository(db);
  const history = new HistoryRepository(db);
  const ids = (db.prepare('SELECT id FROM exchanges ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  const records = ids.map((id) => exchanges.get(id)!);
  const search = (words: string, more: object = {}) => history.listExchanges({ search: words, order: 'oldest', limit: 200, ...more }).rows.map((e) => e.id);
  return {
    records,
    byMessage: [1, 2, 7].map((m) => exchanges.forMessage(m).map((e) => e.id)),
    searches: [
      search('SBXMX01MCD3000007'),
      search('needle-4411'),
      search('模板未审核'),
      search('已接听 SBXMX01MCD30000'),
      search('客户12，'),
      search('😀'),
      search('zh'),
      search('calling', { operations: ['status'], statuses: [200] }),
      search('ok', { messageId: 2 }),
    ],
    captured: history.listExchanges({ captured: true }).rows.map((e) => e.id),
    har: JSON.stringify(toHar(records as ExchangeRecord[], { name: 'Callout', version: 'test' })),
    curl: await Promise.all(records.map((e) => toCurl(e))),
    sizes: db.prepare('SELECT id, size_bytes FROM exchanges ORDER BY id').all(),
    usage: exchangeUsage(db),
  };
}

/** Each row's columns as schema 19 kept them (a packed row's unpacked), by id. */
function columnsAsStored(db: Database) {
  const rows = db.prepare('SELECT * FROM exchanges ORDER BY id').all() as (Record<string, unknown> & { packed?: Buffer | null })[];
  return rows.map((row) => {
    const { packed: _packed, ...columns } = unpackRow(db, row);
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
    seed(v19, 30);
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
    expect(packingProgress(db)).toEqual({ done: 0, total: rows });

    // The packing job, a batch at a time; the app is closed after two batches and opened again.
    expect(packBatch(db, 40)).toEqual({ done: 40, total: rows });
    expect(packBatch(db, 40)).toEqual({ done: 80, total: rows });
    expect(packedRows(db)).toBe(80);
    expect(await everything(db)).toEqual(before);
    db.close();
    db = openAt(file, 20);
    expect(packingProgress(db)).toEqual({ done: 80, total: rows });
    expect(packBatch(db, 40)).toEqual({ done: 120, total: rows });
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
    applyRetention(db, { exchangeDays: null, exchangeMaxBytes: 0 }, T0 + 30_000_000);
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
