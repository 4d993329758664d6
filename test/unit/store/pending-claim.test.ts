// The cross-process guard "the same text to the same number while one is in flight": a send's
// `pending` row, claimed in one IMMEDIATE transaction. Another running process's claim refuses the
// same send; a claim left by a process that is gone does not block; recording the outcome releases it.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { openStore, type Store } from '../../../main/store';
import { processOwner } from '../../../main/store/process-owner';
import { tempHome } from '../../helpers/temp-home';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
function store(dir = tempHome()): Store {
  const s = openStore(dir.dir);
  cleanups.push(() => s.close());
  return s;
}
const home = () => {
  const h = tempHome();
  cleanups.push(h.cleanup);
  return h;
};
const send = { profile: 'p', baseUrl: 'http://127.0.0.1:1', apiId: 'id', mobile: '13800138000', content: '您的验证码是1234。', units: 1 };
/** The owner of a row written by another process that is still running (our parent: the test runner). */
const liveOther = processOwner(process.ppid);
const deadOwner = () => processOwner(Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString()));

describe('claiming a send (the pending row)', () => {
  it('refuses the same send while another running process holds it, across two connections to one database', () => {
    const h = home();
    const a = store(h);
    const b = store(h);
    const first = a.messages.claimPending(send);
    expect(first.claimed).toMatchObject({ outcome: 'pending', mobile: send.mobile });
    a.db.prepare('UPDATE messages SET owner = ? WHERE id = ?').run(liveOther, first.claimed!.id);

    const second = b.messages.claimPending(send);
    expect(second.busy).toMatchObject({ id: first.claimed!.id });
    expect(second.claimed).toBeUndefined();
    // Nothing was written for the refused one.
    expect(b.db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 1 });

    // Another text, number or profile is another send.
    expect(b.messages.claimPending({ ...send, mobile: '13800138001' }).claimed).toBeDefined();
    expect(b.messages.claimPending({ ...send, content: '另一条' }).claimed).toBeDefined();
    expect(b.messages.claimPending({ ...send, profile: 'q' }).claimed).toBeDefined();
  });

  it('is released when the outcome is recorded (accepted, rejected or unknown)', () => {
    const s = store();
    for (const record of [
      (id: number) => s.messages.markAccepted(id, { code: 2, msg: 'ok', smsid: 'S1', count: 1 }),
      (id: number) => s.messages.markRejected(id, { code: 403, msg: 'no' }),
      (id: number) => s.messages.markUnknown(id, { errorKind: 'provider-error', reason: { code: 'internal', params: {} } }),
    ]) {
      const m = s.messages.claimPending(send).claimed!;
      s.db.prepare('UPDATE messages SET owner = ? WHERE id = ?').run(liveOther, m.id);
      expect(s.messages.claimPending(send).busy).toBeDefined();
      record(m.id);
      const next = s.messages.claimPending(send);
      expect(next.claimed).toBeDefined();
      s.messages.markRejected(next.claimed!.id, { code: 403, msg: 'no' });
    }
  });

  it('a claim left by a process that is gone does not block (the row was interrupted)', () => {
    const s = store();
    const left = s.messages.claimPending(send).claimed!;
    s.db.prepare('UPDATE messages SET owner = ? WHERE id = ?').run(deadOwner(), left.id);
    const next = s.messages.claimPending(send);
    expect(next.claimed).toBeDefined();
    expect(next.claimed!.id).not.toBe(left.id);
  });

  it("this process's own pending rows are left to its in-memory guard (a row it could not settle never blocks it)", () => {
    const s = store();
    const own = s.messages.claimPending(send).claimed!;
    expect(s.messages.get(own.id)).toMatchObject({ outcome: 'pending' });
    expect(s.messages.claimPending(send).claimed).toBeDefined();
  });
});
