import type { Database } from 'better-sqlite3';
import { withBases } from './exchange-pack';

// The entries of the word index (migration 0021), made a batch at a time for exchanges stored
// without them: those stored before the migration (the indexing job, exchange-packing.ts), and
// those an archive copies (archive.ts, whose triggers are off while it copies), and the upgrade that
// makes the index again (migration 0027). An entry holds the words (words.ts: the uncommon
// trigrams) of all of a message's exchanges (its rowid is the message's id), or of one exchange no
// message owns (its rowid is minus the exchange's id). Making an entry replaces the one there:
// making it twice gives the same index.

/** An exchange's text (SQL over a row of `exchanges`). */
export const EXCHANGE_TEXT = 'callout_exchange_text(packed, url, request_headers, request_body, response_headers, response_body)';

/** What the index holds of a row of `exchanges` (migration 0027: its uncommon trigrams, words.ts). */
export const EXCHANGE_WORDS = `callout_words(${EXCHANGE_TEXT})`;

/** What the index holds of a message's exchanges (SQL over a group of rows of `exchanges` by message). */
export const CALL_WORDS = `callout_words(group_concat(${EXCHANGE_TEXT}, char(10)))`;

/**
 * CALL_WORDS over rows of `exchanges` aliased `e`, each read with its message's base passed to the
 * text's function in the same statement (migration 0026): for rows of any messages, whose bases
 * were not given first (`withBases` gives those of a range of message ids).
 */
export const CALL_WORDS_BASED = `callout_words(group_concat(callout_exchange_text(e.packed, e.url, e.request_headers, e.request_body, e.response_headers, e.response_body,
  (SELECT b.packed FROM exchange_bases b WHERE b.message_id = e.message_id)), char(10)))`;

/**
 * What `schema`'s word index holds: tokens of a call's uncommon trigrams (migration 0027), or, in a
 * store at an older schema (0021–0026), its text for SQLite's trigram tokenizer.
 */
export function wordsForm(db: Database, schema = 'main'): 'tokens' | 'text' {
  // The latest form stays once the live store has it (remembered for the connection); an older one
  // may be upgraded, and the archive's copier attaches one file after another as 'arch'.
  if (schema === 'main' && tokenStores.has(db)) return 'tokens';
  const sql = db.prepare(`SELECT sql FROM ${schema}.sqlite_master WHERE type = 'table' AND name = 'exchange_words'`).pluck().get() as string | undefined;
  if (sql === undefined || !/tokenize\s*=\s*'ascii'/.test(sql)) return 'text';
  if (schema === 'main') tokenStores.add(db);
  return 'tokens';
}

const tokenStores = new WeakSet<Database>();

/** The words of the table it names ('main' or an attached one). */
function tables(schema: string): { exchanges: string; words: string } {
  return { exchanges: `${schema}.exchanges`, words: `${schema}.exchange_words` };
}

/**
 * Makes the entries of the messages after `after` (by id) until about `limit` exchanges are in
 * them; the last message done and how many exchanges, or null when no message is left.
 */
export function indexMessages(db: Database, schema: string, after: number, limit: number): { last: number; exchanges: number } | null {
  const t = tables(schema);
  let last = after;
  let exchanges = 0;
  for (const r of db
    .prepare(`SELECT message_id AS id, count(*) AS n FROM ${t.exchanges} WHERE message_id > ? GROUP BY message_id ORDER BY message_id LIMIT ?`)
    .iterate(after, limit) as Iterable<{ id: number; n: number }>) {
    last = r.id;
    exchanges += r.n;
    if (exchanges >= limit) break;
  }
  if (last === after) return null;
  indexMessageRange(db, schema, after + 1, last);
  return { last, exchanges };
}

/** Makes the entries of the messages `first` ≤ id ≤ `last` (64-bit ids may be given as they are). */
function indexMessageRange(db: Database, schema: string, first: number | bigint, last: number | bigint): void {
  const t = tables(schema);
  const words = wordsForm(db, schema) === 'tokens' ? CALL_WORDS : `group_concat(${EXCHANGE_TEXT}, char(10))`;
  // One statement each (the index writes what it holds at the end of every statement that changes it).
  db.prepare(`DELETE FROM ${t.words} WHERE rowid BETWEEN ? AND ?`).run(first, last);
  // The messages' polls are packed against their bases (migration 0026), given to the text's SQL function first.
  withBases(db, schema, first, last, () =>
    db
      .prepare(`INSERT INTO ${t.words} (rowid, text) SELECT message_id, ${words} FROM ${t.exchanges} WHERE message_id BETWEEN ? AND ? GROUP BY message_id`)
      .run(first, last),
  );
}

/**
 * Makes the entries of up to `limit` exchanges no message owns, with ids above `afterId`, in id
 * order (the message index, migration 0028, holds them as one range of ids: a walk in time order
 * sorted them all at every batch); the last id done and how many, or null when none is left.
 */
export function indexAlone(db: Database, schema: string, afterId: number, limit: number): { last: number; exchanges: number } | null {
  const t = tables(schema);
  const rows = db.prepare(`SELECT id FROM ${t.exchanges} WHERE message_id IS NULL AND id > ? ORDER BY id LIMIT ?`).all(afterId, limit) as Array<{ id: number }>;
  if (!rows.length) return null;
  const ids = JSON.stringify(rows.map((r) => r.id));
  db.prepare(`DELETE FROM ${t.words} WHERE rowid IN (SELECT -value FROM json_each(?))`).run(ids);
  const words = wordsForm(db, schema) === 'tokens' ? EXCHANGE_WORDS : EXCHANGE_TEXT;
  db.prepare(`INSERT INTO ${t.words} (rowid, text) SELECT -id, ${words} FROM ${t.exchanges} WHERE id IN (SELECT value FROM json_each(?))`).run(ids);
  return { last: rows.at(-1)!.id, exchanges: rows.length };
}
