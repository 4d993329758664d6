import type { Migration } from './types';

/**
 * The words of a call, indexed once (issue 27). Until now the trigram index held every exchange's
 * text on its own (migration 0012): a call's send and its status polls, nearly the same bytes ten
 * times, took half the store (3.5 KB of 7 a call). Now one entry of the index (`exchange_words`)
 * holds all the text of a message's exchanges together: its rowid is the message's id, or minus
 * the exchange's id for an exchange no message owns (a balance query, a capture). The index is of
 * trigrams with `detail=none` (it says which entries hold all of a word's trigrams, not where): a
 * trigram a call's exchanges repeat is kept once. It is contentless (`content=''`): it keeps no
 * copy of the text, which is read from the exchanges; `contentless_delete=1` lets an entry be
 * replaced by its rowid alone.
 *
 * Kept in step by triggers: an exchange stored replaces its message's entry with one made from all
 * of that message's exchanges (a call gets one every few seconds at most), while the message has at
 * most CALL_ENTRY_MAX of them (about three minutes of a call asked about every 8 s); past that, each
 * further one gets an entry of its own (rowid minus its id), so storing one never reads more than
 * that many. An
 * exchange deleted takes its own entry, and its message's once none of the message's exchanges is
 * left (until then what it held stays in the entry: search reads each candidate's own text, so an
 * entry that holds more than its exchanges finds nothing more). An exchange whose message changes
 * (none does today: messages are never deleted, whose foreign key would set it to null) moves to
 * the entry of its new owner; both entries are remade from all their exchanges, without that bound.
 *
 * Search finds the entries holding every trigram of the words, then checks the text of their
 * exchanges (history-repository.ts). The old index stays, and is kept in step, until the indexing
 * job has made the entries of the exchanges stored before (exchange-packing.ts, which keeps its
 * place in `settings` under 'exchanges.indexing'); search uses it until then, and the job's last
 * batch drops it. A store without exchanges drops it here.
 */
/** The most exchanges a message's entry is remade from when one is stored; a message's later ones get an entry each. */
export const CALL_ENTRY_MAX = 24;

export const migration0021: Migration = {
  version: 21,
  name: 'call-words',
  up(db) {
    db.exec(`
      CREATE VIRTUAL TABLE exchange_words USING fts5(
        text,
        content = '', contentless_delete = 1,
        tokenize = 'trigram', detail = none
      );
      CREATE TRIGGER exchange_words_after_insert_call AFTER INSERT ON exchanges
        WHEN new.message_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM exchanges WHERE message_id = new.message_id LIMIT 1 OFFSET ${CALL_ENTRY_MAX}) BEGIN
        DELETE FROM exchange_words WHERE rowid = new.message_id;
        INSERT INTO exchange_words (rowid, text)
          SELECT new.message_id, group_concat(callout_exchange_text(packed, url, request_headers, request_body, response_headers, response_body), char(10))
          FROM exchanges WHERE message_id = new.message_id;
      END;
      CREATE TRIGGER exchange_words_after_insert_alone AFTER INSERT ON exchanges
        WHEN new.message_id IS NULL OR EXISTS (SELECT 1 FROM exchanges WHERE message_id = new.message_id LIMIT 1 OFFSET ${CALL_ENTRY_MAX}) BEGIN
        INSERT INTO exchange_words (rowid, text) VALUES (-new.id,
          callout_exchange_text(new.packed, new.url, new.request_headers, new.request_body, new.response_headers, new.response_body));
      END;
      CREATE TRIGGER exchange_words_after_delete AFTER DELETE ON exchanges BEGIN
        DELETE FROM exchange_words WHERE rowid = -old.id;
        DELETE FROM exchange_words WHERE rowid = old.message_id AND NOT EXISTS (SELECT 1 FROM exchanges WHERE message_id = old.message_id);
      END;
      CREATE TRIGGER exchange_words_after_message_change AFTER UPDATE OF message_id ON exchanges
        WHEN old.message_id IS NOT new.message_id BEGIN
        DELETE FROM exchange_words WHERE rowid IN (old.message_id, new.message_id, -old.id);
        INSERT INTO exchange_words (rowid, text)
          SELECT message_id, group_concat(callout_exchange_text(packed, url, request_headers, request_body, response_headers, response_body), char(10))
          FROM exchanges WHERE message_id IN (old.message_id, new.message_id) GROUP BY message_id;
        INSERT INTO exchange_words (rowid, text)
          SELECT -new.id, callout_exchange_text(new.packed, new.url, new.request_headers, new.request_body, new.response_headers, new.response_body)
          WHERE new.message_id IS NULL;
      END;
    `);
    const stored = db.prepare('SELECT count(*) AS n FROM exchanges').get() as { n: number };
    if (stored.n === 0) {
      db.exec(DROP_OLD_INDEX);
      return;
    }
    db.prepare("INSERT INTO settings (key, value) VALUES ('exchanges.indexing', ?)").run(
      JSON.stringify({ message: 0, alone: [Number.MIN_SAFE_INTEGER, 0], total: stored.n, done: 0 }),
    );
  },
};

/** The index of each exchange on its own (migrations 0012 and 0020), its view and its triggers. */
export const DROP_OLD_INDEX = `
  DROP TRIGGER exchanges_fts_after_insert;
  DROP TRIGGER exchanges_fts_after_delete;
  DROP TABLE exchanges_fts;
  DROP VIEW exchanges_search_text;
`;
