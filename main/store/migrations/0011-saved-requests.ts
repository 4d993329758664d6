import type { Migration } from './types';

/**
 * The tester's workbench (issue 15): collections of named requests with their variables, per-profile
 * environments, and runs with one result per request.
 *
 * - A request, its assertions and captures are stored as JSON (the contract's shapes, checked by
 *   zod whenever they are written); collections and environments keep their variables as JSON
 *   `[{name, value}]`. Names are unique ignoring case (`callout run NAME --env NAME` finds them).
 * - No secret is ever here: `{{account}}`/`{{password}}` are filled by main at send time, and
 *   variables of those names are refused.
 * - A run keeps its collection's and environment's names as they were (the collection may be
 *   renamed or removed later); each result links the exchange it produced, which retention may
 *   delete (the link then becomes NULL; the result and its assertion outcomes stay).
 */
export const migration0011: Migration = {
  version: 11,
  name: 'saved-requests',
  up(db) {
    db.exec(`
      CREATE TABLE collections (
        id          INTEGER PRIMARY KEY,
        name        TEXT    NOT NULL UNIQUE COLLATE NOCASE,
        description TEXT    NOT NULL DEFAULT '',
        variables   TEXT    NOT NULL DEFAULT '[]',
        created_at  INTEGER NOT NULL,
        updated_at  INTEGER NOT NULL
      );

      CREATE TABLE collection_requests (
        id            INTEGER PRIMARY KEY,
        collection_id INTEGER NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
        position      INTEGER NOT NULL,
        name          TEXT    NOT NULL,
        request       TEXT    NOT NULL,
        assertions    TEXT    NOT NULL DEFAULT '[]',
        captures      TEXT    NOT NULL DEFAULT '[]',
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL
      );
      CREATE INDEX collection_requests_order ON collection_requests (collection_id, position);

      CREATE TABLE environments (
        id         INTEGER PRIMARY KEY,
        name       TEXT    NOT NULL UNIQUE COLLATE NOCASE,
        profile    TEXT    NOT NULL,
        variables  TEXT    NOT NULL DEFAULT '[]',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE runs (
        id               INTEGER PRIMARY KEY,
        collection_id    INTEGER REFERENCES collections (id) ON DELETE SET NULL,
        collection_name  TEXT    NOT NULL,
        environment_name TEXT,
        profile          TEXT    NOT NULL,
        status           TEXT    NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'passed', 'failed', 'error')),
        total            INTEGER NOT NULL DEFAULT 0,
        passed           INTEGER NOT NULL DEFAULT 0,
        failed           INTEGER NOT NULL DEFAULT 0,
        errored          INTEGER NOT NULL DEFAULT 0,
        started_at       INTEGER NOT NULL,
        ended_at         INTEGER
      );
      CREATE INDEX runs_started ON runs (started_at);
      CREATE INDEX runs_collection ON runs (collection_id, started_at) WHERE collection_id IS NOT NULL;

      CREATE TABLE run_results (
        id            INTEGER PRIMARY KEY,
        run_id        INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        position      INTEGER NOT NULL,
        request_id    INTEGER REFERENCES collection_requests (id) ON DELETE SET NULL,
        name          TEXT    NOT NULL,
        exchange_id   INTEGER REFERENCES exchanges (id) ON DELETE SET NULL,
        outcome       TEXT    NOT NULL CHECK (outcome IN ('passed', 'failed', 'error')),
        status        INTEGER,
        provider_code INTEGER,
        assertions    TEXT    NOT NULL DEFAULT '[]',
        -- why it could not be sent ({code, params, issues}) or why no usable reply came ({kind, outcome, reason})
        problem       TEXT,
        failure       TEXT,
        ms            REAL
      );
      CREATE INDEX run_results_run ON run_results (run_id, position);
      -- retention deletes exchanges: each delete looks up the results that link it
      CREATE INDEX run_results_exchange ON run_results (exchange_id) WHERE exchange_id IS NOT NULL;
      CREATE INDEX run_results_request ON run_results (request_id) WHERE request_id IS NOT NULL;
    `);
  },
};
