import type { Migration } from './types';

/**
 * One exchange, several messages (issue 23): a post of receipts names many messages (a provider
 * that batches its pushes names hundreds), and is stored once. Its row keeps the first message it
 * names in `exchanges.message_id`; every other one is a row here. A message's exchanges are those
 * whose `message_id` is it, and those linked to it here (history-repository.ts `listExchanges`,
 * exchange-repository.ts `forMessage`), never both for the same pair.
 *
 * The key (message_id, started_at, exchange_id) walks a message's linked exchanges in time order,
 * as exchanges_message_time (0005) walks its own, so the inspector's list of a message merges the
 * two without a sort. `started_at` is the exchange's (exchanges are never updated apart from
 * size_bytes). The exchange_id index serves the cascade when retention deletes exchanges; a
 * message removed takes its links with it.
 */
export const migration0016: Migration = {
  version: 16,
  name: 'exchange-messages',
  up(db) {
    db.exec(`
      CREATE TABLE exchange_messages (
        message_id  INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        started_at  INTEGER NOT NULL,
        exchange_id INTEGER NOT NULL REFERENCES exchanges (id) ON DELETE CASCADE,
        PRIMARY KEY (message_id, started_at, exchange_id)
      ) WITHOUT ROWID;
      CREATE INDEX exchange_messages_exchange ON exchange_messages (exchange_id);
    `);
  },
};
