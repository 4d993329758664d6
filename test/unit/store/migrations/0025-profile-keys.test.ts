import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../../common/exchange';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { HistoryRepository } from '../../../../main/store/history-repository';
import { numberedExchange, openAt, tempDbFile } from './temp-db';

// Exchanges keep their profile by a short key: rows stored before keep the id, rows stored after a
// key of a few bytes, and both read back, filter and teach as the profile's id.

const T0 = Date.UTC(2026, 10, 1);
const A = '3f1c9a52-6a0e-4c8e-9d2b-7b5e2f1a9c41';
const B = 'b7e04d19-2c5f-4b8a-a1e6-0d9f3c7a5e28';

const exchange = (i: number, operation: Exchange['operation'] = i % 4 ? 'status' : 'send'): Exchange => numberedExchange(i, T0, { operation });

const profileOf = (i: number) => (i % 7 === 6 ? null : i % 2 ? B : A);

describe('migration 0025: profile keys', () => {
  it('rows stored before are given keys; all read back with the profile id, and filters and the teach preview find them', () => {
    const file = tempDbFile();
    const v24 = openAt(file, 24);
    const before = new ExchangeRepository(v24);
    for (let i = 0; i < 40; i++) before.insert(exchange(i), { profile: profileOf(i) });
    const stored = v24.prepare('SELECT * FROM exchanges ORDER BY id').all();
    v24.close();

    const db = openAt(file, 25);
    // The rows stored before are given their keys; nothing else of them changes.
    const without = (rows: unknown[]) => rows.map((r) => ({ ...(r as object), profile: undefined }));
    expect(without(db.prepare('SELECT * FROM exchanges ORDER BY id').all())).toEqual(without(stored));
    const after = new ExchangeRepository(db);
    for (let i = 40; i < 80; i++) after.insert(exchange(i), { profile: profileOf(i) });

    // What a row keeps: a short key (a few bytes, where the id took 36), before and after.
    const kept = db.prepare('SELECT id, profile FROM exchanges ORDER BY id').all() as Array<{ id: number; profile: string | null }>;
    kept.forEach((r, i) => expect(r.profile === null ? null : r.profile.length <= 4, `${r.id}: ${r.profile}`).toBe(profileOf(i) === null ? null : true));
    expect(db.prepare('SELECT profile FROM profile_keys ORDER BY key').all()).toEqual([{ profile: A }, { profile: B }]);

    // Every row reads back with its profile's id.
    for (let i = 0; i < 80; i++) expect(after.get(i + 1)?.profile, `exchange ${i + 1}`).toBe(profileOf(i));

    // A filter by profile: the rows of both kinds, newest first, page after page.
    const history = new HistoryRepository(db);
    for (const profiles of [[A], [B], [A, B]]) {
      const ids: number[] = [];
      let cursor: string | undefined;
      do {
        const page = history.listExchanges({ profiles, limit: 9, ...(cursor ? { cursor } : {}) });
        ids.push(...page.rows.map((r) => r.id));
        expect(page.rows.every((r) => r.profile !== null && profiles.includes(r.profile))).toBe(true);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      const expected = Array.from({ length: 80 }, (_, i) => i)
        .filter((i) => profiles.includes(profileOf(i) as string))
        .map((i) => i + 1)
        .reverse();
      expect(ids, profiles.join()).toEqual(expected);
    }
    // With another filter and a date range, too.
    const sendsOfA = (from: number, to: number) =>
      Array.from({ length: 80 }, (_, i) => i)
        .filter((i) => i % 4 === 0 && profileOf(i) === A && T0 + i * 1000 >= from && T0 + i * 1000 < to)
        .map((i) => i + 1)
        .reverse();
    expect(history.listExchanges({ profiles: [A], operation: 'send', from: T0 + 20_000, to: T0 + 60_000, limit: 100 }).rows.map((r) => r.id)).toEqual(
      sendsOfA(T0 + 20_000, T0 + 60_000),
    );

    // The teach preview: the newest of a profile's operations, from both kinds of rows.
    expect(after.recentForProfile(A, ['send'], 100).map((r) => r.id)).toEqual(sendsOfA(T0, T0 + 80_000));
    expect(after.recentForProfile(A, ['send'], 100).length).toBeGreaterThan(10);
    // A profile never used, and one that has no key yet, find nothing.
    expect(history.listExchanges({ profiles: ['never-used'] }).rows).toEqual([]);
  });

  it('a filter by many profiles walks one range each (their keys), and finds rows older than the walk window', () => {
    const db = openAt(tempDbFile(), 25);
    const repo = new ExchangeRepository(db);
    const many = Array.from({ length: 12 }, (_, n) => `${n.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`);
    db.transaction(() => {
      for (let i = 0; i < 36; i++) repo.insert(exchange(i), { profile: many[i % many.length]! });
      // Newer calls of another profile, more than the walk's window.
      for (let i = 36; i < 336; i++) repo.insert(exchange(i), { profile: 'other' });
    })();
    const history = new HistoryRepository(db, { scanWindow: 100 });
    const page = history.listExchanges({ profiles: many, limit: 100 });
    expect(page.rows.map((r) => r.id)).toEqual(Array.from({ length: 36 }, (_, i) => 36 - i));
    expect(page.nextCursor).toBeNull();
    expect(new Set(page.rows.map((r) => r.profile))).toEqual(new Set(many));
  });

  it('a row that keeps the id (written by an older Callout meanwhile) is still found and read back', () => {
    const db = openAt(tempDbFile(), 25);
    const repo = new ExchangeRepository(db);
    repo.insert(exchange(0), { profile: A });
    const raw = repo.insert(exchange(1), { profile: A });
    db.prepare('UPDATE exchanges SET profile = ? WHERE id = ?').run(A, raw);
    expect(repo.get(raw)?.profile).toBe(A);
    expect(new HistoryRepository(db).listExchanges({ profiles: [A] }).rows.map((r) => [r.id, r.profile])).toEqual([
      [2, A],
      [1, A],
    ]);
  });

  it('a key given in a transaction that is rolled back, then given to another profile, reads as the other', () => {
    const file = tempDbFile();
    const db = openAt(file, 25);
    const other = openAt(file, 25);
    const repo = new ExchangeRepository(db);
    repo.insert(exchange(0), { profile: A });
    expect(() =>
      db.transaction(() => {
        const id = repo.insert(exchange(1), { profile: B });
        expect(repo.get(id)?.profile).toBe(B); // read back inside the transaction that gave the key
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    // Another connection (another Callout) gives the same key to another profile.
    const elsewhere = new ExchangeRepository(other).insert(exchange(2), { profile: 'c-profile' });
    expect(other.prepare('SELECT profile FROM exchanges WHERE id = ?').get(elsewhere)).toEqual({ profile: ' #2' });
    expect(repo.get(elsewhere)?.profile).toBe('c-profile');
    expect(repo.get(1)?.profile).toBe(A);
    // B stored again: a key of its own, not the one its rolled-back store was given.
    expect(repo.get(repo.insert(exchange(3), { profile: B }))?.profile).toBe(B);
    expect(repo.get(repo.insert(exchange(4), { profile: A }))?.profile).toBe(A);
  });

  it('a store that has not reached 25 stores and reads the id as before', () => {
    const db = openAt(tempDbFile(), 24);
    const repo = new ExchangeRepository(db);
    const id = repo.insert(exchange(1), { profile: A });
    expect(db.prepare('SELECT profile FROM exchanges WHERE id = ?').get(id)).toEqual({ profile: A });
    expect(repo.get(id)?.profile).toBe(A);
  });
});
