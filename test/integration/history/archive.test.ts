// Archiving old months (issue 27): the exchanges of the months before a chosen one move to a file in
// the archives folder that Callout opens read-only and searches; every byte reads the same from
// there; the live store keeps the messages and loses the exchanges only once the archive is whole
// on the disk. One archive runs at a time across processes; one stopped half-way loses nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../../../main/clock';
import { openStore } from '../../../main/store';
import { ARCHIVE_BATCH, ARCHIVE_PAUSE_MS } from '../../../main/store/archive';
import { setSetting } from '../../../main/store/settings-repository';
import { MIGRATIONS } from '../../../main/store/migrations';
import type { Migration } from '../../../main/store/migrations/types';
import type { Database } from '../../../main/store/database';
import type { ExchangeRecord } from '../../../common/records';
import { cli } from '../cli/run-cli';
import { BEIJING, cleanups, everyExchange, exchange, finish, open, seeded, strip } from './archive-helpers';

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('archiving old months', () => {
  it('moves the months before the chosen one to a read-only archive that lists, searches and exports the same bytes', async () => {
    const { dir, perMonth } = seeded();
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    const { services, h } = await open(dir, clock);
    const before = await everyExchange(h);
    const old = before.filter((e) => e.startedAt < Date.UTC(2026, 8, 1) - BEIJING * 60_000);
    const movedCount = perMonth.get('2026-06')! + perMonth.get('2026-07')! + perMonth.get('2026-08')!;
    expect(old).toHaveLength(movedCount);
    const messagesBefore = (await h['history.page']({ filter: {}, withTotal: true })).total;

    const plan = await h['store.previewArchive']({ before: '2026-09', utcOffsetMinutes: BEIJING });
    expect(plan).toMatchObject({ before: '2026-09', exchanges: movedCount, from: '2026-06', to: '2026-08' });
    expect(plan.bytes).toBeGreaterThan(movedCount * 100);

    const started = await h['store.archive']({ before: '2026-09', utcOffsetMinutes: BEIJING, confirm: true });
    expect(started).toEqual({ name: 'callout-exchanges-2026-06-to-2026-08.sqlite', exchanges: movedCount });
    expect((await h['store.status'](undefined)).archive.running).toMatchObject({ name: started.name, phase: 'copying', done: 0, total: movedCount });
    // A second archive waits for the first.
    await expect(h['store.archive']({ before: '2026-10', utcOffsetMinutes: BEIJING, confirm: true })).rejects.toMatchObject({
      code: 'archive-failed',
      params: { kind: 'busy' },
    });
    await finish(services, clock);

    const status = await h['store.status'](undefined);
    expect(status.archive.running).toBeNull();
    expect(status.archive.error).toBeNull();
    expect(status.archive.last).toMatchObject({ name: started.name, exchanges: movedCount, removed: movedCount, from: '2026-06', to: '2026-08' });
    expect(status.usage.exchanges).toBe(before.length - movedCount);

    // The live store keeps every message and the newer exchanges; the archive holds the old ones, byte for byte.
    expect((await h['history.page']({ filter: {}, withTotal: true })).total).toBe(messagesBefore);
    expect(await everyExchange(h)).toEqual(before.slice(movedCount));
    const archived = await everyExchange(h, started.name);
    expect(archived.map(strip)).toEqual(old);
    expect(archived.every((e) => e.archive === started.name)).toBe(true);

    const { archives, folder } = await h['store.archives'](undefined);
    expect(folder).toBe(join(dir, 'archives'));
    expect(archives).toEqual([
      expect.objectContaining({ name: started.name, from: '2026-06', to: '2026-08', exchanges: movedCount, problem: null, createdAt: expect.any(Number) }),
    ]);
    expect(readdirSync(folder)).toEqual([started.name]);

    // Searched as the live store is: a word in a body, a message's exchanges (linked ones too), a filter.
    const found = await h['exchanges.list']({ archive: started.name, search: 'ticket-40 ' });
    expect(found.rows.map((e) => e.id)).toEqual([old.find((e) => e.requestBody?.includes('ticket-40"'))!.id]);
    const linked = old.find((e) => e.messageId !== null && old.indexOf(e) === 0)!;
    const second = (await h['exchanges.list']({ archive: started.name, messageId: linked.messageId! + 1 })).rows;
    expect(second.map((e) => e.id)).toContain(linked.id);
    const statuses = (await h['exchanges.list']({ archive: started.name, operation: 'status', limit: 1000 })).rows;
    expect(statuses.length).toBe(old.filter((e) => e.operation === 'status').length);
    expect((await h['exchanges.list']({ search: 'ticket-40 ' })).rows).toEqual([]);

    // One exchange read, as cURL and as HAR from the archive: the same as from the live store before.
    const one = old[5]!;
    expect(strip(await h['exchanges.get']({ id: one.id, archive: started.name }))).toEqual(one);
    const curl = (await h['exchanges.curl']({ id: one.id, target: 'curl', archive: started.name })).command;
    expect(curl).toContain(`ticket-5`);
    const har = JSON.parse((await h['exchanges.exportHar']({ ids: [one.id, old[6]!.id], archive: started.name })).json);
    expect(har.log.entries).toHaveLength(2);
    expect(har.log.entries[0].request.postData.text).toBe(one.requestBody);
    // The exchange is gone from the live store: asking it there says so.
    await expect(h['exchanges.get']({ id: one.id })).rejects.toMatchObject({ code: 'not-found' });

    // A message keeps its exchanges in sight: those archived are listed with their archive's name.
    const detail = await h['messages.get']({ id: one.messageId! });
    expect(detail.exchanges).toEqual([]);
    expect(detail.archived).toEqual([{ archive: started.name, exchanges: archived.filter((e) => e.messageId === one.messageId) }]);
    const newer = before[before.length - 1]!;
    expect(await h['messages.get']({ id: newer.messageId! })).toMatchObject({ exchanges: [newer], archived: [] });
  });

  it('refuses what it cannot do, in words: nothing before the month, a month that is not one, a name not in the folder, a file that is not an archive', async () => {
    const { dir } = seeded(10);
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    const { h } = await open(dir, clock);
    await expect(h['store.archive']({ before: '2026-06', utcOffsetMinutes: BEIJING, confirm: true })).rejects.toMatchObject({
      code: 'archive-failed',
      params: { kind: 'empty', month: '2026-06' },
    });
    await expect(h['store.previewArchive']({ before: '2026-13', utcOffsetMinutes: BEIJING })).rejects.toMatchObject({
      code: 'archive-failed',
      params: { kind: 'month', month: '2026-13' },
    });
    await expect(h['exchanges.list']({ archive: '../callout.db' })).rejects.toMatchObject({ code: 'archive-failed', params: { kind: 'not-found' } });
    await expect(h['exchanges.list']({ archive: 'callout-exchanges-2020-01.sqlite' })).rejects.toMatchObject({
      code: 'archive-failed',
      params: { kind: 'not-found', name: 'callout-exchanges-2020-01.sqlite' },
    });
    // A copy of the live store, and a file of junk, put in the folder by hand: listed with what is wrong.
    const folder = join(dir, 'archives');
    (await import('node:fs')).mkdirSync(folder, { recursive: true });
    copyFileSync(join(dir, 'callout.db'), join(folder, 'callout-exchanges-2020-01.sqlite'));
    writeFileSync(join(folder, 'callout-exchanges-2020-02.sqlite'), 'not a database at all, just words '.repeat(200));
    const { archives } = await h['store.archives'](undefined);
    expect(archives.map((a) => [a.name, a.problem])).toEqual([
      ['callout-exchanges-2020-01.sqlite', 'not-archive'],
      ['callout-exchanges-2020-02.sqlite', 'unreadable'],
    ]);
    await expect(h['exchanges.list']({ archive: 'callout-exchanges-2020-02.sqlite' })).rejects.toMatchObject({
      code: 'archive-failed',
      params: { kind: 'unreadable' },
    });
  });

  it('stopped while copying, leaves the live store whole and no archive; the next one starts over and goes to the end', async () => {
    const { dir, perMonth } = seeded(168);
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    let { services, h } = await open(dir, clock);
    const before = await everyExchange(h);
    // One batch copies them all: the app is closed after it, before the archive is renamed into place.
    expect(before.length).toBeLessThan(ARCHIVE_BATCH);
    const { name } = await h['store.archive']({ before: '2026-11', utcOffsetMinutes: BEIJING, confirm: true });
    await clock.advance(ARCHIVE_PAUSE_MS);
    expect((await h['store.status'](undefined)).archive.running).toMatchObject({ phase: 'copying', done: before.length - perMonth.get('2026-11')! });
    await services.close();
    cleanups.pop();
    expect(existsSync(join(dir, 'archives', name))).toBe(false);
    expect(readdirSync(join(dir, 'archives'))).toEqual([]);
    ({ services, h } = await open(dir, clock));
    expect(await everyExchange(h)).toEqual(before);
    // The claim of the closed app does not stop the next archive.
    await h['store.archive']({ before: '2026-11', utcOffsetMinutes: BEIJING, confirm: true });
    await finish(services, clock);
    expect((await h['store.status'](undefined)).archive.last).toMatchObject({ name, removed: (await everyExchange(h, name)).length });
    expect([...(await everyExchange(h, name)), ...(await everyExchange(h))].map(strip)).toEqual(before);
  });

  it('never gives an archived exchange’s id again, even once every exchange was archived', async () => {
    const { dir } = seeded(40);
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    const { services, h } = await open(dir, clock);
    const before = await everyExchange(h);
    const { name } = await h['store.archive']({ before: '2026-11', utcOffsetMinutes: BEIJING, confirm: true });
    await finish(services, clock);
    expect(await everyExchange(h)).toEqual([]);
    const newest = Math.max(...before.map((e) => e.id));
    const store = openStore(dir);
    cleanups.push(() => store.close());
    const id = store.exchanges.insert(exchange(clock.now(), 1));
    expect(id).toBe(newest + 1);
    expect((await h['exchanges.get']({ id })).startedAt).toBe(clock.now());
    expect((await h['exchanges.get']({ id: newest, archive: name })).id).toBe(newest);
  });

  it('waits for another process archiving the same store, and takes over the claim of one that died', async () => {
    const { dir } = seeded(40);
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    const { services, h } = await open(dir, clock);
    const store = openStore(dir);
    cleanups.push(() => store.close());
    // The parent process (alive) holds the claim.
    const { processOwner } = await import('../../../main/store/process-owner');
    setSetting(store.db, 'exchanges.archiving', processOwner(process.ppid));
    await expect(h['store.archive']({ before: '2026-07', utcOffsetMinutes: BEIJING, confirm: true })).rejects.toMatchObject({
      code: 'archive-failed',
      params: { kind: 'running-elsewhere' },
    });
    // A process that is gone (pid 2^22 - 1 is above Linux's pid_max default) no longer holds it; its partial file goes.
    setSetting(store.db, 'exchanges.archiving', `${hostname()}:4194303`);
    const folder = join(dir, 'archives');
    (await import('node:fs')).mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'callout-exchanges-2026-06.sqlite.partial-4194303'), 'half an archive');
    const { name } = await h['store.archive']({ before: '2026-07', utcOffsetMinutes: BEIJING, confirm: true });
    await finish(services, clock);
    expect((await h['store.status'](undefined)).archive.error).toBeNull();
    expect(readdirSync(folder)).toEqual([name]);
  });
});

describe('an archive cut short, and one from an older version', () => {
  /** Archives the months before November, and closes the app after one batch of the removal. */
  async function closedWhileRemoving(dir: string, clock: ManualClock) {
    const { services, h } = await open(dir, clock);
    const before = await everyExchange(h);
    const { name } = await h['store.archive']({ before: '2026-11', utcOffsetMinutes: BEIJING, confirm: true });
    const removing = () => services.archives.archiver.state().running;
    for (let i = 0; i < 10_000 && !(removing()?.phase === 'removing' && removing()!.done > 0); i++) await clock.advance(ARCHIVE_PAUSE_MS);
    // Some removed, not all.
    expect(removing()).toMatchObject({ phase: 'removing', done: ARCHIVE_BATCH });
    expect(removing()!.total).toBeGreaterThan(ARCHIVE_BATCH);
    await services.close();
    cleanups.pop();
    return { before, name };
  }

  /** Exchanges found both in the live store and in an archive (the same id and time). */
  const inBoth = (live: ExchangeRecord[], archived: ExchangeRecord[]) =>
    live.filter((e) => archived.some((a) => a.id === e.id && a.startedAt === e.startedAt)).length;

  it('closed while removing: the archive is whole, and the next start of the app finishes the removal', async () => {
    const { dir } = seeded(120, 20);
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    const { before, name } = await closedWhileRemoving(dir, clock);
    // Between the two: the archive holds everything it took, the live store still some of it.
    const { services, h } = await open(dir, clock, true);
    expect(services.archives.archiver.state().running).toMatchObject({ name, phase: 'removing' });
    await finish(services, clock);
    const live = await everyExchange(h);
    const archived = await everyExchange(h, name);
    expect(inBoth(live, archived)).toBe(0);
    expect([...archived, ...live].map(strip)).toEqual(before);
    expect((await h['store.status'](undefined)).archive).toMatchObject({ error: null, last: { name, exchanges: archived.length } });
    expect(readdirSync(join(dir, 'archives'))).toEqual([name]);
  });

  it('closed while removing: archiving again first finishes that removal, and no exchange lands in two archives', async () => {
    const { dir } = seeded(120, 20);
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    const { before, name } = await closedWhileRemoving(dir, clock);
    // A command (no background work) asks for the same months again.
    const { services, h } = await open(dir, clock);
    expect(services.archives.archiver.state().running).toBeNull();
    await h['store.archive']({ before: '2026-11', utcOffsetMinutes: BEIJING, confirm: true });
    await finish(services, clock);
    const archived = await everyExchange(h, name);
    const live = await everyExchange(h);
    expect(inBoth(live, archived)).toBe(0);
    expect([...archived, ...live].map(strip)).toEqual(before);
    expect(readdirSync(join(dir, 'archives'))).toEqual([name]);
    expect((await h['store.status'](undefined)).archive.last).toMatchObject({ name, exchanges: archived.length });
  });

  it('an archive written before a later schema change is read through an upgraded copy, and the archive itself is left as it was', async () => {
    const { dir } = seeded(100);
    const clock = new ManualClock(Date.UTC(2026, 10, 27));
    const { services, h } = await open(dir, clock);
    const { name } = await h['store.archive']({ before: '2026-08', utcOffsetMinutes: BEIJING, confirm: true });
    await finish(services, clock);
    const archived = await everyExchange(h, name);
    const file = join(dir, 'archives', name);
    const bytes = readFileSync(file);
    services.archives.shelf.forget(name);
    // The next version adds a migration (any change to the schema).
    const migrations = MIGRATIONS as Migration[];
    migrations.push({ version: MIGRATIONS.at(-1)!.version + 1, name: 'next', up: (db: Database) => void db.exec('CREATE TABLE next_version (x)') });
    try {
      expect((await h['store.archives'](undefined)).archives).toEqual([expect.objectContaining({ name, problem: null, exchanges: archived.length })]);
      expect(await everyExchange(h, name)).toEqual(archived);
      expect(readFileSync(file).equals(bytes)).toBe(true);
      expect(readdirSync(join(dir, 'archives', '.upgraded'))).toEqual([name, `${name}.source`]);
    } finally {
      migrations.pop();
      services.archives.shelf.close();
    }
  });
});

describe('callout archive', () => {
  it('says what would move, archives it to the end, lists the file, and `callout exchanges --archive` searches it', async () => {
    const { dir } = seeded(120);
    const env = { CALLOUT_HOME: dir, LANG: 'en_US.UTF-8', TZ: 'UTC' };
    const dry = await cli(['archive', 'create', '--before', '2026-08', '--dry-run', '--json'], env);
    expect(dry.code).toBe(0);
    const plan = dry.json as { exchanges: number; from: string; to: string };
    expect(plan).toMatchObject({ before: '2026-08', to: '2026-07' });
    expect(plan.exchanges).toBeGreaterThan(55);
    const human = await cli(['archive', 'create', '--before', '2026-08', '--dry-run'], env);
    expect(human.stdout).toContain(`Would move ${plan.exchanges} exchanges`);
    expect((await cli(['archive', 'list'], env)).stdout).toContain('No archives yet.');

    const made = await cli(['archive', 'create', '--before', '2026-08', '--json'], env);
    expect(made.code).toBe(0);
    const last = made.json as { name: string; exchanges: number; removed: number };
    expect(last).toMatchObject({ exchanges: plan.exchanges, removed: plan.exchanges });
    const listed = (await cli(['archive', 'list', '--json'], env)).json as { folder: string; archives: Array<{ name: string; exchanges: number }> };
    expect(listed).toEqual({ folder: join(dir, 'archives'), archives: [expect.objectContaining({ name: last.name, exchanges: plan.exchanges })] });

    const found = await cli(['exchanges', '--archive', last.name, '--search', 'ticket-3"', '--json'], env);
    expect(found.code).toBe(0);
    expect((found.json as Array<{ url: string }>).length).toBe(1);
    expect((await cli(['exchanges', '--search', 'ticket-3"', '--json'], env)).json).toEqual([]);

    // Nothing left before that month; a month that is not one; an archive that is not there: said, exit 2.
    const again = await cli(['archive', 'create', '--before', '2026-08'], env);
    expect([again.code, again.stderr]).toEqual([2, expect.stringContaining('No exchanges were stored before 2026-08')]);
    const bad = await cli(['archive', 'create', '--before', '2026-13'], { ...env, LANG: 'zh_CN.UTF-8' });
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('请按“年-月”填写月份')]);
    const missing = await cli(['exchanges', '--archive', 'callout-exchanges-1999-01.sqlite'], env);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('There is no archive named “callout-exchanges-1999-01.sqlite”')]);
  });
});
