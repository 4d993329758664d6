import type { Migration } from './types';

/**
 * Paging (issue 25): what turns alerts into escalating calls, kept where every process sharing the
 * data directory (the app, `callout page serve`) and the next start see it.
 *
 * - paging_routes, paging_policies, paging_schedules (+ paging_overrides), paging_maintenance: the
 *   configuration. Matchers, steps, rotations and variables are JSON of common/paging/types.ts.
 * - incidents: one per open alert group. `incidents_open_key` makes the key unique among incidents
 *   not yet resolved, so two processes receiving the same post cannot both open one. `ended` says
 *   how its escalation ended (IncidentEnd), NULL while it runs; `last_group` is the latest post
 *   (AlertGroup JSON) that the call's text is made from.
 * - incident_alerts: every alert of every post, once per (fingerprint, status, startsAt): a repeat
 *   adds nothing, a new alert or its resolution adds a row.
 * - incident_steps and incident_calls: each step as it started (late_ms when it fell due while no
 *   process ran), each call with its message (History links a call to its incident by message_id).
 * - paging_actions: the next thing an escalation waits for (a step, an attempt), written before it
 *   is waited on. A process claims a due one in one IMMEDIATE transaction (state 'claimed', owner:
 *   store/process-owner.ts); a claim whose owner is gone may be taken over.
 */
export const migration0017: Migration = {
  version: 17,
  name: 'paging',
  up(db) {
    db.exec(`
      CREATE TABLE paging_policies (
        id                   INTEGER PRIMARY KEY,
        name                 TEXT NOT NULL,
        steps                TEXT NOT NULL,
        repeat               INTEGER NOT NULL DEFAULT 0,
        min_answered_seconds INTEGER NOT NULL DEFAULT 0,
        created_at           INTEGER NOT NULL,
        updated_at           INTEGER NOT NULL
      );
      CREATE TABLE paging_routes (
        id                   INTEGER PRIMARY KEY,
        name                 TEXT NOT NULL,
        position             INTEGER NOT NULL,
        matchers             TEXT NOT NULL,
        severities           TEXT NOT NULL,
        policy_id            INTEGER NOT NULL REFERENCES paging_policies (id),
        template_id          TEXT NOT NULL,
        variables            TEXT NOT NULL,
        through_quiet_hours  TEXT NOT NULL,
        call_on_resolved     INTEGER NOT NULL DEFAULT 0,
        is_default           INTEGER NOT NULL DEFAULT 0,
        created_at           INTEGER NOT NULL,
        updated_at           INTEGER NOT NULL
      );
      CREATE TABLE paging_schedules (
        id         INTEGER PRIMARY KEY,
        name       TEXT NOT NULL,
        rotation   TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE paging_overrides (
        id          INTEGER PRIMARY KEY,
        schedule_id INTEGER NOT NULL REFERENCES paging_schedules (id) ON DELETE CASCADE,
        contact_id  INTEGER NOT NULL,
        from_at     INTEGER NOT NULL,
        to_at       INTEGER NOT NULL
      );
      CREATE INDEX paging_overrides_schedule ON paging_overrides (schedule_id, from_at);
      CREATE TABLE paging_maintenance (
        id         INTEGER PRIMARY KEY,
        name       TEXT NOT NULL,
        matchers   TEXT NOT NULL,
        from_at    INTEGER NOT NULL,
        to_at      INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );

      CREATE TABLE incidents (
        id              INTEGER PRIMARY KEY,
        key             TEXT NOT NULL,
        source          TEXT NOT NULL,
        title           TEXT NOT NULL,
        severity        TEXT,
        state           TEXT NOT NULL,
        ended           TEXT,
        route_id        INTEGER,
        policy_id       INTEGER,
        held_by         INTEGER,
        last_group      TEXT NOT NULL,
        opened_at       INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL,
        acknowledged_by TEXT,
        acknowledged_at INTEGER,
        resolved_by     TEXT,
        resolved_at     INTEGER
      );
      CREATE UNIQUE INDEX incidents_open_key ON incidents (key) WHERE resolved_at IS NULL;
      CREATE INDEX incidents_opened ON incidents (opened_at);

      CREATE TABLE incident_alerts (
        id          INTEGER PRIMARY KEY,
        incident_id INTEGER NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
        fingerprint TEXT NOT NULL,
        status      TEXT NOT NULL,
        starts_at   INTEGER,
        alert       TEXT NOT NULL,
        received_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX incident_alerts_once ON incident_alerts (incident_id, fingerprint, status, ifnull(starts_at, -1));

      CREATE TABLE incident_steps (
        id          INTEGER PRIMARY KEY,
        incident_id INTEGER NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
        round       INTEGER NOT NULL,
        step_index  INTEGER NOT NULL,
        due_at      INTEGER NOT NULL,
        started_at  INTEGER NOT NULL,
        late_ms     INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX incident_steps_incident ON incident_steps (incident_id, id);

      CREATE TABLE incident_calls (
        id          INTEGER PRIMARY KEY,
        incident_id INTEGER NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
        action_id   INTEGER,
        round       INTEGER NOT NULL,
        step_index  INTEGER NOT NULL,
        attempt     INTEGER NOT NULL,
        contact_id  INTEGER,
        name        TEXT,
        mobile      TEXT NOT NULL,
        message_id  INTEGER REFERENCES messages (id) ON DELETE SET NULL,
        smsid       TEXT,
        state       TEXT,
        duration    INTEGER,
        result      TEXT,
        reason      TEXT,
        refusal     TEXT,
        due_at      INTEGER NOT NULL,
        started_at  INTEGER NOT NULL,
        ended_at    INTEGER
      );
      CREATE INDEX incident_calls_incident ON incident_calls (incident_id, id);
      CREATE INDEX incident_calls_message ON incident_calls (message_id) WHERE message_id IS NOT NULL;

      CREATE TABLE paging_actions (
        id          INTEGER PRIMARY KEY,
        incident_id INTEGER NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
        cursor      TEXT NOT NULL,
        due_at      INTEGER NOT NULL,
        state       TEXT NOT NULL DEFAULT 'pending',
        owner       TEXT,
        claimed_at  INTEGER,
        created_at  INTEGER NOT NULL,
        done_at     INTEGER
      );
      CREATE INDEX paging_actions_due ON paging_actions (state, due_at);
      CREATE INDEX paging_actions_incident ON paging_actions (incident_id, state);
    `);
  },
};
