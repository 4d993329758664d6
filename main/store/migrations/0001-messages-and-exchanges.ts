import type { Migration } from './types';

/** Messages (one per send), their status timeline, and every captured HTTP exchange (redacted). */
export const migration0001: Migration = {
  version: 1,
  name: 'messages-and-exchanges',
  up(db) {
    db.exec(`
      CREATE TABLE messages (
        id            INTEGER PRIMARY KEY,
        profile       TEXT    NOT NULL,
        base_url      TEXT    NOT NULL,
        api_id        TEXT    NOT NULL,
        mobile        TEXT    NOT NULL,
        content       TEXT    NOT NULL,
        template_id   TEXT,
        units         INTEGER NOT NULL,
        outcome       TEXT    NOT NULL DEFAULT 'pending'
                      CHECK (outcome IN ('pending', 'accepted', 'rejected', 'unknown')),
        code          INTEGER,
        provider_msg  TEXT,
        smsid         TEXT,
        billed_units  INTEGER,
        state         TEXT    NOT NULL DEFAULT 'pending',
        duration      INTEGER,
        error_kind    TEXT,
        error_message TEXT,
        owner         TEXT,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL,
        ended_at      INTEGER
      );
      CREATE INDEX messages_created ON messages (created_at);
      CREATE INDEX messages_mobile ON messages (mobile, created_at);
      CREATE INDEX messages_open ON messages (outcome, state) WHERE ended_at IS NULL;
      CREATE INDEX messages_smsid ON messages (smsid) WHERE smsid IS NOT NULL;

      CREATE TABLE message_events (
        id         INTEGER PRIMARY KEY,
        message_id INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        at         INTEGER NOT NULL,
        kind       TEXT    NOT NULL,
        state      TEXT,
        detail     TEXT
      );
      CREATE INDEX message_events_message ON message_events (message_id, at);

      CREATE TABLE exchanges (
        id               INTEGER PRIMARY KEY,
        message_id       INTEGER REFERENCES messages (id) ON DELETE SET NULL,
        operation        TEXT    NOT NULL,
        profile          TEXT,
        method           TEXT    NOT NULL,
        url              TEXT    NOT NULL,
        request_headers  TEXT    NOT NULL,
        request_body     TEXT,
        status           INTEGER,
        status_text      TEXT,
        response_headers TEXT,
        response_body    TEXT,
        error_kind       TEXT,
        error_message    TEXT,
        started_at       INTEGER NOT NULL,
        timings          TEXT    NOT NULL
      );
      CREATE INDEX exchanges_message ON exchanges (message_id);
      CREATE INDEX exchanges_started ON exchanges (started_at);
    `);
  },
};
