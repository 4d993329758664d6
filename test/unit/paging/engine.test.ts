// The paging engine on the manual clock: an incident's escalation calls person after person until
// one answers; repeats add to the incident; a resolution, an acknowledgement or an unknown outcome
// stops it; limits and quiet hours apply (a route lets a severity through); maintenance holds.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/clock';
import { CalloutError, fail } from '../../../main/errors';
import { PEOPLE, START, alertGroup, dataDirectory, rig } from './harness';

const [wang, li, zhang] = PEOPLE.map((p) => p.mobile) as [string, string, string];

describe('paging engine: escalation', () => {
  it('calls the first person 3 times (no answer), moves on from a busy second at once, and ends answered by the third', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'no_answer' }], [li]: [{ state: 'busy' }], [zhang]: [{ state: 'answered', duration: 42 }] });
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(15 * 60_000);
    // 王工 at 0:00, 1:30, 3:00 (30 s ringing, 60 s apart); 李雷 after the 2 min pause; busy: no retry; 张三 2 min later.
    expect(r.sent.map((s) => [s.mobile, (s.at - START) / 1000])).toEqual([
      [wang, 0],
      [wang, 90],
      [wang, 180],
      [li, 330],
      [zhang, 480],
    ]);
    const d = r.engine.detail(incident.id);
    expect(d.incident).toMatchObject({ state: 'triggered', ended: 'answered' });
    expect(d.calls.map((c) => [c.name, c.attempt, c.result])).toEqual([
      ['王工', 1, 'no-answer'],
      ['王工', 2, 'no-answer'],
      ['王工', 3, 'no-answer'],
      ['李雷', 1, 'busy'],
      ['张三', 1, 'answered'],
    ]);
    expect(d.calls.every((c) => c.messageId !== null && c.smsid !== null)).toBe(true);
    expect(d.calls[4]).toMatchObject({ state: 'answered', duration: 42 });
    expect(d.steps.map((s) => [s.stepIndex, s.lateMs])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
    expect(d.nextAt).toBeNull();
    // History links each call to its incident.
    expect(r.incidents.incidentOfMessage(d.calls[3]!.messageId!)).toBe(incident.id);
  });

  it('adds a repeat post and a new alert of the group to the same incident, and places no further call for them', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'answered' }] });
    const first = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(60_000);
    expect(r.sent).toHaveLength(1);
    const again = r.engine.receive(alertGroup('g1'));
    const more = r.engine.receive(alertGroup('g1', 'firing', ['f1', 'f2']));
    await clock.advance(15 * 60_000);
    expect(again!.id).toBe(first.id);
    expect(more!.id).toBe(first.id);
    expect(r.sent).toHaveLength(1);
    expect(r.engine.detail(first.id).alerts.map((a) => a.fingerprint)).toEqual(['f1', 'f2']);
    expect(r.incidents.list()).toHaveLength(1);
  });

  it('a resolved post ends the incident and cancels its waiting step: nobody is phoned again, nor about the resolution', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'no_answer' }] });
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(40_000);
    expect(r.incidents.pendingCount(incident.id)).toBe(1);
    const resolved = r.engine.receive(alertGroup('g1', 'resolved'))!;
    expect(resolved).toMatchObject({ id: incident.id, state: 'resolved', ended: 'resolved', resolvedBy: null, resolvedAt: START + 40_000 });
    expect(r.incidents.pendingCount(incident.id)).toBe(0);
    await clock.advance(30 * 60_000);
    expect(r.sent.map((s) => s.mobile)).toEqual([wang]);
    // A later firing post of the group is a new incident.
    const next = r.engine.receive(alertGroup('g1'))!;
    expect(next.id).not.toBe(incident.id);
  });

  it('stops when a person acknowledges, and says who and when', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'no_answer' }] });
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(40_000);
    const acked = r.engine.acknowledge(incident.id, '王工');
    expect(acked).toMatchObject({ state: 'acknowledged', ended: 'acknowledged', acknowledgedBy: '王工', acknowledgedAt: START + 40_000 });
    await clock.advance(30 * 60_000);
    expect(r.sent).toHaveLength(1);
    expect(() => r.engine.acknowledge(incident.id, '李雷')).toThrow(CalloutError);
    const done = r.engine.resolve(incident.id, '李雷');
    expect(done).toMatchObject({ state: 'resolved', resolvedBy: '李雷' });
  });

  it('an answer shorter than the policy’s minimum (a voicemail pickup) does not stop it', async () => {
    const clock = new ManualClock(START);
    const r = rig(
      clock,
      dataDirectory(),
      {
        [wang]: [
          { state: 'answered', duration: 4 },
          { state: 'answered', duration: 35 },
        ],
      },
      { policy: { minAnsweredSeconds: 20 } },
    );
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(15 * 60_000);
    const d = r.engine.detail(incident.id);
    expect(d.calls.map((c) => [c.result, c.duration])).toEqual([
      ['short-answer', 4],
      ['answered', 35],
    ]);
    expect(d.incident.ended).toBe('answered');
  });

  it('never calls again when a call’s outcome is unknown: the incident stops for a person', async () => {
    const clock = new ManualClock(START);
    const r = rig(
      clock,
      dataDirectory(),
      {},
      {
        send: async () => {
          throw new Error('socket hang up after the request left');
        },
      },
    );
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(30 * 60_000);
    const d = r.engine.detail(incident.id);
    expect(d.incident.ended).toBe('unknown-call');
    expect(d.calls.map((c) => c.result)).toEqual(['unknown']);
    expect(d.nextAt).toBeNull();
  });

  it('moves on from a send refused before it left (nothing placed)', async () => {
    const clock = new ManualClock(START);
    let n = 0;
    const r = rig(
      clock,
      dataDirectory(),
      {},
      {
        send: async () => {
          n++;
          throw fail('invalid-mobile', { kind: 'length' } as never);
        },
      },
    );
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(30 * 60_000);
    expect(n).toBe(3);
    expect(r.engine.detail(incident.id).incident.ended).toBe('exhausted');
  });
});

describe('paging engine: quiet hours and maintenance', () => {
  it('quiet hours keep a warning from calling anyone, while the route lets a critical alert through', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'answered' }] }, { route: { throughQuietHours: ['critical'] } });
    r.settings.save({ scope: '*', perMinute: null, perHour: null, perDay: null, quietStart: '00:00', quietEnd: '23:59' });
    const warning = r.engine.receive(alertGroup('warn', 'firing', ['w1'], { alertname: 'Slow', severity: 'warning' }))!;
    await clock.advance(15 * 60_000);
    expect(r.sent).toHaveLength(0);
    const w = r.engine.detail(warning.id);
    expect(w.calls.map((c) => [c.name, c.result, c.refusal])).toEqual([
      ['王工', 'refused', 'quiet-hours'],
      ['李雷', 'refused', 'quiet-hours'],
      ['张三', 'refused', 'quiet-hours'],
    ]);
    expect(w.incident.ended).toBe('exhausted');
    const critical = r.engine.receive(alertGroup('crit'))!;
    await clock.advance(15 * 60_000);
    expect(r.sent.map((s) => s.mobile)).toEqual([wang]);
    expect(r.engine.detail(critical.id).incident.ended).toBe('answered');
  });

  it('the per-number limits of quick dial apply to paging', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'no_answer' }], [li]: [{ state: 'answered' }] });
    r.settings.save({ scope: '*', perMinute: 1, perHour: 2, perDay: null, quietStart: null, quietEnd: null });
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(15 * 60_000);
    const d = r.engine.detail(incident.id);
    expect(d.calls.map((c) => [c.name, c.result, c.refusal])).toEqual([
      ['王工', 'no-answer', null],
      ['王工', 'no-answer', null],
      ['王工', 'refused', 'per-hour'],
      ['李雷', 'answered', null],
    ]);
  });

  it('the per-minute limit holds a retry until the minute has passed, then calls the same person (it does not skip them)', async () => {
    const clock = new ManualClock(START);
    const r = rig(
      clock,
      dataDirectory(),
      { [wang]: [{ state: 'no_answer' }, { state: 'answered' }] },
      {
        policy: {
          steps: [
            { target: { kind: 'contact', contactId: 1 }, attempts: 3, retrySeconds: 10, pauseSeconds: 120 },
            { target: { kind: 'contact', contactId: 2 }, attempts: 1, retrySeconds: 60, pauseSeconds: 0 },
          ],
        },
      },
    );
    r.settings.save({ scope: '*', perMinute: 1, perHour: null, perDay: null, quietStart: null, quietEnd: null });
    const incident = r.engine.receive(alertGroup('g1'))!;
    // The first call rings 30 s; the retry falls due 10 s later, 40 s after the first call: held back.
    await clock.advance(45_000);
    expect(r.sent.map((s) => s.mobile)).toEqual([wang]);
    expect(r.engine.detail(incident.id).nextAt).toBe(r.sent[0]!.at + 60_000);
    await clock.advance(15 * 60_000);
    expect(r.sent.map((s) => [s.mobile, s.at - START])).toEqual([
      [wang, 0],
      [wang, 60_000],
    ]);
    const d = r.engine.detail(incident.id);
    expect(d.calls.map((c) => [c.name, c.result, c.refusal])).toEqual([
      ['王工', 'no-answer', null],
      ['王工', 'answered', null],
    ]);
    expect(d.incident.ended).toBe('answered');
  });

  it('a restart while a call waits for the per-minute limit places it once, when the minute has passed', async () => {
    const clock = new ManualClock(START);
    const dir = dataDirectory();
    const policy = { steps: [{ target: { kind: 'contact' as const, contactId: 1 }, attempts: 2, retrySeconds: 10, pauseSeconds: 120 }] };
    const first = rig(clock, dir, { [wang]: [{ state: 'no_answer' }] }, { policy });
    first.settings.save({ scope: '*', perMinute: 1, perHour: null, perDay: null, quietStart: null, quietEnd: null });
    const incident = first.engine.receive(alertGroup('g1'))!;
    await clock.advance(45_000);
    expect(first.sent).toHaveLength(1);
    await first.engine.close();
    const second = rig(clock, dir, { [wang]: [{ state: 'answered' }] }, { policy });
    second.engine.resume();
    await clock.advance(15 * 60_000);
    expect(second.sent.map((s) => [s.mobile, s.at - START])).toEqual([[wang, 60_000]]);
    expect(second.engine.detail(incident.id).calls.map((c) => c.result)).toEqual(['no-answer', 'answered']);
  });

  it('a maintenance window holds a matching alert: no call, and the held incident is listed', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), { [wang]: [{ state: 'answered' }] });
    const w = r.config.saveWindow({
      name: 'db upgrade',
      matchers: [{ label: 'alertname', op: '=', value: 'DiskFull' }],
      from: START - 60_000,
      to: START + 3_600_000,
    })!;
    const held = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(15 * 60_000);
    expect(held).toMatchObject({ state: 'held', ended: 'held', heldBy: w.id });
    expect(r.sent).toHaveLength(0);
    expect(r.incidents.list({ held: true }).map((i) => i.id)).toEqual([held.id]);
    // Another alert is not held.
    r.engine.receive(alertGroup('other', 'firing', ['o1'], { alertname: 'CpuHigh', severity: 'critical' }));
    await clock.advance(60_000);
    expect(r.sent).toHaveLength(1);
    // Still firing after the window: Alertmanager's repeat pages (a new incident; the held one is kept, closed).
    await clock.advanceTo(START + 3_600_000);
    const repeat = r.engine.receive(alertGroup('g1'))!;
    expect(repeat.id).not.toBe(held.id);
    await clock.advance(60_000);
    expect(r.sent.map((s) => s.mobile)).toEqual([expect.any(String), wang]);
    expect(r.engine.detail(held.id).incident).toMatchObject({ state: 'resolved', ended: 'held' });
  });
});
