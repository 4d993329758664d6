import type { Migration } from './types';

/** Provider profiles. No secrets here: the API Key lives in the OS keychain. */
export const migration0003: Migration = {
  version: 3,
  name: 'profiles',
  up(db) {
    db.exec(`
      CREATE TABLE profiles (
        id                    TEXT    PRIMARY KEY,
        name                  TEXT    NOT NULL UNIQUE COLLATE NOCASE,
        base_url              TEXT    NOT NULL,
        api_id                TEXT    NOT NULL,
        signing               TEXT    NOT NULL DEFAULT 'off' CHECK (signing IN ('off', 'spec', 'apisix')),
        format                TEXT    NOT NULL DEFAULT 'json' CHECK (format IN ('json', 'xml')),
        connect_timeout_ms    INTEGER NOT NULL DEFAULT 5000,
        total_timeout_ms      INTEGER NOT NULL DEFAULT 15000,
        low_balance_threshold INTEGER,
        builtin               INTEGER NOT NULL DEFAULT 0 CHECK (builtin IN (0, 1)),
        created_at            INTEGER NOT NULL,
        updated_at            INTEGER NOT NULL
      );
    `);
  },
};
