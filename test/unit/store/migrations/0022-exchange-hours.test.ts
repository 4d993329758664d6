import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { packBatch } from '../../../../main/store/exchange-packing';
import { applyRetention, exchangeUsage, planRetention } from '../../../../main/store/retention';
import { openAt, storeWrittenBy19, tempDbFile } from './temp-db';
import { T0 } from '../../../helpers/v19-store';
import { everything } from '../../../helpers/exchange-views';

// Storage's figures from the hours' sums: always what summing every exchange gives, through upgrade,
// storing, retention and packing, and an age cut inside an hour counted to the millisecond.

const HOUR = 3_600_000;

/** What summing every exchange gives (the rule the hours' sums must keep). */
const summed = (db: Database, before = Number.MAX_SAFE_INTEGER) =>
  db.prepare('SELECT count(*) AS exchanges, coalesce(sum(size_bytes), 0) AS bytes FROM exchanges WHERE started_at < ?').get(before) as {
    exchanges: number;
    bytes: number;
  };

function store(db: Database, startedAt: number, body: string): number {
  return new ExchangeRepository(db).insert({
    operation: 'balance',
    method: 'POST',
    url: 'http://127.0.0.1:33515/voice/balance',
    requestHeaders: [['Content-Type', 'application/json']],
    requestBody: body,
    status: 200,
    statusText: 'OK',
    responseHeaders: [],
    responseBody: '{"code":2}',
    error: null,
    startedAt,
    timings: { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: 1, totalMs: 2 },
  });
}

describe('migration 0022: how many exchanges and bytes each hour holds', () => {
  it('is the twenty-second migration', () => {
    expect(MIGRATIONS[21]).toMatchObject({ version: 22, name: 'exchange-hours' });
  });

  it('upgrades a store written by schema 21: the same figures, and every byte as readable as before', async () => {
    const file = storeWrittenBy19(40);
    const v21 = openAt(file, 21);
    while (packBatch(v21) !== null);
    const before = await everything(v21);
    expect(before.usage.exchanges).toBeGreaterThan(40);
    v21.close();

    const db = openAt(file, 22);
    expect(exchangeUsage(db)).toEqual(summed(db));
    expect(await everything(db)).toEqual(before);
  });

  it('keeps the figures as exchanges are stored, deleted by retention, and cut by age inside an hour', () => {
    const db = openAt(tempDbFile(), 22);
    expect(exchangeUsage(db)).toEqual({ exchanges: 0, bytes: 0 });
    // Three hours, a few exchanges each, of different sizes; one stored out of order.
    for (let h = 0; h < 3; h++) for (let k = 0; k < 4; k++) store(db, T0 + h * HOUR + k * 600_000, `{"n":"${'x'.repeat(h * 10 + k)}"}`);
    store(db, T0 + 30_000, '{"late":true}');
    expect(exchangeUsage(db)).toEqual(summed(db));
    expect(exchangeUsage(db).exchanges).toBe(13);

    // An age cut 25 minutes into the second hour: the first hour whole, and what the second holds before it.
    const now = T0 + HOUR + 25 * 60_000 + 30 * 86_400_000;
    const plan = planRetention(db, { exchangeDays: 30, exchangeMaxBytes: null }, now);
    expect(plan.byAge).toEqual(summed(db, T0 + HOUR + 25 * 60_000));
    expect(plan.byAge.exchanges).toBe(5 + 3);
    expect(plan.remaining).toEqual({ exchanges: 13 - 8, bytes: summed(db).bytes - plan.byAge.bytes });

    // Applied: the hours left say what is left; an hour with nothing left is gone.
    applyRetention(db, { exchangeDays: 30, exchangeMaxBytes: null }, now);
    expect(exchangeUsage(db)).toEqual(summed(db));
    expect(exchangeUsage(db).exchanges).toBe(5);
    expect(db.prepare('SELECT hour FROM exchange_hours ORDER BY hour').all()).toEqual([
      { hour: Math.floor(T0 / HOUR) + 1 },
      { hour: Math.floor(T0 / HOUR) + 2 },
    ]);

    // A time moved to another hour moves its exchange (nothing does so today; the trigger keeps the rule).
    db.prepare('UPDATE exchanges SET started_at = started_at + 5 * ? WHERE id = (SELECT max(id) FROM exchanges)').run(HOUR);
    expect(exchangeUsage(db)).toEqual(summed(db));
    expect(db.prepare('SELECT n FROM exchange_hours WHERE hour = ?').get(Math.floor(T0 / HOUR) + 7)).toEqual({ n: 1 });
  });
});
