import type { Migration } from './types';

/**
 * Bulk sends keep the sheet they came from, and every send knows its batch row:
 * - `batches.columns`: the sheet's header (JSON array), and `batch_items.cells`: each row's own
 *   cells (JSON array), so that the results export gives back the customer's columns (name, order
 *   number...) next to what happened;
 * - `messages.batch_item_id`: the row a send was made for. A row can be sent more than once (a 402
 *   puts it back in the queue, a person queues an unknown one again): the batch counts its sends
 *   from the same rows History lists, so the two always agree.
 * Rows written before keep NULL: their export shows only the results, and their sends are not
 * linked (they were counted as before).
 */
export const migration0010: Migration = {
  version: 10,
  name: 'batch-sheets-and-sends',
  up(db) {
    db.exec(`
      ALTER TABLE batches ADD COLUMN columns TEXT;
      ALTER TABLE batch_items ADD COLUMN cells TEXT;
      ALTER TABLE messages ADD COLUMN batch_item_id INTEGER REFERENCES batch_items (id) ON DELETE SET NULL;
      CREATE INDEX messages_batch_item ON messages (batch_item_id) WHERE batch_item_id IS NOT NULL;
    `);
  },
};
