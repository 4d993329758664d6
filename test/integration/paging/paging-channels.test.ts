// Paging through the handler table, on the manual clock: routes, policies, schedules and
// maintenance windows are kept; a pasted alert opens an incident that is shown, acknowledged and
// exported; two Services on one data directory (the app and `callout page serve`) page it once.
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/clock';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import type { PagingRules } from '../../../main/paging/deps';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services } from '../../../main/services';
import { tempHome } from '../../helpers/temp-home';
import { START, afterCall, alertGroup, heldBy } from '../../unit/paging/harness';
import { withStore } from '../../helpers/stored';

const rules: PagingRules = {
  routeFor: (_g, routes) => routes[0] ?? null,
  say: () => ({ content: '数据库磁盘已满，请处理。', templateId: null }),
  heldBy,
  afterCall,
  onCallAt: (s) => s.rotation.participants[0] ?? null,
};

const opened: Services[] = [];
const homes: { cleanup: () => void }[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  for (const h of homes.splice(0)) h.cleanup();
});

async function open(
  clock: ManualClock,
  dir: string,
): Promise<{
  services: Services;
  call: <T>(channel: string, input?: unknown) => Promise<T>;
  fails: (channel: string, input?: unknown) => Promise<{ code: string; params: unknown }>;
}> {
  const services = await createServices({
    home: dir,
    clock,
    sandbox: false,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 't' } },
    receipts: 'on-demand',
    paging: { rules },
  });
  opened.push(services);
  const handlers = createHandlers(services);
  return {
    services,
    call: async <T>(channel: string, input?: unknown) => {
      const r = await dispatch(handlers, channel, input);
      if (!r.ok) throw Object.assign(new Error(r.error.code), r.error);
      return r.value as T;
    },
    fails: async (channel: string, input?: unknown) => {
      const r = await dispatch(handlers, channel, input);
      if (r.ok) throw new Error(`${channel} succeeded`);
      return r.error;
    },
  };
}

async function configure(call: <T>(channel: string, input?: unknown) => Promise<T>): Promise<void> {
  const ids: number[] = [];
  for (const [name, mobile] of [
    ['王工', '13800000010'],
    ['李雷', '13800000021'],
    ['张三', '13800000037'],
  ])
    ids.push((await call<{ id: number }>('contacts.save', { name, mobile })).id);
  await call('dial.saveSettings', { scope: '*', perMinute: null, perHour: null, perDay: null, quietStart: null, quietEnd: null });
  const policy = await call<{ id: number }>('paging.savePolicy', {
    name: 'DBA',
    steps: ids.map((contactId) => ({ target: { kind: 'contact', contactId }, attempts: 2, retrySeconds: 60, pauseSeconds: 90 })),
    repeat: 0,
    minAnsweredSeconds: 0,
  });
  await call('paging.saveRoute', {
    name: 'default',
    position: 0,
    matchers: [],
    severities: [],
    policyId: policy.id,
    templateId: 'tpl',
    variables: {},
    throughQuietHours: ['critical'],
    callOnResolved: false,
    isDefault: true,
  });
}

describe('paging channels', () => {
  it('keeps the configuration, refuses what does not exist clearly, and shows, acknowledges and exports an incident', async () => {
    const clock = new ManualClock(START);
    const home = tempHome();
    homes.push(home);
    const { call, fails } = await open(clock, home.dir);
    await configure(call);
    expect(await call<unknown[]>('paging.routes')).toHaveLength(1);
    expect(
      await fails('paging.saveRoute', {
        name: 'x',
        position: 1,
        matchers: [],
        severities: [],
        policyId: 999,
        templateId: 't',
        variables: {},
        throughQuietHours: [],
        callOnResolved: false,
        isDefault: false,
      }),
    ).toMatchObject({ code: 'paging', params: { kind: 'policy-not-found', id: 999 } });
    expect(await fails('paging.removePolicy', { id: 1 })).toMatchObject({ code: 'paging', params: { kind: 'policy-in-use' } });
    const nobody = { target: { kind: 'contact', contactId: 999 }, attempts: 1, retrySeconds: 60, pauseSeconds: 60 };
    expect(await fails('paging.savePolicy', { name: 'x', steps: [nobody], repeat: 0, minAnsweredSeconds: 0 })).toMatchObject({
      code: 'not-found',
      params: { kind: 'contact' },
    });
    const noGroup = { target: { kind: 'group', groupId: 999, mode: 'one-by-one' }, attempts: 1, retrySeconds: 60, pauseSeconds: 60 };
    expect(await fails('paging.savePolicy', { name: 'x', steps: [noGroup], repeat: 0, minAnsweredSeconds: 0 })).toMatchObject({
      code: 'not-found',
      params: { kind: 'group', id: 999 },
    });
    expect(await fails('incidents.show', { id: 42 })).toMatchObject({ code: 'paging', params: { kind: 'incident-not-found' } });
    const schedule = await call<{ id: number; overrides: unknown[] }>('paging.saveSchedule', {
      name: 'DBA week',
      rotation: { participants: [1, 2], shift: { count: 1, unit: 'week' }, handover: '10:00', timeZone: 'Asia/Shanghai', start: START },
      overrides: [{ contactId: 3, from: START, to: START + 3_600_000 }],
    });
    expect(schedule.overrides).toHaveLength(1);
    const window = await call<{ id: number }>('paging.saveWindow', {
      name: 'upgrade',
      matchers: [{ label: 'alertname', op: '=', value: 'Upgrade' }],
      from: START,
      to: START + 3_600_000,
    });
    expect(await call<unknown[]>('paging.maintenance')).toHaveLength(1);

    const held = await call<{ id: number; state: string; heldBy: number }>('paging.receive', {
      group: alertGroup('held', 'firing', ['h'], { alertname: 'Upgrade', severity: 'critical' }),
    });
    expect(held).toMatchObject({ state: 'held', heldBy: window.id });
    const incident = await call<{ id: number }>('paging.receive', { group: alertGroup('g1') });
    await clock.advance(1_000);
    const acked = await call<{ acknowledgedBy: string; state: string }>('incidents.ack', { id: incident.id, by: '王工' });
    expect(acked).toMatchObject({ state: 'acknowledged', acknowledgedBy: '王工' });
    expect(await fails('incidents.ack', { id: incident.id, by: '王工' })).toMatchObject({ code: 'paging', params: { kind: 'incident-acknowledged' } });
    await clock.advance(30 * 60_000);
    const shown = await call<{ calls: { name: string }[]; incident: { ended: string } }>('incidents.show', { id: incident.id });
    expect(shown.incident.ended).toBe('acknowledged');
    // Acknowledged after the first call: nobody else is called.
    expect(shown.calls.map((c) => c.name)).toEqual(['王工']);
    const exported = await call<{ csv: string; summary: string }>('incidents.export', { id: incident.id, lang: 'zh-CN', utcOffsetMinutes: 480 });
    expect(exported.summary).toMatch(/^10:32 王工 /);
    expect(exported.csv.split('\r\n')[0]).toContain('时间');
    expect((await call<{ id: number }[]>('incidents.list', { held: true })).map((i) => i.id)).toEqual([held.id]);
  });

  it('two Services on one data directory: the same alert posted to both is one incident, paged from one of them', async () => {
    const clock = new ManualClock(START);
    const home = tempHome();
    homes.push(home);
    const app = await open(clock, home.dir);
    await configure(app.call);
    const serve = await open(clock, home.dir);
    const a = await app.call<{ id: number }>('paging.receive', { group: alertGroup('g1') });
    const b = await serve.call<{ id: number }>('paging.receive', { group: alertGroup('g1') });
    expect(b.id).toBe(a.id);
    for (let i = 0; i < 40; i++) {
      await clock.advance(30_000);
      await serve.call('paging.receive', { group: alertGroup('g1') });
    }
    const shown = await app.call<{ calls: { name: string; attempt: number; messageId: number | null }[] }>('incidents.show', { id: a.id });
    // Each person and attempt once, whatever became of the calls (no provider runs here).
    const keys = shown.calls.map((c) => `${c.name}#${c.attempt}`);
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys).size).toBe(keys.length);
    const sent = withStore(app.services.home, (s) => s.db.prepare('SELECT count(*) AS n FROM messages').get()) as { n: number };
    expect(sent.n).toBe(shown.calls.filter((c) => c.messageId !== null).length);
    expect(await app.call<unknown[]>('incidents.list')).toHaveLength(1);
  });
});
