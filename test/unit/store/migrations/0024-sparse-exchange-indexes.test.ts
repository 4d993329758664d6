import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import type { Exchange } from '../../../../common/exchange';
import type { ExchangeQuery, StatusFilter } from '../../../../common/history-types';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { HistoryRepository } from '../../../../main/store/history-repository';
import { numberedExchange, openAt, tempDbFile } from './temp-db';

// The exchanges' operation, status and code indexes hold only the rows people filter for (not the
// status polls answered 200 with code 2 that are nearly all of a store): a store at 23 keeps every
// exchange, its filters give the same rows before and after, a filter for a rare value walks its
// index, one for the common value the time index, and the three indexes stay small as polls pile up.

const T0 = Date.UTC(2026, 10, 1);
const OPERATIONS = ['send', 'status', 'status', 'status', 'status', 'status', 'status', 'receipt', 'balance'] as const;

function exchange(i: number): Exchange {
  // Mostly 200 with code 2; now and then a refusal (403), a server error (500) or no reply at all.
  const kind = i % 17 === 0 ? 'timeout' : i % 13 === 0 ? 'error' : i % 11 === 0 ? 'refused' : 'ok';
  return numberedExchange(i, T0, {
    operation: OPERATIONS[i % OPERATIONS.length]!,
    status: kind === 'timeout' ? null : kind === 'error' ? 500 : 200,
    code: kind === 'refused' ? 403 : 2,
  });
}

const FILTERS: ExchangeQuery[] = [
  { operation: 'send' },
  { operation: 'status' },
  { operations: ['send', 'receipt'] },
  { operations: ['send', 'status'] },
  { statuses: [500] },
  { statuses: ['none'] },
  { statuses: [500, 'none'] },
  { statuses: [200] },
  { statuses: [200, 500] },
  { statuses: ['5xx'] },
  { providerCodes: [403] },
  { providerCodes: [2] },
  { providerCodes: [2, 403] },
  { operation: 'status', statuses: [500] },
  { operation: 'send', providerCodes: [2], from: T0 + 100_000, to: T0 + 900_000 },
  { operation: 'status', statuses: [200], providerCodes: [2], from: T0 + 50_000 },
];

/** Every page of a filter, newest first, by its cursor. */
function pages(db: Database, q: ExchangeQuery): number[] {
  const repo = new HistoryRepository(db);
  const ids: number[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const page = repo.listExchanges({ ...q, limit: 37, ...(cursor ? { cursor } : {}) });
    ids.push(...page.rows.map((r) => r.id));
    if (!page.nextCursor) return ids;
    cursor = page.nextCursor;
  }
  throw new Error('more than 100 pages');
}

/** The same, by reading every row (no index), for comparison. */
function byEveryRow(db: Database, q: ExchangeQuery): number[] {
  const statusOk = (s: number | null) =>
    !q.statuses ||
    q.statuses.some((f: StatusFilter) => (f === 'none' ? s === null : typeof f === 'number' ? s === f : s !== null && Math.floor(s / 100) === Number(f[0])));
  const ops = [...(q.operation ? [q.operation] : []), ...(q.operations ?? [])];
  return (
    db.prepare('SELECT id, operation, status, provider_code, started_at FROM exchanges NOT INDEXED ORDER BY started_at DESC, id DESC').all() as Array<{
      id: number;
      operation: string;
      status: number | null;
      provider_code: number | null;
      started_at: number;
    }>
  )
    .filter(
      (r) =>
        (!ops.length || ops.includes(r.operation as Exchange['operation'])) &&
        statusOk(r.status) &&
        (!q.providerCodes || q.providerCodes.includes(r.provider_code as number)) &&
        (q.from === undefined || r.started_at >= q.from) &&
        (q.to === undefined || r.started_at < q.to),
    )
    .map((r) => r.id);
}

/** An index's entries (an index b-tree keeps them in its interior pages too). */
const entries = (db: Database, index: string) => (db.prepare('SELECT coalesce(sum(ncell), 0) AS n FROM dbstat WHERE name = ?').get(index) as { n: number }).n;

describe('migration 0024: sparse exchange indexes', () => {
  it('keeps every exchange; each filter gives the same rows, in the same order, before and after', () => {
    const file = tempDbFile();
    const v23 = openAt(file, 23);
    const stored = new ExchangeRepository(v23);
    for (let i = 0; i < 1200; i++) stored.insert(exchange(i), { profile: 'p' });
    const before = FILTERS.map((q) => pages(v23, q));
    const rows = v23.prepare('SELECT * FROM exchanges ORDER BY id').all();
    v23.close();

    const db = openAt(file, 24);
    expect(db.prepare('SELECT * FROM exchanges ORDER BY id').all()).toEqual(rows);
    FILTERS.forEach((q, i) => {
      const after = pages(db, q);
      expect(after, JSON.stringify(q)).toEqual(before[i]);
      expect(after, JSON.stringify(q)).toEqual(byEveryRow(db, q));
      expect(after.length, JSON.stringify(q)).toBeGreaterThan(0);
    });
  });

  it('the three indexes hold only the uncommon rows, and a filter for one walks its index', () => {
    const db = openAt(tempDbFile(), 24);
    const stored = new ExchangeRepository(db);
    for (let i = 0; i < 3000; i++) stored.insert(exchange(i), { profile: 'p' });
    const count = (where: string) => (db.prepare(`SELECT count(*) AS n FROM exchanges NOT INDEXED WHERE ${where}`).get() as { n: number }).n;
    expect(entries(db, 'exchanges_operation_time')).toBe(count("operation <> 'status'"));
    expect(entries(db, 'exchanges_status_time')).toBe(count('status IS NOT 200'));
    expect(entries(db, 'exchanges_code_time')).toBe(count('provider_code IS NOT 2'));
    // Polls answered 200 with code 2, the most of a store, are in none of them.
    const polls = count("operation = 'status' AND status = 200 AND provider_code = 2");
    expect(polls).toBeGreaterThan(1500);
    expect(entries(db, 'exchanges_profile_time')).toBe(3000);
    expect(entries(db, 'exchanges_status_time') + entries(db, 'exchanges_code_time') + entries(db, 'exchanges_operation_time')).toBeLessThan(3000);

    const plans = (q: ExchangeQuery) => {
      const seen: string[] = [];
      const spy = new Proxy(db, {
        get(t, p) {
          if (p === 'prepare')
            return (sql: string) => {
              const stmt = t.prepare(sql);
              return new Proxy(stmt, {
                get(s, k) {
                  const v = Reflect.get(s, k, s) as unknown;
                  if (typeof v !== 'function') return v;
                  if (k === 'all' || k === 'get' || k === 'iterate')
                    return (...args: unknown[]) => {
                      if (/FROM exchanges/.test(sql))
                        seen.push(...(t.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail));
                      return (v as (...a: unknown[]) => unknown).apply(s, args);
                    };
                  return (v as (...a: unknown[]) => unknown).bind(s);
                },
              });
            };
          const v = Reflect.get(t, p, t) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
        },
      });
      new HistoryRepository(spy).listExchanges(q);
      return seen.join('\n');
    };
    expect(plans({ statuses: [500] })).toMatch(/INDEX exchanges_status_time \(status=\?\)/);
    expect(plans({ statuses: ['none'] })).toMatch(/INDEX exchanges_status_time \(status=\?\)/);
    expect(plans({ providerCodes: [403] })).toMatch(/INDEX exchanges_code_time \(provider_code=\?\)/);
    expect(plans({ operation: 'receipt' })).toMatch(/INDEX exchanges_operation_time \(operation=\?\)/);
    for (const q of [{ statuses: [200] }, { operation: 'status' as const }, { providerCodes: [2] }]) {
      const p = plans(q);
      expect(p, JSON.stringify(q)).toMatch(/INDEX exchanges_time_size/);
      expect(p, JSON.stringify(q)).not.toMatch(/\bSCAN exchanges\b(?! USING)/);
    }
  });
});
