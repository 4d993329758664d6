// EXPLAIN QUERY PLAN of every hot history query, as the repository actually issues them (the SQL
// and parameters are recorded from its statements), on a store of 20,000 generated messages,
// before and after ANALYZE (statistics must not lead SQLite to a slower plan).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { openDatabase } from '../../../main/store/database';
import { HistoryRepository, type HistoryFilter, type HistoryTuning } from '../../../main/store/history-repository';
import { MessageRepository } from '../../../main/store/message-repository';
import { applyRetention } from '../../../main/store/retention';
import { packBatch } from '../../../main/store/exchange-packing';
import { generateHistory, HISTORY_END, PROFILES } from '../../../bench/groups/history';
import { tempHome } from '../../helpers/temp-home';
import { recording, type Call } from '../../helpers/recording-db';

const DAY = 86_400_000;
let home: ReturnType<typeof tempHome>;
let db: Database;

beforeAll(() => {
  home = tempHome();
  const file = join(home.dir, 'callout.db');
  const v4 = openDatabase(file, { targetVersion: 4 });
  generateHistory(v4, 20_000);
  v4.close();
  db = openDatabase(file);
  // As the app's job leaves an upgraded store: exchanges packed, and their words indexed a call at a time (0021).
  while (packBatch(db) !== null);
});
afterAll(() => {
  db.close();
  home.cleanup();
});

function plan(call: Call): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${call.sql}`).all(...call.params) as { detail: string }[]).map((r) => r.detail).join('\n');
}

/** The plans of the statements one history call ran (message lookups by id left out). */
function plansOf(run: (repo: HistoryRepository) => unknown, tuning: HistoryTuning = {}): { all: string; page: string } {
  const r = recording(db);
  const repo = new HistoryRepository(r.db, tuning);
  r.calls.length = 0; // statements the constructor prepared are not part of the call
  run(repo);
  const calls = r.calls.filter((c) => !/^SELECT \* FROM (messages|exchanges) WHERE id = \?$/.test(c.sql.trim()));
  const page = calls.find(
    (c) => (/ORDER BY (m\.)?created_at|ORDER BY started_at/.test(c.sql) && /LIMIT \?/.test(c.sql)) || /ORDER BY messages_fts\.rowid/.test(c.sql),
  );
  return { all: calls.map(plan).join('\n---\n'), page: page ? plan(page) : '' };
}

/** A full read of the messages table (as opposed to a walk of one of its indexes). */
const FULL_SCAN = /\bSCAN (messages|m)\b(?! USING)/;
const SORT = /USE TEMP B-TREE FOR (LAST TERM OF )?ORDER BY/;

function pageQueries(): Array<[string, HistoryFilter, RegExp]> {
  const to = HISTORY_END - 40 * DAY;
  return [
    [
      'state + date range',
      { states: ['busy'], from: to - 30 * DAY, to },
      /SEARCH messages USING (COVERING )?INDEX messages_state_time \(state=\? AND created_at>\? AND created_at<\?/,
    ],
    [
      'several states + date range',
      { states: ['busy', 'no_answer'], from: to - 30 * DAY, to },
      /MERGE \(UNION ALL\)[\s\S]*messages_state_time[\s\S]*messages_state_time/,
    ],
    ['outcome', { outcomes: ['unknown'] }, /SEARCH messages USING (COVERING )?INDEX messages_outcome_time \(outcome=\?/],
    ['profile', { profiles: ['sandbox'], from: to - 90 * DAY }, /SEARCH messages USING (COVERING )?INDEX messages_profile_time \(profile=\?/],
    ['template', { templates: ['tpl-alarm'] }, /SEARCH messages USING (COVERING )?INDEX messages_template \(template_id=\?/],
    [
      'state + profile',
      { states: ['unknown'], profiles: [PROFILES[0]!.id], from: to - 365 * DAY, to },
      /SEARCH messages USING INDEX messages_(state|profile)_time/,
    ],
  ];
}

for (const analyzed of [false, true]) {
  describe(`history query plans${analyzed ? ' after ANALYZE' : ''}`, () => {
    beforeAll(() => {
      if (analyzed) db.exec('ANALYZE');
    });

    for (const [name, filter, index] of pageQueries()) {
      it(`${name}: a page walks its index in page order, never the whole table, never a sort`, () => {
        for (const order of ['newest', 'oldest'] as const) {
          const first = plansOf((repo) => repo.page(filter, { order }));
          expect(first.page, name).toMatch(index);
          expect(first.all).not.toMatch(FULL_SCAN);
          expect(first.all).not.toMatch(SORT);
          // The next page (keyset cursor) too.
          const probe = new HistoryRepository(db).page(filter, { order, limit: 20 });
          expect(probe.nextCursor).not.toBeNull();
          const next = plansOf((repo) => repo.page(filter, { order, cursor: probe.nextCursor }));
          expect(next.page).toMatch(index);
          expect(next.all).not.toMatch(FULL_SCAN);
          expect(next.all).not.toMatch(SORT);
        }
      });
    }

    it('the calls still going on, looked for at every start, are read from the index of open calls, not by walking every accepted call', () => {
      const r = recording(db);
      const messages = new MessageRepository(r.db);
      r.calls.length = 0;
      messages.claimOrphanedOpen();
      messages.openMessages();
      messages.openMessages('sandbox');
      const open = r.calls.filter((c) => /ended_at IS NULL/.test(c.sql) && c.sql.trim().startsWith('SELECT'));
      expect(open).toHaveLength(3);
      for (const c of open) {
        expect(plan(c)).toMatch(/SEARCH messages USING INDEX messages_open/);
        expect(plan(c)).not.toMatch(/messages_outcome_time|messages_created/);
      }
    });

    it("the Send screen's recents read one index entry per template and the newest calls, never every message", () => {
      const r = recording(db);
      const messages = new MessageRepository(r.db);
      r.calls.length = 0;
      expect(messages.latestPerTemplate().length).toBeGreaterThan(1);
      expect(messages.recentMobiles()).toHaveLength(10);
      expect(r.calls).toHaveLength(2);
      const [latest, mobiles] = r.calls.map(plan);
      expect(latest).toMatch(/SEARCH messages USING COVERING INDEX messages_template \(template_id>\?\)/);
      expect(latest).toMatch(/SEARCH messages USING COVERING INDEX messages_template \(template_id=\?\)/);
      expect(latest).toMatch(/SEARCH m USING INTEGER PRIMARY KEY/);
      expect(mobiles).toMatch(/SCAN messages USING INDEX messages_created/);
      for (const p of [latest, mobiles]) {
        expect(p).not.toMatch(FULL_SCAN);
        expect(p).not.toMatch(SORT);
        expect(p).not.toMatch(/GROUP BY/);
      }
    });

    it('no filter: the newest page walks the time index', () => {
      const p = plansOf((repo) => repo.page({}));
      expect(p.page).toMatch(/SCAN messages USING (COVERING )?INDEX messages_created/);
      expect(p.all).not.toMatch(FULL_SCAN);
      expect(p.all).not.toMatch(SORT);
    });

    it('search by part of a number reads the full-text index in id order, then the matching rows by id', () => {
      const p = plansOf((repo) => repo.page({ search: '3800' }));
      expect(p.page).toMatch(/SCAN messages_fts VIRTUAL TABLE/);
      expect(p.page).toMatch(/SEARCH m USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      // In the index's own order (read until the page is whole), not every match sorted by time.
      expect(p.page).not.toMatch(SORT);
      expect(p.all).not.toMatch(FULL_SCAN);
      const mobileOnly = plansOf((repo) => repo.page({ mobile: '13800', states: ['answered'] }));
      expect(mobileOnly.page).toMatch(/SCAN messages_fts VIRTUAL TABLE/);
      expect(mobileOnly.all).not.toMatch(FULL_SCAN);
    });

    it('search by text reads the full-text index, also with filters', () => {
      const p = plansOf((repo) => repo.page({ search: '牙科复诊', states: ['answered'], from: HISTORY_END - 200 * DAY }));
      expect(p.page).toMatch(/SCAN messages_fts VIRTUAL TABLE/);
      expect(p.page).toMatch(/SEARCH m USING INTEGER PRIMARY KEY/);
      expect(p.page).not.toMatch(SORT);
      expect(p.all).not.toMatch(FULL_SCAN);
    });

    it('search by a common word alone reads its matches in id order, and tells the page is whole from the time index', () => {
      const p = plansOf((repo) => repo.page({ search: '验证码' }), { rareMatches: 10 });
      expect(p.page).toMatch(/SCAN messages_fts VIRTUAL TABLE/);
      expect(p.page).not.toMatch(SORT);
      // The messages between the page's last row and the start: a range of the time index, no row read.
      expect(p.all).toMatch(/SEARCH messages USING COVERING INDEX messages_created \(created_at>\?\)/);
      expect(p.all).not.toMatch(FULL_SCAN);
      expect(p.all).not.toMatch(SORT);
    });

    it('search by a common word with filters, or a 1–2 character word, walks the time index in a bounded window', () => {
      for (const filter of [{ search: '王' }, { search: '取件码', states: ['answered' as const] }, { search: '验证码', from: HISTORY_END - 30 * DAY }]) {
        const p = plansOf((repo) => repo.page(filter), { rareMatches: 10 });
        expect(p.all, JSON.stringify(filter)).toMatch(
          /SEARCH messages USING (COVERING )?INDEX messages_(created|state_time)|SCAN messages USING (COVERING )?INDEX messages_created/,
        );
        expect(p.all).not.toMatch(FULL_SCAN);
        expect(p.all).not.toMatch(SORT);
      }
    });

    it('overview: whole-hour offsets read the hourly counts, never the messages', () => {
      const p = plansOf((repo) => repo.overview({ from: HISTORY_END - 365 * DAY, to: HISTORY_END, utcOffsetMinutes: 480 }));
      expect(p.all).toMatch(/SEARCH message_stats USING PRIMARY KEY \(hour>\? AND hour<\?\)/);
      expect(p.all).not.toMatch(/\bmessages\b(?!_)/);
      const one = plansOf((repo) => repo.overview({ from: HISTORY_END - 30 * DAY, to: HISTORY_END, utcOffsetMinutes: 480, profileId: 'sandbox' }));
      expect(one.all).toMatch(/SEARCH message_stats USING PRIMARY KEY/);
      const half = plansOf((repo) => repo.overview({ from: HISTORY_END - 30 * DAY, to: HISTORY_END, utcOffsetMinutes: 330 }));
      expect(half.all).toMatch(/SEARCH messages USING (COVERING )?INDEX messages_created \(created_at>\? AND created_at<\?\)/);
    });

    it('inspector: exchanges by message, by operation and by time walk their indexes, sorting at most a call or a millisecond', () => {
      // What may be sorted (migration 0028): a message's own exchanges (ten or so a call: its index
      // no longer keeps their times), and exchanges of the same millisecond (the time index no longer
      // repeats the id SQLite adds to every entry). Never a range of the store.
      const cases: Array<[Parameters<HistoryRepository['listExchanges']>[0], RegExp, 'none' | 'ties' | 'one message']> = [
        [{ messageId: 42 }, /SEARCH exchanges USING (COVERING )?INDEX exchanges_message \(message_id=\?\)/, 'one message'],
        // The posts of receipts linked to the message (migration 0016), merged in time order from the link's key.
        [{ messageId: 42 }, /SEARCH exchange_messages USING PRIMARY KEY \(message_id=\?\)/, 'one message'],
        [
          { operation: 'send', from: HISTORY_END - 30 * DAY },
          /SEARCH exchanges USING (COVERING )?INDEX exchanges_operation_time \(operation=\? AND started_at>\?\)/,
          'none',
        ],
        [
          { from: HISTORY_END - 30 * DAY, to: HISTORY_END },
          /SEARCH exchanges USING (COVERING )?INDEX exchanges_time_size \(started_at>\? AND started_at<\?\)/,
          'ties',
        ],
      ];
      for (const [q, index, sorts] of cases) {
        const p = plansOf((repo) => repo.listExchanges(q));
        expect(p.page, JSON.stringify(q)).toMatch(index);
        if (sorts === 'none') expect(p.all).not.toMatch(SORT);
        if (sorts === 'ties') expect(p.all.match(new RegExp(SORT, 'g')) ?? []).toEqual(['USE TEMP B-TREE FOR LAST TERM OF ORDER BY']);
        if (sorts === 'one message') {
          // The message's own rows are sorted (the arm read by message_id=?), and nothing else.
          expect(p.page).toMatch(/SEARCH exchanges USING INDEX exchanges_message \(message_id=\?\)\nUSE TEMP B-TREE FOR ORDER BY\n/);
          expect(p.all.match(new RegExp(SORT, 'g'))).toHaveLength(1);
        }
        expect(p.all).not.toMatch(/\bSCAN exchanges\b(?! USING)/);
      }
    });

    it('exchanges searched by a word of 3+ characters read the trigram index by its trigrams, never every row of it', () => {
      // The index is asked for the word's trigrams (MATCH: answered from the index alone; a LIKE reads
      // each candidate's text). An FTS5 LIKE with an ESCAPE clause is not handed to the index at all:
      // the whole table would be read (1.5–2 s at a million exchanges).
      // The exchanges of the entries found are read by their message's index or by id, never by a scan.
      expect(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'exchanges_fts'").get()).toBeUndefined();
      for (const search of ['13800', 'V0000', '提交成功', 'call_state 138', 'V00000123']) {
        const p = plansOf((repo) => repo.listExchanges({ search }));
        expect(p.all, search).toMatch(/SCAN exchange_words VIRTUAL TABLE INDEX \d+:M/);
        expect(p.all, search).not.toMatch(/SCAN exchange_words VIRTUAL TABLE INDEX \d+:\s*$/m);
        expect(p.all, search).not.toMatch(/\bSCAN exchanges\b(?! USING)/);
      }
      // A word made of trigrams every call holds (the provider's URL, a header) is not asked of the
      // index (migration 0027 leaves those out): the page walks the time index, checking the text.
      for (const search of ['voice/vm', 'Content-Type']) {
        const common = plansOf((repo) => repo.listExchanges({ search }));
        expect(common.all, search).not.toMatch(/exchange_words/);
        expect(common.all, search).toMatch(/SCAN exchanges USING (COVERING )?INDEX exchanges_time_size/);
        expect(common.all, search).not.toMatch(/\bSCAN exchanges\b(?! USING)/);
      }
      const rare = plansOf((repo) => repo.listExchanges({ search: 'V00000123' }));
      expect(rare.all).toMatch(/SEARCH e USING (COVERING )?INDEX exchanges_message \(message_id=\?\)/);
      expect(rare.all).toMatch(/SEARCH e USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    });

    it('a word holding a LIKE wildcard still finds only itself', () => {
      const repo = new HistoryRepository(db);
      const hits = (search: string) => repo.listExchanges({ search, limit: 1000 }).rows;
      // "_" and "%" are characters to look for, not wildcards.
      expect(hits('"cod_"')).toEqual([]);
      expect(hits('"c%de"')).toEqual([]);
      expect(hits('"code"').length).toBeGreaterThan(0);
    });

    it('retention sums and walks sizes from an index, without reading bodies', () => {
      const r = recording(db);
      db.exec('SAVEPOINT plan_check');
      try {
        applyRetention(r.db, { exchangeDays: null, exchangeMaxBytes: 1 }, HISTORY_END);
      } finally {
        db.exec('ROLLBACK TO plan_check; RELEASE plan_check');
      }
      const reads = r.calls.filter((c) => /size_bytes/.test(c.sql) && /^\s*SELECT/.test(c.sql));
      expect(reads.length).toBeGreaterThan(0);
      for (const c of reads) expect(plan(c)).toMatch(/(SCAN|SEARCH) exchanges USING COVERING INDEX exchanges_time_size/);
    });
  });
}
