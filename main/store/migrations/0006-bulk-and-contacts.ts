import type { Migration } from './types';

/**
 * Bulk sends (batches and their items), contacts with favourites and ordered groups (escalation
 * lists), per-number dial limits and quiet hours, and the number of lines of each profile (the
 * provider allows 20 concurrent calls and about 2,000 calls an hour per line).
 */
export const migration0006: Migration = {
  version: 6,
  name: 'bulk-and-contacts',
  up(db) {
    db.exec(`
      ALTER TABLE profiles ADD COLUMN lines INTEGER NOT NULL DEFAULT 1 CHECK (lines BETWEEN 1 AND 1000);

      CREATE TABLE batches (
        id             INTEGER PRIMARY KEY,
        profile        TEXT    NOT NULL,
        template_id    TEXT,
        name           TEXT    NOT NULL,
        status         TEXT    NOT NULL DEFAULT 'draft'
                       CHECK (status IN ('draft', 'running', 'paused', 'cancelled', 'done')),
        -- why it is paused or cancelled: user, interrupted, insufficient-balance, credentials, ...
        paused_reason  TEXT,
        status_message TEXT,
        total          INTEGER NOT NULL DEFAULT 0,
        -- the process running it (host:pid), so that a later start can tell a crash from a live run
        owner          TEXT,
        created_at     INTEGER NOT NULL,
        started_at     INTEGER,
        ended_at       INTEGER,
        updated_at     INTEGER NOT NULL
      );
      CREATE INDEX batches_status ON batches (status);

      CREATE TABLE batch_items (
        id          INTEGER PRIMARY KEY,
        batch_id    INTEGER NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
        row_number  INTEGER NOT NULL,
        mobile      TEXT    NOT NULL,
        content     TEXT    NOT NULL,
        units       INTEGER NOT NULL DEFAULT 0,
        status      TEXT    NOT NULL DEFAULT 'queued'
                    CHECK (status IN ('queued', 'in_flight', 'accepted', 'rejected', 'unknown', 'skipped', 'cancelled')),
        message_id  INTEGER REFERENCES messages (id) ON DELETE SET NULL,
        code        INTEGER,
        error_kind  TEXT,
        error       TEXT,
        updated_at  INTEGER NOT NULL
      );
      -- next queued item of a batch, and the counts per status
      CREATE INDEX batch_items_next ON batch_items (batch_id, status, id);
      CREATE INDEX batch_items_message ON batch_items (message_id) WHERE message_id IS NOT NULL;

      CREATE TABLE contacts (
        id               INTEGER PRIMARY KEY,
        name             TEXT    NOT NULL,
        mobile           TEXT    NOT NULL,
        favourite        INTEGER NOT NULL DEFAULT 0 CHECK (favourite IN (0, 1)),
        note             TEXT    NOT NULL DEFAULT '',
        last_template_id TEXT,
        last_values      TEXT,
        last_called_at   INTEGER,
        created_at       INTEGER NOT NULL,
        updated_at       INTEGER NOT NULL
      );
      CREATE INDEX contacts_mobile ON contacts (mobile);

      CREATE TABLE contact_groups (
        id         INTEGER PRIMARY KEY,
        name       TEXT    NOT NULL UNIQUE COLLATE NOCASE,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE contact_group_members (
        group_id   INTEGER NOT NULL REFERENCES contact_groups (id) ON DELETE CASCADE,
        contact_id INTEGER NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
        -- order in the group: an escalation list calls members in this order
        position   INTEGER NOT NULL,
        PRIMARY KEY (group_id, contact_id)
      );
      CREATE INDEX contact_group_members_contact ON contact_group_members (contact_id);

      -- scope '*' is the default for every profile; a profile id overrides it
      CREATE TABLE dial_settings (
        scope       TEXT    PRIMARY KEY,
        per_minute  INTEGER CHECK (per_minute IS NULL OR per_minute >= 0),
        per_hour    INTEGER CHECK (per_hour IS NULL OR per_hour >= 0),
        per_day     INTEGER CHECK (per_day IS NULL OR per_day >= 0),
        quiet_start TEXT    CHECK (quiet_start IS NULL OR quiet_start GLOB '[0-2][0-9]:[0-5][0-9]'),
        quiet_end   TEXT    CHECK (quiet_end IS NULL OR quiet_end GLOB '[0-2][0-9]:[0-5][0-9]'),
        updated_at  INTEGER NOT NULL
      );
      INSERT INTO dial_settings (scope, per_minute, per_hour, per_day, quiet_start, quiet_end, updated_at)
        VALUES ('*', 1, 5, 20, '22:00', '08:00', 0);
    `);
  },
};
