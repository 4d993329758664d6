import { describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import type { HistoryFilter } from '../../../../common/history-types';
import { HistoryRepository } from '../../../../main/store/history-repository';
import { MessageRepository } from '../../../../main/store/message-repository';
import { recording } from '../../../helpers/recording-db';
import { openAt, tempDbFile } from './temp-db';

// The messages' search index keeps which messages hold each trigram, not where: a store's index is
// made again that way, and every search finds what it found before, and only what holds the words
// (a message holding a word's trigrams apart is not one).

const T0 = Date.UTC(2026, 10, 1, 8);
const MINUTE = 60_000;
const PROFILE = '3f1c9a52-6a0e-4c8e-9d2b-7b5e2f1a9c41';

/** Texts where some words' trigrams stand apart (1234 … 2345 holds 123, 234 and 345, not 12345). */
const TEXTS = [
  '您的验证码是123456，5分钟内有效。',
  '订单 1234 与 2345 已合并。',
  '您好，订单12345已发货，请注意查收。',
  'Alert: DB-Primary down (code ABC)',
  'alert cleared: db-primary up',
  '机房断电，请立即处理。',
  '电断机房：演练。',
  'ПРИВЕТ мир, ＡＢＣＤ',
  'привет мир, ａｂｃｄ',
  '工单 912 已关闭', // a number filter's digits in a text
  '编号 000 与 000', // a word's one trigram held twice apart: not "0000"
];

/** A sentence of 70 different characters: its trigrams are more than a query asks for (64). */
const LONG = Array.from({ length: 70 }, (_, i) => String.fromCodePoint(0x4e00 + 7 * i)).join('');
TEXTS.push(`${LONG} xyz`, LONG);

function seed(db: Database, from: number, to: number): void {
  let now = T0;
  const repo = new MessageRepository(db, () => now);
  for (let i = from; i < to; i++) {
    now = T0 + i * MINUTE;
    repo.insertPending({
      profile: PROFILE,
      baseUrl: 'https://api.example.com',
      apiId: 'C1',
      mobile: i % 4 === 3 ? `1391234${String(i).padStart(4, '0')}` : `1380013${String(i).padStart(4, '0')}`,
      content: TEXTS[i % TEXTS.length]!,
      units: 1,
    });
  }
}

const FILTERS: HistoryFilter[] = [
  { search: '12345' }, // in a text, and its trigrams apart in another
  { search: '2345' },
  { search: '验证码' }, // one trigram: the index alone
  { search: '断电' }, // two characters: checked on each row walked
  { search: '机房断电' },
  { search: '断机房' },
  { search: 'db-primary' }, // ASCII case folded, as LIKE does
  { search: 'ALERT cleared' },
  { search: '订单 发货' },
  { search: '138 0013 0002' }, // a number as typed
  { mobile: '1234' }, // the number column only: "1234" is in texts too
  { mobile: '912' },
  { search: '12345', from: T0 + 10 * MINUTE, to: T0 + 40 * MINUTE },
  { search: '1234', states: ['pending'] },
  { search: 'привет' }, // letters not ASCII: their case folded as the index folds it
  { search: 'ＡＢＣＤ' },
  { search: '0000' },
  { search: `${LONG} xyz` }, // "xyz" past the query's 64 trigrams: checked on the rows
  { search: 'nothing-like-this' },
];

/** What the filter should find, told from the rows themselves: newest first. */
function expected(db: Database, f: HistoryFilter): number[] {
  const rows = db.prepare('SELECT id, mobile, content, created_at, state FROM messages ORDER BY created_at DESC, id DESC').all() as Array<{
    id: number;
    mobile: string;
    content: string;
    created_at: number;
    state: string;
  }>;
  const words = f.search ? (/^[\d\s]+$/.test(f.search) && f.search.replace(/\s/g, '').length >= 7 ? [f.search.replace(/\s/g, '')] : f.search.split(/\s+/)) : [];
  return rows
    .filter((r) => words.every((w) => r.mobile.toLowerCase().includes(w.toLowerCase()) || r.content.toLowerCase().includes(w.toLowerCase())))
    .filter((r) => f.mobile === undefined || r.mobile.includes(f.mobile))
    .filter((r) => (f.from === undefined || r.created_at >= f.from) && (f.to === undefined || r.created_at < f.to))
    .filter((r) => f.states === undefined || f.states.includes(r.state as never))
    .map((r) => r.id);
}

/** Every filter's pages (3 a page, to the end) and count. */
function found(db: Database) {
  const history = new HistoryRepository(db);
  return FILTERS.map((f) => {
    const ids: number[] = [];
    let cursor: string | undefined;
    do {
      const page = history.page(f, { limit: 3, ...(cursor ? { cursor } : {}) });
      ids.push(...page.rows.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return { ids, count: history.count(f).count };
  });
}

const indexBytes = (db: Database) =>
  (db.prepare('SELECT sum(length(block)) AS n FROM messages_fts_data').get() as { n: number }).n +
  ((db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'messages_fts_docsize'").get() as { n: number }).n
    ? (db.prepare('SELECT sum(length(sz)) + 8 * count(*) AS n FROM messages_fts_docsize').get() as { n: number }).n
    : 0);

const integrity = (db: Database) => db.prepare("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)").run();

describe('migration 0030: the messages’ search index keeps which messages hold a trigram, not where', () => {
  it('is made again from the stored messages: every search finds the same, only what holds its words', () => {
    const file = tempDbFile();
    const v29 = openAt(file, 29);
    seed(v29, 0, 80);
    const before = found(v29);
    const truth = FILTERS.map((f) => expected(v29, f));
    // The searches find something, and some words' trigrams stand apart in messages that do not hold them.
    expect(truth.filter((ids) => ids.length > 0).length).toBe(FILTERS.length - 1);
    expect(truth[0]!.length).toBeLessThan(truth[1]!.length);
    expect(before.map((r) => r.ids)).toEqual(truth);
    const bytesBefore = indexBytes(v29);
    v29.close();

    const db = openAt(file, 30);
    integrity(db);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'messages_fts_docsize'").get()).toEqual({ n: 0 });
    expect(indexBytes(db)).toBeLessThan(bytesBefore / 2);
    const after = found(db);
    expect(after).toEqual(before);
    expect(after.map((r) => r.count)).toEqual(truth.map((ids) => ids.length));
  });

  it('follows messages stored, changed and deleted after the upgrade', () => {
    const db = openAt(tempDbFile(), 30);
    seed(db, 0, 21);
    db.prepare("UPDATE messages SET content = '订单 99887 已取消' WHERE id = 3").run();
    db.prepare('DELETE FROM messages WHERE id IN (1, 8)').run();
    integrity(db);
    const now = found(db);
    expect(now.map((r) => r.ids)).toEqual(FILTERS.map((f) => expected(db, f)));
    expect(now.map((r) => r.count)).toEqual(FILTERS.map((f) => expected(db, f).length));
    const history = new HistoryRepository(db);
    expect(history.page({ search: '99887' }).rows.map((r) => r.id)).toEqual([3]);
    expect(history.page({ search: '12345' }).rows.map((r) => r.id)).not.toContain(8);
  });
  it('a word that repeats a trigram, with other filters, is read from its matches when they are few', () => {
    const db = openAt(tempDbFile(), 30);
    const repo = new MessageRepository(db, () => T0);
    for (let i = 0; i < 40; i++) {
      repo.insertPending({
        profile: PROFILE,
        baseUrl: 'https://api.example.com',
        apiId: 'C1',
        mobile: `1391234${String(i + 100).padStart(4, '0')}`,
        content: [2, 5, 7].includes(i) ? '单号 0000 已到' : i % 2 ? '其他' : '编号 000 与 000',
        units: 1,
      });
    }
    // 23 messages hold "000", three of them "0000". Below `rareMatches` matches, the page is read
    // from them (not by walking the newest rows, a window of 30 here, where none is).
    const history = new HistoryRepository(db, { rareMatches: 4, scanWindow: 30 });
    const page = history.page({ search: '0000', states: ['pending'] }, { limit: 50 });
    expect(page.rows.map((r) => r.id)).toEqual([8, 6, 3]);
    expect(page.nextCursor).toBeNull();
    expect(page.searchedTo).toBeUndefined();

    // More messages hold its trigram than a walk's window: no row of them is read to count its
    // matches (the page would stop at the window anyway); the rows are walked.
    const { db: watched, calls } = recording(db);
    const walked = new HistoryRepository(watched, { rareMatches: 4, scanWindow: 20 }).page({ search: '0000', states: ['pending'] }, { limit: 50 });
    expect(calls.some((c) => /CROSS JOIN messages m/.test(c.sql))).toBe(false);
    expect(walked.searchedTo).toBeDefined();
  });

  it('letters are found whatever their case, as the index folds them, on every plan', () => {
    const db = openAt(tempDbFile(), 30);
    let now = T0;
    const repo = new MessageRepository(db, () => now);
    const texts = ['ΠΡΟΣΦΟΡΑ 50%', 'προς όλους', 'δόση 5 µg/ml', 'ΚΑΛΗΣΠΕΡΑ', 'Привет'];
    for (const [i, content] of texts.entries()) {
      now = T0 + i * MINUTE;
      repo.insertPending({ profile: PROFILE, baseUrl: 'https://api.example.com', apiId: 'C1', mobile: `1380013000${i}`, content, units: 1 });
    }
    // Read from the index, and walked (the matches not rare: a filter and `rareMatches` of 1).
    for (const history of [new HistoryRepository(db), new HistoryRepository(db, { rareMatches: 1 })]) {
      const ids = (search: string) => history.page({ search, states: ['pending'] }).rows.map((r) => r.id);
      expect(ids('ΠΡΟΣ')).toEqual([2, 1]); // Σ at a word's end, and ς, are σ
      expect(ids('προσ')).toEqual([2, 1]);
      expect(ids('μg/ml')).toEqual([3]); // the micro sign is μ
      expect(ids('ΛΗΣ')).toEqual([4]);
      expect(ids('привет')).toEqual([5]);
      expect(history.count({ search: 'ΠΡΟΣ' }).count).toBe(2);
    }
  });
});
