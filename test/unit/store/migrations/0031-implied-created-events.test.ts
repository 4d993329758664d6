import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import type { MessageEventRecord } from '../../../../common/records';
import { MessageRepository, type NewMessage } from '../../../../main/store/message-repository';
import { reason } from '../../../../common/reasons';
import { openAt, tempDbFile } from './temp-db';

// A message's first event is its row: the ones stored before go (but one that says more), and a
// message's events read the same, before and after, in the same order.

const T0 = Date.UTC(2026, 10, 1, 8);
const SECOND = 1000;

const send = (i: number): NewMessage => ({
  profile: '3f1c9a52-6a0e-4c8e-9d2b-7b5e2f1a9c41',
  baseUrl: 'https://api.example.com',
  apiId: 'C1',
  mobile: `1380013${String(i).padStart(4, '0')}`,
  content: `您好，订单 ${i} 已发货。`,
  units: 1,
});

/** Calls in each way one ends, their `created` event stored as every earlier build stored it. */
function seed(db: Database, count: number): void {
  let now = T0;
  const repo = new MessageRepository(db, () => now);
  for (let i = 0; i < count; i++) {
    now = T0 + i * 60 * SECOND;
    const m = repo.insertPending(send(i));
    db.prepare("INSERT INTO message_events (message_id, at, kind, state) VALUES (?, ?, 'created', 'pending')").run(m.id, now);
    now += 200;
    if (i % 5 === 4) {
      repo.markRejected(m.id, { code: 403, msg: '余额不足' });
      continue;
    }
    if (i % 6 === 5) {
      // A send that failed in the same millisecond its row was written: its events tie in time.
      now -= 200;
      repo.markUnknown(m.id, { errorKind: 'timeout', reason: reason('no-message-id', {}) });
      continue;
    }
    repo.markAccepted(m.id, { code: 2, msg: '提交成功', smsid: `V${String(i).padStart(8, '0')}`, count: 1 });
    now += 20 * SECOND;
    if (i % 3 === 0) repo.updateState(m.id, 'calling', {});
    now += 15 * SECOND;
    repo.updateState(m.id, i % 2 ? 'answered' : 'busy', { duration: i % 2 ? 12 : 0, final: true });
  }
}

const eventsOf = (db: Database) => {
  const repo = new MessageRepository(db);
  const ids = (db.prepare('SELECT id FROM messages ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  return ids.map((id) => repo.events(id));
};
/** What a person sees of an event (its id is only the timeline's key). */
const seen = (events: MessageEventRecord[][]) => events.map((list) => list.map(({ id: _id, ...e }) => e));
const stored = (db: Database, kind: string) => (db.prepare('SELECT count(*) AS n FROM message_events WHERE kind = ?').get(kind) as { n: number }).n;

describe('migration 0031: a message’s first event is its row', () => {
  it('the stored ones go; every message’s events read the same, in the same order', () => {
    const file = tempDbFile();
    const v30 = openAt(file, 30);
    seed(v30, 30);
    // One that says more than the row (a detail): kept, and read as it was.
    v30.prepare("UPDATE message_events SET detail = 'imported' WHERE message_id = 7 AND kind = 'created'").run();
    // And one at another time than the row's.
    v30.prepare("UPDATE message_events SET at = at + 5 WHERE message_id = 9 AND kind = 'created'").run();
    const before = eventsOf(v30);
    expect(before.every((list) => list.filter((e) => e.kind === 'created').length === 1 && list[0]!.kind === 'created')).toBe(true);
    expect(stored(v30, 'created')).toBe(30);
    const total = (v30.prepare('SELECT count(*) AS n FROM message_events').get() as { n: number }).n;
    v30.close();

    const db = openAt(file, 31);
    expect(stored(db, 'created')).toBe(2);
    expect((db.prepare('SELECT count(*) AS n FROM message_events').get() as { n: number }).n).toBe(total - 28);
    const after = eventsOf(db);
    expect(seen(after)).toEqual(seen(before));
    expect(after[6]![0]).toMatchObject({ kind: 'created', detail: 'imported' });
    expect(after[8]![0]).toMatchObject({ kind: 'created', at: T0 + 8 * 60 * SECOND + 5 });
    // Each event's key is still its own within the message.
    expect(after.every((list) => new Set(list.map((e) => e.id)).size === list.length)).toBe(true);
  });

  it('a new send stores no first event, and reads it from its row', () => {
    const db = openAt(tempDbFile(), 31);
    let now = T0;
    const repo = new MessageRepository(db, () => now);
    const m = repo.insertPending(send(1));
    expect(stored(db, 'created')).toBe(0);
    expect(repo.events(m.id)).toEqual([{ id: 0, messageId: m.id, at: T0, kind: 'created', state: 'pending', detail: null, reason: null }]);
    now += 300;
    repo.markAccepted(m.id, { code: 2, msg: '提交成功', smsid: 'V1', count: 1 });
    expect(repo.events(m.id).map((e) => [e.kind, e.at])).toEqual([
      ['created', T0],
      ['submitted', T0 + 300],
    ]);
    // A message that is not there has no events.
    expect(repo.events(m.id + 1)).toEqual([]);
  });
});
