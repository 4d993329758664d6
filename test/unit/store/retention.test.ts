import { afterEach, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { openStore, type Store } from '../../../main/store';
import { applyRetention, vacuum } from '../../../main/store/retention';
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
