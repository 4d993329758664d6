import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { openStore, type Store } from '../../../main/store';
import { HistoryRepository, searchNumber, type HistoryFilter, type HistoryOrder, type HistoryTuning } from '../../../main/store/history-repository';
import { mobileDigits } from '../../../common/domain/mobile';
import { CalloutError } from '../../../main/errors';
import { MessageRepository } from '../../../main/store/message-repository';
import { applyRetention } from '../../../main/store/retention';
import { CALL_STATES, type CallState, type Outcome } from '../../../common/domain/status';
import type { Exchange, MessageRecord } from '../../../common/records';
import { tempHome } from '../../helpers/temp-home';
import { random } from '../../helpers/random';

const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
function store(): Store {
  const h = tempHome();
  const s = openStore(h.dir);
  cleanups.push(() => {
    s.close();
    h.cleanup();
  });
  return s;
}

const T0 = Date.UTC(2026, 2, 1);
const MINUTE = 60_000;
const MOBILES = ['13800138000', '13912345678', '15000001111', '18612340000', '17755556666', '13800990011'];
const NAMES = ['王伟', '李娜', '张秀英', '刘洋', 'Alice'];
const TEXTS = [
  (n: string, r: () => number) => `您好，${n}，您的订单${Math.floor(r() * 1e6)}已发货，请注意查收。`,
  (_n: string, r: () => number) => `您的验证码是${String(Math.floor(r() * 1e6)).padStart(6, '0')}，5分钟内有效。`,
  (n: string) => `华东机房告警：${n}负责的 Redis 内存使用率过高，请立即处理。`,
  (n: string) => `尊敬的${n}，您预约的体检服务将于3月5日9点开始。`,
];
const RESULTS: Array<[Outcome, CallState]> = [
  ['accepted', 'answered'],
  ['accepted', 'answered'],
  ['accepted', 'no_answer'],
  ['accepted', 'busy'],
  ['accepted', 'powered_off'],
  ['rejected', 'failed'],
  ['unknown', 'unknown'],
  ['pending', 'pending'],
  ['accepted', 'calling'],
];

/**
 * Writes `n` messages with many equal times (ties are broken by id). `sparse`: ids far apart (over
 * many of the time blocks of migration 0023), times rising with them in steps but for a stretch
 * stored by a clock set back 12 hours.
 */
function seed(db: Database, n: number, seedValue = 1, sparse = false): void {
  const r = random(seedValue);
  const insert = db.prepare(
    `INSERT INTO messages (id, profile, base_url, api_id, mobile, content, template_id, units, outcome, state, billed_units, created_at, updated_at)
     VALUES (?, ?, 'http://x', 'id', ?, ?, ?, 1, ?, ?, ?, ?, ?)`,
  );
  const last = (db.prepare('SELECT coalesce(max(id), 0) AS id FROM messages').get() as { id: number }).id;
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const t = Math.floor(r() * TEXTS.length);
      const [outcome, state] = RESULTS[Math.floor(r() * RESULTS.length)]!;
      const id = sparse ? last + (i + 1) * 400 + Math.floor(r() * 300) : null;
      const at = sparse
        ? T0 + Math.floor(i / 10) * 30 * MINUTE - (i > n / 2 && i < n / 2 + 40 ? 12 * 60 * MINUTE : 0)
        : T0 + Math.floor(r() * 60) * 30 * MINUTE; // 60 distinct times over 30 hours
      insert.run(
        id,
        ['p-main', 'p-backup', 'p-sandbox'][Math.floor(r() * 3)],
        MOBILES[Math.floor(r() * MOBILES.length)],
        TEXTS[t]!(NAMES[Math.floor(r() * NAMES.length)]!, r),
        r() < 0.2 ? null : `tpl-${t}`,
        outcome,
        state,
        outcome === 'accepted' ? 1 : null,
        at,
        at,
      );
    }
  })();
}

/** What the history screen must show for a filter, computed the plain way. */
function reference(all: MessageRecord[], f: HistoryFilter, order: HistoryOrder): number[] {
  const terms: Array<{ text: string; mobileOnly: boolean }> = [];
  if (f.mobile) terms.push({ text: mobileDigits(f.mobile)!, mobileOnly: true });
  if (f.search?.trim()) {
    const d = searchNumber(f.search);
    if (d) terms.push({ text: d, mobileOnly: false });
    else for (const w of f.search.trim().split(/\s+/)) terms.push({ text: w, mobileOnly: false });
  }
  const has = (hay: string, needle: string) => hay.toLowerCase().includes(needle.toLowerCase());
  return all
    .filter((m) => !f.states || f.states.includes(m.state))
    .filter((m) => !f.outcomes || f.outcomes.includes(m.outcome))
    .filter((m) => !f.profiles || f.profiles.includes(m.profile))
    .filter((m) => !f.templates || (m.templateId !== null && f.templates.includes(m.templateId)))
    .filter((m) => f.from === undefined || m.createdAt >= f.from)
    .filter((m) => f.to === undefined || m.createdAt < f.to)
    .filter((m) => terms.every((t) => has(m.mobile, t.text) || (!t.mobileOnly && has(m.content, t.text))))
    .sort((a, b) => (order === 'newest' ? b.createdAt - a.createdAt || b.id - a.id : a.createdAt - b.createdAt || a.id - b.id))
    .map((m) => m.id);
}

/** Every page, following nextCursor to the end. */
function allPages(repo: HistoryRepository, f: HistoryFilter, order: HistoryOrder, limit: number): { ids: number[]; pages: number; short: number } {
  const ids: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  let short = 0;
  do {
    const page = repo.page(f, { limit, order, cursor });
    expect(page.rows.length).toBeLessThanOrEqual(limit);
    if (page.nextCursor && page.rows.length < limit) {
      short++;
      expect(page.searchedTo).toBeTypeOf('number');
    }
    ids.push(...page.rows.map((m) => m.id));
    cursor = page.nextCursor;
    pages++;
    expect(pages).toBeLessThan(500);
  } while (cursor);
  return { ids, pages, short };
}

const FILTERS: HistoryFilter[] = [
  {},
  { states: ['answered'] },
  { states: ['no_answer', 'busy', 'powered_off'], from: T0 + 5 * 60 * MINUTE, to: T0 + 20 * 60 * MINUTE },
  { outcomes: ['unknown'] },
  { outcomes: ['accepted', 'rejected'], profiles: ['p-sandbox'] },
  { profiles: ['p-main'], from: T0 + 60 * MINUTE },
  { templates: ['tpl-2', 'tpl-3'], states: ['answered', 'busy'] },
  { states: ['answered'], outcomes: ['rejected'] }, // nothing can match: walks to the end
  { search: '0013' },
  { search: '138 0013-8000' },
  { search: '+86 139 1234' },
  { search: '验证码' },
  { search: '王伟' },
  { search: '华东机房 张秀英' },
  { search: 'redis' },
  { search: '伟' },
  { search: '已发货', states: ['answered'], from: T0 + 3 * 60 * MINUTE, to: T0 + 25 * 60 * MINUTE },
  { mobile: '5555' },
  { mobile: '138', search: '体检' },
  { search: '100% _x' },
  { search: '3-5' },
];

describe('history pages', () => {
  const TUNINGS: Array<[string, HistoryTuning]> = [
    ['default thresholds (search reads the index matches)', {}],
    ['small thresholds (search walks the time index in windows)', { rareMatches: 1, scanWindow: 37 }],
  ];
  for (const [name, tuning] of TUNINGS) {
    it(`show exactly the matching messages, each once, in time order, page after page — ${name}`, () => {
      const s = store();
      seed(s.db, 600);
      const repo = new HistoryRepository(s.db, tuning);
      const all = (s.db.prepare('SELECT id FROM messages').all() as { id: number }[]).map((r) => s.messages.get(r.id)!);
      let shortPages = 0;
      for (const f of FILTERS) {
        for (const order of ['newest', 'oldest'] as const) {
          const expected = reference(all, f, order);
          const got = allPages(repo, f, order, 23);
          expect(got.ids, `${JSON.stringify(f)} ${order}`).toEqual(expected);
          shortPages += got.short;
        }
        expect(repo.count(f), JSON.stringify(f)).toEqual({ count: reference(all, f, 'newest').length, capped: false });
      }
      // With a small window, some searches stopped early and said how far they had looked.
      if (tuning.scanWindow) expect(shortPages).toBeGreaterThan(0);
    });
  }

  it('search pages stay exact over many blocks of ids, a clock set back among them (read in id order, migration 0023)', () => {
    const s = store();
    seed(s.db, 600, 3, true);
    const blocks = s.db.prepare('SELECT count(*) AS n FROM message_time_blocks').get() as { n: number };
    expect(blocks.n).toBeGreaterThan(10);
    const repo = new HistoryRepository(s.db);
    const all = (s.db.prepare('SELECT id FROM messages').all() as { id: number }[]).map((r) => s.messages.get(r.id)!);
    for (const f of FILTERS.filter((x) => x.search !== undefined || x.mobile !== undefined)) {
      for (const order of ['newest', 'oldest'] as const) {
        expect(allPages(repo, f, order, 23).ids, `${JSON.stringify(f)} ${order}`).toEqual(reference(all, f, order));
      }
      expect(repo.count(f), JSON.stringify(f)).toEqual({ count: reference(all, f, 'newest').length, capped: false });
    }
  });

  it('search pages stay exact when one message was stored by a clock set years ahead, and one years behind', () => {
    const s = store();
    seed(s.db, 600, 5, true);
    const [first, last] = [
      s.db.prepare('SELECT min(id) AS id FROM messages').get() as { id: number },
      s.db.prepare('SELECT max(id) AS id FROM messages').get() as { id: number },
    ];
    const YEAR = 365 * 24 * 60 * MINUTE;
    const insert = s.db.prepare(
      `INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, outcome, state, created_at, updated_at)
       VALUES (?, 'p-main', 'http://x', 'id', '13800138000', '您的验证码是001300，5分钟内有效。', 1, 'accepted', 'answered', ?, ?)`,
    );
    insert.run(first.id + 1, T0 + 3 * YEAR, T0 + 3 * YEAR); // an old id, a time years ahead: first newest first
    insert.run(last.id + 1, T0 - 3 * YEAR, T0 - 3 * YEAR); // the newest id, years behind: first oldest first
    const repo = new HistoryRepository(s.db);
    const all = (s.db.prepare('SELECT id FROM messages').all() as { id: number }[]).map((r) => s.messages.get(r.id)!);
    for (const f of [{ search: '0013' }, { search: '验证码' }, { mobile: '138' }, { search: '验证码', states: ['answered' as const] }]) {
      for (const order of ['newest', 'oldest'] as const) {
        const expected = reference(all, f, order);
        expect(expected[0], `${JSON.stringify(f)} ${order}`).toBe(order === 'newest' ? first.id + 1 : last.id + 1);
        expect(allPages(repo, f, order, 23).ids, `${JSON.stringify(f)} ${order}`).toEqual(expected);
      }
    }
  });

  it('start with the newest 100 by default, and give the total when asked', () => {
    const s = store();
    seed(s.db, 250);
    const page = s.history.page({}, { withTotal: true });
    expect(page.rows).toHaveLength(100);
    expect(page.total).toBe(250);
    expect(page.totalCapped).toBe(false);
    const newest = s.db.prepare('SELECT id FROM messages ORDER BY created_at DESC, id DESC LIMIT 1').get() as { id: number };
    expect(page.rows[0]!.id).toBe(newest.id);
    expect(() => s.history.page({}, { limit: 1001 })).toThrow(CalloutError);
    expect(() => s.history.page({}, { limit: 0 })).toThrow(/1 to 1000/);
  });

  it('a message sent after the first page does not shift or repeat the next pages', () => {
    const s = store();
    seed(s.db, 120);
    const first = s.history.page({}, { limit: 50 });
    s.messages.insertPending({ profile: 'p-main', baseUrl: 'http://x', apiId: 'id', mobile: '13800138000', content: '新消息', units: 1 });
    const second = s.history.page({}, { limit: 50, cursor: first.nextCursor });
    const ids = [...first.rows, ...second.rows].map((m) => m.id);
    expect(new Set(ids).size).toBe(100);
    const expected = (
      s.db.prepare("SELECT id FROM messages WHERE content != '新消息' ORDER BY created_at DESC, id DESC LIMIT 100").all() as { id: number }[]
    ).map((r) => r.id);
    expect(ids).toEqual(expected);
  });

  it('finds a message the moment it is written, and follows edits and deletions of its text', () => {
    const s = store();
    seed(s.db, 50);
    const m = s.messages.insertPending({
      profile: 'p-main',
      baseUrl: 'http://x',
      apiId: 'id',
      mobile: '19912348765',
      content: '您好，您的包裹已到东门驿站，取件码 8848。',
      units: 1,
    });
    expect(s.history.page({ search: '东门驿站' }).rows.map((r) => r.id)).toEqual([m.id]);
    expect(s.history.page({ search: '2348' }).rows.map((r) => r.id)).toEqual([m.id]);
    s.db.prepare("UPDATE messages SET content = '包裹已签收' WHERE id = ?").run(m.id);
    expect(s.history.page({ search: '东门驿站' }).rows).toEqual([]);
    expect(s.history.page({ search: '已签收' }).rows.map((r) => r.id)).toEqual([m.id]);
    s.db.prepare('DELETE FROM messages WHERE id = ?').run(m.id);
    expect(s.history.page({ search: '2348' }).rows).toEqual([]);
  });

  it('caps counts when asked for speed, and says so', () => {
    const s = store();
    seed(s.db, 300);
    const repo = new HistoryRepository(s.db, { countCap: 100, searchCountCap: 10 });
    expect(repo.count({})).toEqual({ count: 100, capped: true });
    const codes = (s.db.prepare("SELECT count(*) AS n FROM messages WHERE content LIKE '%验证码%'").get() as { n: number }).n;
    expect(codes).toBeGreaterThan(10);
    expect(repo.count({ search: '验证码' })).toEqual({ count: 10, capped: true });
    expect(repo.count({ outcomes: ['unknown'], profiles: ['p-none'] })).toEqual({ count: 0, capped: false });
  });

  it('refuse a cursor they did not give out', () => {
    const s = store();
    expect(() => s.history.page({}, { cursor: 'not-a-cursor' })).toThrow(CalloutError);
    expect(() => s.history.page({}, { cursor: Buffer.from('[1,"x"]').toString('base64url') })).toThrow(/cursor/);
  });

  it('read numbers typed with a country prefix, spaces and dashes as digits', () => {
    expect(mobileDigits('+86 138-0013-8000')).toBe('13800138000');
    expect(mobileDigits('(+86) 13800138000')).toBe('13800138000');
    expect(mobileDigits('008613800138000')).toBe('13800138000');
    expect(mobileDigits('8613800138000')).toBe('13800138000');
    expect(mobileDigits('１３８００')).toBe('13800');
    expect(mobileDigits('0013')).toBe('0013');
    expect(mobileDigits('验证码')).toBeNull();
    // A short run with a dash is text (a date, an order code), searched as typed.
    expect(searchNumber('2026-03')).toBeNull();
    expect(searchNumber('138-0013')).toBe('1380013');
    expect(searchNumber('+86 138')).toBe('138');
    expect(searchNumber('0013')).toBe('0013');
  });
});

describe('history overview', () => {
  const BEIJING = 480;
  /** Messages at 23:30 on 1 March and 00:30 on 2 March, Beijing time. */
  function twoSidesOfMidnight(s: Store) {
    let now = Date.UTC(2026, 2, 1, 15, 30);
    const repo = new MessageRepository(s.db, () => now);
    const base = { profile: 'p-main', baseUrl: 'http://x', apiId: 'id', mobile: '13800138000', content: '您好', units: 2 };
    const late = repo.insertPending(base);
    repo.markAccepted(late.id, { code: 2, msg: null, smsid: 'a', count: 2 });
    repo.updateState(late.id, 'answered', { duration: 20, final: true });
    now = Date.UTC(2026, 2, 1, 16, 30);
    const early = repo.insertPending({ ...base, profile: 'p-backup' });
    repo.markAccepted(early.id, { code: 2, msg: null, smsid: 'b', count: 1 });
    repo.updateState(early.id, 'no_answer', { final: true });
    now = Date.UTC(2026, 2, 1, 16, 40);
    repo.insertPending(base); // still sending
    now = Date.UTC(2026, 2, 1, 16, 50);
    const unknown = repo.insertPending(base);
    repo.markUnknown(unknown.id, { errorKind: 'timeout', reason: { code: 'transport', params: { kind: 'timeout' } } });
    const rejected = repo.insertPending(base);
    repo.markRejected(rejected.id, { code: 403, msg: 'not approved' });
  }

  it('count calls per local day by outcome, with the units of answered calls', () => {
    const s = store();
    twoSidesOfMidnight(s);
    const o = s.history.overview({ from: Date.UTC(2026, 1, 28, 16), to: Date.UTC(2026, 2, 3, 16), utcOffsetMinutes: BEIJING });
    expect(o.days.map((d) => d.day)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
    expect(o.days[0]).toMatchObject({ start: Date.UTC(2026, 1, 28, 16), answered: 1, total: 1, units: 2 });
    expect(o.days[1]).toMatchObject({ noAnswer: 1, inProgress: 1, unknown: 1, rejected: 1, answered: 0, total: 4, units: 0 });
    expect(o.days[2]).toMatchObject({ total: 0 });
    expect(o.totals).toMatchObject({ answered: 1, noAnswer: 1, busy: 0, otherFailures: 0, unknown: 1, rejected: 1, inProgress: 1, total: 5, units: 2 });
    // In UTC both calls fall on 1 March.
    const utc = s.history.overview({ from: Date.UTC(2026, 2, 1), to: Date.UTC(2026, 2, 2), utcOffsetMinutes: 0 });
    expect(utc.days).toHaveLength(1);
    expect(utc.days[0]).toMatchObject({ day: '2026-03-01', answered: 1, noAnswer: 1, total: 5 });
    // One profile only.
    const backup = s.history.overview({ from: Date.UTC(2026, 2, 1), to: Date.UTC(2026, 2, 2), utcOffsetMinutes: 0, profileId: 'p-backup' });
    expect(backup.totals).toMatchObject({ noAnswer: 1, total: 1 });
  });

  it('gives the same days for half-hour offsets (counted from the messages) as a plain count', () => {
    const s = store();
    seed(s.db, 500, 7);
    const all = (s.db.prepare('SELECT id FROM messages').all() as { id: number }[]).map((r) => s.messages.get(r.id)!);
    for (const offset of [330, 480, -300, 345, 0]) {
      const o = s.history.overview({ from: T0 - 86_400_000, to: T0 + 3 * 86_400_000, utcOffsetMinutes: offset });
      for (const d of o.days) {
        const inDay = all.filter((m) => m.createdAt >= d.start && m.createdAt < d.start + 86_400_000);
        expect(d.total, `${offset} ${d.day}`).toBe(inDay.length);
        expect(d.answered).toBe(inDay.filter((m) => m.outcome === 'accepted' && m.state === 'answered').length);
        expect(d.units).toBe(inDay.filter((m) => m.state === 'answered').reduce((n, m) => n + (m.billedUnits ?? 0), 0));
      }
      expect(o.totals.total).toBe(all.length);
      // One profile's days, the same way.
      const profile = all[0]!.profile;
      const one = s.history.overview({ from: T0 - 86_400_000, to: T0 + 3 * 86_400_000, utcOffsetMinutes: offset, profileId: profile });
      for (const d of one.days) {
        const inDay = all.filter((m) => m.profile === profile && m.createdAt >= d.start && m.createdAt < d.start + 86_400_000);
        expect(d.total, `${offset} ${d.day} ${profile}`).toBe(inDay.length);
        expect(d.units).toBe(inDay.filter((m) => m.state === 'answered').reduce((n, m) => n + (m.billedUnits ?? 0), 0));
      }
    }
  });

  it('refuses a backwards or endless range', () => {
    const s = store();
    expect(() => s.history.overview({ from: 10, to: 5, utcOffsetMinutes: 0 })).toThrow(CalloutError);
    expect(() => s.history.overview({ from: 0, to: Date.UTC(2026, 0, 1), utcOffsetMinutes: 0 })).toThrow(/at most/);
  });

  it('lists every state the chart can meet in one bucket or another', () => {
    const s = store();
    let now = T0;
    const repo = new MessageRepository(s.db, () => now);
    for (const state of CALL_STATES) {
      const m = repo.insertPending({ profile: 'p', baseUrl: 'http://x', apiId: 'id', mobile: '13800138000', content: state, units: 1 });
      repo.markAccepted(m.id, { code: 2, msg: null, smsid: state, count: 1 });
      repo.updateState(m.id, state);
      now += 1000;
    }
    const o = s.history.overview({ from: T0, to: T0 + 86_400_000, utcOffsetMinutes: 0 });
    expect(o.totals.total).toBe(CALL_STATES.length);
    expect(o.totals).toMatchObject({ answered: 1, noAnswer: 1, busy: 1, otherFailures: 5, inProgress: 2, unknown: 1 });
  });
});

describe('inspector exchanges', () => {
  function exchange(at: number, operation: Exchange['operation']): Exchange {
    return {
      operation,
      method: 'POST',
      url: `http://127.0.0.1/voice/${operation}`,
      requestHeaders: [['Content-Type', 'application/json']],
      requestBody: '{"password":"[REDACTED]"}',
      status: 200,
      statusText: 'OK',
      responseHeaders: [['Content-Type', 'application/json']],
      responseBody: '{"code":2}',
      error: null,
      startedAt: at,
      timings: { dnsMs: null, connectMs: 1, tlsMs: null, firstByteMs: 3, totalMs: 4 },
    };
  }

  it('a word is found where it stands whole: not where only its trigrams are, and ASCII letters in either case', () => {
    const s = store();
    const body = (text: string, at: number) => s.exchanges.insert({ ...exchange(at, 'raw'), responseBody: text });
    const whole = body('{"msg":"ABCA 用户忙碌"}', 1);
    const scattered = body('{"msg":"abc bca 用户忙 户忙碌"}', 2);
    const found = (search: string) => s.history.listExchanges({ search, order: 'oldest' }).rows.map((e) => e.id);
    // "abca" and "用户忙碌": every trigram is in both exchanges, the word in one.
    expect(found('abca')).toEqual([whole]);
    expect(found('用户忙碌')).toEqual([whole]);
    expect(found('bca')).toEqual([whole, scattered]);
    expect(found('ABC')).toEqual([whole, scattered]);
    expect(found('abca 用户忙碌')).toEqual([whole]);
    expect(found('abca 户忙 bc')).toEqual([whole]);
    expect(found('abca nowhere')).toEqual([]);
    // Page by page through candidates checked one by one.
    const many = Array.from({ length: 7 }, (_, i) => body(`{"msg":"needle-${i}"}`, 10 + i));
    const first = s.history.listExchanges({ search: 'needle', limit: 3 });
    expect(first.rows.map((e) => e.id)).toEqual(many.slice(-3).reverse());
    const second = s.history.listExchanges({ search: 'needle', limit: 3, cursor: first.nextCursor! });
    expect(second.rows.map((e) => e.id)).toEqual(many.slice(1, 4).reverse());
  });

  it('list exchanges by message, operation and time, newest first, page by page', () => {
    const s = store();
    const m = s.messages.insertPending({ profile: 'p', baseUrl: 'http://x', apiId: 'id', mobile: '13800138000', content: 'x', units: 1 });
    const ids: number[] = [];
    for (let i = 0; i < 30; i++) {
      const op = (['send', 'status', 'balance'] as const)[i % 3]!;
      ids.push(s.exchanges.insert(exchange(T0 + Math.floor(i / 2) * 1000, op), { messageId: op === 'balance' ? null : m.id, profile: 'p' }));
    }
    const newestFirst = [...ids].reverse();
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page = s.history.listExchanges({ limit: 7, cursor });
      seen.push(...page.rows.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(newestFirst);
    expect(s.history.listExchanges({ operation: 'balance', limit: 100 }).rows.map((e) => e.operation)).toEqual(Array(10).fill('balance'));
    expect(s.history.listExchanges({ messageId: m.id, operation: 'status', limit: 100 }).rows).toHaveLength(10);
    const ranged = s.history.listExchanges({ from: T0 + 2000, to: T0 + 4000, order: 'oldest', limit: 100 }).rows;
    expect(ranged.map((e) => e.startedAt)).toEqual([T0 + 2000, T0 + 2000, T0 + 3000, T0 + 3000]);
    expect(s.history.exchange(ids[0]!)).toMatchObject({ id: ids[0], operation: 'send', messageId: m.id, requestBody: '{"password":"[REDACTED]"}' });
    expect(s.history.exchange(999_999)).toBeUndefined();
  });

  it('a post naming several messages is stored once, and listed with each of them: in time order, page by page, filtered, searched', () => {
    const s = store();
    const pending = () => s.messages.insertPending({ profile: 'p', baseUrl: 'http://x', apiId: 'id', mobile: '13800138000', content: 'x', units: 1 });
    const [a, b, c] = [pending(), pending(), pending()];
    const own = (m: MessageRecord, i: number, op: Exchange['operation']) => s.exchanges.insert(exchange(T0 + i * 1000, op), { messageId: m.id, profile: 'p' });
    const aSend = own(a, 0, 'send');
    const bSend = own(b, 1, 'send');
    const post = { ...exchange(T0 + 2000, 'receipt'), requestBody: '[{"smsid":"A"},{"smsid":"B"},{"smsid":"C"}]' };
    const postId = s.exchanges.insert(post, { messageIds: [a.id, b.id, c.id, b.id], profile: 'p' });
    const bStatus = own(b, 3, 'status');
    expect(s.db.prepare('SELECT count(*) AS n FROM exchanges').get()).toEqual({ n: 4 });

    expect(s.exchanges.forMessage(a.id).map((e) => e.id)).toEqual([aSend, postId]);
    expect(s.exchanges.forMessage(b.id).map((e) => e.id)).toEqual([bSend, postId, bStatus]);
    expect(s.exchanges.forMessage(c.id).map((e) => e.id)).toEqual([postId]);
    const list = (q: Parameters<typeof s.history.listExchanges>[0]) => {
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const page = s.history.listExchanges({ ...q, limit: 1, cursor });
        seen.push(...page.rows.map((e) => e.id));
        cursor = page.nextCursor;
      } while (cursor);
      return seen;
    };
    expect(list({ messageId: b.id })).toEqual([bStatus, postId, bSend]);
    expect(list({ messageId: b.id, order: 'oldest' })).toEqual([bSend, postId, bStatus]);
    expect(list({ messageId: c.id })).toEqual([postId]);
    expect(list({ messageId: b.id, operation: 'receipt' })).toEqual([postId]);
    expect(list({ messageId: b.id, from: T0 + 1500 })).toEqual([bStatus, postId]);
    expect(list({ messageId: c.id, search: 'smsid' })).toEqual([postId]);
    expect(list({ messageId: a.id, search: 'smsid' })).toEqual([postId]);
    expect(list({})).toEqual([bStatus, postId, bSend, aSend]);

    // Retention deletes the post once, and it leaves every message it named.
    applyRetention(s.db, { exchangeDays: 1, exchangeMaxBytes: null }, T0 + 2500 + 86_400_000);
    expect(s.exchanges.forMessage(c.id)).toEqual([]);
    expect(s.exchanges.forMessage(b.id).map((e) => e.id)).toEqual([bStatus]);
    expect(s.db.prepare('SELECT count(*) AS n FROM exchange_messages').get()).toEqual({ n: 0 });
  });
});
