import type { Migration } from './types';

/**
 * Keys bound to where they may go. `key_origin` is the address (its origin: scheme, host, port) the
 * profile's key was entered for: a key is handed out only to that origin, so a base URL changed by
 * any means never takes the key along. Profiles keyed before this version are bound to the address
 * they have now. `send_key_unencrypted` records a person's explicit consent to send the key over
 * plain http:// to a host that is not this machine (off: such profiles are refused until consented).
 */
export const migration0008: Migration = {
  version: 8,
  name: 'key-origin',
  up(db) {
    db.exec(`
      ALTER TABLE profiles ADD COLUMN key_origin TEXT;
      ALTER TABLE profiles ADD COLUMN send_key_unencrypted INTEGER NOT NULL DEFAULT 0 CHECK (send_key_unencrypted IN (0, 1));
      UPDATE profiles SET key_origin = base_url;
    `);
  },
};
