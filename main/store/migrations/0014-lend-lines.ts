import type { Migration } from './types';

/**
 * Whether a profile's lines are lent while its calls wait for the provider's redial (on by default:
 * the spec counts calls on its lines, and a call waiting for a redial holds none). Off for a
 * provider that counts such calls against the lines too.
 */
export const migration0014: Migration = {
  version: 14,
  name: 'lend-lines',
  up(db) {
    db.exec(`ALTER TABLE profiles ADD COLUMN lend_lines INTEGER NOT NULL DEFAULT 1 CHECK (lend_lines IN (0, 1));`);
  },
};
