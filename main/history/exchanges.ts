import type { ExchangeRecord } from '../../common/records';
import { fail } from '../errors';
import type { HistoryRepository } from '../store';

/** The exchanges several features read by id (history, teaching a dialect, the workbench): a missing one is not-found. */
export type ExchangeLookup = (id: number) => ExchangeRecord;

export function exchangeLookup(history: Pick<HistoryRepository, 'exchange'>): ExchangeLookup {
  return (id) => {
    const e = history.exchange(id);
    if (!e) throw fail('not-found', { kind: 'exchange', id });
    return e;
  };
}
