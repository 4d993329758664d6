// Upgrading a store written by an earlier version (issue 27): the steps said as they go, the long
// parts resumable after the process is killed mid-way, the upgrade run in a worker thread (main's
// event loop free), and another process that holds the store waited for.
import BetterSqlite3 from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type UpgradeProgress } from '../../../main/store/database';
import { MIGRATIONS } from '../../../main/store/migrations';
import { FILL_BATCH, FILLING, storedVersion } from '../../../main/store/migrations/fill';
import { markDamaged } from '../../../main/store/integrity';
import { readFileSync } from 'node:fs';
import { pendingUpgrade, upgradeStore } from '../../../main/store/upgrade';
import { tempHome } from '../../helpers/temp-home';
import { writeOldStore } from '../../helpers/old-store';

const ROOT = join(__dirname, '..', '..', '..');
const LATEST = MIGRATIONS.at(-1)!.version;
const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** A store at schema 4 with `messages` calls, in a folder removed after the test. */
function oldStore(messages: number): string {
  const home = tempHome('callout-upgrade-');
  cleanups.push(home.cleanup);
  return writeOldStore(join(home.dir, 'callout.db'), messages);
}

/** What a search and the sums must read after any upgrade: every row indexed, nothing twice. */
function expectWhole(file: string, messages: number): void {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    expect(storedVersion(db)).toEqual({ version: LATEST, filling: false });
    expect(db.prepare("SELECT count(*) FROM settings WHERE key LIKE 'upgrade.fill.%'").pluck().get()).toBe(0);
    // Every message found by part of its number, and each once.
    const found = (like: string) => db.prepare('SELECT count(*) FROM messages_fts WHERE mobile LIKE ?').pluck().get(like) as number;
    expect(found('%138%')).toBe(messages);
    expect(found(`%${String(messages).padStart(8, '0')}`)).toBe(1);
    expect(db.prepare('SELECT count(*) FROM exchanges WHERE size_bytes IS NULL').pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM exchanges WHERE operation = 'send' AND provider_code = 2").pluck().get()).toBe(messages);
    expect(db.prepare('SELECT sum(n) FROM exchange_hours').pluck().get()).toBe(2 * messages);
  } finally {
    db.close();
  }
  // FTS5's own check against the content (rank 1): the index holds exactly what the messages say,
  // no row missing, none twice.
  const rw = openDatabase(file);
  try {
    rw.prepare("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)").run();
    rw.prepare("INSERT INTO exchanges_fts (exchanges_fts, rank) VALUES ('integrity-check', 1)").run();
  } finally {
    rw.close();
  }
}

describe('upgrading a store written by an earlier version', () => {
  it('says each step in order, and how far the long ones are, then the store is whole', () => {
    const messages = FILL_BATCH * 2 + 100; // three batches of messages, five of exchanges
    const file = oldStore(messages);
    expect(pendingUpgrade(file)).toEqual({ from: 4, to: LATEST });
    const said: UpgradeProgress[] = [];
    openDatabase(file, { onUpgrade: (p) => said.push(p) }).close();

    expect(new Set(said.map((p) => p.kind))).toEqual(new Set(['step']));
    expect(said.every((p) => p.from === 4 && p.to === LATEST && p.steps === LATEST - 4)).toBe(true);
    // Steps 1..N, each once and in order, each its migration.
    const steps = [...new Map(said.map((p) => [p.step, p.version])).entries()];
    expect(steps).toEqual(MIGRATIONS.filter((m) => m.version > 4).map((m, i) => [i + 1, m.version]));
    // The search index of the messages (0005) and of the exchanges (0012) said how far, rising to the end.
    for (const version of [5, 12, 22, 30]) {
      const shares = said.filter((p) => p.version === version && p.share !== null).map((p) => p.share!);
      expect(shares.length, `migration ${version}`).toBeGreaterThan(1);
      expect(shares).toEqual([...shares].sort((a, b) => a - b));
      expect(shares.at(-1)).toBe(1);
    }
    expect(pendingUpgrade(file)).toBeNull();
    expectWhole(file, messages);
  });

  it('killed in the middle of the search index, goes on from its last batch at the next open', async () => {
    const messages = FILL_BATCH * 3 + 7;
    const file = oldStore(messages);
    // A process that upgrades and is killed (SIGKILL) once the exchanges' index is half made.
    const script = `
      const { openDatabase } = require(${JSON.stringify(join(ROOT, 'main/store/database.ts'))});
      openDatabase(process.env.DB_FILE, { onUpgrade: (p) => { if (p.version === 12 && p.share !== null && p.share >= 0.5) process.kill(process.pid, 'SIGKILL'); } });`;
    const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, env: { PATH: process.env.PATH, DB_FILE: file }, stdio: 'ignore' });
    const signal = await new Promise((resolve) => child.once('exit', (_code, s) => resolve(s)));
    expect(signal).toBe('SIGKILL');

    // The store says where it stopped: schema 12, its fill unfinished; every earlier build of
    // Callout reads a version above its own latest there, and refuses the store as a newer one's.
    const half = new BetterSqlite3(file, { readonly: true });
    expect(storedVersion(half)).toEqual({ version: 12, filling: true });
    expect(half.pragma('user_version', { simple: true })).toBe(FILLING + 12);
    expect(FILLING + 12).toBeGreaterThan(LATEST);
    const indexed = half.prepare('SELECT count(*) FROM exchanges WHERE provider_code IS NOT NULL').pluck().get() as number;
    half.close();
    expect(indexed).toBeGreaterThan(0);
    expect(indexed).toBeLessThan(2 * messages);
    expect(pendingUpgrade(file)).toEqual({ from: 12, to: LATEST });

    // The next open finishes that fill first (from where it stopped, not from zero), then goes on.
    const said: UpgradeProgress[] = [];
    openDatabase(file, { onUpgrade: (p) => said.push(p) }).close();
    expect(said[0]).toMatchObject({ kind: 'step', from: 12, step: 1, steps: 1 + LATEST - 12, version: 12 });
    const firstShare = said.find((p) => p.version === 12 && p.share !== null)!.share!;
    expect(firstShare).toBeGreaterThan(0.5);
    expectWhole(file, messages);
    const db = openDatabase(file);
    expect(db.prepare("SELECT count(*) FROM exchanges_fts WHERE text LIKE '%answered%'").pluck().get()).toBe(messages);
    db.close();
  }, 60_000);

  it('runs in a worker thread, its steps told to main as they go', async () => {
    const file = oldStore(500);
    const said: UpgradeProgress[] = [];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const result = await upgradeStore(file, { onProgress: (p) => said.push(p) }).finally(() => clearInterval(timer));
    expect(result).toBe('upgraded');
    expect(said.at(-1)).toMatchObject({ step: LATEST - 4, steps: LATEST - 4, version: LATEST });
    expect(ticks).toBeGreaterThan(0); // main's event loop ran meanwhile
    expectWhole(file, 500);
    // Up to date now, and a store not made yet: nothing to do, no worker.
    await expect(upgradeStore(file)).resolves.toBe('current');
    await expect(upgradeStore(join(file, '..', 'missing.db'))).resolves.toBe('current');
  }, 60_000);

  it('waits while another process holds the store, says so, and upgrades once it lets go', async () => {
    const file = oldStore(50);
    const other = new BetterSqlite3(file);
    other.exec('BEGIN IMMEDIATE');
    const said: UpgradeProgress[] = [];
    let release: () => void = () => undefined;
    const waited = new Promise<void>((resolve) => (release = resolve));
    const upgrading = upgradeStore(file, {
      busyTimeoutMs: 20,
      onProgress: (p) => {
        said.push(p);
        if (p.kind === 'waiting') release();
      },
    });
    await waited;
    expect(said.find((p) => p.kind === 'waiting')).toMatchObject({ from: 4, to: LATEST });
    other.exec('COMMIT');
    other.close();
    await expect(upgrading).resolves.toBe('upgraded');
    expect(said.at(-1)).toMatchObject({ kind: 'step', version: LATEST });
    expectWhole(file, 50);
  }, 60_000);

  it('reaches every id SQLite can hold, sparse and negative ones too', () => {
    const file = oldStore(0);
    const db = openDatabase(file, { targetVersion: 4 });
    const ids = [-(2n ** 63n), -5n, 7n, 2n ** 53n + 1n, 2n ** 53n + 2n, 2n ** 62n, 2n ** 63n - 1n];
    const insert = db.prepare(
      `INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, outcome, state, billed_units, created_at, updated_at)
       VALUES (?, 'p', 'http://x', 'id', ?, 'x', 1, 'accepted', 'answered', 1, ?, ?)`,
    );
    ids.forEach((id, i) => insert.run(id, `1390000000${i}`, i + 1, i + 1));
    db.close();
    openDatabase(file).close();
    const after = openDatabase(file);
    try {
      after.prepare("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)").run();
      const found = after.prepare("SELECT rowid FROM messages_fts WHERE mobile LIKE '%13900000%' ORDER BY rowid").safeIntegers(true).pluck().all();
      expect(found).toEqual(ids);
    } finally {
      after.close();
    }
  });

  it('leaves a store marked damaged to openStore, as found: the worker writes nothing to it', async () => {
    const file = oldStore(20);
    markDamaged(file, 'a test');
    const before = readFileSync(file);
    expect(pendingUpgrade(file)).toBeNull();
    await expect(upgradeStore(file)).resolves.toBe('current');
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('leaves a store it cannot upgrade to the caller: one from a newer version is not touched', async () => {
    const file = oldStore(1);
    openDatabase(file).close();
    const raw = new BetterSqlite3(file);
    raw.pragma(`user_version = ${LATEST + 1}`);
    raw.close();
    expect(pendingUpgrade(file)).toBeNull();
    await expect(upgradeStore(file)).resolves.toBe('current');
  });
});
