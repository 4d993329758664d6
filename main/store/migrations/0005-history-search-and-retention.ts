import type { Migration } from './types';

/** The search index's triggers: it follows each message's number and text (made again by migration 0030). */
export const MESSAGES_FTS_TRIGGERS = `
  CREATE TRIGGER messages_fts_after_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, mobile, content) VALUES (new.id, new.mobile, new.content);
  END;
  CREATE TRIGGER messages_fts_after_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, mobile, content) VALUES ('delete', old.id, old.mobile, old.content);
  END;
  CREATE TRIGGER messages_fts_after_update AFTER UPDATE OF id, mobile, content ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, mobile, content) VALUES ('delete', old.id, old.mobile, old.content);
    INSERT INTO messages_fts (rowid, mobile, content) VALUES (new.id, new.mobile, new.content);
  END;
`;

/**
 * History at a million rows (issue 5). Each structure below serves a query of
 * history-repository.ts or retention.ts; their plans are asserted in test/unit/store/history-plans.test.ts.
 *
 * - `messages_fts`: full-text index over each message's number and text. Chinese has no spaces,
 *   so it uses FTS5's `trigram` tokenizer: any substring of 3 or more characters is found through
 *   the index, digits of a number included. External content (nothing stored twice), kept in sync
 *   by triggers, backfilled from the existing rows by this migration's fills (a batch of ids per
 *   transaction, resumable: fill.ts; until issue 27 one 'rebuild' in the migration's transaction).
 * - Indexes for the history pages. Every page is "filter, newest (or oldest) first by
 *   (created_at, id)", so each index is (filter column, created_at) + the implicit rowid and gives
 *   the keyset order without a sort: state, outcome, profile; (template_id, created_at) exists
 *   since 0004, (created_at) since 0001.
 * - `message_stats`: counts and billed units per UTC hour, profile, outcome and state, kept by
 *   triggers. The overview chart sums a year from it in milliseconds instead of reading every
 *   message (a covering-index scan measured ~0.5 s per year at the bench's density).
 * - `exchanges.size_bytes`: bytes of headers and bodies, set by a trigger on insert (exchanges are
 *   never updated) and indexed as (started_at, id, size_bytes): retention by size sums and walks
 *   that index alone. (A generated column cannot be read from an index, so this is a plain one.)
 *   The same index orders the inspector's exchange list; (message_id, started_at) and
 *   (operation, started_at) serve its filters.
 * - `settings`: a small key/value table (retention settings live there).
 */
export const migration0005: Migration = {
  version: 5,
  name: 'history-search-and-retention',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE messages_fts USING fts5(
        mobile, content,
        content = 'messages', content_rowid = 'id',
        tokenize = 'trigram'
      );

      ${MESSAGES_FTS_TRIGGERS}

      CREATE INDEX messages_state_time ON messages (state, created_at);
      CREATE INDEX messages_outcome_time ON messages (outcome, created_at);
      CREATE INDEX messages_profile_time ON messages (profile, created_at);

      CREATE TABLE message_stats (
        hour    INTEGER NOT NULL, -- created_at / 3600000: whole UTC hours since the epoch
        profile TEXT    NOT NULL,
        outcome TEXT    NOT NULL,
        state   TEXT    NOT NULL,
        n       INTEGER NOT NULL,
        units   INTEGER NOT NULL, -- sum of billed_units
        PRIMARY KEY (hour, profile, outcome, state)
      ) WITHOUT ROWID;
      INSERT INTO message_stats (hour, profile, outcome, state, n, units)
        SELECT created_at / 3600000, profile, outcome, state, count(*), coalesce(sum(billed_units), 0)
        FROM messages GROUP BY 1, 2, 3, 4;

      CREATE TRIGGER message_stats_after_insert AFTER INSERT ON messages BEGIN
        INSERT INTO message_stats (hour, profile, outcome, state, n, units)
          VALUES (new.created_at / 3600000, new.profile, new.outcome, new.state, 1, coalesce(new.billed_units, 0))
          ON CONFLICT DO UPDATE SET n = n + 1, units = units + excluded.units;
      END;
      CREATE TRIGGER message_stats_after_update AFTER UPDATE OF created_at, profile, outcome, state, billed_units ON messages BEGIN
        UPDATE message_stats SET n = n - 1, units = units - coalesce(old.billed_units, 0)
          WHERE hour = old.created_at / 3600000 AND profile = old.profile AND outcome = old.outcome AND state = old.state;
        DELETE FROM message_stats
          WHERE hour = old.created_at / 3600000 AND profile = old.profile AND outcome = old.outcome AND state = old.state AND n <= 0;
        INSERT INTO message_stats (hour, profile, outcome, state, n, units)
          VALUES (new.created_at / 3600000, new.profile, new.outcome, new.state, 1, coalesce(new.billed_units, 0))
          ON CONFLICT DO UPDATE SET n = n + 1, units = units + excluded.units;
      END;
      CREATE TRIGGER message_stats_after_delete AFTER DELETE ON messages BEGIN
        UPDATE message_stats SET n = n - 1, units = units - coalesce(old.billed_units, 0)
          WHERE hour = old.created_at / 3600000 AND profile = old.profile AND outcome = old.outcome AND state = old.state;
        DELETE FROM message_stats
          WHERE hour = old.created_at / 3600000 AND profile = old.profile AND outcome = old.outcome AND state = old.state AND n <= 0;
      END;

      ALTER TABLE exchanges ADD COLUMN size_bytes INTEGER;
      CREATE TRIGGER exchanges_size_after_insert AFTER INSERT ON exchanges BEGIN
        UPDATE exchanges SET size_bytes =
          octet_length(new.request_headers) + coalesce(octet_length(new.request_body), 0)
          + coalesce(octet_length(new.response_headers), 0) + coalesce(octet_length(new.response_body), 0)
        WHERE id = new.id;
      END;
      DROP INDEX exchanges_message;
      DROP INDEX exchanges_started;
      CREATE INDEX exchanges_message_time ON exchanges (message_id, started_at);
      CREATE INDEX exchanges_operation_time ON exchanges (operation, started_at);
      CREATE INDEX exchanges_time_size ON exchanges (started_at, id, size_bytes);

      CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) WITHOUT ROWID;
    `);
  },
  // The rows stored before: their search entries and sizes, a batch at a time (resumable).
  fills: [
    {
      table: 'messages',
      batch: (db, from, to) =>
        db.prepare('INSERT INTO messages_fts (rowid, mobile, content) SELECT id, mobile, content FROM messages WHERE id >= ? AND id <= ?').run(from, to),
    },
    {
      table: 'exchanges',
      batch: (db, from, to) =>
        db
          .prepare(
            `UPDATE exchanges SET size_bytes =
               octet_length(request_headers) + coalesce(octet_length(request_body), 0)
               + coalesce(octet_length(response_headers), 0) + coalesce(octet_length(response_body), 0)
             WHERE id >= ? AND id <= ?`,
          )
          .run(from, to),
    },
  ],
};
