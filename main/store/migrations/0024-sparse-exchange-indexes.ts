import type { Migration } from './types';

/**
 * Exchanges' filter indexes keep only the rows people filter for (issue 27: bytes a call). Nearly
 * every exchange a store keeps is a status poll answered 200 with the provider's success code: each
 * stood in three indexes (operation, status, code; 540 bytes a call of 4,000) that a filter for those
 * common values never needed, since nearly every row walked in time order matches it. Now the three
 * hold only the other rows (sends, receipts, errors, refusals, timeouts...): a filter for one of
 * those walks its index; a filter for the common value walks the time index and checks each row
 * (history-repository.ts, `SPARSE`). The indexes keep their names.
 */
export const SPARSE = {
  operation: { column: 'operation', common: 'status' },
  status: { column: 'status', common: 200 },
  provider_code: { column: 'provider_code', common: 2 },
} as const;

/** A sparse index's condition, on `column` (the index's own, or one written for a query: `e.status`, `+status`). */
export function sparseCondition(s: { column: string; common: string | number }, column: string = s.column): string {
  return `${column} IS NOT ${typeof s.common === 'string' ? `'${s.common}'` : s.common}`;
}

export const migration0024: Migration = {
  version: 24,
  name: 'sparse-exchange-indexes',
  up(db, progress) {
    const indexes = [
      ['exchanges_operation_time', SPARSE.operation],
      ['exchanges_status_time', SPARSE.status],
      ['exchanges_code_time', SPARSE.provider_code],
    ] as const;
    indexes.forEach(([name, sparse], i) => {
      progress(i, indexes.length);
      db.exec(`DROP INDEX IF EXISTS ${name}; CREATE INDEX ${name} ON exchanges (${sparse.column}, started_at) WHERE ${sparseCondition(sparse)};`);
    });
    progress(indexes.length, indexes.length);
  },
};
