// What a tester can read of the exchanges of a store seeded by v19-store.ts: shared by the tests of
// the migrations that changed how exchanges are stored (0020) and searched (0021), which must leave
// every bit of it the same.
import type { Database } from 'better-sqlite3';
import { expect } from 'vitest';
import type { ExchangeRecord } from '../../common/records';
import { toCurl, toHar } from '../../main/export';
import { ExchangeRepository } from '../../main/store/exchange-repository';
import { HistoryRepository } from '../../main/store/history-repository';
import { exchangeUsage } from '../../main/store/retention';

/** Everything a tester can read of the exchanges: the inspector (each by id and by message), search, HAR, cURL, sizes. */
export async function everything(db: Database) {
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
      // A post of receipts (one message's, linked to another) and an exchange no message owns.
      search('"smsid":"b"'),
      search('needle-4411 emoji'),
    ],
    captured: history.listExchanges({ captured: true }).rows.map((e) => e.id),
    har: JSON.stringify(toHar(records as ExchangeRecord[], { name: 'Callout', version: 'test' })),
    curl: await Promise.all(records.map((e) => toCurl(e))),
    sizes: db.prepare('SELECT id, size_bytes FROM exchanges ORDER BY id').all(),
    // Storage's figure: from the hours' sums once they exist (migration 0022), and always the same as every exchange summed.
    usage: usageChecked(db),
  };
}

function usageChecked(db: Database): { bytes: number; exchanges: number } {
  const summed = db.prepare('SELECT coalesce(sum(size_bytes), 0) AS bytes, count(*) AS exchanges FROM exchanges').get() as { bytes: number; exchanges: number };
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'exchange_hours'").get()) expect(exchangeUsage(db)).toEqual(summed);
  return summed;
}
