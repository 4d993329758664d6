import { MESSAGES_FTS_TRIGGERS } from './0005-history-search-and-retention';
import type { Migration } from './types';

/**
 * The messages' search index keeps which messages hold each trigram, not where (issue 27: bytes a
 * call). Migration 0005's index (FTS5's trigram tokenizer) kept every trigram's column and place in
 * each message, and each message's length in a table of its own: about 174 bytes a call of 2,745 at
 * 50,000 real-shaped calls, for a number and a text of some 35 characters. Search uses neither:
 * it asks for a word's trigrams (history-repository.ts), and checks each message found against the
 * word itself (as a search walked without the index always has), so a word's trigrams held
 * apart in one message do not make it a match. Now the index is `detail = none` (the messages that
 * hold each trigram) without the lengths (`columnsize = 0`): about 48 bytes a call. What a search
 * finds is the same; a word of three characters, one trigram, is still told by the index alone.
 *
 * The index is made again from the messages already stored, a batch of messages at a time (the fill
 * below: resumable); the old one goes in `up`, its freed pages back to the file system at the next
 * compaction. Search is not asked while a store is upgraded.
 */
export const migration0030: Migration = {
  version: 30,
  name: 'lean-message-search',
  up(db) {
    db.exec(`
      DROP TRIGGER messages_fts_after_insert;
      DROP TRIGGER messages_fts_after_delete;
      DROP TRIGGER messages_fts_after_update;
      DROP TABLE messages_fts;
      CREATE VIRTUAL TABLE messages_fts USING fts5(
        mobile, content,
        content = 'messages', content_rowid = 'id',
        tokenize = 'trigram', detail = none, columnsize = 0
      );
      ${MESSAGES_FTS_TRIGGERS}
    `);
  },
  fills: [
    {
      table: 'messages',
      batch(db, from, to) {
        db.prepare('INSERT INTO messages_fts (rowid, mobile, content) SELECT id, mobile, content FROM messages WHERE id BETWEEN ? AND ?').run(from, to);
      },
    },
  ],
};
