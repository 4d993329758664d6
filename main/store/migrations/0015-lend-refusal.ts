import type { Migration } from './types';

/**
 * When lending stopped on a profile because the provider refused a send that started on a lent line
 * (epoch ms; NULL while lending is not stopped). Kept with the profile so that every process (the
 * app, the CLI) and the next start know it, until a person sets the profile to lend again.
 */
export const migration0015: Migration = {
  version: 15,
  name: 'lend-refusal',
  up(db) {
    db.exec(`ALTER TABLE profiles ADD COLUMN lend_refused_at INTEGER;`);
  },
};
