import { bodyReplyCode } from '../../voice/replies';
import type { Migration } from './types';

/**
 * Finding exchanges (issue 15): by HTTP status, provider code, profile, and words anywhere in the
 * URL, headers and bodies. Each structure serves a query of history-repository.ts `listExchanges`.
 *
 * - `exchanges.provider_code`: the result code in the reply, read by the one function Callout reads
 *   replies with (voice/replies.ts), set by ExchangeRepository on insert and backfilled by this migration's fill (with the search
 *   index's entries: a batch of ids per transaction, resumable, fill.ts; until issue 27 one UPDATE
 *   and one 'rebuild' in the migration's transaction).
 * - (status, started_at), (provider_code, started_at), (profile, started_at): one index walk per
 *   value in time order, as the message filters do (0005).
 * - `exchanges_fts`: a trigram index over one text per exchange (URL, both halves' headers and
 *   bodies, one per line) read through the view `exchanges_search_text`, so nothing is stored twice.
 *   `detail=none` keeps it small (about 170 bytes a row, a fifth of `detail=full`): it answers
 *   LIKE '%words%' (any substring of 3+ characters), which is all the search needs; phrase MATCH
 *   queries are not used. Kept in step by triggers (exchanges are inserted and deleted, never
 *   updated, apart from size_bytes).
 */
export const migration0012: Migration = {
  version: 12,
  name: 'exchange-search',
  up(db) {
    db.exec(`
      ALTER TABLE exchanges ADD COLUMN provider_code INTEGER;

      CREATE INDEX exchanges_status_time ON exchanges (status, started_at);
      CREATE INDEX exchanges_code_time ON exchanges (provider_code, started_at);
      CREATE INDEX exchanges_profile_time ON exchanges (profile, started_at);

      CREATE VIEW exchanges_search_text (id, text) AS
        SELECT id, url || char(10) || request_headers || char(10) || coalesce(request_body, '') || char(10)
                   || coalesce(response_headers, '') || char(10) || coalesce(response_body, '')
        FROM exchanges;

      CREATE VIRTUAL TABLE exchanges_fts USING fts5(
        text,
        content = 'exchanges_search_text', content_rowid = 'id',
        tokenize = 'trigram', detail = none
      );

      CREATE TRIGGER exchanges_fts_after_insert AFTER INSERT ON exchanges BEGIN
        INSERT INTO exchanges_fts (rowid, text) VALUES (new.id,
          new.url || char(10) || new.request_headers || char(10) || coalesce(new.request_body, '') || char(10)
          || coalesce(new.response_headers, '') || char(10) || coalesce(new.response_body, ''));
      END;
      CREATE TRIGGER exchanges_fts_after_delete AFTER DELETE ON exchanges BEGIN
        INSERT INTO exchanges_fts (exchanges_fts, rowid, text) VALUES ('delete', old.id,
          old.url || char(10) || old.request_headers || char(10) || coalesce(old.request_body, '') || char(10)
          || coalesce(old.response_headers, '') || char(10) || coalesce(old.response_body, ''));
      END;
    `);
  },
  // The exchanges stored before: their codes and search entries, a batch at a time (resumable).
  fills: [
    {
      table: 'exchanges',
      batch(db, from, to) {
        db.function('callout_reply_code', { deterministic: true }, (body: unknown) => bodyReplyCode(typeof body === 'string' ? body : null));
        db.prepare('UPDATE exchanges SET provider_code = callout_reply_code(response_body) WHERE response_body IS NOT NULL AND id >= ? AND id <= ?').run(
          from,
          to,
        );
        db.prepare('INSERT INTO exchanges_fts (rowid, text) SELECT id, text FROM exchanges_search_text WHERE id >= ? AND id <= ?').run(from, to);
      },
    },
  ],
};
