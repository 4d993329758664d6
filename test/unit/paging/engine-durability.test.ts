// Paging survives a restart and a second process on the same data directory: every waiting step is
// a row first; a step that fell due while nothing ran runs once, late, and says so; of two
// processes only one pages an incident; a call a dead process may have placed is never placed again.
import { describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import { ManualClock } from '../../../main/clock';
import { MessageRepository } from '../../../main/store/message-repository';
import { PEOPLE, RING_MS, START, alertGroup, dataDirectory, rig } from './harness';

const [wang, li, zhang] = PEOPLE.map((p) => p.mobile) as [string, string, string];
const script = { [wang]: [{ state: 'no_answer' as const }], [li]: [{ state: 'busy' as const }], [zhang]: [{ state: 'answered' as const }] };

describe('paging engine: restarts', () => {
  it('a restart in the middle of a pause runs the next step once, late, and the incident says so', async () => {
    const clock = new ManualClock(START);
    const dir = dataDirectory();
    const before = rig(clock, dir, script);
    const incident = before.engine.receive(alertGroup('g1'))!;
    // 王工's three calls end at 3:30; 李雷 falls due at 5:30. The process stops at 4:10.
    await clock.advance(250_000);
    await before.engine.close();
    expect(before.sent.map((s) => s.mobile)).toEqual([wang, wang, wang]);
    expect(before.incidents.pendingCount(incident.id)).toBe(1);
    // Down until 8:20 (nothing runs), then two starts of the app on the same directory.
    await clock.advance(250_000);
    const after = rig(clock, dir, script);
    after.engine.resume();
    after.engine.resume();
    await clock.advance(15 * 60_000);
    expect(after.sent.map((s) => [s.mobile, (s.at - START) / 1000])).toEqual([
      [li, 500],
      [zhang, 650],
    ]);
    const d = after.engine.detail(incident.id);
    expect(d.incident.ended).toBe('answered');
    expect(d.steps.map((s) => [s.stepIndex, s.lateMs])).toEqual([
      [0, 0],
      [1, 170_000],
      [2, 0],
    ]);
    expect(d.calls.filter((c) => c.name === '李雷')).toHaveLength(1);
  });

  it('a call a process that is gone was placing, with no message to follow, is not placed again: the incident stops for a person', async () => {
    const clock = new ManualClock(START);
    const dir = dataDirectory();
    const gone = `${hostname()}:999999999`;
    const before = rig(clock, dir, script, { owner: gone });
    // It claimed the first step and wrote its call, then died before the send returned.
    const incident = before.engine.receive(alertGroup('g1'))!;
    await before.engine.close();
    before.db.prepare('UPDATE incident_calls SET message_id = NULL, smsid = NULL, result = NULL, ended_at = NULL').run();
    before.db.prepare("UPDATE paging_actions SET state = 'claimed', owner = ? WHERE id = (SELECT min(id) FROM paging_actions)").run(gone);
    before.db.prepare('DELETE FROM paging_actions WHERE id > (SELECT min(id) FROM paging_actions)').run();
    before.db.prepare('UPDATE incidents SET ended = NULL').run();
    const after = rig(clock, dir, script);
    after.engine.resume();
    await clock.advance(15 * 60_000);
    expect(after.sent).toHaveLength(0);
    const d = after.engine.detail(incident.id);
    expect(d.incident.ended).toBe('unknown-call');
    expect(d.calls.map((c) => c.result)).toEqual(['unknown']);
  });
  it('a call a process that is gone had placed (it has a message) is followed to its end, and the escalation goes on from there', async () => {
    const clock = new ManualClock(START);
    const dir = dataDirectory();
    const gone = `${hostname()}:999999999`;
    const before = rig(clock, dir, script, { owner: gone });
    const incident = before.engine.receive(alertGroup('g1'))!;
    // The first call left (message 1) and rang when the process died.
    await before.engine.close();
    before.db.prepare('UPDATE incident_calls SET result = NULL, state = NULL, ended_at = NULL').run();
    before.db.prepare("UPDATE paging_actions SET state = 'claimed', owner = ? WHERE id = (SELECT min(id) FROM paging_actions)").run(gone);
    before.db.prepare('DELETE FROM paging_actions WHERE id > (SELECT min(id) FROM paging_actions)').run();
    before.db.prepare('UPDATE incidents SET ended = NULL').run();
    const after = rig(clock, dir, script);
    after.engine.resume();
    await clock.advance(15 * 60_000);
    const d = after.engine.detail(incident.id);
    // Not placed again: followed (no answer), then attempts 2 and 3, 李雷, 张三.
    expect(after.sent.map((s) => s.mobile)).toEqual([wang, wang, li, zhang]);
    expect(d.calls.map((c) => [c.name, c.attempt, c.result])).toEqual([
      ['王工', 1, 'no-answer'],
      ['王工', 2, 'no-answer'],
      ['王工', 3, 'no-answer'],
      ['李雷', 1, 'busy'],
      ['张三', 1, 'answered'],
    ]);
    expect(d.incident.ended).toBe('answered');
  });
});

describe('paging engine: a step taken over after its calls ended', () => {
  it('a call that ended answered before the process died (its decision not written) ends the escalation: nobody is called again', async () => {
    const clock = new ManualClock(START);
    const dir = dataDirectory();
    const gone = `${hostname()}:999999999`;
    const before = rig(clock, dir, script, { owner: gone });
    const incident = before.engine.receive(alertGroup('g1'))!;
    // 王工's call was answered and recorded; the process died before it wrote what comes next.
    await before.engine.close();
    before.db.prepare('DELETE FROM incident_calls WHERE id > (SELECT min(id) FROM incident_calls)').run();
    before.db.prepare("UPDATE incident_calls SET result = 'answered', state = 'answered', ended_at = ?").run(START + 20_000);
    before.db.prepare("UPDATE paging_actions SET state = 'claimed', owner = ? WHERE id = (SELECT min(id) FROM paging_actions)").run(gone);
    before.db.prepare('DELETE FROM paging_actions WHERE id > (SELECT min(id) FROM paging_actions)').run();
    before.db.prepare('UPDATE incidents SET ended = NULL').run();
    const after = rig(clock, dir, script);
    after.engine.resume();
    await clock.advance(15 * 60_000);
    expect(after.sent).toHaveLength(0);
    const d = after.engine.detail(incident.id);
    expect(d.incident.ended).toBe('answered');
    expect(d.calls.map((c) => [c.name, c.result])).toEqual([['王工', 'answered']]);
  });
});

describe('paging engine: two processes on one data directory', () => {
  it('pages each incident from one process only, whichever received the post', async () => {
    const clock = new ManualClock(START);
    const dir = dataDirectory();
    const app = rig(clock, dir, script, { owner: 'app:1', ownerAlive: () => true, pollMs: 5_000 });
    const serve = rig(clock, dir, script, { owner: 'serve:2', ownerAlive: () => true, pollMs: 5_000 });
    app.engine.resume();
    serve.engine.resume();
    // Alertmanager posts the same group to both (two receivers), at once, and repeats it.
    const a = app.engine.receive(alertGroup('g1'))!;
    const b = serve.engine.receive(alertGroup('g1'))!;
    serve.engine.tick();
    app.engine.tick();
    expect(b.id).toBe(a.id);
    const other = serve.engine.receive(alertGroup('g2', 'firing', ['x'], { alertname: 'CpuHigh', severity: 'critical' }))!;
    for (let i = 0; i < 30; i++) {
      await clock.advance(30_000);
      app.engine.receive(alertGroup('g1'));
      serve.engine.receive(alertGroup('g1'));
    }
    const all = [...app.sent, ...serve.sent].sort((x, y) => x.at - y.at);
    // Two incidents, each escalated once: 王工 ×3, 李雷, 张三 — no call twice.
    const calls = (id: number) => app.engine.detail(id).calls.map((c) => [c.name, c.attempt, c.result]);
    expect(calls(a.id)).toEqual([
      ['王工', 1, 'no-answer'],
      ['王工', 2, 'no-answer'],
      ['王工', 3, 'no-answer'],
      ['李雷', 1, 'busy'],
      ['张三', 1, 'answered'],
    ]);
    expect(calls(other.id)).toEqual(calls(a.id));
    expect(all).toHaveLength(10);
    expect(app.incidents.list()).toHaveLength(2);
  });
});

describe('paging engine: a write it could not make', () => {
  it('another process holding the store past its busy wait fails a step’s write: the step is taken over at the next look, no call placed twice', async () => {
    const clock = new ManualClock(START);
    const dir = dataDirectory();
    const logged: string[] = [];
    const r = rig(clock, dir, script, { pollMs: 5_000, log: (e) => logged.push(String(e)) });
    r.engine.resume();
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(1_000);
    expect(r.sent.map((s) => s.mobile)).toEqual([wang]);
    // While 王工's first call rings, another process (a vacuum, an import) takes the write lock and
    // keeps it past this connection's busy wait: the call's end cannot be written.
    r.db.pragma('busy_timeout = 0');
    const other = dir.open();
    other.exec('BEGIN IMMEDIATE');
    await clock.advance(RING_MS);
    expect(r.incidents.callsOf(1)[0]).toMatchObject({ messageId: 1, result: null });
    expect(logged.join('\n')).toMatch(/database is locked/);
    other.exec('COMMIT');
    r.db.pragma('busy_timeout = 5000');
    // The next look (5 s later) takes the step over: the call that left is followed, not placed again.
    await clock.advance(15 * 60_000);
    expect(r.sent.map((s) => s.mobile)).toEqual([wang, wang, wang, li, zhang]);
    const d = r.engine.detail(incident.id);
    expect(d.incident.ended).toBe('answered');
    expect(d.calls.filter((c) => c.name === '王工').map((c) => [c.attempt, c.result])).toEqual([
      [1, 'no-answer'],
      [2, 'no-answer'],
      [3, 'no-answer'],
    ]);
  });
});

describe('paging engine: a write it could not make, beside calls still going', () => {
  it('a call of an all-at-once step still being placed when another call’s write fails is decided on once placed and ended, not called unknown meanwhile', async () => {
    const clock = new ManualClock(START);
    const dir = dataDirectory();
    const messages = new MessageRepository(dir.open(), () => clock.now());
    const sent: string[] = [];
    const r = rig(
      clock,
      dir,
      { [wang]: [{ state: 'answered' }], [li]: [{ state: 'busy' }], [zhang]: [{ state: 'no_answer' }] },
      {
        pollMs: 5_000,
        log: () => undefined,
        policy: { steps: [{ target: { kind: 'group', groupId: 1, mode: 'all-at-once' }, attempts: 1, retrySeconds: 60, pauseSeconds: 120 }] },
        send: async (profile, input) => {
          sent.push(input.mobile);
          // 王工's send waits 20 s for the provider's reply.
          if (input.mobile === wang) await clock.sleep(20_000);
          const m = messages.insertPending({ profile, baseUrl: 'http://sandbox', apiId: 'id', mobile: input.mobile, content: input.content, units: 1 });
          return { message: messages.markAccepted(m.id, { code: 2, msg: 'ok', smsid: `s${m.id}`, count: 1 }), failure: null };
        },
      },
    );
    // 李雷's call leaves, but its message ID cannot be written (the store held by another process).
    const updateCall = r.incidents.updateCall.bind(r.incidents);
    r.incidents.updateCall = (id, u) => {
      const call = r.incidents.callsOf(1).find((c) => c.id === id);
      if (call?.mobile === li && u.messageId !== undefined) throw new Error('database is locked');
      updateCall(id, u);
    };
    r.engine.resume();
    const incident = r.engine.receive(alertGroup('g1'))!;
    // The next look comes while 王工's send is still on its way: his call is not decided on yet.
    await clock.advance(6_000);
    expect(r.engine.detail(incident.id).incident.ended).toBeNull();
    await clock.advance(20_000 + RING_MS + 10_000);
    expect(sent.sort()).toEqual([wang, li, zhang].sort());
    const d = r.engine.detail(incident.id);
    expect(d.incident.ended).toBe('answered');
    expect(d.calls.map((c) => [c.name, c.result])).toEqual([
      ['王工', 'answered'],
      ['李雷', 'unknown'],
      ['张三', 'no-answer'],
    ]);
  });
});

describe('paging engine: a step written again', () => {
  it('a step taken over before any of its calls was written is listed once', async () => {
    const clock = new ManualClock(START);
    const r = rig(clock, dataDirectory(), script);
    const incident = r.engine.receive(alertGroup('g1'))!;
    // The takeover of a run that failed between writing its step and its first call writes the step again.
    r.incidents.addStep(incident.id, { round: 0, stepIndex: 0, dueAt: START });
    await clock.advance(15 * 60_000);
    const d = r.engine.detail(incident.id);
    expect(d.steps.map((s) => [s.round, s.stepIndex])).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
    ]);
  });
});

describe('paging engine: a store that says busy at once', () => {
  it('the link from a call to its message is written again, not lost: the escalation goes on as if nothing happened', async () => {
    const clock = new ManualClock(START);
    const dir = dataDirectory();
    const base = rig(clock, dir, script);
    await base.engine.close();
    // The same store, whose first write of a call's message ID answers "busy" (another process wrote first).
    let failed = 0;
    const incidents = new Proxy(base.incidents, {
      get(target, key, receiver) {
        if (key !== 'updateCall') return Reflect.get(target, key, receiver) as unknown;
        return (id: number, patch: { messageId?: number }) => {
          if (patch.messageId !== undefined && failed === 0) {
            failed++;
            throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY_SNAPSHOT' });
          }
          return target.updateCall(id, patch as never);
        };
      },
    });
    const r = rig(clock, dir, script, { incidents });
    const incident = r.engine.receive(alertGroup('g1'))!;
    await clock.advance(15 * 60_000);
    expect(failed).toBe(1);
    expect(r.sent.map((s) => s.mobile)).toEqual([wang, wang, wang, li, zhang]);
    expect(r.engine.detail(incident.id).incident.ended).toBe('answered');
  });
});
