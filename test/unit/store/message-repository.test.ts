import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { ManualClock } from '../../../main/clock';
import { openStore, type Store } from '../../../main/store';
import { RECENT_WINDOW } from '../../../main/store/message-repository';
import { processOwner } from '../../../main/store/process-owner';
import { tempHome } from '../../helpers/temp-home';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
function store(clock?: ManualClock): Store {
  const h = tempHome();
  const s = openStore(h.dir, { clock });
  cleanups.push(() => {
    s.close();
    h.cleanup();
  });
  return s;
}
const base = { profile: 'p', baseUrl: 'http://127.0.0.1:1', apiId: 'id', mobile: '13800138000', content: '您好', units: 1 };

describe('message repository', () => {
  it('writes a send as pending with a created event, then accepted with the smsid', () => {
    const s = store();
    const m = s.messages.insertPending(base);
    expect(m).toMatchObject({ outcome: 'pending', state: 'pending', smsid: null });
    const a = s.messages.markAccepted(m.id, { code: 2, msg: 'ok', smsid: 'abc', count: 1 });
    expect(a).toMatchObject({ outcome: 'accepted', code: 2, smsid: 'abc', billedUnits: 1 });
    expect(s.messages.events(m.id).map((e) => e.kind)).toEqual(['created', 'submitted']);
    expect(s.messages.findBySmsid('abc')?.id).toBe(m.id);
  });

  it('records a rejection with the provider code and ends the message', () => {
    const s = store();
    const m = s.messages.insertPending(base);
    const r = s.messages.markRejected(m.id, { code: 403, msg: 'not approved', errorKind: 'provider-code' });
    expect(r).toMatchObject({ outcome: 'rejected', code: 403, providerMsg: 'not approved' });
    expect(r.endedAt).not.toBeNull();
    expect(s.messages.openMessages()).toEqual([]);
  });

  it('finds the newest later send of the same text to the same number, for a message that was refused', () => {
    const s = store();
    const refused = s.messages.markRejected(s.messages.insertPending(base).id, { code: 402, msg: 'no balance', errorKind: 'provider-code' });
    expect(s.messages.laterSend(refused)).toBeUndefined();
    s.messages.insertPending({ ...base, mobile: '13900139000' });
    s.messages.insertPending({ ...base, content: '您好！' });
    const first = s.messages.markAccepted(s.messages.insertPending(base).id, { code: 2, msg: null, smsid: 'a', count: 1 });
    const second = s.messages.markAccepted(s.messages.insertPending(base).id, { code: 2, msg: null, smsid: 'b', count: 1 });
    expect(s.messages.laterSend(refused)?.id).toBe(second.id);
    expect(s.messages.laterSend(first)?.id).toBe(second.id);
    expect(s.messages.laterSend(second)).toBeUndefined();
  });

  it('adds a timeline event only when the state changes, and ends on a final state', () => {
    const s = store();
    const m = s.messages.insertPending(base);
    s.messages.markAccepted(m.id, { code: 2, msg: null, smsid: 'x', count: 1 });
    expect(s.messages.openMessages().map((o) => o.id)).toEqual([m.id]);
    s.messages.updateState(m.id, 'calling');
    s.messages.updateState(m.id, 'calling');
    const done = s.messages.updateState(m.id, 'answered', { duration: 18, final: true });
    expect(done).toMatchObject({ state: 'answered', duration: 18 });
    expect(done.endedAt).not.toBeNull();
    expect(
      s.messages
        .events(m.id)
        .filter((e) => e.kind === 'state')
        .map((e) => e.state),
    ).toEqual(['calling', 'answered']);
    expect(s.messages.openMessages()).toEqual([]);
  });

  it('marks a pending send of a dead process unknown, and leaves a live one alone', () => {
    const s = store();
    const mine = s.messages.insertPending(base);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(dead.stdout.toString());
    const orphan = s.messages.insertPending({ ...base, mobile: '13900000000' });
    s.db.prepare('UPDATE messages SET owner = ? WHERE id = ?').run(processOwner(deadPid), orphan.id);
    const recovered = s.messages.recoverInterrupted();
    expect(recovered.map((m) => m.id)).toEqual([orphan.id]);
    expect(s.messages.get(orphan.id)).toMatchObject({ outcome: 'unknown', errorKind: 'interrupted' });
    expect(s.messages.get(mine.id)?.outcome).toBe('pending');
  });

  it('claims the open calls no running process follows, and leaves another live process its own', () => {
    const s = store();
    const accepted = (mobile: string, owner: string | null) => {
      const m = s.messages.insertPending({ ...base, mobile });
      s.messages.markAccepted(m.id, { code: 2, msg: null, smsid: `s${mobile}`, count: 1 });
      s.db.prepare('UPDATE messages SET owner = ? WHERE id = ?').run(owner, m.id);
      return m.id;
    };
    // The process that placed a call is its owner once it is accepted.
    const placed = s.messages.insertPending({ ...base, mobile: '13700000001' });
    s.messages.markAccepted(placed.id, { code: 2, msg: null, smsid: 'placed', count: 1 });
    expect(s.db.prepare('SELECT owner FROM messages WHERE id = ?').get(placed.id)).toEqual({ owner: processOwner() });
    const deadPid = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
    const orphan = accepted('13700000002', processOwner(deadPid));
    const legacy = accepted('13700000003', null);
    const other = accepted('13700000004', processOwner(process.ppid)); // alive: the test runner's parent
    expect(s.messages.claimOrphanedOpen().map((m) => m.id)).toEqual([placed.id, orphan, legacy]);
    expect(s.db.prepare('SELECT owner FROM messages WHERE id = ?').get(orphan)).toEqual({ owner: processOwner() });
    expect(s.db.prepare('SELECT owner FROM messages WHERE id = ?').get(other)).toEqual({ owner: processOwner(process.ppid) });
    expect(s.messages.openMessages().map((m) => m.id)).toEqual([placed.id, orphan, legacy, other]);
  });
});

describe('what the Send screen reads back', () => {
  it('gives each template its latest send (by time) and the last numbers called, newest first, once each', () => {
    const clock = new ManualClock();
    const s = store(clock);
    const send = (mobile: string, content: string, templateId?: string) => {
      s.messages.insertPending({ ...base, mobile, content, templateId });
      clock.set(clock.now() + 1000);
    };
    send('13800000001', 'otp 1', 'otp');
    send('13800000002', 'alarm 1', 'alarm');
    send('13800000003', 'free text');
    send('13800000001', 'otp 2', 'otp');
    send('13800000004', 'alarm 2', 'alarm');
    // A template whose latest send has the same moment as an earlier one: the later row wins.
    s.messages.insertPending({ ...base, mobile: '13800000005', content: 'notice 1', templateId: 'notice' });
    s.messages.insertPending({ ...base, mobile: '13800000006', content: 'notice 2', templateId: 'notice' });
    const latest = Object.fromEntries(s.messages.latestPerTemplate().map((r) => [r.templateId, [r.content, r.mobile]]));
    expect(latest).toEqual({ otp: ['otp 2', '13800000001'], alarm: ['alarm 2', '13800000004'], notice: ['notice 2', '13800000006'] });
    expect(s.messages.recentMobiles(4)).toEqual(['13800000006', '13800000005', '13800000004', '13800000001']);
    expect(s.messages.recentMobiles()).toEqual(['13800000006', '13800000005', '13800000004', '13800000001', '13800000003', '13800000002']);
  });

  it('reads the numbers from the newest calls only: one called just before the newest window is no longer recent', () => {
    const clock = new ManualClock();
    const s = store(clock);
    s.messages.insertPending({ ...base, mobile: '13900000000' });
    for (let i = 0; i < RECENT_WINDOW; i++) {
      clock.set(clock.now() + 10);
      s.messages.insertPending({ ...base, mobile: i % 2 ? '13800000001' : '13800000002' });
    }
    expect(s.messages.recentMobiles()).toEqual(['13800000001', '13800000002']);
  });
});

describe('a batch a dead process left', () => {
  it('takes an item whose answer was written before the process died as accepted (a call to follow), the others as unknown', () => {
    const s = store();
    const b = s.batches.create({ profile: 'p', templateId: null, name: 'crash' }, [
      { rowNumber: 2, mobile: '13800138008', content: '您好', units: 1, status: 'queued' },
      { rowNumber: 3, mobile: '13800138018', content: '您好', units: 1, status: 'queued' },
    ]);
    const [answered, cut] = s.batches.items(b.id);
    s.batches.markInFlight(answered!.id);
    s.batches.markInFlight(cut!.id);
    const m = s.messages.insertPending({ ...base, mobile: '13800138008', batchItemId: answered!.id });
    s.messages.markAccepted(m.id, { code: 2, msg: null, smsid: 'S1', count: 1 });
    // Someone else called the other row's number with the same text meanwhile (quick dial): that call is not the row's.
    const other = s.messages.insertPending({ ...base, mobile: '13800138018' });
    s.messages.markAccepted(other.id, { code: 2, msg: null, smsid: 'S2', count: 1 });
    const deadPid = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
    s.db.prepare("UPDATE batches SET status = 'running', owner = ? WHERE id = ?").run(processOwner(deadPid), b.id);
    s.batches.recoverInterrupted();
    const [first, second] = s.batches.items(b.id);
    expect(first).toMatchObject({ status: 'accepted', messageId: m.id });
    expect(second).toMatchObject({ status: 'unknown' });
    // The resume follows the accepted call: it is one of the batch's open calls.
    expect(s.batches.openCalls(b.id)).toEqual([{ itemId: answered!.id, messageId: m.id }]);
    // A batch done sending still says how many of its calls ring, in the list too, until they end.
    s.db.prepare("UPDATE batches SET status = 'done' WHERE id = ?").run(b.id);
    expect(s.batches.list()[0]).toMatchObject({ id: b.id, status: 'done', calling: 1 });
    s.db.prepare('UPDATE messages SET ended_at = 1 WHERE id = ?').run(m.id);
    expect(s.batches.list()[0]).toMatchObject({ id: b.id, status: 'done', calling: 0 });
  });
});
