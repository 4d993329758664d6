import type { Migration } from './types';

/**
 * Exchanges name their profile by a short key (issue 27: bytes a call). A profile's id is a UUID, 36
 * characters, and every exchange kept it twice, in its row and in the profile index (about 650 bytes
 * a call of ten exchanges). New exchanges keep ' #' and the profile's key in this table instead
 * (main/store/profile-keys.ts); rows stored before keep the id, and both read back as the id. A key
 * is never changed or given again.
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
};
