import type { Migration } from './types';

/**
 * Exchanges kept small (issue 27): an exchange's URL, headers, bodies, status text, error message,
 * timings and capture record are packed together in `exchanges.packed`, deflated with a dictionary
 * made of the store's own exchanges (`exchange_dicts`; the codec is main/store/exchange-pack.ts).
 * New exchanges are stored packed. Those already stored are packed afterwards, a batch at a time,
 * by the packing job (exchange-packing.ts), which keeps its place in `settings` under
 * 'exchanges.packing' so that it goes on where it stopped when the app was closed; until then a row
 * reads back as it was stored. This migration itself rewrites no row.
 *
 * The search index, its view and its triggers read an exchange's text through the SQL function
 * `callout_exchange_text` (packed or not), which openDatabase registers on every connection:
 * the text, and so the index, is the same as before, and is not rebuilt. The size trigger fills
 * `size_bytes` only when the insert did not (a packed row's columns are empty: its writer gives it).
 */
export const migration0020: Migration = {
  version: 20,
  name: 'packed-exchanges',
  up(db) {
    db.exec(`
      ALTER TABLE exchanges ADD COLUMN packed BLOB;
      ALTER TABLE exchanges ADD COLUMN dict_id INTEGER;

      CREATE TABLE exchange_dicts (
        id             INTEGER PRIMARY KEY AUTOINCREMENT,
        after_exchange INTEGER NOT NULL,
        kind           TEXT    NOT NULL CHECK (kind IN ('seed', 'trained')),
        crc            INTEGER NOT NULL,
        rows           INTEGER NOT NULL DEFAULT 0,
        data           BLOB    NOT NULL
      );
      CREATE TRIGGER exchanges_dict_after_insert AFTER INSERT ON exchanges WHEN new.dict_id IS NOT NULL BEGIN
        UPDATE exchange_dicts SET rows = rows + 1 WHERE id = new.dict_id;
      END;
      CREATE TRIGGER exchanges_dict_after_update AFTER UPDATE OF dict_id ON exchanges BEGIN
        UPDATE exchange_dicts SET rows = rows - 1 WHERE id = old.dict_id;
        UPDATE exchange_dicts SET rows = rows + 1 WHERE id = new.dict_id;
      END;
      CREATE TRIGGER exchanges_dict_after_delete AFTER DELETE ON exchanges WHEN old.dict_id IS NOT NULL BEGIN
        UPDATE exchange_dicts SET rows = rows - 1 WHERE id = old.dict_id;
      END;

      DROP VIEW exchanges_search_text;
      CREATE VIEW exchanges_search_text (id, text) AS
        SELECT id, callout_exchange_text(packed, url, request_headers, request_body, response_headers, response_body) FROM exchanges;

      DROP TRIGGER exchanges_fts_after_insert;
      CREATE TRIGGER exchanges_fts_after_insert AFTER INSERT ON exchanges BEGIN
        INSERT INTO exchanges_fts (rowid, text) VALUES (new.id,
          callout_exchange_text(new.packed, new.url, new.request_headers, new.request_body, new.response_headers, new.response_body));
      END;
      DROP TRIGGER exchanges_fts_after_delete;
      CREATE TRIGGER exchanges_fts_after_delete AFTER DELETE ON exchanges BEGIN
        INSERT INTO exchanges_fts (exchanges_fts, rowid, text) VALUES ('delete', old.id,
          callout_exchange_text(old.packed, old.url, old.request_headers, old.request_body, old.response_headers, old.response_body));
      END;

      DROP TRIGGER exchanges_size_after_insert;
      CREATE TRIGGER exchanges_size_after_insert AFTER INSERT ON exchanges WHEN new.size_bytes IS NULL BEGIN
        UPDATE exchanges SET size_bytes =
          octet_length(new.request_headers) + coalesce(octet_length(new.request_body), 0)
          + coalesce(octet_length(new.response_headers), 0) + coalesce(octet_length(new.response_body), 0)
        WHERE id = new.id;
      END;
    `);
    const pending = db.prepare('SELECT count(*) AS n, coalesce(max(id), 0) AS through FROM exchanges').get() as { n: number; through: number };
    if (pending.n > 0) {
      db.prepare("INSERT INTO settings (key, value) VALUES ('exchanges.packing', ?)").run(
        JSON.stringify({ after: 0, through: pending.through, total: pending.n, done: 0 }),
      );
    }
  },
};
