import type { Migration } from './types';

/**
 * Exchanges name their profile by a short key (issue 27: bytes a call). A profile's id is a UUID, 36
 * characters, and every exchange kept it twice, in its row and in the profile index (about 500 bytes
 * a call of ten exchanges). Exchanges keep ' #' and the profile's key in this table instead
 * (main/store/profile-keys.ts), read back as the id. The rows already stored are given their keys a
 * batch at a time (the fill below: resumable). A key once committed is never changed (one given in a
 * transaction that was rolled back may be given again).
 */
export const migration0025: Migration = {
  version: 25,
  name: 'profile-keys',
  up(db) {
    db.exec(`
      CREATE TABLE profile_keys (
        key     INTEGER PRIMARY KEY,
        profile TEXT    NOT NULL UNIQUE
      );
    `);
  },
  fills: [
    {
      table: 'exchanges',
      batch(db, from, to) {
        db.prepare(
          `INSERT INTO profile_keys (profile) SELECT DISTINCT profile FROM exchanges
           WHERE id BETWEEN ? AND ? AND profile IS NOT NULL AND substr(profile, 1, 2) <> ' #' ORDER BY profile
           ON CONFLICT (profile) DO NOTHING`,
        ).run(from, to);
        db.prepare(
          `UPDATE exchanges SET profile = ' #' || (SELECT key FROM profile_keys k WHERE k.profile = exchanges.profile)
           WHERE id BETWEEN ? AND ? AND profile IS NOT NULL AND substr(profile, 1, 2) <> ' #'`,
        ).run(from, to);
      },
    },
  ],
};
