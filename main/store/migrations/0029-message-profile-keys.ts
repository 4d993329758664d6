import type { Migration } from './types';

/**
 * Messages name their profile by its short key too (issue 27: bytes a call), as exchanges do since
 * migration 0025: ' #' and the profile's key in `profile_keys`, read back as the id
 * (main/store/profile-keys.ts). The id (a UUID) took 36 bytes in the row and again in the profile
 * index, about 64 bytes a call. The rows already stored are given their keys a batch at a time (the
 * fill below: resumable); the hourly counts follow them (`message_stats_after_update`, migration
 * 0005, moves a row's count from its old form of the profile to its new one). Until the fill is
 * done the reads ask for both forms (storedForms).
 */
export const migration0029: Migration = {
  version: 29,
  name: 'message-profile-keys',
  up() {
    // `profile_keys` is there since migration 0025; new rows are given keys from this version on.
  },
  fills: [
    {
      table: 'messages',
      batch(db, from, to) {
        db.prepare(
          `INSERT INTO profile_keys (profile) SELECT DISTINCT profile FROM messages
           WHERE id BETWEEN ? AND ? AND substr(profile, 1, 2) <> ' #' ORDER BY profile
           ON CONFLICT (profile) DO NOTHING`,
        ).run(from, to);
        db.prepare(
          `UPDATE messages SET profile = ' #' || (SELECT key FROM profile_keys k WHERE k.profile = messages.profile)
           WHERE id BETWEEN ? AND ? AND substr(profile, 1, 2) <> ' #'`,
        ).run(from, to);
      },
    },
  ],
};
