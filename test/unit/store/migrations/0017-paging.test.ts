import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { IncidentRepository } from '../../../../main/store/incident-repository';
import { PagingConfigRepository } from '../../../../main/store/paging-config-repository';
import { columns, queryPlan, upgradeTo } from './temp-db';

const group = {
  source: 'alertmanager' as const,
  key: '{}:{alertname="DiskFull"}',
  status: 'firing' as const,
  title: 'DiskFull',
  severity: 'critical',
  groupLabels: {},
  commonLabels: {},
  commonAnnotations: {},
  externalURL: null,
  truncatedAlerts: 0,
  alerts: [],
};
const alert = (fingerprint: string, status: 'firing' | 'resolved', startsAt: number | null) => ({
  status,
  labels: {},
  annotations: {},
  startsAt,
  endsAt: null,
  fingerprint,
  generatorURL: null,
});

describe('migration 0017: paging', () => {
  it('is the seventeenth migration', () => {
    expect(MIGRATIONS[16]).toMatchObject({ version: 17, name: 'paging' });
  });

  it('keeps the messages there were, and adds routes, policies, schedules, maintenance, incidents and pending steps', () => {
    const db = upgradeTo(17, (v16) => {
      v16
        .prepare(
          "INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, created_at, updated_at) VALUES (1, 'p', 'http://x', 'id', '13800138000', 'hi', 1, 1, 1)",
        )
        .run();
    });
    expect(db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 1 });
    for (const t of [
      'paging_routes',
      'paging_policies',
      'paging_schedules',
      'paging_overrides',
      'paging_maintenance',
      'incidents',
      'incident_alerts',
      'incident_steps',
      'incident_calls',
      'paging_actions',
    ])
      expect(columns(db, t).length, t).toBeGreaterThan(3);
    const config = new PagingConfigRepository(db, () => 5);
    const policy = config.savePolicy({
      name: 'DBA',
      steps: [{ target: { kind: 'contact', contactId: 1 }, attempts: 2, retrySeconds: 60, pauseSeconds: 90 }],
      repeat: 1,
      minAnsweredSeconds: 10,
    })!;
    expect(config.policy(policy.id)).toEqual(policy);
    const incidents = new IncidentRepository(db, () => 10);
    const incident = incidents.open({
      key: group.key,
      source: 'alertmanager',
      title: 'DiskFull',
      severity: 'critical',
      state: 'triggered',
      ended: null,
      routeId: null,
      policyId: policy.id,
      heldBy: null,
      group,
    });
    // One open incident per key.
    expect(() =>
      incidents.open({
        key: group.key,
        source: 'alertmanager',
        title: 'x',
        severity: null,
        state: 'triggered',
        ended: null,
        routeId: null,
        policyId: null,
        heldBy: null,
        group,
      }),
    ).toThrow(/UNIQUE/);
    // An alert is kept once per fingerprint, status and start (no start: once too).
    expect(
      incidents.addAlerts(incident.id, [
        alert('a', 'firing', 1),
        alert('a', 'firing', 1),
        alert('b', 'firing', null),
        alert('b', 'firing', null),
        alert('a', 'resolved', 1),
      ]),
    ).toBe(3);
    // History finds a call's incident by its message.
    // (The call as version 17 wrote it: the repository of today writes the columns later versions added.)
    db.prepare(
      `INSERT INTO incident_calls (incident_id, action_id, round, step_index, attempt, contact_id, name, mobile, message_id, due_at, started_at) VALUES (?, NULL, 0, 0, 1, 1, '王工', '13800138000', 1, 10, 10)`,
    ).run(incident.id);
    expect(incidents.incidentOfMessage(1)).toBe(incident.id);
    expect(queryPlan(db, 'SELECT incident_id FROM incident_calls WHERE message_id = ?', 1)).toMatch(/incident_calls_message/);
    // A resolved incident frees its key.
    incidents.resolve(incident.id, null);
    expect(
      incidents.open({
        key: group.key,
        source: 'alertmanager',
        title: 'again',
        severity: null,
        state: 'triggered',
        ended: null,
        routeId: null,
        policyId: null,
        heldBy: null,
        group,
      }).id,
    ).not.toBe(incident.id);
    expect(queryPlan(db, "SELECT id FROM paging_actions WHERE state = 'pending' AND due_at <= ?", 1)).toMatch(/paging_actions_due/);
  });
});
