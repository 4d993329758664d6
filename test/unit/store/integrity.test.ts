import { afterEach, describe, expect, it } from 'vitest';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openStore } from '../../../main/store';
import { openDatabase } from '../../../main/store/database';
import { checkIntegrity, fullIntegrityCheck, markDamaged, moveAside, openDatabaseSafely } from '../../../main/store/integrity';
import { MIGRATIONS } from '../../../main/store/migrations';
import { tempHome } from '../../helpers/temp-home';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
function home(): string {
  const h = tempHome();
  cleanups.push(h.cleanup);
  return h.dir;
}

const base = { profile: 'p', baseUrl: 'http://x', apiId: 'id', units: 1 };

/** A healthy store file with `n` messages and one exchange each, closed. */
function healthyStore(dir: string, n = 3000): string {
  const s = openStore(dir);
  s.db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const m = s.messages.insertPending({ ...base, mobile: `138${String(i).padStart(8, '0')}`, content: `您的验证码是${100000 + i}，5分钟内有效。` });
      s.exchanges.insert(
        {
          operation: 'send',
          method: 'POST',
          url: 'http://x/voice/vm',
          requestHeaders: [['Content-Type', 'application/json']],
          requestBody: JSON.stringify({ password: '[REDACTED]', mobile: m.mobile }),
          status: 200,
          statusText: 'OK',
          responseHeaders: [],
          responseBody: '{"code":2}',
          error: null,
          startedAt: m.createdAt,
          timings: { dnsMs: null, connectMs: 1, tlsMs: null, firstByteMs: 2, totalMs: 3 },
        },
        { messageId: m.id },
      );
    }
  })();
  s.db.prepare("INSERT INTO settings (key, value) VALUES ('retention', '{}')").run();
  s.close();
  const file = join(dir, 'callout.db');
  expect(existsSync(`${file}-wal`)).toBe(false);
  return file;
}

/** Overwrites the first bytes of page `pageno` (its b-tree page header) with garbage. */
function damagePage(file: string, pageno: number): void {
  const probe = new BetterSqlite3(file, { readonly: true });
  const pageSize = probe.pragma('page_size', { simple: true }) as number;
  probe.close();
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(48, 0xa5), 0, 48, (pageno - 1) * pageSize);
  closeSync(fd);
}

function pages(file: string, sql: string): number[] {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return (db.prepare(sql).all() as { pageno: number }[]).map((r) => r.pageno);
  } finally {
    db.close();
  }
}

describe('a damaged database at start', () => {
  it('a file of garbage bytes is kept aside, unchanged, and a fresh store starts and works', () => {
    const dir = home();
    const file = join(dir, 'callout.db');
    const garbage = randomBytes(64 * 1024);
    writeFileSync(file, garbage);
    writeFileSync(`${file}-wal`, Buffer.from('left-over wal'));
    const s = openStore(dir);
    try {
      expect(s.recovered).not.toBeNull();
      expect(s.recovered!.reason).toMatch(/not a database/i);
      expect(s.recovered!.movedTo).toMatch(/callout\.db\.corrupt-\d{8}T\d{6}Z$/);
      expect(readFileSync(s.recovered!.movedTo).equals(garbage)).toBe(true);
      expect(readFileSync(`${s.recovered!.movedTo}-wal`, 'utf8')).toBe('left-over wal');
      const m = s.messages.insertPending({ ...base, mobile: '13800138000', content: '新的开始' });
      expect(s.history.page({ search: '新的开始' }).rows.map((r) => r.id)).toEqual([m.id]);
    } finally {
      s.close();
    }
    // The next start is a normal one.
    const again = openStore(dir);
    expect(again.recovered).toBeNull();
    expect(again.history.count({})).toEqual({ count: 1, capped: false });
    again.close();
  });

  it('a damaged page inside the messages table is found, and the file kept with all its bytes', () => {
    const dir = home();
    const file = healthyStore(dir);
    const leaf = pages(file, "SELECT pageno FROM dbstat WHERE name = 'messages' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 10")[0]!;
    damagePage(file, leaf);
    const damaged = readFileSync(file);
    const { db, recovered } = openDatabaseSafely(file);
    try {
      expect(recovered).not.toBeNull();
      expect(recovered!.reason).toMatch(/page/i);
      expect(readFileSync(recovered!.movedTo).equals(damaged)).toBe(true);
      expect(db.prepare('SELECT count(*) AS n FROM messages').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('a truncated file is found', () => {
    const dir = home();
    const file = healthyStore(dir);
    truncateSync(file, Math.floor(statSync(file).size * 0.6));
    const s = openStore(dir);
    try {
      expect(s.recovered).not.toBeNull();
      expect(s.recovered!.reason).toMatch(/malformed|corrupt|page/i);
      expect(existsSync(s.recovered!.movedTo)).toBe(true);
    } finally {
      s.close();
    }
  });

  it('a healthy store opens as it was, and a store from a newer Callout is refused, not set aside', () => {
    const dir = home();
    const file = healthyStore(dir, 200);
    const s = openStore(dir);
    expect(s.recovered).toBeNull();
    expect(s.history.count({})).toEqual({ count: 200, capped: false });
    s.close();
    const raw = new BetterSqlite3(file);
    raw.pragma(`user_version = ${MIGRATIONS.at(-1)!.version + 1}`);
    raw.close();
    expect(() => openStore(dir)).toThrow(expect.objectContaining({ code: 'database-too-new' }));
    expect(readdirSync(dir).filter((f) => f.includes('corrupt'))).toEqual([]);
  });

  describe('on a large file (bounded check)', () => {
    const bounded = { fullCheckMaxBytes: 0 };

    it('finds damage in the small tables and at the recent end of the big ones', () => {
      const dir = home();
      const file = healthyStore(dir);
      const settingsRoot = pages(file, "SELECT rootpage AS pageno FROM sqlite_schema WHERE name = 'settings'")[0]!;
      damagePage(file, settingsRoot);
      const a = openDatabaseSafely(file, bounded);
      a.db.close();
      expect(a.recovered).not.toBeNull();

      const file2 = healthyStore(home());
      const last = pages(file2, "SELECT pageno FROM dbstat WHERE name = 'messages' AND pagetype = 'leaf' ORDER BY path DESC LIMIT 1")[0]!;
      damagePage(file2, last);
      const b = openDatabaseSafely(file2, bounded);
      b.db.close();
      expect(b.recovered).not.toBeNull();
    });

    it('does not read the middle of the big tables at start; the full check does, and a marked file is set aside at the next start', () => {
      const dir = home();
      const file = healthyStore(dir);
      const middle = pages(file, "SELECT pageno FROM dbstat WHERE name = 'exchanges' AND pagetype = 'leaf' ORDER BY path LIMIT 1 OFFSET 20")[0]!;
      damagePage(file, middle);
      const first = openDatabaseSafely(file, bounded);
      expect(first.recovered).toBeNull();
      expect(checkIntegrity(first.db, bounded)).toBeNull();
      const problem = fullIntegrityCheck(first.db);
      expect(problem).toMatch(/page/i);
      markDamaged(file, problem!);
      first.db.close();
      const second = openDatabaseSafely(file, bounded);
      second.db.close();
      expect(second.recovered).toMatchObject({ reason: problem });
      expect(existsSync(`${second.recovered!.movedTo}.damaged`)).toBe(true);
      const third = openDatabaseSafely(file, bounded);
      third.db.close();
      expect(third.recovered).toBeNull();
    });
  });

  it('never overwrites an earlier kept file', () => {
    const dir = home();
    const file = join(dir, 'callout.db');
    const at = new Date('2026-11-21T10:00:00Z');
    writeFileSync(file, 'one');
    const a = moveAside(file, at);
    writeFileSync(file, 'two');
    const b = moveAside(file, at);
    expect(a).not.toBe(b);
    expect(readFileSync(a, 'utf8')).toBe('one');
    expect(readFileSync(b, 'utf8')).toBe('two');
  });

  it('the plain open (no check asked) leaves a damaged file in place', () => {
    const dir = home();
    const file = join(dir, 'callout.db');
    writeFileSync(file, randomBytes(8192));
    expect(() => openDatabase(file)).toThrow(/not a database/);
    expect(existsSync(file)).toBe(true);
  });
});
