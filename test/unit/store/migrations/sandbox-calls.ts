// Calls as the Sandbox answers them, for the migration tests of packed exchanges and their index
// (0026, 0027): a send and status polls 8 s apart, some exchanges no message owns; what a tester
// sees of them (record, HAR, cURL), and what a search finds.
import BetterSqlite3, { type Database } from 'better-sqlite3';
import type { Exchange } from '../../../../common/exchange';
import { toCurl, toHar } from '../../../../main/export';
import { registerExchangeFunctions } from '../../../../main/store/exchange-pack';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { HistoryRepository } from '../../../../main/store/history-repository';

export const T0 = Date.UTC(2026, 10, 1, 8);
const STATES = ['calling', 'calling', 'calling', 'ringing', 'ringing', 'answered', 'answered', 'ended'];

const iso = (t: number) => new Date(t).toISOString();

/** Message m's n-th exchange: its send (n = 0), then status polls 8 s apart, as the Sandbox answers them. */
export function callExchange(m: number, n: number): Exchange {
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

export const MESSAGES = 12;
export const pollsOf = (m: number) => (m % 4 === 3 ? 1 : 3 + (m % 6));

export function seed(db: Database, from: number, to: number): void {
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
export async function seen(db: Database): Promise<unknown[]> {
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
export function searched(db: Database, search: string, extra: { limit?: number; rareMatches?: number } = {}): number[] {
  const history = new HistoryRepository(db, { rareMatches: extra.rareMatches ?? 4 });
  const ids: number[] = [];
  let cursor: string | undefined;
  do {
    const page = history.listExchanges({ search, limit: extra.limit ?? 7, ...(cursor ? { cursor } : {}) });
    ids.push(...page.rows.map((r) => r.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

/** Another connection to the same file (another process's view: nothing of this one's kept in memory). */
export function another(file: string): Database {
  const db = new BetterSqlite3(file, { readonly: true });
  registerExchangeFunctions(db);
  return db;
}
