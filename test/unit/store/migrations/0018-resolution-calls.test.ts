import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { IncidentRepository } from '../../../../main/store/incident-repository';
import { columns, upgradeTo } from './temp-db';

describe('migration 0018: resolution calls', () => {
  it('is the eighteenth migration', () => {
    expect(MIGRATIONS[17]).toMatchObject({ version: 18, name: 'resolution-calls' });
  });

  it('keeps incidents, calls and waiting steps as they were: steps, no resolution call asked', () => {
    const db = upgradeTo(18, (v17) => {
      v17
        .prepare(
          `INSERT INTO incidents (id, key, source, title, state, last_group, opened_at, updated_at) VALUES (1, 'g1', 'alertmanager', 'DiskFull', 'triggered', '{}', 1, 1)`,
        )
        .run();
      v17
        .prepare(
          `INSERT INTO incident_calls (incident_id, action_id, round, step_index, attempt, mobile, result, due_at, started_at) VALUES (1, 1, 0, 0, 1, '13800000001', 'answered', 1, 1)`,
        )
        .run();
      v17
        .prepare(`INSERT INTO paging_actions (id, incident_id, cursor, due_at, created_at) VALUES (1, 1, '{"round":0,"step":0,"person":0,"attempt":1}', 5, 1)`)
        .run();
    });
    expect(columns(db, 'paging_actions')).toContain('kind');
    expect(columns(db, 'incident_calls')).toContain('resolution');
    expect(columns(db, 'incidents')).toContain('resolution_call');
    const incidents = new IncidentRepository(db, () => 10);
    expect(incidents.get(1)).toMatchObject({ resolutionCall: null });
    expect(incidents.calls(1)).toMatchObject([{ resolution: false, result: 'answered' }]);
    expect(incidents.claimDue('me', 10)).toMatchObject([{ id: 1, kind: 'step' }]);
    // A resolution call is promised once per incident.
    expect(incidents.scheduleResolution(1, 10)).toBe(true);
    expect(incidents.scheduleResolution(1, 10)).toBe(false);
    expect(incidents.claimDue('me', 10)).toMatchObject([{ kind: 'resolution' }]);
    expect(incidents.get(1)).toMatchObject({ resolutionCall: 'due' });
  });
});
