import { describe, expect, it } from 'vitest';
import { heldBy, windowIssues } from '../../../common/paging/maintenance';
import type { Alert, AlertGroup, MaintenanceWindow } from '../../../common/paging/types';

const alert = (labels: Record<string, string>, status: Alert['status'] = 'firing'): Alert => ({
  status,
  labels,
  annotations: {},
  startsAt: null,
  endsAt: null,
  fingerprint: 'f',
  generatorURL: null,
});
const group = (...alerts: Alert[]): AlertGroup => ({
  source: 'alertmanager',
  key: 'k',
  status: alerts.some((a) => a.status === 'firing') ? 'firing' : 'resolved',
  title: 't',
  severity: null,
  groupLabels: {},
  commonLabels: {},
  commonAnnotations: {},
  externalURL: null,
  truncatedAlerts: 0,
  alerts,
});

const T = Date.UTC(2026, 10, 27, 2, 0);
const HOUR = 3_600_000;
const dbWindow: MaintenanceWindow = { id: 1, name: '数据库升级', matchers: [{ label: 'service', op: '=~', value: 'db|mysql' }], from: T, to: T + HOUR };
const prodWindow: MaintenanceWindow = { id: 2, name: 'web 发布', matchers: [{ label: 'service', op: '=', value: 'web' }], from: T, to: T + 2 * HOUR };

describe('maintenance windows', () => {
  it('hold a matching group during [from, to) and say which window', () => {
    const g = group(alert({ service: 'db' }));
    expect(heldBy(g, [prodWindow, dbWindow], T)).toEqual({ held: true, windows: [dbWindow] });
    expect(heldBy(g, [dbWindow], T + HOUR - 1).held).toBe(true);
    expect(heldBy(g, [dbWindow], T + HOUR)).toEqual({ held: false, windows: [] });
    expect(heldBy(g, [dbWindow], T - 1).held).toBe(false);
  });

  it('do not hold an alert their matchers do not match', () => {
    expect(heldBy(group(alert({ service: 'cache' })), [dbWindow, prodWindow], T).held).toBe(false);
  });

  it('hold a group only when every firing alert is held (by one window or another)', () => {
    const both = group(alert({ service: 'db' }), alert({ service: 'web' }));
    expect(heldBy(both, [dbWindow, prodWindow], T)).toEqual({ held: true, windows: [dbWindow, prodWindow] });
    const mixed = group(alert({ service: 'db' }), alert({ service: 'cache' }));
    expect(heldBy(mixed, [dbWindow, prodWindow], T).held).toBe(false);
    // a resolved alert of the group does not keep it from being held
    const withResolved = group(alert({ service: 'db' }), alert({ service: 'cache' }, 'resolved'));
    expect(heldBy(withResolved, [dbWindow], T).held).toBe(true);
  });

  it('a window without matchers holds nothing, and is reported before it is saved', () => {
    const everything: MaintenanceWindow = { id: 3, name: 'all', matchers: [], from: T, to: T + HOUR };
    expect(heldBy(group(alert({ service: 'db' })), [everything], T).held).toBe(false);
    expect(windowIssues(everything)).toEqual([{ code: 'no-matchers', params: {} }]);
  });

  it('reports an empty range and an invalid pattern', () => {
    expect(windowIssues({ matchers: [{ label: 'a', op: '=~', value: '[' }], from: T, to: T })).toEqual([
      { code: 'range-empty', params: { from: T, to: T } },
      { code: 'matcher', params: { label: 'a', op: '=~', value: '[', problem: 'pattern-invalid' } },
    ]);
  });
});
