import type { Migration } from './types';

/**
 * Dial claims: the per-number limits (main/dial/limits.ts) are checked and the call's place in them
 * taken in one write transaction, so that two dialers (quick dial and paging, or two processes on one
 * data directory) cannot both take the last place while each waits for a line. A claim counts as a
 * call at its time until the send has its message row and lets it go; a claim left by a process that
 * died counts until it expires (it may have placed the call).
 */
export const migration0019: Migration = {
  version: 19,
  name: 'dial-claims',
  up(db) {
    db.exec(`
      CREATE TABLE dial_claims (
        id INTEGER PRIMARY KEY,
        mobile TEXT NOT NULL,
        at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX dial_claims_mobile ON dial_claims (mobile, at);
    `);
  },
};
