import type { Migration } from './types';

/**
 * Two of the exchanges' indexes keep less of each row (issue 27: bytes a call). Every exchange
 * stands in both, ten a call:
 *
 * - The time index (`exchanges_time_size`) held (started_at, id, size_bytes), and SQLite adds the
 *   row's id to every index entry: the id was kept twice. It now holds (started_at, size_bytes), and
 *   the id it adds. Retention still sums and walks sizes from the index alone, and a walk in time
 *   order still reads it in order: SQLite sorts only the rows that share a millisecond.
 * - A message's exchanges were found by (message_id, started_at). A call keeps ten or so, so they
 *   are found by (message_id) and put in time order after: a sort of ten rows, where the time took 6
 *   bytes an entry. Named `exchanges_message` now.
 *
 * About 105 bytes a call of 2,935 at 50,000 real-shaped calls. Each index is made again in one
 * statement (the upgrade says which of the two it is on); the freed pages go back to the file
 * system at the next compaction, or at once in a store that keeps pointer maps (retention's shrink).
 */
export const migration0028: Migration = {
  version: 28,
  name: 'lean-exchange-indexes',
  up(db, progress) {
    progress(0, 2);
    db.exec('DROP INDEX exchanges_time_size; CREATE INDEX exchanges_time_size ON exchanges (started_at, size_bytes);');
    progress(1, 2);
    db.exec('DROP INDEX exchanges_message_time; CREATE INDEX exchanges_message ON exchanges (message_id);');
    progress(2, 2);
  },
};
