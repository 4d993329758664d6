import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INTAKE_LIMITS, intakeHttpStatus, labelsFingerprint, parseAlertPost, type IntakeResult } from '../../../common/paging/intake';
import type { AlertGroup } from '../../../common/paging/types';

const fixture = (name: string) => readFileSync(resolve(__dirname, '../../fixtures/paging', name), 'utf8');

function group(r: IntakeResult): AlertGroup {
  if (!r.ok) throw new Error(`expected a group, got ${JSON.stringify(r.error)}`);
  return r.group;
}
function error(r: IntakeResult) {
  if (r.ok) throw new Error('expected an error');
  return r.error;
}

const amAlert = (labels: Record<string, string>, status = 'firing') => ({
  status,
  labels,
  annotations: {},
  startsAt: '2026-11-27T02:00:00Z',
  endsAt: '0001-01-01T00:00:00Z',
  generatorURL: '',
  fingerprint: '',
});
const amPost = (alerts: unknown[], extra: Record<string, unknown> = {}) => ({
  version: '4',
  status: 'firing',
  groupKey: '{}:{alertname="X"}',
  alerts,
  ...extra,
});

describe('Alertmanager v4 posts', () => {
  it('reads a real-shaped firing post: key = groupKey, severity, times, zero endsAt as none', () => {
    const g = group(parseAlertPost(fixture('alertmanager-v4-firing.json'), 'application/json'));
    expect(g.source).toBe('alertmanager');
    expect(g.key).toBe('{}/{severity="critical"}:{alertname="ProbeFailure"}');
    expect(g.status).toBe('firing');
    expect(g.severity).toBe('critical');
    expect(g.title).toBe('ProbeFailure https://server.example.org');
    expect(g.externalURL).toBe('http://prometheus.example.org:9093');
    expect(g.alerts).toHaveLength(1);
    const a = g.alerts[0]!;
    expect(a.startsAt).toBe(Date.UTC(2023, 1, 6, 13, 8, 45, 828));
    expect(a.endsAt).toBeNull();
    expect(a.fingerprint).toBe('1a30ba71cca2921f');
    expect(a.annotations.summary).toBe('BlackBox Probe Failure: https://server.example.org');
    expect(a.generatorURL).toContain('probe_success');
  });

  it('a group with one alert still firing is firing; nanosecond times with an offset are read; truncatedAlerts kept', () => {
    const g = group(parseAlertPost(fixture('alertmanager-v4-two-alerts.json')));
    expect(g.status).toBe('firing');
    expect(g.truncatedAlerts).toBe(3);
    expect(g.alerts.map((a) => a.status)).toEqual(['firing', 'resolved']);
    expect(g.alerts[0]!.startsAt).toBe(Date.UTC(2026, 10, 26, 18, 31, 12, 451));
    expect(g.alerts[1]!.endsAt).toBe(Date.UTC(2026, 10, 27, 2, 33, 40, 100));
    expect(g.commonLabels).toEqual({ alertname: 'InstanceDown', env: 'prod', job: 'node', severity: 'critical' });
  });

  it('the resolved post of the same group has the same key and is resolved', () => {
    const firing = group(parseAlertPost(fixture('alertmanager-v4-firing.json')));
    const resolved = group(parseAlertPost(fixture('alertmanager-v4-resolved.json')));
    expect(resolved.key).toBe(firing.key);
    expect(resolved.status).toBe('resolved');
    expect(resolved.alerts[0]!.endsAt).toBe(Date.UTC(2023, 1, 6, 13, 20, 45, 828));
  });

  it('without groupKey: the key is the group labels’ fingerprint, stable whatever the label order', () => {
    const a = group(parseAlertPost(amPost([amAlert({ alertname: 'A', instance: 'h1' })], { groupKey: undefined, groupLabels: { alertname: 'A', job: 'j' } })));
    const b = group(parseAlertPost(amPost([amAlert({ instance: 'h2', alertname: 'A' })], { groupKey: undefined, groupLabels: { job: 'j', alertname: 'A' } })));
    expect(a.key).toBe(b.key);
    expect(a.key).toMatch(/^[0-9a-f]{16}$/);
  });

  it('computes a missing fingerprint from the sorted labels (FNV-1a 64 as Prometheus does)', () => {
    expect(labelsFingerprint({})).toBe('cbf29ce484222325'); // FNV-1a 64 offset basis: the empty label set
    expect(labelsFingerprint({ b: '2', a: '1' })).toBe(labelsFingerprint({ a: '1', b: '2' }));
    expect(labelsFingerprint({ a: '1' })).not.toBe(labelsFingerprint({ a: '2' }));
    const g = group(parseAlertPost(amPost([amAlert({ alertname: 'X', instance: 'h' })])));
    expect(g.alerts[0]!.fingerprint).toBe(labelsFingerprint({ instance: 'h', alertname: 'X' }));
  });

  it('computes common labels when the post has none', () => {
    const g = group(
      parseAlertPost(amPost([amAlert({ alertname: 'X', instance: 'h1', env: 'prod' }), amAlert({ alertname: 'X', instance: 'h2', env: 'prod' })])),
    );
    expect(g.commonLabels).toEqual({ alertname: 'X', env: 'prod' });
  });

  it('every alert resolved: the group is resolved', () => {
    const g = group(parseAlertPost(amPost([amAlert({ alertname: 'X' }, 'resolved'), amAlert({ alertname: 'Y' }, 'resolved')])));
    expect(g.status).toBe('resolved');
  });

  it('refuses another Alertmanager version', () => {
    expect(error(parseAlertPost(amPost([amAlert({ a: '1' })], { version: '3' }))).params).toEqual({ field: 'version', problem: 'unsupported-version' });
  });
});

describe('Grafana webhook posts', () => {
  it('reads the contact point’s real shape: title, values, silence and dashboard links', () => {
    const g = group(parseAlertPost(fixture('grafana-webhook.json'), 'application/json; charset=utf-8'));
    expect(g.source).toBe('grafana');
    expect(g.title).toBe('[FIRING:2]  (blue)');
    expect(g.key).toBe('{}:{}');
    expect(g.alerts).toHaveLength(2);
    expect(g.alerts[0]!.values).toEqual({ B: 44.23943737541908, C: 1 });
    expect(g.alerts[0]!.silenceURL).toContain('/alerting/silence/new');
    expect(g.alerts[0]!.dashboardURL).toBeNull(); // "" is none
    expect(g.alerts[0]!.startsAt).toBe(Date.UTC(2021, 9, 12, 7, 51, 3, 157));
    expect(g.severity).toBeNull();
  });

  it('a large group’s long default message (every alert listed, past 16 KiB) does not refuse the post', () => {
    const body = JSON.parse(fixture('grafana-webhook.json'));
    body.message = '**Firing**\n\n' + 'Value: B=44.2, C=1\nLabels:\n - alertname = High CPU\n'.repeat(1_000);
    expect(body.message.length).toBeGreaterThan(16_384);
    expect(group(parseAlertPost(body)).alerts).toHaveLength(2);
    body.message = 42;
    expect(parseAlertPost(body)).toMatchObject({ ok: false });
  });

  it('Grafana’s "ok" state and resolved alerts give a resolved group', () => {
    const body = JSON.parse(fixture('grafana-webhook.json'));
    body.state = 'ok';
    body.status = 'resolved';
    for (const a of body.alerts) a.status = 'resolved';
    expect(group(parseAlertPost(body)).status).toBe('resolved');
  });
});

describe('our plain JSON', () => {
  it('reads title, severity (lower-cased), labels, key, status', () => {
    const g = group(parseAlertPost(fixture('plain.json')));
    expect(g.source).toBe('json');
    expect(g.key).toBe('orders-db-lag');
    expect(g.title).toBe('订单库主从延迟');
    expect(g.severity).toBe('critical');
    expect(g.status).toBe('firing');
    expect(g.commonLabels).toMatchObject({ service: 'orders', instance: 'db-01', alertname: '订单库主从延迟', severity: 'critical' });
    expect(g.alerts).toHaveLength(1);
  });

  it('without key: the fingerprint of its labels, the same for the same alert', () => {
    const a = group(parseAlertPost({ title: 'disk full', labels: { host: 'a' } }));
    const b = group(parseAlertPost({ labels: { host: 'a' }, title: 'disk full' }));
    expect(a.key).toBe(b.key);
    expect(a.key).toBe(a.alerts[0]!.fingerprint);
  });

  it('"ok"/"resolved" resolve; an unknown status is refused', () => {
    expect(group(parseAlertPost({ title: 't', status: 'OK' })).status).toBe('resolved');
    expect(error(parseAlertPost({ title: 't', status: 'maybe' })).params).toEqual({ field: 'status', problem: 'invalid-status' });
  });

  it('a paste is read by the same function and marked as a paste', () => {
    const g = group(parseAlertPost(fixture('alertmanager-v4-firing.json'), undefined, { source: 'paste' }));
    expect(g.source).toBe('paste');
    expect(g.key).toBe('{}/{severity="critical"}:{alertname="ProbeFailure"}');
  });
});

describe('malformed and hostile bodies: one coded error, never a throw', () => {
  const cases: Array<[string, unknown, string | undefined, Record<string, unknown>]> = [
    ['wrong content type', '{}', 'application/x-www-form-urlencoded', { field: 'content-type', problem: 'content-type' }],
    ['not JSON', '{"alerts": [', 'application/json', { field: '$', problem: 'not-json' }],
    ['empty body', '   ', undefined, { field: '$', problem: 'empty' }],
    ['an array', '[1,2]', undefined, { field: '$', problem: 'not-object' }],
    ['a number', 42, undefined, { field: '$', problem: 'not-object' }],
    ['null', null, undefined, { field: '$', problem: 'not-object' }],
    ['unknown shape', { hello: 'world' }, undefined, { field: '$', problem: 'unknown-shape' }],
    ['alerts not a list', { version: '4', alerts: {} }, undefined, { field: 'alerts', problem: 'wrong-type' }],
    ['no alerts', { version: '4', alerts: [] }, undefined, { field: 'alerts', problem: 'empty' }],
    ['a label that is a number', amPost([{ labels: { a: 1 } }]), undefined, { field: 'alerts[0].labels.a', problem: 'wrong-type' }],
    ['an alert that is a string', amPost(['x']), undefined, { field: 'alerts[0]', problem: 'wrong-type' }],
    ['a bad time', amPost([{ labels: { a: 'b' }, startsAt: 'yesterday' }]), undefined, { field: 'alerts[0].startsAt', problem: 'invalid-time' }],
    ['a bad status', amPost([{ labels: { a: 'b' }, status: 'exploding' }]), undefined, { field: 'alerts[0].status', problem: 'invalid-status' }],
    ['negative truncatedAlerts', amPost([amAlert({ a: 'b' })], { truncatedAlerts: -1 }), undefined, { field: 'truncatedAlerts', problem: 'wrong-type' }],
    ['plain JSON without title or labels', { severity: 'critical' }, undefined, { field: 'title', problem: 'missing' }],
  ];
  it.each(cases)('%s', (_name, body, contentType, params) => {
    expect(error(parseAlertPost(body, contentType)).params).toEqual(params);
  });

  it(`10,000 alerts in one post: refused (the limit is ${INTAKE_LIMITS.alerts})`, () => {
    const alerts = Array.from({ length: 10_000 }, (_, i) => amAlert({ alertname: 'X', i: String(i) }));
    const e = error(parseAlertPost(JSON.stringify(amPost(alerts))));
    expect(e).toEqual({ code: 'alert-post-invalid', params: { field: 'alerts', problem: 'too-many', limit: 1000 } });
    expect(intakeHttpStatus(e)).toBe(422);
    expect(group(parseAlertPost(amPost(alerts.slice(0, 1000)))).alerts).toHaveLength(1000);
  });

  it('deep nesting is refused before parsing (text) and after (value), without a stack overflow', () => {
    const deep = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    const e = error(parseAlertPost(deep, 'application/json'));
    expect(e.params).toEqual({ field: '$', problem: 'too-deep', limit: INTAKE_LIMITS.depth });
    expect(intakeHttpStatus(e)).toBe(400);
    let v: unknown = 1;
    for (let i = 0; i < 50; i++) v = { v };
    expect(error(parseAlertPost({ title: 'x', extra: v })).params.problem).toBe('too-deep');
    // brackets inside strings do not count
    expect(group(parseAlertPost(JSON.stringify({ title: '[[[[[[[[[[[[[[[[[[[[[[{{{{{{{{{{{{{{' }))).title).toBe('[[[[[[[[[[[[[[[[[[[[[[{{{{{{{{{{{{{{');
  });

  it('too large a text is refused with 413', () => {
    const e = error(parseAlertPost(' '.repeat(INTAKE_LIMITS.textChars + 1)));
    expect(e.params.problem).toBe('too-large');
    expect(intakeHttpStatus(e)).toBe(413);
    // bytes: refused before they are decoded
    expect(error(parseAlertPost(new Uint8Array(INTAKE_LIMITS.textChars * 4 + 1))).params.problem).toBe('too-large');
  });

  it('too many labels, too long a label, too long a name', () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`l${i}`, 'v']));
    expect(error(parseAlertPost(amPost([{ labels: many }]))).params).toEqual({ field: 'alerts[0].labels', problem: 'too-many', limit: 100 });
    expect(error(parseAlertPost(amPost([{ labels: { a: 'x'.repeat(5000) } }]))).params).toEqual({
      field: 'alerts[0].labels.a',
      problem: 'too-long',
      limit: 4096,
    });
    const longName = 'n'.repeat(300);
    const p = error(parseAlertPost(amPost([{ labels: { [longName]: 'v' } }]))).params;
    expect(p.problem).toBe('too-long');
    expect(p.field.length).toBeLessThanOrEqual(120);
  });

  it('a label named __proto__ is kept as a label, and changes no prototype', () => {
    const g = group(parseAlertPost('{"version":"4","alerts":[{"labels":{"__proto__":"x","alertname":"A"}}]}'));
    const labels = g.alerts[0]!.labels;
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
    expect(Object.keys(labels).sort()).toEqual(['__proto__', 'alertname']);
    expect(Object.getOwnPropertyDescriptor(labels, '__proto__')?.value).toBe('x');
  });

  it('bytes are read as UTF-8', () => {
    const g = group(parseAlertPost(new TextEncoder().encode(fixture('plain.json')), 'application/json'));
    expect(g.title).toBe('订单库主从延迟');
  });

  it('status codes: 415 for the content type, 422 for a shape problem', () => {
    expect(intakeHttpStatus(error(parseAlertPost('{}', 'text/html')))).toBe(415);
    expect(intakeHttpStatus(error(parseAlertPost({ hello: 1 })))).toBe(422);
  });

  it('a long title is cut for lists, not refused', () => {
    const g = group(parseAlertPost({ title: '长'.repeat(1000) }));
    expect([...g.title]).toHaveLength(200);
    expect(g.title.endsWith('…')).toBe(true);
  });
});
