// Calling on resolution (a route's callOnResolved) on the manual clock: when the alerts of an
// incident resolve, each person who answered one of its calls gets one more call, with the route's
// template filled from the resolved group — once, whatever repeats, restarts or takeovers happen;
// nobody answered, or the option off: nobody is called.
import { describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import type { AlertGroup } from '../../../common/paging/types';
import { ManualClock } from '../../../main/clock';
import { PEOPLE, RING_MS, START, alertGroup, dataDirectory, rig, type Script } from './harness';

const [wang, li, zhang] = PEOPLE.map((p) => p.mobile) as [string, string, string];
// 王工 never answers, 李雷 is busy, 张三 answers (at 8:00 + ringing).
const script: Script = { [wang]: [{ state: 'no_answer' }], [li]: [{ state: 'busy' }], [zhang]: [{ state: 'answered' }] };
const said = (route: unknown, group: AlertGroup) => ({ content: group.status === 'resolved' ? '数据库磁盘已恢复' : '数据库磁盘已满', templateId: 'tpl' });
const on = { route: { callOnResolved: true }, say: said };

/** A process (its owner gone) places the answered call, then the resolution call, and dies while that rings. */
async function crashWhileResolutionCallRings() {
  const clock = new ManualClock(START);
  const dir = dataDirectory();
  const gone = `${hostname()}:999999999`;
  const before = rig(clock, dir, { [wang]: [{ state: 'answered' }] }, { ...on, owner: gone });
  const incident = before.engine.receive(alertGroup('g1'))!;
  await clock.advance(60_000);
  before.engine.receive(alertGroup('g1', 'resolved'));
  await clock.advance(RING_MS / 2);
  expect(before.sent).toHaveLength(2);
  await before.engine.close();
  return { clock, dir, before, incident };
}

describe('paging engine: calling on resolution', () => {
  it('calls the person who answered exactly once when the alert resolves, with the resolved text; a repeated resolved post calls nobody', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), script, on);
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(15 * 60_000);
    expect(r.sent.map((s) => s.mobile)).toEqual([wang, wang, wang, li, zhang]);
    r.engine.receive(alertGroup('g1', 'resolved'));
    await clock.advance(60_000);
    expect(r.engine.receive(alertGroup('g1', 'resolved'))).toBeNull();
    r.engine.resume();
    await clock.advance(15 * 60_000);
    expect(r.sent.slice(5)).toEqual([{ mobile: zhang, at: START + 15 * 60_000, content: '数据库磁盘已恢复' }]);
    const d = r.engine.detail(incident.id);
    expect(d.incident).toMatchObject({ state: 'resolved', resolvedBy: null, resolutionCall: 'placed' });
    expect(d.calls.filter((c) => c.resolution).map((c) => [c.name, c.result])).toEqual([['张三', 'answered']]);
    expect(d.calls.filter((c) => !c.resolution)).toHaveLength(5);
    expect(d.nextAt).toBeNull();
  });

  it('acknowledged, then resolved by its alerts: the same rule (the person who answered is called once)', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'answered' }] }, on);
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(60_000);
    r.engine.acknowledge(incident.id, '王工');
    r.engine.receive(alertGroup('g1', 'resolved'));
    await clock.advance(5 * 60_000);
    expect(r.sent.map((s) => [s.mobile, s.content])).toEqual([
      [wang, '数据库磁盘已满'],
      [wang, '数据库磁盘已恢复'],
    ]);
    expect(r.engine.detail(incident.id).calls.map((c) => c.resolution)).toEqual([false, true]);
  });

  it('a call still ringing when the alert resolved counts once it is answered: its person gets the resolution call', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'answered' }] }, on);
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(10_000);
    r.engine.receive(alertGroup('g1', 'resolved'));
    await clock.advance(5 * 60_000);
    // 王工's call ends answered at 0:30; the resolution call follows at the next look (0:40).
    expect(r.sent.map((s) => [s.mobile, (s.at - START) / 1000, s.content])).toEqual([
      [wang, 0, '数据库磁盘已满'],
      [wang, 40, '数据库磁盘已恢复'],
    ]);
    expect(r.engine.detail(incident.id).incident.resolutionCall).toBe('placed');
  });

  it('nobody answered a call of the incident: nobody is called, and the incident says so', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'no_answer' }] }, on);
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(100_000);
    r.engine.receive(alertGroup('g1', 'resolved'));
    await clock.advance(15 * 60_000);
    expect(r.sent.map((s) => s.mobile)).toEqual([wang, wang]);
    const d = r.engine.detail(incident.id);
    expect(d.incident.resolutionCall).toBe('nobody-answered');
    expect(d.calls.some((c) => c.resolution)).toBe(false);
  });

  it('the route gone when the resolution call falls due: the incident says so, not that nobody answered', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'no_answer' }] }, on);
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(100_000);
    r.engine.receive(alertGroup('g1', 'resolved'));
    expect(r.config.removeRoute(r.route.id)).toBe(true);
    await clock.advance(15 * 60_000);
    expect(r.sent.map((s) => s.mobile)).toEqual([wang, wang]);
    expect(r.engine.detail(incident.id).incident.resolutionCall).toBe('no-route');
  });

  it('the option off (the default), or a person resolving it: nobody is phoned about the resolution', async () => {
    const clock = new ManualClock(START);
    const off = rig(clock, dataDirectory(), { [wang]: [{ state: 'answered' }] });
    const a = off.engine.receive(alertGroup('g1'))!;
    await clock.advance(60_000);
    off.engine.receive(alertGroup('g1', 'resolved'));
    await clock.advance(15 * 60_000);
    expect(off.sent).toHaveLength(1);
    expect(off.engine.detail(a.id).incident.resolutionCall).toBeNull();

    const byHand = rig(clock, dataDirectory(), { [wang]: [{ state: 'answered' }] }, on);
    const b = byHand.engine.receive(alertGroup('g2'))!;
    await clock.advance(60_000);
    byHand.engine.resolve(b.id, '王工');
    await clock.advance(15 * 60_000);
    expect(byHand.sent).toHaveLength(1);
    expect(byHand.engine.detail(b.id).incident.resolutionCall).toBeNull();
  });

  it('a resolution call refused by quiet hours is recorded as refused and never tried again', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'answered' }] }, on);
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(60_000);
    // Quiet all day from now on.
    r.settings.save({ scope: '*', perMinute: null, perHour: null, perDay: null, quietStart: '00:00', quietEnd: '23:59' });
    r.engine.receive(alertGroup('g1', 'resolved'));
    await clock.advance(24 * 60 * 60_000);
    expect(r.sent).toHaveLength(1);
    const d = r.engine.detail(incident.id);
    expect(d.calls.filter((c) => c.resolution).map((c) => [c.result, c.refusal])).toEqual([['refused', 'quiet-hours']]);
    // The incident does not claim that anyone was called about the resolution.
    expect(d.incident.resolutionCall).toBe('refused');
  });

  it('a resolution call held back only by the per-minute limit is placed when the minute has passed (not refused)', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'answered' }] }, on);
    r.settings.save({ scope: '*', perMinute: 1, perHour: null, perDay: null, quietStart: null, quietEnd: null });
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(10_000);
    r.engine.receive(alertGroup('g1', 'resolved'));
    await clock.advance(5 * 60_000);
    // 王工 was called at 0:00 and answered; one call a minute: the resolution call goes at 1:00.
    expect(r.sent.map((s) => [s.mobile, (s.at - START) / 1000, s.content])).toEqual([
      [wang, 0, '数据库磁盘已满'],
      [wang, 60, '数据库磁盘已恢复'],
    ]);
    const d = r.engine.detail(incident.id);
    expect(d.calls.filter((c) => c.resolution).map((c) => [c.result, c.refusal])).toEqual([['answered', null]]);
    expect(d.incident.resolutionCall).toBe('placed');
  });

  it('a step call left ringing by a process that is gone, the alert resolved since: followed to its answer, and its person gets the resolution call', async () => {
    const clock = new ManualClock(START);
    const dir = dataDirectory();
    const before = rig(clock, dir, { [wang]: [{ state: 'answered' }] }, { ...on, owner: `${hostname()}:999999999` });
    const incident = before.engine.receive(alertGroup('g1'))!;
    await clock.advance(10_000);
    await before.engine.close();
    const after = rig(clock, dir, { [wang]: [{ state: 'answered' }] }, on);
    after.engine.receive(alertGroup('g1', 'resolved'));
    after.engine.resume();
    await clock.advance(15 * 60_000);
    expect(after.sent.map((s) => [s.mobile, s.content])).toEqual([[wang, '数据库磁盘已恢复']]);
    const d = after.engine.detail(incident.id);
    expect(d.calls.map((c) => [c.resolution, c.result])).toEqual([
      [false, 'answered'],
      [true, 'answered'],
    ]);
    expect(d.incident.resolutionCall).toBe('placed');
  });

  it('two processes on one data directory, both given the resolved post (and its repeats): one resolution call', async () => {
    const clock = new ManualClock(START);
    const dir = dataDirectory();
    const app = rig(clock, dir, { [wang]: [{ state: 'answered' }] }, { ...on, owner: 'app:1', ownerAlive: () => true, pollMs: 5_000 });
    const serve = rig(clock, dir, { [wang]: [{ state: 'answered' }] }, { ...on, owner: 'serve:2', ownerAlive: () => true, pollMs: 5_000 });
    app.engine.resume();
    serve.engine.resume();
    const incident = app.engine.receive(alertGroup('g1'))!;
    await clock.advance(60_000);
    for (let i = 0; i < 5; i++) {
      app.engine.receive(alertGroup('g1', 'resolved'));
      serve.engine.receive(alertGroup('g1', 'resolved'));
      await clock.advance(30_000);
    }
    await clock.advance(10 * 60_000);
    expect([...app.sent, ...serve.sent].map((s) => s.content)).toEqual(['数据库磁盘已满', '数据库磁盘已恢复']);
    expect(app.engine.detail(incident.id).calls.map((c) => [c.resolution, c.result])).toEqual([
      [false, 'answered'],
      [true, 'answered'],
    ]);
  });

  it('taken over after a crash while the resolution call rang: not placed again, followed to its end', async () => {
    const { clock, dir, incident } = await crashWhileResolutionCallRings();
    const after = rig(clock, dir, { [wang]: [{ state: 'answered' }] }, on);
    after.engine.resume();
    after.engine.receive(alertGroup('g1', 'resolved'));
    await clock.advance(15 * 60_000);
    expect(after.sent).toHaveLength(0);
    const d = after.engine.detail(incident.id);
    expect(d.calls.map((c) => [c.resolution, c.result])).toEqual([
      [false, 'answered'],
      [true, 'answered'],
    ]);
    expect(after.incidents.pendingCount()).toBe(0);
  });

  it('taken over after a crash before the resolution call had a message: never placed again (unknown)', async () => {
    const { clock, dir, before, incident } = await crashWhileResolutionCallRings();
    // It wrote the call's row, then died before the send returned.
    before.db.prepare('UPDATE incident_calls SET message_id = NULL, smsid = NULL WHERE resolution = 1').run();
    const after = rig(clock, dir, { [wang]: [{ state: 'answered' }] }, on);
    after.engine.resume();
    await clock.advance(15 * 60_000);
    expect(after.sent).toHaveLength(0);
    expect(after.engine.detail(incident.id).calls.map((c) => [c.resolution, c.result])).toEqual([
      [false, 'answered'],
      [true, 'unknown'],
    ]);
  });
});
