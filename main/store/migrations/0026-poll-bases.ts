import { rebasePolls } from '../exchange-pack';
import type { Migration } from './types';

/**
 * A call's status polls are packed against the first of them (issue 27: bytes a call). A call keeps
 * its send and about nine polls, each nearly the one before it; packed on their own (migration 0020)
 * a poll took about 90 bytes. Packed with the message's *base* (the text of its first poll, kept once
 * in this table, packed) as well as the store's dictionary, it takes about 35 (exchange-pack.ts,
 * format 2). A base is kept while any exchange of its message is (the trigger below), and counts as a
 * row of its dictionary, so that retention never deletes a dictionary a base needs. The polls already
 * stored are packed again a batch of messages at a time (the fill below: resumable); their text,
 * and so the inspector, HAR, cURL and search, is the same bytes.
 */
export const migration0026: Migration = {
  version: 26,
  name: 'poll-bases',
  up(db) {
    db.exec(`
      CREATE TABLE exchange_bases (
        message_id INTEGER PRIMARY KEY,
        dict_id    INTEGER NOT NULL,
        packed     BLOB    NOT NULL
      );
      CREATE TRIGGER exchange_bases_dict_after_insert AFTER INSERT ON exchange_bases BEGIN
        UPDATE exchange_dicts SET rows = rows + 1 WHERE id = new.dict_id;
      END;
      CREATE TRIGGER exchange_bases_dict_after_delete AFTER DELETE ON exchange_bases BEGIN
        UPDATE exchange_dicts SET rows = rows - 1 WHERE id = old.dict_id;
      END;
      CREATE TRIGGER exchange_bases_after_exchange_delete AFTER DELETE ON exchanges WHEN old.message_id IS NOT NULL BEGIN
        DELETE FROM exchange_bases WHERE message_id = old.message_id
          AND NOT EXISTS (SELECT 1 FROM exchanges WHERE message_id = old.message_id);
      END;
    `);
    // A store upgraded from before migration 0021 keeps its index of each exchange until the
    // indexing job ends. Its triggers and its content (a view) read each row's text: a poll's with
    // its base, passed from the row's message (the delete's before the row, and its base, go).
    const oldIndex = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'exchanges_fts'").get() !== undefined;
    if (oldIndex) {
      const text = (row: string) =>
        `callout_exchange_text(${row}.packed, ${row}.url, ${row}.request_headers, ${row}.request_body, ${row}.response_headers, ${row}.response_body,
          (SELECT b.packed FROM exchange_bases b WHERE b.message_id = ${row}.message_id))`;
      db.exec(`
        DROP VIEW exchanges_search_text;
        CREATE VIEW exchanges_search_text (id, text) AS SELECT id, ${text('exchanges')} FROM exchanges;
        DROP TRIGGER exchanges_fts_after_insert;
        CREATE TRIGGER exchanges_fts_after_insert AFTER INSERT ON exchanges BEGIN
          INSERT INTO exchanges_fts (rowid, text) VALUES (new.id, ${text('new')});
        END;
        DROP TRIGGER exchanges_fts_after_delete;
        CREATE TRIGGER exchanges_fts_after_delete BEFORE DELETE ON exchanges BEGIN
          INSERT INTO exchanges_fts (exchanges_fts, rowid, text) VALUES ('delete', old.id, ${text('old')});
        END;
      `);
    }
  },
  fills: [
    {
      table: 'messages',
      batch(db, from, to) {
        const rows = db
          .prepare(
            `SELECT id, message_id, packed FROM exchanges
             WHERE message_id BETWEEN ? AND ? AND operation = 'status' AND packed IS NOT NULL ORDER BY message_id, started_at, id`,
          )
          .all(from, to) as Array<{ id: number; message_id: number; packed: Buffer }>;
        const update = db.prepare('UPDATE exchanges SET packed = ? WHERE id = ?');
        for (let i = 0; i < rows.length;) {
          let j = i;
          while (j < rows.length && rows[j]!.message_id === rows[i]!.message_id) j++;
          for (const [id, packed] of rebasePolls(db, rows[i]!.message_id, rows.slice(i, j))) update.run(packed, id);
          i = j;
        }
      },
    },
  ],
};
