import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import type { HistoryFilter } from '../../../../common/history-types';
import { HistoryRepository } from '../../../../main/store/history-repository';
import { MessageRepository, type NewMessage } from '../../../../main/store/message-repository';
import { processOwner } from '../../../../main/store/process-owner';
import { reason } from '../../../../common/reasons';
import { openAt, tempDbFile } from './temp-db';

// Messages keep their profile by the short key exchanges use: rows stored before are given it, and
// every read (a record, History's lists and counts, the overview, the follower's and the receipts'
// lookups, the same-send guard) finds them as it did, by the profile's id, also while some rows
// still keep the id (an upgrade not yet done).

const T0 = Date.UTC(2026, 10, 1, 8);
const HOUR = 3_600_000;
const A = '3f1c9a52-6a0e-4c8e-9d2b-7b5e2f1a9c41';
const B = 'b7e04d19-2c5f-4b8a-a1e6-0d9f3c7a5e28';
const profileOf = (i: number) => (i % 3 === 2 ? B : A);

const send = (i: number): NewMessage => ({
  profile: profileOf(i),
  baseUrl: 'https://api.example.com',
  apiId: 'C1',
  mobile: `1380013${String(i).padStart(4, '0')}`,
  content: `您好，订单 ${i} 已发货。`,
  units: 1,
});

/** Messages of both profiles over three days, in every outcome a call can end in. */
function seed(db: Database, from: number, to: number): void {
  let now = T0;
  const repo = new MessageRepository(db, () => now);
  for (let i = from; i < to; i++) {
    now = T0 + i * 2 * HOUR + (i % 4) * 60_000;
    const m = repo.insertPending(send(i));
    if (i % 5 === 4) {
      repo.markRejected(m.id, { code: 403, msg: '余额不足' });
      continue;
    }
    repo.markAccepted(m.id, { code: 2, msg: '提交成功', smsid: `V${String(i).padStart(8, '0')}`, count: 1 });
    if (i % 7 === 3) continue; // still open: followed at the next start
    if (i % 11 === 5) {
      repo.endTracking(m.id, reason('tracking-profile', { error: 'not-found' }));
      continue;
    }
    repo.updateState(m.id, i % 2 ? 'answered' : 'busy', { duration: i % 2 ? 20 + i : 0, final: true });
  }
}

const FILTERS: HistoryFilter[] = [
  {},
  { profiles: [A] },
  { profiles: [B] },
  { profiles: [A, B] },
  { profiles: [A], states: ['answered'] },
  { profiles: [B], search: '订单' },
];

/** What a person and the call engine see of the store's messages. */
function seen(db: Database) {
  const messages = new MessageRepository(db);
  const history = new HistoryRepository(db);
  const ids = (db.prepare('SELECT id FROM messages ORDER BY id').all() as { id: number }[]).map((r) => r.id);
  const pages = (f: HistoryFilter) => {
    const out: number[] = [];
    let cursor: string | undefined;
    do {
      const page = history.page(f, { limit: 4, ...(cursor ? { cursor } : {}) });
      out.push(...page.rows.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return out;
  };
  const overview = (profileId: string | null, utcOffsetMinutes: number) =>
    history.overview({ from: T0 - 24 * HOUR, to: T0 + 5 * 24 * HOUR, profileId, utcOffsetMinutes });
  return {
    records: ids.map((id) => messages.get(id)),
    pages: FILTERS.map(pages),
    counts: FILTERS.map((f) => history.count(f)),
    overviews: [null, A, B].flatMap((p) => [overview(p, 480), overview(p, 330)]),
    open: [A, B].map((p) => messages.openMessages(p).map((m) => m.id)),
    bySmsid: [A, B].map((p) => messages.findBySmsid('V00000001', p)?.id ?? null),
    durations: [A, B].map((p) => messages.recentDurations(p)),
  };
}

const rowBytes = (db: Database) => (db.prepare('SELECT sum(length(CAST(profile AS BLOB))) AS n FROM messages').get() as { n: number }).n;

describe('migration 0029: messages keep their profile by its key', () => {
  it('rows stored before are given keys; every record, list, count, overview and lookup is the same', () => {
    const file = tempDbFile();
    const v28 = openAt(file, 28);
    seed(v28, 0, 36);
    const before = seen(v28);
    expect(before.records.every((r) => r !== undefined && [A, B].includes(r.profile))).toBe(true);
    expect(before.pages[1]!.length).toBeGreaterThan(4);
    expect(before.open.flat().length).toBeGreaterThan(0);
    expect(before.bySmsid[0]).not.toBeNull();
    expect(before.durations[0]!.length).toBeGreaterThan(0);
    const bytesBefore = rowBytes(v28);
    const stats = v28.prepare('SELECT hour, outcome, state, sum(n) AS n, sum(units) AS units FROM message_stats GROUP BY 1, 2, 3 ORDER BY 1, 2, 3').all();
    v28.close();

    const db = openAt(file, 29);
    // Each row keeps ' #' and a key: a few bytes where the id took 36.
    expect(db.prepare("SELECT count(*) AS n FROM messages WHERE profile NOT LIKE ' #%'").get()).toEqual({ n: 0 });
    expect(rowBytes(db)).toBeLessThan(bytesBefore / 9);
    // The hourly counts followed their rows: the same sums, none left under the id.
    expect(db.prepare('SELECT hour, outcome, state, sum(n) AS n, sum(units) AS units FROM message_stats GROUP BY 1, 2, 3 ORDER BY 1, 2, 3').all()).toEqual(
      stats,
    );
    expect(db.prepare("SELECT count(*) AS n FROM message_stats WHERE profile NOT LIKE ' #%'").get()).toEqual({ n: 0 });
    expect(seen(db)).toEqual(before);
  });

  it('new sends keep the key; while some rows still keep the id, every read finds both', () => {
    const db = openAt(tempDbFile(), 29);
    seed(db, 0, 24);
    expect(db.prepare("SELECT count(*) AS n FROM messages WHERE profile NOT LIKE ' #%'").get()).toEqual({ n: 0 });
    const all = seen(db);
    // Half the rows as an upgrade not yet done leaves them: the id itself (the counts follow them).
    db.prepare("UPDATE messages SET profile = (SELECT profile FROM profile_keys WHERE ' #' || key = messages.profile) WHERE id % 2 = 0").run();
    expect((db.prepare("SELECT count(*) AS n FROM messages WHERE profile NOT LIKE ' #%'").get() as { n: number }).n).toBe(12);
    expect(seen(db)).toEqual(all);
  });

  it('the same-send guard sees a send in flight in another process, whichever form its row keeps', () => {
    const db = openAt(tempDbFile(), 29);
    const repo = new MessageRepository(db, () => T0);
    // Another running process's pending send (its owner is alive: this test's own parent process).
    const other = processOwner(process.ppid);
    for (const form of ['key', 'id'] as const) {
      const m = repo.insertPending(send(1));
      db.prepare('UPDATE messages SET owner = ? WHERE id = ?').run(other, m.id);
      if (form === 'id') db.prepare('UPDATE messages SET profile = ? WHERE id = ?').run(A, m.id);
      const claim = repo.claimPending(send(1));
      expect(claim.busy?.id, form).toBe(m.id);
      expect(claim.busy?.profile).toBe(A);
      db.prepare("UPDATE messages SET outcome = 'unknown' WHERE id = ?").run(m.id);
    }
    // Another profile's same text to the same number is not the same send.
    expect(repo.claimPending(send(2)).claimed).toBeDefined();
  });
});
