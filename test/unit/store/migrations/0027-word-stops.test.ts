import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { copyFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ArchiveShelf } from '../../../../main/store/archive';
import { packBatch, packingProgress } from '../../../../main/store/exchange-packing';
import { openAt, storeWrittenBy19, tempDbFile } from './temp-db';
import { T0, another, callExchange, searched, seed, seen } from './sandbox-calls';
import { everything } from '../../../helpers/exchange-views';

// The word index leaves out the trigrams nearly every call holds: a store written by schema 26 is
// upgraded, its index made again, and every search finds the same exchanges as before, from an index
// a fraction of the size; what is stored after is found at once, and goes with its exchanges.

const CALLS = 40;

/** Searches a tester makes: ids, numbers, words of the replies, headers, case changed, and the provider's fixed words. */
const SEARCHES = [
  'V007000005',
  'v007000031',
  '13800000007',
  '您的验证码是100017',
  'answered',
  'ANSWERED',
  '"ended"',
  'voice/status',
  'C2&password',
  'smsid=V007000012',
  '提交成功',
  'Content-Length',
  'json; charset',
  'x-www-form',
  '"duration":31',
  'answered V007000020',
  'nowhere-in-any-call',
];

/** The index's bytes, its segments merged into one (as retention's merge leaves it). */
function indexBytes(db: Database): number {
  db.prepare("INSERT INTO exchange_words (exchange_words) VALUES ('optimize')").run();
  return (db.prepare('SELECT sum(length(block)) AS n FROM exchange_words_data').get() as { n: number }).n;
}

const checked = (db: Database) => db.prepare("INSERT INTO exchange_words (exchange_words, rank) VALUES ('integrity-check', 0)").run();

/** What every search finds: a page of 7 at a time, through the index where it narrows (4 entries or fewer) and through it always (10,000). */
const everySearch = (db: Database) => SEARCHES.map((s) => [searched(db, s), searched(db, s, { rareMatches: 10_000 })]);

describe('migration 0027: the word index leaves out what every call holds', () => {
  it('is the twenty-seventh migration', () => {
    expect(MIGRATIONS[26]).toMatchObject({ version: 27, name: 'word-stops' });
  });

  it('upgrades a store written by schema 26: every search finds the same exchanges, from an index a fraction of the size', async () => {
    const file = tempDbFile();
    const v26 = openAt(file, 26);
    seed(v26, 0, CALLS);
    const before = everySearch(v26);
    const shown = await seen(v26);
    // The searches find what they should, so that "the same" below means something.
    const [byId, , byMobile, byCode, answered, upper] = before.map(([narrowed]) => narrowed!.length);
    expect(byId).toBeGreaterThan(1);
    expect(byMobile).toBeGreaterThan(0);
    expect(byCode).toBe(1);
    expect(answered).toBeGreaterThan(20);
    expect(upper).toBe(answered);
    expect(before.at(-1)).toEqual([[], []]);
    for (const [narrowed, always] of before) expect(always).toEqual(narrowed);
    const bytesBefore = indexBytes(v26);
    v26.close();

    const db = openAt(file, 27);
    expect(everySearch(db)).toEqual(before);
    expect(await seen(db)).toEqual(shown);
    expect(() => checked(db)).not.toThrow();
    // Every call keeps its entry (one a call, and one each for the exchanges no call owns).
    const alone = (db.prepare('SELECT count(*) AS n FROM exchanges WHERE message_id IS NULL').get() as { n: number }).n;
    expect((db.prepare('SELECT count(*) AS n FROM exchange_words').get() as { n: number }).n).toBe(CALLS + alone);
    const bytesAfter = indexBytes(db);
    expect(bytesAfter).toBeLessThan(bytesBefore * 0.75);

    // From another connection too (another process, nothing read before).
    const other = another(file);
    expect(everySearch(other)).toEqual(before);
    other.close();

    // Its schema is the one a new store gets.
    const fresh = openAt(tempDbFile(), 27);
    const schema = (d: Database) => d.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all();
    expect(schema(db)).toEqual(schema(fresh));
  });

  it('what is stored after is found at once, by words of its own, and goes with its exchanges', () => {
    const file = tempDbFile();
    const db = openAt(file, 27);
    seed(db, 0, CALLS);
    const repo = new ExchangeRepository(db);
    // A later poll of call 7 with a word no other exchange holds, and one no message owns.
    const late = repo.insert({ ...callExchange(7, 9), responseBody: '{"code":2,"state":"ended","note":"Late-Note-77"}' }, { messageId: 8, profile: 'p' });
    const loose = repo.insert({ ...callExchange(9, 1), requestBody: 'account=C0&smsid=LOOSE-ONE', startedAt: T0 + 3_600_000 }, { profile: 'p' });
    expect(searched(db, 'late-note-77')).toEqual([late]);
    expect(searched(db, 'LOOSE-ONE')).toEqual([loose]);
    // The words of the call found through its new entry, the call's other exchanges not.
    expect(searched(db, 'Late-Note-77 V007000007')).toEqual([late]);
    expect(searched(db, 'Late-Note-77 V007000008')).toEqual([]);
    // Words made of the trigrams every call holds are still found (the walk checks them).
    expect(searched(db, 'Content-Type').length).toBeGreaterThan(CALLS * 2);
    expect(() => checked(db)).not.toThrow();

    // Retention by age takes the first half of the calls: their entries go, the others are found.
    repo.deleteStartedBefore(T0 + (CALLS / 2) * 60_000);
    expect(searched(db, 'V007000005')).toEqual([]);
    expect(searched(db, 'V007000031').length).toBeGreaterThan(0);
    expect((db.prepare('SELECT count(*) AS n FROM exchange_words WHERE rowid BETWEEN 1 AND ?').get(CALLS / 2) as { n: number }).n).toBe(0);
    expect(() => checked(db)).not.toThrow();
  });

  it('an archive written by schema 26 (its exchanges without their messages) is found by its words through its upgraded copy', () => {
    const folder = join(dirname(tempDbFile()), 'archives');
    mkdirSync(folder, { recursive: true });
    const name = 'callout-exchanges-2026-11-to-2026-11.sqlite';
    const v26 = openAt(join(folder, name), 26);
    seed(v26, 0, CALLS);
    // As an archive is: its exchanges keep their messages' ids, its messages stay in the live store.
    v26.pragma('foreign_keys = OFF');
    v26.exec('DELETE FROM messages');
    const n = (v26.prepare('SELECT count(*) AS n FROM exchanges').get() as { n: number }).n;
    v26
      .prepare("INSERT INTO settings (key, value) VALUES ('archive', ?)")
      .run(JSON.stringify({ from: '2026-11', to: '2026-11', before: '2026-12', exchanges: n, bytes: 0, createdAt: T0 }));
    const before = everySearch(v26);
    expect(before[0]![0]!.length).toBeGreaterThan(1);
    v26.pragma('journal_mode = DELETE');
    v26.close();
    // A copy an earlier build upgraded to its own schema (26), stamped as that build stamped it: made again.
    const path = join(folder, name);
    mkdirSync(join(folder, '.upgraded'), { recursive: true });
    copyFileSync(path, join(folder, '.upgraded', name));
    const st = statSync(path);
    writeFileSync(join(folder, '.upgraded', `${name}.source`), `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`);

    const shelf = new ArchiveShelf(folder);
    try {
      const { db } = shelf.get(name);
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
      expect(everySearch(db)).toEqual(before);
    } finally {
      shelf.close();
    }
  });

  it('a store upgraded from before the words of a call were indexed once: the indexing job makes the entries, once, the new way', async () => {
    const file = storeWrittenBy19(40);
    const v20 = openAt(file, 20);
    while (packBatch(v20) !== null);
    const before = await everything(v20);
    v20.close();
    // The job half done at schema 21 (entries made the old way), then the app updated.
    const v21 = openAt(file, 21);
    packBatch(v21, 60);
    const half = packingProgress(v21)!;
    expect(half.step).toBe('indexing');
    expect(half.done).toBeGreaterThan(0);
    v21.close();

    const db = openAt(file, 27);
    // The upgrade left the entries to the job, started again: search reads the old index meanwhile.
    expect((db.prepare('SELECT count(*) AS n FROM exchange_words').get() as { n: number }).n).toBe(0);
    expect(packingProgress(db)).toEqual({ step: 'indexing', done: 0, total: half.total });
    expect(await everything(db)).toEqual(before);
    let last = 0;
    for (let p; (p = packBatch(db, 50));) last = p.done;
    // Each exchange indexed once, and search finds the same from the new index alone.
    expect(last).toBe(half.total);
    expect(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'exchanges_fts'").get()).toBeUndefined();
    expect(await everything(db)).toEqual(before);
    expect(() => checked(db)).not.toThrow();
  });
});
