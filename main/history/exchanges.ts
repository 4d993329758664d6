import type { ExchangeRecord } from '../../common/records';
import { fail } from '../errors';
import type { ArchiveShelf, HistoryRepository } from '../store';

/**
 * The exchanges several features read by id (history, teaching a dialect, the workbench): from the
 * live store, or read-only from an archive file (`archive`, its name; the record says where it came
 * from). A missing one is not-found.
 */
export type ExchangeLookup = (id: number, archive?: string) => ExchangeRecord;

export function exchangeLookup(history: Pick<HistoryRepository, 'exchange'>, archives: Pick<ArchiveShelf, 'read'>): ExchangeLookup {
  return (id, archive) => {
    const e = archive === undefined ? history.exchange(id) : archives.read(archive, (a) => a.exchanges.get(id));
    if (!e) throw fail('not-found', { kind: 'exchange', id });
    return archive === undefined ? e : { ...e, archive };
  };
}
