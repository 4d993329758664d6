import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { ExchangeRepository } from '../../../../main/store/exchange-repository';
import { openAt, tempDbFile } from './temp-db';
import { T0, another, callExchange, searched, seed, seen } from './sandbox-calls';

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
    expect(bytesAfter).toBeLessThan(bytesBefore * 0.6);

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
    // Words made of the provider's fixed words only are still found (the walk checks them).
    expect(searched(db, '提交成功').length).toBe(CALLS);
    expect(() => checked(db)).not.toThrow();

    // Retention by age takes the first half of the calls: their entries go, the others are found.
    repo.deleteStartedBefore(T0 + (CALLS / 2) * 60_000);
    expect(searched(db, 'V007000005')).toEqual([]);
    expect(searched(db, 'V007000031').length).toBeGreaterThan(0);
    expect((db.prepare('SELECT count(*) AS n FROM exchange_words WHERE rowid BETWEEN 1 AND ?').get(CALLS / 2) as { n: number }).n).toBe(0);
    expect(() => checked(db)).not.toThrow();
  });
});
