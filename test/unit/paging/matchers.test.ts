import { describe, expect, it } from 'vitest';
import { compileMatcher, formatMatcher, MATCHER_VALUE_MAX, parseMatchers, routeFor } from '../../../common/paging/matchers';
import type { AlertGroup, LabelMatcher, Route } from '../../../common/paging/types';

const test = (m: LabelMatcher, labels: Record<string, string>) => {
  const c = compileMatcher(m);
  if (!c.ok) throw new Error(JSON.stringify(c.issue));
  return c.test(labels);
};

describe('label matchers', () => {
  it('= and != compare exactly; a missing label reads as empty', () => {
    expect(test({ label: 'env', op: '=', value: 'prod' }, { env: 'prod' })).toBe(true);
    expect(test({ label: 'env', op: '=', value: 'prod' }, { env: 'production' })).toBe(false);
    expect(test({ label: 'env', op: '!=', value: 'prod' }, {})).toBe(true);
    expect(test({ label: 'env', op: '=', value: '' }, {})).toBe(true);
  });

  it('=~ and !~ are anchored at both ends', () => {
    const m: LabelMatcher = { label: 'severity', op: '=~', value: 'critical|page' };
    expect(test(m, { severity: 'page' })).toBe(true);
    expect(test(m, { severity: 'critical' })).toBe(true);
    expect(test(m, { severity: 'not-critical' })).toBe(false);
    expect(test(m, { severity: 'critical2' })).toBe(false);
    expect(test({ label: 'instance', op: '!~', value: 'db-.*' }, { instance: 'db-01' })).toBe(false);
    expect(test({ label: 'instance', op: '!~', value: 'db-.*' }, { instance: 'web-db-01' })).toBe(true);
    expect(test({ label: 'svc', op: '=~', value: '订单.*' }, { svc: '订单库' })).toBe(true);
  });

  it('regular-expression characters in = values are literal', () => {
    expect(test({ label: 'a', op: '=', value: 'x.*' }, { a: 'xyz' })).toBe(false);
    expect(test({ label: 'a', op: '=', value: 'x.*' }, { a: 'x.*' })).toBe(true);
  });

  it('an invalid, too long, or unsupported pattern is reported, not thrown', () => {
    expect(compileMatcher({ label: 'a', op: '=~', value: '(unclosed' })).toMatchObject({
      ok: false,
      issue: { code: 'pattern-invalid', params: { label: 'a', op: '=~' } },
    });
    expect(compileMatcher({ label: 'a', op: '=~', value: 'x'.repeat(MATCHER_VALUE_MAX + 1) })).toMatchObject({ ok: false, issue: { code: 'value-too-long' } });
    expect(compileMatcher({ label: 'a', op: '=~', value: '(a)\\1' })).toMatchObject({ ok: false, issue: { code: 'pattern-unsupported' } });
    expect(compileMatcher({ label: 'a', op: '=~', value: 'x(?=y)' })).toMatchObject({ ok: false, issue: { code: 'pattern-unsupported' } });
    expect(compileMatcher({ label: 'a', op: '=~', value: '(a+)+' })).toMatchObject({ ok: false, issue: { code: 'pattern-slow' } });
    expect(compileMatcher({ label: 'a', op: '=~', value: '(.*x){3,}' })).toMatchObject({ ok: false, issue: { code: 'pattern-slow' } });
    expect(compileMatcher({ label: 'a', op: '=~', value: '(db|mysql)-[0-9]+' })).toMatchObject({ ok: true });
    expect(compileMatcher({ label: ' ', op: '=', value: 'x' })).toMatchObject({ ok: false, issue: { code: 'label-empty' } });
    // RE2 takes \- outside a class; so do we
    expect(test({ label: 'a', op: '=~', value: 'db\\-01' }, { a: 'db-01' })).toBe(true);
  });
});

describe("parsing Alertmanager's matcher syntax", () => {
  it('reads braces, quotes, escapes, bare values and all four operators', () => {
    expect(parseMatchers('{severity=~"critical|page", env!="dev", team="a\\"b", job!~"x.*"}')).toEqual({
      ok: true,
      matchers: [
        { label: 'severity', op: '=~', value: 'critical|page' },
        { label: 'env', op: '!=', value: 'dev' },
        { label: 'team', op: '=', value: 'a"b' },
        { label: 'job', op: '!~', value: 'x.*' },
      ],
    });
    expect(parseMatchers('severity=critical, env = prod,')).toEqual({
      ok: true,
      matchers: [
        { label: 'severity', op: '=', value: 'critical' },
        { label: 'env', op: '=', value: 'prod' },
      ],
    });
    expect(parseMatchers('')).toEqual({ ok: true, matchers: [] });
  });

  it('says where and why a text is not matchers', () => {
    expect(parseMatchers('severity critical')).toEqual({ ok: false, error: { code: 'matcher-syntax', params: { at: 9, problem: 'expected-operator' } } });
    expect(parseMatchers('a="unterminated')).toEqual({ ok: false, error: { code: 'matcher-syntax', params: { at: 2, problem: 'unterminated-quote' } } });
    expect(parseMatchers('=x')).toMatchObject({ ok: false, error: { params: { problem: 'expected-label' } } });
    expect(parseMatchers('a="1" b="2"')).toMatchObject({ ok: false, error: { params: { problem: 'expected-comma' } } });
  });

  it('formats back to the same text', () => {
    const text = 'severity=~"critical|page"';
    const parsed = parseMatchers(text);
    expect(parsed.ok && parsed.matchers.map(formatMatcher).join(', ')).toBe(text);
  });
});

const group = (labels: Record<string, string>, severity: string | null = labels.severity ?? null): AlertGroup => ({
  source: 'alertmanager',
  key: 'k',
  status: 'firing',
  title: 't',
  severity,
  groupLabels: {},
  commonLabels: labels,
  commonAnnotations: {},
  externalURL: null,
  truncatedAlerts: 0,
  alerts: [{ status: 'firing', labels, annotations: {}, startsAt: null, endsAt: null, fingerprint: 'f', generatorURL: null }],
});

const route = (id: number, position: number, over: Partial<Route> = {}): Route => ({
  id,
  name: `r${id}`,
  position,
  matchers: [],
  severities: [],
  policyId: 1,
  templateId: 't',
  variables: {},
  throughQuietHours: [],
  callOnResolved: false,
  isDefault: false,
  ...over,
});

describe('routeFor', () => {
  const routes = [
    route(9, 99, { name: '默认', isDefault: true }),
    route(2, 2, {
      name: 'db',
      matchers: [
        { label: 'service', op: '=~', value: 'db|mysql' },
        { label: 'env', op: '=', value: 'prod' },
      ],
    }),
    route(1, 1, { name: 'pages', severities: ['critical'] }),
  ];

  it('takes the first matching route by position and says why', () => {
    const r = routeFor(group({ service: 'db', env: 'prod', severity: 'critical' }), routes);
    expect(r.route?.id).toBe(1);
    expect(r.why).toEqual([{ code: 'matched', params: { route: 'pages', matchers: '', severity: 'critical' } }]);
  });

  it('explains each route passed: severity, then the first matcher that failed with the actual value', () => {
    const r = routeFor(group({ service: 'mysql', env: 'staging', severity: 'warning' }), routes);
    expect(r.route?.id).toBe(9);
    expect(r.why).toEqual([
      { code: 'skipped-severity', params: { route: 'pages', severity: 'warning', severities: 'critical' } },
      { code: 'skipped-matcher', params: { route: 'db', matcher: 'env="prod"', label: 'env', actual: 'staging' } },
      { code: 'default', params: { route: '默认' } },
    ]);
  });

  it('a group matching the second route, and a missing label is said to be missing', () => {
    expect(routeFor(group({ service: 'db', env: 'prod', severity: 'warning' }), routes).route?.id).toBe(2);
    const why = routeFor(group({ service: 'db' }, null), routes).why;
    expect(why[0]).toEqual({ code: 'skipped-severity', params: { route: 'pages', severity: '', severities: 'critical' } });
    expect(why[1]).toEqual({ code: 'skipped-label-missing', params: { route: 'db', matcher: 'env="prod"', label: 'env' } });
  });

  it('the default route comes last whatever its position; without one, none', () => {
    const rs = [route(1, 0, { isDefault: true }), route(2, 5, { matchers: [{ label: 'a', op: '=', value: '1' }] })];
    expect(routeFor(group({ a: '1' }), rs).route?.id).toBe(2);
    expect(routeFor(group({ a: '2' }), rs).route?.id).toBe(1);
    const none = routeFor(group({ a: '2' }), [rs[1]!]);
    expect(none.route).toBeNull();
    expect(none.why.at(-1)).toEqual({ code: 'none', params: {} });
  });

  it('a route with an invalid pattern takes nothing and says so', () => {
    const rs = [route(1, 1, { matchers: [{ label: 'a', op: '=~', value: '(' }] }), route(2, 2, { isDefault: true })];
    const r = routeFor(group({ a: '(' }), rs);
    expect(r.route?.id).toBe(2);
    expect(r.why[0]).toEqual({ code: 'skipped-invalid', params: { route: 'r1', matcher: 'a=~"("', problem: 'pattern-invalid' } });
  });

  it('matches a multi-alert group on its common labels only', () => {
    const g = group({ alertname: 'X', env: 'prod' });
    g.alerts.push({ ...g.alerts[0]!, labels: { alertname: 'X', env: 'prod', instance: 'h2' } });
    const rs = [route(1, 1, { matchers: [{ label: 'instance', op: '=', value: 'h2' }] }), route(2, 2, { isDefault: true })];
    expect(routeFor(g, rs).route?.id).toBe(2);
  });
});
