// Paging on the command line, in both languages: `callout incidents list|show|ack|resolve|export`,
// `callout oncall now` and `callout page test`, on a data directory configured through the handler
// table (as the app would), on the manual clock.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/clock';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices } from '../../../main/services';
import { openDatabase } from '../../../main/store/database';
import { IncidentRepository } from '../../../main/store/incident-repository';
import { databasePath } from '../../../main/store/paths';
import { tempHome } from '../../helpers/temp-home';
import { cliOn } from '../cli/run-cli';

// Friday 27 November 2026, 10:00 in Shanghai.
const START = Date.UTC(2026, 10, 27, 2, 0, 0);
const FIXTURE = readFileSync(join(__dirname, '../../fixtures/paging/alertmanager-v4-firing.json'), 'utf8');

let home: { dir: string; cleanup: () => void };
let clock: ManualClock;
let env: NodeJS.ProcessEnv;

/** Configures the data directory through the handler table, as the app's On call screen would. */
async function seed(): Promise<{ incidentId: number }> {
  const services = await createServices({
    home: home.dir,
    clock,
    sandbox: false,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 't' } },
    receipts: 'on-demand',
  });
  const handlers = createHandlers(services);
  const call = async <T>(channel: string, input?: unknown): Promise<T> => {
    const r = await dispatch(handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.code), r.error);
    return r.value as T;
  };
  try {
    const wang = await call<{ id: number }>('contacts.save', { name: '王工', mobile: '13800000018' });
    const li = await call<{ id: number }>('contacts.save', { name: '李雷', mobile: '13800000028' });
    await call('templates.save', { id: 'alert', content: '告警：【变量】，请处理。', approved: true, markerNames: ['summary'] });
    const policy = await call<{ id: number }>('paging.savePolicy', {
      name: 'SRE',
      steps: [{ target: { kind: 'contact', contactId: wang.id }, attempts: 1, retrySeconds: 60, pauseSeconds: 60 }],
      repeat: 0,
      minAnsweredSeconds: 0,
    });
    await call('paging.saveRoute', {
      name: 'Critical',
      position: 0,
      matchers: [{ label: 'severity', op: '=', value: 'critical' }],
      severities: [],
      policyId: policy.id,
      templateId: 'alert',
      variables: { summary: '{{labels.alertname}}' },
      throughQuietHours: [],
      callOnResolved: false,
      isDefault: false,
    });
    // A weekly rotation handing over on Mondays at 10:00 Shanghai time: 王工 this week, 李雷 from Monday 30 November.
    await call('paging.saveSchedule', {
      name: 'SRE week',
      rotation: {
        participants: [wang.id, li.id],
        shift: { count: 1, unit: 'week' },
        handover: '10:00',
        timeZone: 'Asia/Shanghai',
        start: Date.UTC(2026, 10, 23, 2, 0, 0),
      },
    });
    const incident = await call<{ id: number }>('paging.paste', { text: FIXTURE });
    return { incidentId: incident.id };
  } finally {
    await services.close();
  }
}

beforeEach(() => {
  home = tempHome('callout-paging-cli-');
  clock = new ManualClock(START);
  env = { CALLOUT_HOME: home.dir, TZ: 'Asia/Shanghai' };
});
afterEach(() => home.cleanup());

describe('callout incidents', () => {
  it.each([
    ['en', 'open', 'acknowledged by 值班长', 'Incident #1 acknowledged by 值班长'],
    ['zh-CN', '未处理', '已确认（值班长）', '事件 #1 已由 值班长 确认'],
  ] as const)('lists, shows and acknowledges an incident (%s)', async (lang, openWord, ackWord, ackLine) => {
    const { incidentId } = await seed();
    const cli = cliOn(clock);
    const listed = await cli(['--lang', lang, 'incidents', 'list'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`#${incidentId}`);
    expect(listed.stdout).toContain(openWord);
    expect(listed.stdout).toContain('ProbeFailure');

    const acked = await cli(['--lang', lang, 'incidents', 'ack', String(incidentId), '--by', '值班长'], env);
    expect(acked.code, acked.stderr).toBe(0);
    expect(acked.stdout).toContain(ackLine);

    const json = await cli(['--json', 'incidents', 'list'], env);
    expect(json.json).toMatchObject([{ id: incidentId, state: 'acknowledged', acknowledgedBy: '值班长', acknowledgedAt: new Date(START).toISOString() }]);

    // Acknowledged twice: refused clearly, exit 2.
    const again = await cli(['--lang', lang, 'incidents', 'ack', String(incidentId)], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(lang === 'en' ? 'already acknowledged' : '已被确认');

    const shown = await cli(['--lang', lang, 'incidents', 'show', `#${incidentId}`], env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(ackWord);
    expect(shown.stdout).toContain(lang === 'en' ? '1 alert' : '1 条告警');
  });

  it('refuses an incident that does not exist, and a number that is not one', async () => {
    await seed();
    const cli = cliOn(clock);
    const missing = await cli(['--lang', 'en', 'incidents', 'resolve', '42'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('There is no incident #42.');
    const bad = await cli(['--lang', 'zh-CN', 'incidents', 'show', 'abc'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('事件用编号表示');
  });

  it('resolves an incident and exports its calls as CSV with a summary', async () => {
    const { incidentId } = await seed();
    const cli = cliOn(clock);
    const resolved = await cli(['--json', 'incidents', 'resolve', String(incidentId), '--by', 'ops'], env);
    expect(resolved.json).toMatchObject({ id: incidentId, state: 'resolved', resolvedBy: 'ops' });
    const file = join(home.dir, 'incident.csv');
    const exported = await cli(['--lang', 'en', 'incidents', 'export', String(incidentId), '--csv', file], env);
    expect(exported.code, exported.stderr).toBe(0);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain('Mobile');
  });
});

describe('callout incidents show: a call on resolution', () => {
  it.each([
    ['en', 'resolution call', 'Resolution call: each person who answered a call of this incident was called once more.'],
    ['zh-CN', '恢复通知', '恢复通知：已再次呼叫每位接听过此事件呼叫的人。'],
  ] as const)('marks the resolution call and says what became of it (%s)', async (lang, mark, sentence) => {
    const { incidentId } = await seed();
    // What the engine of the app or `page serve` records (the CLI places no call): 王工 answered, the alert resolved, 王工 called again.
    const db = openDatabase(databasePath(home.dir));
    const incidents = new IncidentRepository(db, () => START);
    for (const resolution of [false, true]) {
      const id = incidents.addCall({
        incidentId,
        actionId: null,
        round: 0,
        stepIndex: 0,
        attempt: 1,
        contactId: 1,
        name: '王工',
        mobile: '13800000018',
        dueAt: START,
        resolution,
      });
      incidents.updateCall(id, { result: 'answered', endedAt: START });
    }
    incidents.resolve(incidentId, null);
    incidents.setResolutionCall(incidentId, 'placed');
    db.close();
    const shown = await cliOn(clock)(['--lang', lang, 'incidents', 'show', String(incidentId)], env);
    expect(shown.code, shown.stderr).toBe(0);
    const calls = shown.stdout.split('\n').filter((l) => l.includes('王工'));
    expect(calls).toHaveLength(2);
    expect(calls[0]).not.toContain(mark);
    expect(calls[1]).toContain(mark);
    expect(shown.stdout).toContain(sentence);
    const json = await cliOn(clock)(['--json', 'incidents', 'show', String(incidentId)], env);
    expect(json.json).toMatchObject({ incident: { resolutionCall: 'placed' }, calls: [{ resolution: false }, { resolution: true }] });
  });
});

describe('callout oncall now', () => {
  it.each([
    ['en', 'On call now: 王工 13800000018, until 2026-11-30 10:00', 'Next: 李雷 13800000028, from 2026-11-30 10:00'],
    ['zh-CN', '当前值班：王工 13800000018，至 2026-11-30 10:00', '下一班：李雷 13800000028，从 2026-11-30 10:00 开始'],
  ] as const)('says who is on call now and next, in the schedule’s time zone (%s)', async (lang, now, next) => {
    await seed();
    const cli = cliOn(clock);
    const r = await cli(['--lang', lang, 'oncall', 'now'], { ...env, TZ: 'UTC' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('SRE week (Asia/Shanghai)'.replace(' (', lang === 'en' ? ' (' : '（').replace(')', lang === 'en' ? ')' : '）'));
    expect(r.stdout).toContain(now);
    expect(r.stdout).toContain(next);
  });

  it('hands over at the handover time, and names an unknown schedule clearly', async () => {
    await seed();
    const later = new ManualClock(Date.UTC(2026, 10, 30, 2, 0, 0));
    const r = await cliOn(later)(['--json', 'oncall', 'now', 'SRE week'], env);
    expect(r.json).toMatchObject([
      { schedule: 'SRE week', now: { name: '李雷' }, next: { name: '王工', from: new Date(Date.UTC(2026, 11, 7, 2, 0, 0)).toISOString() } },
    ]);
    const unknown = await cliOn(clock)(['--lang', 'en', 'oncall', 'now', 'DBA'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no schedule "DBA". Schedules: SRE week');
  });
});

describe('callout page test', () => {
  it('receives a test alert and says its incident and route', async () => {
    await seed();
    const cli = cliOn(clock);
    const r = await cli(['--lang', 'en', 'page', 'test', '--label', 'service=orders'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Test alert received: incident #2 \(open\)\./);
    expect(r.stdout).toContain('Route: Critical');
    expect(r.stdout).toContain('The call says: 告警：CalloutTest，请处理。');
    const json = await cli(['--json', 'incidents', 'show', '2'], env);
    expect(json.json).toMatchObject({ incident: { source: 'test', severity: 'critical', state: 'triggered' } });
    // The CLI places no call itself: the first step waits in the store for the app or `callout page serve`.
    expect((json.json as { calls: unknown[] }).calls).toEqual([]);
    expect((json.json as { nextAt: number | null }).nextAt).toBe(START);
    const bad = await cli(['--lang', 'zh-CN', 'page', 'test', '--label', 'novalue'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--label 的格式是');
  });
});

describe('callout page paste', () => {
  it('previews without receiving, receives, and says where an unreadable alert is wrong (both languages)', async () => {
    await seed();
    const cli = cliOn(clock);
    const file = join(__dirname, '../../fixtures/paging/plain.json');
    const preview = await cli(['--lang', 'en', 'page', 'paste', file, '--preview'], env);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toContain('Route “Critical” takes this alert: all its conditions match.');
    expect(preview.stdout).toContain('The call says: 告警：订单库主从延迟，请处理。');
    expect((await cli(['--json', 'incidents', 'list'], env)).json).toHaveLength(1);

    const received = await cli(['--lang', 'zh-CN', 'page', 'paste', file], env);
    expect(received.code, received.stderr).toBe(0);
    expect(received.stdout).toContain('已收到告警：事件 #2');

    const bad = join(home.dir, 'bad.json');
    writeFileSync(bad, '{"version":"4","groupKey":"x","status":"firing","alerts":[{"status":"burning","labels":{}}]}');
    const en = await cli(['--lang', 'en', 'page', 'paste', bad], env);
    expect(en.code).toBe(2);
    expect(en.stderr).toContain('Callout’s own JSON. alerts[0].status must be firing or resolved.');
    const zh = await cli(['--lang', 'zh-CN', '--json', 'page', 'paste', bad], env);
    expect(zh.code).toBe(2);
    expect(zh.json).toMatchObject({ error: { kind: 'paging', field: 'alerts[0].status', problem: 'invalid-status' } });
    expect((await cli(['--json', 'incidents', 'list'], env)).json).toHaveLength(2);
  });
});
