import type { Migration } from './types';

/**
 * Exchanges the capture proxy recorded (a backend's requests to the provider, passed through
 * unchanged): how each came (reverse or forward proxy, or an HTTPS tunnel), who answered, how much of
 * each body is kept, and its checks with their verdicts, as JSON (`capture`); the overall verdict in
 * a column of its own (`capture_verdict`), so that History can list captured exchanges, or only those
 * with a problem, from an index. Callout's own exchanges keep both NULL.
 */
export const migration0013: Migration = {
  version: 13,
  name: 'captured-exchanges',
  up(db) {
    db.exec(`
      ALTER TABLE exchanges ADD COLUMN capture TEXT;
      ALTER TABLE exchanges ADD COLUMN capture_verdict TEXT CHECK (capture_verdict IN ('pass', 'warn', 'fail', 'skip'));
      CREATE INDEX exchanges_captured ON exchanges (started_at) WHERE capture_verdict IS NOT NULL;
    `);
  },
};
