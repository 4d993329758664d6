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
