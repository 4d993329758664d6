// Archiving old months when things go wrong for real (issue 27): the archiving process killed with
// SIGKILL (as `kill -9`) while it copies and while it removes, and a disk that fills up under it.
// Whatever happens, every exchange is in exactly one place afterwards, the next start or the next
// archive finishes or redoes the work, and a person is told what happened in words.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { ManualClock } from '../../../main/clock';
import { ARCHIVE_BATCH, ARCHIVE_PAUSE_MS } from '../../../main/store/archive';
import { getSetting } from '../../../main/store/settings-repository';
import { openStore } from '../../../main/store';
import type { ExchangeRecord } from '../../../common/records';
import type { ArchiveProgress } from '../../../common/history-types';
import type { Services } from '../../../main/services';
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk';
import { BEIJING, cleanups, everyExchange, finish, open, seeded, strip } from './archive-helpers';

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const DIE = join(__dirname, 'fixtures', 'archive-then-die.ts');
const ROOT = join(__dirname, '..', '..', '..');

/** Runs the archiving process until it kills itself (SIGKILL) in `phase` after `after` exchanges; what it said last. */
async function archiveThenDie(home: string, before: string, phase: 'copying' | 'removing', after: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', DIE], {
    cwd: ROOT,
    env: { ...process.env, CALLOUT_HOME: home, BEFORE: before, DIE_IN: phase, DIE_AFTER: String(after) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  const lines: Array<Record<string, unknown>> = [];
  createInterface({ input: child.stdout }).on('line', (l) => lines.push(JSON.parse(l) as Record<string, unknown>));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, s) => resolve(s)));
  expect(signal, `the archiving process was not killed: ${stderr} ${JSON.stringify(lines)}`).toBe('SIGKILL');
  return lines.at(-1) as { event: string; name: string; pid: number; phase: string; done: number };
}

/** Exchanges found both in the live store and in an archive (the same id and time). */
const inBoth = (live: ExchangeRecord[], archived: ExchangeRecord[]) => {
  const keys = new Set(archived.map((a) => `${a.id}@${a.startedAt}`));
  return live.filter((e) => keys.has(`${e.id}@${e.startedAt}`)).length;
};

/** Every exchange of the live store in `dir`, read by the app's services opened and closed for it. */
async function exchangesIn(dir: string, clock: ManualClock): Promise<ExchangeRecord[]> {
  const { services, h } = await open(dir, clock);
  const all = await everyExchange(h);
  await services.close();
  cleanups.pop();
  return all;
}

describe('an archiving process killed with SIGKILL', () => {
  it('while copying: the live store is whole; the next archive clears the dead process’s claim and half-written file and goes to the end', async () => {
    const { dir } = seeded(120, 20);
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    const before = await exchangesIn(dir, clock);

    const died = await archiveThenDie(dir, '2026-09', 'copying', ARCHIVE_BATCH);
    expect(died).toMatchObject({ event: 'dying', phase: 'copying' });
    // Left as a killed process leaves them: its claim, and its half-written file (never the archive's name).
    const folder = join(dir, 'archives');
    expect(readdirSync(folder)).toEqual([`${died.name}.partial-${died.pid}`]);
    const store = openStore(dir);
    expect(JSON.parse(getSetting(store.db, 'exchanges.archiving')!)).toMatchObject({ phase: 'copying' });
    store.close();

    const { services, h } = await open(dir, clock, true);
    expect(await everyExchange(h)).toEqual(before);
    expect(services.archives.archiver.state().running).toBeNull();
    const { name } = await h['store.archive']({ before: '2026-09', utcOffsetMinutes: BEIJING, confirm: true });
    expect(name).toBe(died.name);
    await finish(services, clock);
    expect((await h['store.status'](undefined)).archive).toMatchObject({ error: null, last: { name } });
    expect(readdirSync(folder)).toEqual([name]);
    const live = await everyExchange(h);
    const archived = await everyExchange(h, name);
    expect(inBoth(live, archived)).toBe(0);
    expect([...archived, ...live].map(strip)).toEqual(before);
  });

  it('while removing: the archive is whole; the app’s next start finishes the removal, and each exchange is in one place', async () => {
    const { dir } = seeded(120, 20);
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    const before = await exchangesIn(dir, clock);

    const died = await archiveThenDie(dir, '2026-09', 'removing', ARCHIVE_BATCH);
    expect(died).toMatchObject({ event: 'dying', phase: 'removing', done: ARCHIVE_BATCH });
    expect(readdirSync(join(dir, 'archives'))).toEqual([died.name]);

    const { services, h } = await open(dir, clock, true);
    // The app's start goes on with the removal the dead process left.
    expect(services.archives.archiver.state().running).toMatchObject({ name: died.name, phase: 'removing' });
    await finish(services, clock);
    const live = await everyExchange(h);
    const archived = await everyExchange(h, died.name);
    expect(inBoth(live, archived)).toBe(0);
    expect([...archived, ...live].map(strip)).toEqual(before);
    expect((await h['store.status'](undefined)).archive).toMatchObject({ error: null, last: { name: died.name, exchanges: archived.length } });
  });
});

const disk = mountSmallDisk(24);
const refused = 'refused' in disk ? disk.refused : null;
if (refused) console.warn(`full-disk archive tests skipped: ${refused}`);

describe.skipIf(refused !== null)('archiving on a disk that fills up (a 24 MB tmpfs)', () => {
  const d = disk as SmallDisk;
  afterEach(() => d.free());
  afterAll(() => d.unmount());

  /** Runs the archive on the clock; fills the disk once `when` holds; what the archive ended with. */
  async function archiveFillingAt(services: Services, clock: ManualClock, when: (r: ArchiveProgress) => boolean) {
    let filled = false;
    for (let i = 0; i < 10_000 && services.archives.archiver.state().running; i++) {
      const running = services.archives.archiver.state().running!;
      if (!filled && when(running)) {
        d.fill();
        filled = true;
      }
      await clock.advance(ARCHIVE_PAUSE_MS);
    }
    await services.archives.archiver.finished();
    expect(filled).toBe(true);
    return services.archives.archiver.state();
  }

  it('full while copying: says the disk is full, removes nothing and leaves no file; once there is room it goes to the end', async () => {
    const { dir } = seeded(120, 20, join(d.dir, 'copying'));
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    const { services, h } = await open(dir, clock);
    const before = await everyExchange(h);
    const plan = await h['store.previewArchive']({ before: '2026-09', utcOffsetMinutes: BEIJING });
    expect(plan.exchanges).toBeGreaterThan(ARCHIVE_BATCH);

    const { name } = await h['store.archive']({ before: '2026-09', utcOffsetMinutes: BEIJING, confirm: true });
    // The disk fills up once the first batch is copied.
    const failed = await archiveFillingAt(services, clock, (r) => r.phase === 'copying' && r.done >= ARCHIVE_BATCH);
    expect(failed.error).toEqual({ code: 'archive-failed', params: { kind: 'disk-full', name: join(dir, 'archives') } });
    expect(failed.last).toBeNull();
    expect(readdirSync(join(dir, 'archives'))).toEqual([]);
    expect(await everyExchange(h)).toEqual(before);

    d.free();
    await h['store.archive']({ before: '2026-09', utcOffsetMinutes: BEIJING, confirm: true });
    await finish(services, clock);
    expect((await h['store.status'](undefined)).archive).toMatchObject({ error: null, last: { name, exchanges: plan.exchanges, removed: plan.exchanges } });
    expect(readdirSync(join(dir, 'archives'))).toEqual([name]);
    expect([...(await everyExchange(h, name)), ...(await everyExchange(h))].map(strip)).toEqual(before);
  });

  it('full while removing: the archive is whole and says so; once there is room, archiving again finishes the removal', async () => {
    const { dir } = seeded(120, 20, join(d.dir, 'removing'));
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    const { services, h } = await open(dir, clock);
    const before = await everyExchange(h);
    const { name } = await h['store.archive']({ before: '2026-09', utcOffsetMinutes: BEIJING, confirm: true });
    const failed = await archiveFillingAt(services, clock, (r) => r.phase === 'removing');
    expect(failed.error).toEqual({ code: 'archive-failed', params: { kind: 'disk-full-removing', name } });
    const archived = await everyExchange(h, name);
    expect(
      [...archived, ...(await everyExchange(h))].map(strip).filter((e, i, all) => all.findIndex((x) => x.id === e.id && x.startedAt === e.startedAt) === i),
    ).toEqual(before);

    d.free();
    // Archiving again (the same months) finishes that removal first; nothing is left to move after it.
    await expect(h['store.archive']({ before: '2026-09', utcOffsetMinutes: BEIJING, confirm: true })).resolves.toMatchObject({ name });
    await finish(services, clock);
    expect((await h['store.status'](undefined)).archive).toMatchObject({ error: null, last: { name, exchanges: archived.length } });
    const live = await everyExchange(h);
    expect(inBoth(live, archived)).toBe(0);
    expect([...archived, ...live].map(strip)).toEqual(before);
    expect(readdirSync(join(dir, 'archives'))).toEqual([name]);
  });
});

describe('archives tampered with, and what archiving leaves alone', () => {
  /** An archive of June and July, made to the end; the folder it is in. */
  async function archived() {
    const { dir } = seeded(100);
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    const { services, h } = await open(dir, clock);
    const { name } = await h['store.archive']({ before: '2026-08', utcOffsetMinutes: BEIJING, confirm: true });
    await finish(services, clock);
    return { dir, clock, services, h, name, folder: join(dir, 'archives') };
  }

  /** A copy of the archive `from`, named `name`, changed by `sql`. */
  function variant(folder: string, from: string, name: string, sql: string): string {
    copyFileSync(join(folder, from), join(folder, name));
    const db = new BetterSqlite3(join(folder, name));
    db.exec(sql);
    db.close();
    return name;
  }

  it('keeps in the live store the exchanges a saved request’s run result opens, with their link', async () => {
    const { dir } = seeded(100);
    const raw = new BetterSqlite3(join(dir, 'callout.db'));
    const first = raw.prepare('SELECT id FROM exchanges ORDER BY id LIMIT 1').get() as { id: number };
    const run = raw.prepare("INSERT INTO runs (collection_name, profile, status, started_at) VALUES ('smoke', 'p', 'passed', 1)").run().lastInsertRowid;
    raw.prepare("INSERT INTO run_results (run_id, position, name, exchange_id, outcome) VALUES (?, 0, 'balance', ?, 'passed')").run(run, first.id);
    raw.close();
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    const { services, h } = await open(dir, clock);
    const before = await everyExchange(h);
    const june = before.filter((e) => e.startedAt < Date.UTC(2026, 6, 1) - BEIJING * 60_000);
    expect((await h['store.previewArchive']({ before: '2026-07', utcOffsetMinutes: BEIJING })).exchanges).toBe(june.length - 1);
    const { name } = await h['store.archive']({ before: '2026-07', utcOffsetMinutes: BEIJING, confirm: true });
    await finish(services, clock);
    expect((await h['store.status'](undefined)).archive).toMatchObject({ error: null, last: { exchanges: june.length - 1 } });
    expect((await everyExchange(h, name)).map((e) => e.id)).not.toContain(first.id);
    expect((await h['exchanges.get']({ id: first.id })).id).toBe(first.id);
    const check = new BetterSqlite3(join(dir, 'callout.db'), { readonly: true });
    expect(check.prepare('SELECT exchange_id FROM run_results').all()).toEqual([{ exchange_id: first.id }]);
    check.close();
  });

  it('finishes a removal only from the file it wrote: a link to the live store put in its place removes nothing', async () => {
    const { dir } = seeded(120, 20);
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    const died = await archiveThenDie(dir, '2026-09', 'removing', ARCHIVE_BATCH);
    const archive = join(dir, 'archives', died.name);
    rmSync(archive);
    symlinkSync(join(dir, 'callout.db'), archive);
    const left = (() => {
      const store = openStore(dir);
      const n = (store.db.prepare('SELECT count(*) AS n FROM exchanges').get() as { n: number }).n;
      store.close();
      return n;
    })();
    const { services, h } = await open(dir, clock, true);
    await finish(services, clock);
    expect((await h['store.status'](undefined)).archive.error).toEqual({ code: 'archive-failed', params: { kind: 'changed', name: died.name } });
    expect((await h['store.status'](undefined)).usage.exchanges).toBe(left);
    // The claim went with it: the next start does not try again.
    const store = openStore(dir);
    expect(getSetting(store.db, 'exchanges.archiving')).toBeNull();
    store.close();
  });

  it('lists a file that is not as Callout writes archives as unreadable, and reads nothing from it', async () => {
    const { h, name, folder } = await archived();
    // A view where the description is read (a query that never ends), a description of the wrong
    // shape, and an older version number than the file's tables are.
    const view = variant(
      folder,
      name,
      'callout-exchanges-2001-01.sqlite',
      "ALTER TABLE settings RENAME TO settings_real; CREATE VIEW settings AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT 'archive' AS key, (SELECT value FROM settings_real) AS value FROM n WHERE i < 0;",
    );
    const shape = variant(
      folder,
      name,
      'callout-exchanges-2001-02.sqlite',
      `UPDATE settings SET value = '{"from":{"x":1},"to":[1,2],"exchanges":"lots"}' WHERE key = 'archive'`,
    );
    const older = variant(folder, name, 'callout-exchanges-2001-03.sqlite', 'PRAGMA user_version = 1');
    const { archives } = await h['store.archives'](undefined);
    expect(archives.filter((a) => a.name !== name).map((a) => [a.name, a.problem])).toEqual([
      [view, 'unreadable'],
      [shape, 'unreadable'],
      [older, 'unreadable'],
    ]);
    for (const n of [view, shape, older]) {
      await expect(h['exchanges.list']({ archive: n })).rejects.toMatchObject({ code: 'archive-failed', params: { kind: 'unreadable', name: n } });
    }
    // Nothing was copied to be brought up to date.
    expect(existsSync(join(folder, '.upgraded')) ? readdirSync(join(folder, '.upgraded')) : []).toEqual([]);
    // A row that is not what Callout wrote is said as the archive being unreadable, not as an internal error.
    const rows = variant(folder, name, 'callout-exchanges-2001-04.sqlite', "UPDATE exchanges SET packed = NULL, request_headers = 'not json'");
    await expect(h['exchanges.list']({ archive: rows })).rejects.toMatchObject({ code: 'archive-failed', params: { kind: 'unreadable', name: rows } });
  });

  it('refuses a month not begun yet, and leaves alone files of the folder that are not its own', async () => {
    const { h, name, folder } = await archived();
    await expect(h['store.previewArchive']({ before: '2026-12', utcOffsetMinutes: BEIJING })).rejects.toMatchObject({
      code: 'archive-failed',
      params: { kind: 'future', month: '2026-12' },
    });
    writeFileSync(join(folder, 'notes.partial-4194303'), 'mine');
    await h['store.archive']({ before: '2026-09', utcOffsetMinutes: BEIJING, confirm: true });
    expect(readdirSync(folder)).toContain('notes.partial-4194303');
    expect(readdirSync(folder)).toContain(name);
  });
});

const readOnly = mountSmallDisk(1);
const noMount = 'refused' in readOnly ? readOnly.refused : null;
describe.skipIf(noMount !== null)('an archives folder Callout may not write in', () => {
  afterAll(() => (readOnly as SmallDisk).unmount());

  it('says so in words, and removes nothing', async () => {
    const { dir } = seeded(40);
    const folder = join(dir, 'archives');
    mkdirSync(folder);
    // The folder becomes a read-only disk.
    execFileSync('mount', ['-o', 'remount,ro', (readOnly as SmallDisk).dir]);
    execFileSync('mount', ['--bind', (readOnly as SmallDisk).dir, folder]);
    try {
      const clock = new ManualClock(Date.UTC(2026, 10, 27));
      const { services, h } = await open(dir, clock);
      const before = await everyExchange(h);
      await h['store.archive']({ before: '2026-07', utcOffsetMinutes: BEIJING, confirm: true });
      await finish(services, clock);
      expect((await h['store.status'](undefined)).archive.error).toEqual({ code: 'archive-failed', params: { kind: 'unwritable', name: folder } });
      expect(await everyExchange(h)).toEqual(before);
    } finally {
      execFileSync('umount', [folder]);
    }
  });
});
