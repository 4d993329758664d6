import { refreshDictionaries } from '../exchange-pack';
import { indexingPending, restartIndexing } from '../exchange-packing';
import { CALL_WORDS, CALL_WORDS_BASED, EXCHANGE_WORDS } from '../exchange-words';
import { CALL_ENTRY_MAX } from './0021-call-words';
import type { Migration } from './types';

/**
 * The word index leaves out what every call holds (issue 27: bytes a call). The index of a call's
 * trigrams (migration 0021) took about 515 bytes a call, a third of it for the 177 trigrams every
 * call holds: the provider's JSON keys, headers and URL. They tell no call from another, and each
 * still cost a byte or more a call. Now the index holds a call's other trigrams only (words.ts:
 * COMMON_GRAMS), each as one token of hexadecimal digits (the `ascii` tokenizer: SQLite's trigram
 * tokenizer cannot be told to leave some out). It takes about 340 bytes a call.
 *
 * Search asks the index for the words' uncommon trigrams, and checks each candidate's text as
 * before (history-repository.ts); words made only of common trigrams are in every call, and are
 * checked on the exchanges walked, as words too common for the index were. What a search finds is
 * the same.
 *
 * The index is made again from the exchanges already stored, a batch of exchanges at a time (the fill
 * below: resumable). A store upgraded from before migration 0021 that still keeps its index of each
 * exchange goes on using it until the indexing job is done, as before: the job, started again from
 * the first message, makes the entries the new way (exchange-words.ts), and the fill leaves them to it.
 */
export const migration0027: Migration = {
  version: 27,
  name: 'word-stops',
  up(db) {
    db.exec(`
      DROP TRIGGER exchange_words_after_insert_call;
      DROP TRIGGER exchange_words_after_insert_alone;
      DROP TRIGGER exchange_words_after_delete;
      DROP TRIGGER exchange_words_after_message_change;
      DROP TABLE exchange_words;
      CREATE VIRTUAL TABLE exchange_words USING fts5(
        text,
        content = '', contentless_delete = 1,
        tokenize = 'ascii', detail = none
      );
      CREATE TRIGGER exchange_words_after_insert_call AFTER INSERT ON exchanges
        WHEN new.message_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM exchanges WHERE message_id = new.message_id LIMIT 1 OFFSET ${CALL_ENTRY_MAX}) BEGIN
        DELETE FROM exchange_words WHERE rowid = new.message_id;
        INSERT INTO exchange_words (rowid, text) SELECT new.message_id, ${CALL_WORDS} FROM exchanges WHERE message_id = new.message_id;
      END;
      CREATE TRIGGER exchange_words_after_insert_alone AFTER INSERT ON exchanges
        WHEN new.message_id IS NULL OR EXISTS (SELECT 1 FROM exchanges WHERE message_id = new.message_id LIMIT 1 OFFSET ${CALL_ENTRY_MAX}) BEGIN
        INSERT INTO exchange_words (rowid, text) SELECT -new.id, ${EXCHANGE_WORDS} FROM exchanges WHERE id = new.id;
      END;
      CREATE TRIGGER exchange_words_after_delete AFTER DELETE ON exchanges BEGIN
        DELETE FROM exchange_words WHERE rowid = -old.id;
        DELETE FROM exchange_words WHERE rowid = old.message_id AND NOT EXISTS (SELECT 1 FROM exchanges WHERE message_id = old.message_id);
      END;
      CREATE TRIGGER exchange_words_after_message_change AFTER UPDATE OF message_id ON exchanges
        WHEN old.message_id IS NOT new.message_id BEGIN
        DELETE FROM exchange_words WHERE rowid IN (old.message_id, new.message_id, -old.id);
        INSERT INTO exchange_words (rowid, text)
          SELECT message_id, ${CALL_WORDS} FROM exchanges WHERE message_id IN (old.message_id, new.message_id) GROUP BY message_id;
        INSERT INTO exchange_words (rowid, text) SELECT -new.id, ${EXCHANGE_WORDS} FROM exchanges WHERE id = new.id AND new.message_id IS NULL;
      END;
    `);
    // The indexing job of a store upgraded from before 0021 had made some entries the old way: it
    // makes them all again, the new way (until it ends, search reads the old index of each exchange).
    restartIndexing(db);
  },
  fills: [
    {
      // By the exchanges' ids, not the messages': an archive keeps its exchanges without their
      // messages (archive.ts), and an archive at an older schema is read through a copy upgraded by
      // these migrations. A batch remakes the entry of each message one of its exchanges belongs to
      // (from all of that message's exchanges: a call across two batches is made twice, the same),
      // and makes one for each exchange no message owns.
      table: 'exchanges',
      batch(db, from, to) {
        // A store upgraded from before migration 0021 makes its entries in the indexing job (started again by `up`).
        if (indexingPending(db)) return;
        refreshDictionaries(db);
        const ofBatch = 'SELECT message_id FROM exchanges WHERE id BETWEEN ? AND ? AND message_id IS NOT NULL';
        // One statement each (the index writes what it holds at the end of every statement that changes it).
        db.prepare(`DELETE FROM exchange_words WHERE rowid IN (${ofBatch})`).run(from, to);
        db.prepare(
          `INSERT INTO exchange_words (rowid, text) SELECT e.message_id, ${CALL_WORDS_BASED} FROM exchanges e WHERE e.message_id IN (${ofBatch}) GROUP BY e.message_id`,
        ).run(from, to);
        // Those no message owns (a balance query, a capture); a long call's later exchanges are in its message's entry.
        db.prepare(`INSERT INTO exchange_words (rowid, text) SELECT -id, ${EXCHANGE_WORDS} FROM exchanges WHERE id BETWEEN ? AND ? AND message_id IS NULL`).run(
          from,
          to,
        );
      },
    },
  ],
};
