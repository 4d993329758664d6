import type { Migration } from './types';

/**
 * Reasons as codes with parameters instead of English sentences: why a send's outcome is unknown
 * or rejected, why following a call stopped, why a batch item was skipped, why a batch paused.
 * Each is a JSON `{"code": ..., "params": {...}}` rendered in the reader's language. The old text
 * columns stay for rows written before (they are no longer written as what a person reads). A
 * transport failure's words come from its kind: the timeout it ran into is kept as a number.
 */
export const migration0007: Migration = {
  version: 7,
  name: 'coded-reasons',
  up(db) {
    db.exec(`
      ALTER TABLE messages ADD COLUMN reason TEXT;
      ALTER TABLE message_events ADD COLUMN reason TEXT;
      ALTER TABLE batches ADD COLUMN status_reason TEXT;
      ALTER TABLE batch_items ADD COLUMN reason TEXT;
      ALTER TABLE exchanges ADD COLUMN error_ms INTEGER;
    `);
  },
};
