import { afterEach, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { openStore, type Store } from '../../../main/store';
import { applyRetention, planRetention, vacuum } from '../../../main/store/retention';
import { monthOf, monthStart, planArchive } from '../../../main/store/archive';
import { getSetting, setSetting } from '../../../main/store/settings-repository';
import { CalloutError } from '../../../main/errors';
import type { Exchange } from '../../../common/records';
import { tempHome } from '../../helpers/temp-home';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
function home(): string {
  const h = tempHome();
  cleanups.push(h.cleanup);
  return h.dir;
}
function store(dir = home()): Store {
  const s = openStore(dir);
  cleanups.unshift(() => s.close());
  return s;
}

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 21);

function exchange(startedAt: number, body: string): Exchange {
  return {
    operation: 'send',
    method: 'POST',
    url: 'http://127.0.0.1/voice/vm',
    requestHeaders: [['Content-Type', 'application/json; charset=utf-8']],
    requestBody: body,
    status: 200,
    statusText: 'OK',
    responseHeaders: [['Content-Type', 'application/json']],
    responseBody: '{"code":2,"msg":"提交成功"}',
    error: null,
    startedAt,
    timings: { dnsMs: null, connectMs: 1, tlsMs: null, firstByteMs: 2, totalMs: 3 },
  };
}

/**
 * `n` characters, random from two (the same for the same seed): exchanges are stored deflated
 * (migration 0020), and this keeps ~1 bit a character, while its trigrams stay few (eight) in the search index.
 */
function noise(n: number, seed: number): string {
  let x = seed;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out += '甲乙'[(x >> 16) % 2];
  }
  return out;
}

/** One message per day for `days` days, each with a send exchange; returns the message ids, oldest first. */
function history(s: Store, days: number, bodyChars = 100): number[] {
  const ids: number[] = [];
  s.db.transaction(() => {
    for (let d = days; d >= 1; d--) {
      const m = s.messages.insertPending({ profile: 'p', baseUrl: 'http://x', apiId: 'id', mobile: '13800138000', content: `第${d}天`, units: 1 });
      s.db.prepare('UPDATE messages SET created_at = ? WHERE id = ?').run(NOW - d * DAY, m.id);
      s.exchanges.insert(exchange(NOW - d * DAY, JSON.stringify({ password: '[REDACTED]', content: noise(bodyChars, d) })), { messageId: m.id });
      ids.push(m.id);
    }
  })();
  return ids;
}

describe('exchange retention', () => {
  it('by age: deletes exchanges older than N days and keeps every message and its timeline', () => {
    const s = store();
    const ids = history(s, 10);
    const r = applyRetention(s.db, { exchangeDays: 3, exchangeMaxBytes: null }, NOW);
    expect(r.deletedByAge).toBe(7);
    expect(r.deletedBySize).toBe(0);
    expect(r.remainingExchanges).toBe(3);
    expect(s.history.count({})).toEqual({ count: 10, capped: false });
    expect(s.exchanges.forMessage(ids[0]!)).toEqual([]);
    expect(s.messages.events(ids[0]!)).toHaveLength(1);
    expect(s.exchanges.forMessage(ids[9]!)).toHaveLength(1);
    // Applying it again deletes nothing more.
    expect(applyRetention(s.db, { exchangeDays: 3, exchangeMaxBytes: null }, NOW)).toMatchObject({ deletedByAge: 0, remainingExchanges: 3 });
  });

  it('by size: deletes the oldest first until headers and bodies (in bytes) fit under the cap', () => {
    const s = store();
    const ids = history(s, 10);
    const one = s.history.exchange(s.exchanges.forMessage(ids[0]!)[0]!.id)!;
    const bytes = (x: string | null) => (x === null ? 0 : Buffer.byteLength(x));
    const size = bytes(JSON.stringify(one.requestHeaders)) + bytes(one.requestBody) + bytes(JSON.stringify(one.responseHeaders)) + bytes(one.responseBody);
    expect(s.retention.usage()).toEqual({ bytes: 10 * size, exchanges: 10 });
    const r = applyRetention(s.db, { exchangeDays: null, exchangeMaxBytes: 4 * size + size / 2 }, NOW);
    expect(r).toMatchObject({ deletedByAge: 0, deletedBySize: 6, remainingBytes: 4 * size, remainingExchanges: 4 });
    const kept = ids.filter((id) => s.exchanges.forMessage(id).length > 0);
    expect(kept).toEqual(ids.slice(6));
    expect(s.history.count({})).toEqual({ count: 10, capped: false });
    expect(applyRetention(s.db, { exchangeDays: null, exchangeMaxBytes: 0 }, NOW)).toMatchObject({ deletedBySize: 4, remainingBytes: 0 });
  });

  it('settings are saved, survive a restart, and nonsense is refused', () => {
    const dir = home();
    const s = openStore(dir);
    expect(s.retention.settings()).toEqual({ exchangeDays: null, exchangeMaxBytes: null });
    s.retention.setSettings({ exchangeDays: 30, exchangeMaxBytes: 50_000_000 });
    expect(() => s.retention.setSettings({ exchangeDays: 0, exchangeMaxBytes: null })).toThrow(CalloutError);
    expect(() => s.retention.setSettings({ exchangeDays: 1.5, exchangeMaxBytes: null })).toThrow(/whole number/);
    expect(() => s.retention.setSettings({ exchangeDays: null, exchangeMaxBytes: -1 })).toThrow(CalloutError);
    s.close();
    const again = openStore(dir);
    expect(again.retention.settings()).toEqual({ exchangeDays: 30, exchangeMaxBytes: 50_000_000 });
    setSetting(again.db, 'theme', 'dark');
    expect(getSetting(again.db, 'theme')).toBe('dark');
    expect(getSetting(again.db, 'missing')).toBeNull();
    again.close();
  });

  it('the saved settings are what the store applies', () => {
    const s = store();
    history(s, 5);
    s.retention.setSettings({ exchangeDays: 2, exchangeMaxBytes: null });
    expect(s.retention.apply(NOW)).toMatchObject({ deletedByAge: 3, remainingExchanges: 2 });
  });

  it('the preview says what applying would delete (by age, then by size) and leave, and deletes nothing', () => {
    const s = store();
    const ids = history(s, 10);
    const size = s.retention.usage().bytes / 10;
    const settings = { exchangeDays: 7, exchangeMaxBytes: Math.round(4.5 * size) };
    const preview = s.retention.preview(settings, NOW);
    expect(preview).toEqual({
      byAge: { exchanges: 3, bytes: 3 * size },
      bySize: { exchanges: 3, bytes: 3 * size },
      remaining: { exchanges: 4, bytes: 4 * size },
    });
    expect(s.retention.usage()).toEqual({ bytes: 10 * size, exchanges: 10 });
    expect(ids.every((id) => s.exchanges.forMessage(id).length === 1)).toBe(true);
    // Applying the same settings deletes exactly that.
    const r = applyRetention(s.db, settings, NOW);
    expect(r).toMatchObject({ deletedByAge: 3, deletedBySize: 3, remainingExchanges: 4, remainingBytes: 4 * size });
    expect(s.retention.preview(settings, NOW)).toEqual({
      byAge: { exchanges: 0, bytes: 0 },
      bySize: { exchanges: 0, bytes: 0 },
      remaining: { exchanges: 4, bytes: 4 * size },
    });
    // No limits: nothing would go.
    expect(s.retention.preview({ exchangeDays: null, exchangeMaxBytes: null }, NOW).remaining).toEqual({ exchanges: 4, bytes: 4 * size });
  });

  it('a new store gives the space of deleted exchanges back to the disk as retention deletes them', () => {
    const s = store();
    expect(s.db.pragma('auto_vacuum', { simple: true })).toBe(2);
    history(s, 400, 20_000);
    const r = applyRetention(s.db, { exchangeDays: null, exchangeMaxBytes: 0 }, NOW);
    expect(r.fileBytesBefore).toBeGreaterThan(1_000_000);
    // What stays: the tables' first pages, and the search index's record of what it deleted (merged later).
    expect(r.fileBytesAfter).toBeLessThan(r.fileBytesBefore / 2);
    expect(s.history.count({})).toEqual({ count: 400, capped: false });
  });

  it('a store from before keeps its size until compacted once; from then on retention gives space back at once', () => {
    const dir = home();
    // A file created the way earlier versions created it: without pointer maps.
    const old = new BetterSqlite3(join(dir, 'callout.db'));
    old.exec('CREATE TABLE t (x); DROP TABLE t');
    old.close();
    const s = store(dir);
    expect(s.db.pragma('auto_vacuum', { simple: true })).toBe(0);
    history(s, 400, 20_000);
    const first = applyRetention(s.db, { exchangeDays: 300, exchangeMaxBytes: null }, NOW);
    expect(first.deletedByAge).toBe(100);
    expect(first.fileBytesAfter).toBeGreaterThanOrEqual(first.fileBytesBefore * 0.9);
    const v = vacuum(s.db);
    expect(v.bytesAfter).toBeLessThan(v.bytesBefore * 0.85);
    expect(s.db.pragma('auto_vacuum', { simple: true })).toBe(2);
    const second = applyRetention(s.db, { exchangeDays: null, exchangeMaxBytes: 0 }, NOW);
    expect(second.fileBytesAfter).toBeLessThan(second.fileBytesBefore / 2);
    expect(s.history.count({})).toEqual({ count: 400, capped: false });
  });
});

describe("the hours' sums give what a walk over every exchange gives", () => {
  /** Exchanges at random moments of three days, several to an hour, of random sizes; a few kept by a run. */
  function crowded(s: Store, seed: number): void {
    let x = seed;
    const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
    s.db.transaction(() => {
      for (let i = 0; i < 240; i++) {
        const at = NOW - 3 * DAY + Math.floor(rnd() * 3 * DAY);
        // Some exchanges share a moment (and differ by id only).
        s.exchanges.insert(exchange(i % 17 === 0 ? NOW - 2 * DAY : at, noise(1 + Math.floor(rnd() * 300), i)));
      }
      s.db.prepare("INSERT INTO runs (id, collection_name, profile, started_at) VALUES (1, 'c', 'p', ?)").run(NOW);
      const ids = (s.db.prepare('SELECT id FROM exchanges ORDER BY random() LIMIT 9').all() as { id: number }[]).map((r) => r.id);
      ids.forEach((id, i) => s.db.prepare("INSERT INTO run_results (run_id, position, name, exchange_id, outcome) VALUES (1, ?, 'r', ?, 'passed')").run(i, id));
    })();
  }

  function rows(s: Store): { id: number; at: number; size: number; kept: boolean }[] {
    return (
      s.db
        .prepare(
          'SELECT id, started_at AS at, coalesce(size_bytes, 0) AS size, EXISTS (SELECT 1 FROM run_results r WHERE r.exchange_id = e.id) AS kept FROM exchanges e ORDER BY started_at, id',
        )
        .all() as { id: number; at: number; size: number; kept: number }[]
    ).map((r) => ({ ...r, kept: r.kept === 1 }));
  }

  it('retention: what an age cut inside an hour and a size cap take, to the exchange where the cap stops', () => {
    for (const seed of [1, 2, 3]) {
      const s = store();
      crowded(s, seed);
      const all = rows(s);
      const total = all.reduce((a, r) => a + r.size, 0);
      for (const now of [NOW - 1234567, NOW - 7 * 3_600_000 - 1, NOW]) {
        for (const days of [null, 1, 2]) {
          for (const share of [null, 0, 0.1, 0.37, 0.8, 1.2]) {
            const cap = share === null ? null : Math.round(total * share);
            const cutoff = days === null ? null : now - days * DAY;
            const old = all.filter((r) => cutoff !== null && r.at < cutoff);
            const rest = all.filter((r) => cutoff === null || r.at >= cutoff);
            let excess = total - old.reduce((a, r) => a + r.size, 0) - (cap ?? Infinity);
            const taken: typeof all = [];
            for (const r of rest) {
              if (excess <= 0) break;
              taken.push(r);
              excess -= r.size;
            }
            const sum = (list: typeof all) => ({ exchanges: list.length, bytes: list.reduce((a, r) => a + r.size, 0) });
            const plan = planRetention(s.db, { exchangeDays: days, exchangeMaxBytes: cap }, now);
            const what = JSON.stringify({ seed, now, days, cap });
            expect(plan.byAge, what).toEqual(sum(old));
            expect(plan.bySize, what).toEqual(sum(taken));
            expect(plan.sizeCut, what).toEqual(taken.length ? { startedAt: taken.at(-1)!.at, id: taken.at(-1)!.id } : null);
            expect(plan.remaining, what).toEqual({ exchanges: all.length - old.length - taken.length, bytes: total - sum(old).bytes - sum(taken).bytes });
          }
        }
      }
    }
  });

  it('archive: what the months before a cut would move (those a run keeps stay), and their first and last months', () => {
    const s = store();
    crowded(s, 7);
    const all = rows(s);
    for (const offset of [0, 480, 345, -210]) {
      for (const before of ['2026-11', '2026-12']) {
        const moved = all.filter((r) => r.at < monthStart(before, offset) && !r.kept);
        expect(planArchive(s.db, before, offset), `${before} ${offset}`).toMatchObject({
          exchanges: moved.length,
          bytes: moved.reduce((a, r) => a + r.size, 0),
          from: moved.length ? monthOf(moved[0]!.at, offset) : null,
          to: moved.length ? monthOf(moved.at(-1)!.at, offset) : null,
        });
      }
    }
    // Cuts at moments inside an hour: the month's start is on the wall clock, so move the clock instead.
    for (const cut of [NOW - DAY - 1789, NOW - 2 * DAY, NOW - 2 * DAY + 1]) {
      const offset = -Math.round((cut - Date.UTC(2026, 10, 1)) / 60_000);
      const exact = Date.UTC(2026, 10, 1) - offset * 60_000;
      const moved = all.filter((r) => r.at < exact && !r.kept);
      expect(moved.length).toBeGreaterThan(0);
      expect(planArchive(s.db, '2026-11', offset)).toMatchObject({
        cutoff: exact,
        exchanges: moved.length,
        bytes: moved.reduce((a, r) => a + r.size, 0),
        from: monthOf(moved[0]!.at, offset),
        to: monthOf(moved.at(-1)!.at, offset),
      });
    }
  });
});
