import type { Migration } from './types';

/**
 * Calling on resolution (issue 25): a route may ask that the people who answered an incident's call
 * be called once more when its alerts resolve. The promise is a paging action like a step's, so the
 * same claim (one process, once, taken over from a process that is gone without calling twice)
 * keeps it.
 *
 * - paging_actions.kind: 'step' (an escalation's step or attempt, as before) or 'resolution' (the
 *   resolution calls of a resolved incident). Existing rows are steps.
 * - incident_calls.resolution: 1 for a resolution call (it belongs to no step).
 * - incidents.resolution_call: what became of the route's resolution call — NULL (not asked),
 *   'due', 'placed', 'nobody-answered' (nobody answered a call of the incident: nobody is called),
 *   'no-route' (the route was gone when it fell due).
 */
export const migration0018: Migration = {
  version: 18,
  name: 'resolution-calls',
  up(db) {
    db.exec(`
      ALTER TABLE paging_actions ADD COLUMN kind TEXT NOT NULL DEFAULT 'step';
      ALTER TABLE incident_calls ADD COLUMN resolution INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE incidents ADD COLUMN resolution_call TEXT;
    `);
  },
};
