import type { Database, Statement } from 'better-sqlite3';
import type { CallState, Outcome } from '../../common/domain/status';
import type { ExchangeRecord, MessageRecord } from '../../common/records';
import { mobileDigits } from '../../common/domain/mobile';
import { fail } from '../errors';
import { ExchangeRepository } from './exchange-repository';
import { keepsBases, refreshDictionaries, searchText, unpackRow, type PackedParts } from './exchange-pack';
import { asciiFold, wordsQuery } from './words';
import { wordsForm } from './exchange-words';
import { MessageRepository } from './message-repository';
import { storedForms } from './profile-keys';
import { SPARSE, sparseCondition } from './migrations/0024-sparse-exchange-indexes';
import { pageInTimeOrder, startId, type Candidate, type TimeBlock, type TimeBounds, type TimeRow } from './time-blocks';
import type {
  HistoryFilter,
  HistoryOrder,
  HistoryPageRequest,
  HistoryPage,
  HistoryCount,
  OverviewCounts,
  OverviewDay,
  OverviewRequest,
  Overview,
  ExchangeQuery,
  ExchangePage,
  StatusFilter,
} from '../../common/history-types';
export type {
  HistoryFilter,
  HistoryOrder,
  HistoryPageRequest,
  HistoryPage,
  HistoryCount,
  OverviewCounts,
  OverviewDay,
  OverviewRequest,
  Overview,
  ExchangeQuery,
  ExchangePage,
} from '../../common/history-types';

/**
 * The history screen's queries over `messages` (and the inspector's over `exchanges`), built for a
 * million rows. Every list is keyset-paginated on (created_at, id) — never OFFSET — and each shape
 * of query is shaped so SQLite walks an index in the page's order (plans asserted in
 * test/unit/store/history-plans.test.ts):
 *
 * - Filters without text: one index walk per value of the most selective filter (state, outcome,
 *   profile or template; (filter, created_at) indexes, see migration 0005), merged by SQLite
 *   (MERGE UNION ALL) in time order; the other filters are checked on the rows walked.
 * - Text and number search: the FTS5 trigram index names the messages holding every trigram of
 *   the words (3+ characters), each then checked against the words (migration 0030). Its
 *   matches are read in id order from the page's end, and the read stops when the page is whole:
 *   when no message left can sort before the page's last row (the time bounds of each block of ids,
 *   migration 0023, or the time index between the page's ends, `time-blocks.ts`). Ids rise with
 *   time, so about a page's rows are read, however many match. Words alone are read that way;
 *   with other filters, when the words match {@link RARE_MATCHES} messages or more, walking the
 *   time index (or a filter's) and keeping the rows that contain the words finds a page sooner.
 *   Words of 1–2 characters cannot use a trigram index: they are checked on the rows walked.
 * - A walk that checks rows (search, or filters on two or more columns) reads at most
 *   {@link SCAN_WINDOW} rows per page. A page can then hold fewer rows than asked while
 *   `nextCursor` is still set: `searchedTo` says how far back (or forward) it looked, and the next
 *   page goes on from there. This bounds every page's time, whatever the filter.
 */

/** With other filters, below this many full-text matches a search page is read from the matches themselves. */
export const RARE_MATCHES = 3000;
/** Most messages the time index is read for to tell a search page is whole (`unread`)… */
const SETTLE_WINDOW = 2000;
/** …and most of them the read has not reached, each then looked up (a clock set wrong stored them). */
const SETTLE_UNREAD = 100;
/** Most rows a page walks when it has to check rows (see the class comment). */
export const SCAN_WINDOW = 10_000;
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;
/** count() stops at this many (it then says `capped`): ~10 ms on an index. */
export const COUNT_CAP = 100_000;
/** count() of a text search stops here: each match is one row read. */
export const SEARCH_COUNT_CAP = 10_000;
/** Longest range the overview charts, in days. */
export const MAX_OVERVIEW_DAYS = 3700;
/** More values than this in one filter are checked per row rather than walked one index range each. */
const MAX_ARMS = 16;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** The thresholds above, for tests (small numbers exercise every path on small data). */
export interface HistoryTuning {
  rareMatches?: number;
  scanWindow?: number;
  countCap?: number;
  searchCountCap?: number;
}

// ——— cursors ———

function encodeCursor(at: number, id: number): string {
  return Buffer.from(JSON.stringify([at, id])).toString('base64url');
}

function decodeCursor(cursor: string): [number, number] {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && v.every((x) => Number.isSafeInteger(x))) return [v[0] as number, v[1] as number];
  } catch {
    // fall through
  }
  throw fail('history-invalid', { kind: 'cursor' });
}

function pageSize(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw fail('history-invalid', { kind: 'page-size', max: MAX_PAGE_SIZE });
  }
  return limit;
}

// ——— search terms ———

/**
 * The digits of a search typed as a phone number: plain digits, or digits with spaces, dashes or
 * parentheses that start with + or hold 7 digits or more ("138 0013 8000", "+86 138…"). Other text
 * ("2024-03", "A-1") is searched as typed.
 */
export function searchNumber(raw: string): string | null {
  const s = raw.trim();
  const d = mobileDigits(s);
  if (d === null) return null;
  return /^\d+$/.test(s) || /^[(（]?[+＋]/.test(s) || d.length >= 7 ? d : null;
}

interface Term {
  text: string;
  /** Only the number column. */
  mobileOnly: boolean;
}

function termsOf(f: HistoryFilter): Term[] {
  const terms: Term[] = [];
  if (f.mobile !== undefined && f.mobile.trim()) {
    const d = mobileDigits(f.mobile);
    if (d === null) throw fail('history-invalid', { kind: 'mobile-digits' });
    terms.push({ text: d, mobileOnly: true });
  }
  const s = f.search?.trim();
  if (s) {
    const d = searchNumber(s);
    if (d !== null) terms.push({ text: d, mobileOnly: false });
    else for (const w of s.split(/\s+/).slice(0, 8)) terms.push({ text: w, mobileOnly: false });
  }
  return terms;
}

const codePoints = (s: string) => [...s].length;
const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// ——— SQL building ———

type Param = string | number | bigint | null;

interface Clause {
  sql: string;
  params: Param[];
}

const DIMENSIONS = [
  { key: 'states', column: 'state' },
  { key: 'outcomes', column: 'outcome' },
  { key: 'profiles', column: 'profile' },
  { key: 'templates', column: 'template_id' },
] as const;
type Dimension = (typeof DIMENSIONS)[number];

function inList(column: string, values: readonly string[], noIndex: boolean): Clause {
  const col = noIndex ? `+${column}` : column;
  return { sql: `${col} IN (${values.map(() => '?').join(', ')})`, params: [...values] };
}

function uniq<T>(xs: readonly T[] | undefined): T[] {
  return xs ? [...new Set(xs)] : [];
}

/**
 * History and inspector queries. Read-only: writes go through MessageRepository and
 * ExchangeRepository (and the triggers of migration 0005 keep the search index and the overview
 * counts in step).
 */
export class HistoryRepository {
  private readonly messages: MessageRepository;
  private readonly exchanges: ExchangeRepository;
  private readonly statements = new Map<string, Statement>();
  private readonly rareMatches: number;
  private readonly scanWindow: number;
  private readonly countCap: number;
  private readonly searchCountCap: number;

  constructor(
    private readonly db: Database,
    tuning: HistoryTuning = {},
  ) {
    this.messages = new MessageRepository(db);
    this.exchanges = new ExchangeRepository(db);
    this.rareMatches = tuning.rareMatches ?? RARE_MATCHES;
    this.scanWindow = tuning.scanWindow ?? SCAN_WINDOW;
    this.countCap = tuning.countCap ?? COUNT_CAP;
    this.searchCountCap = tuning.searchCountCap ?? SEARCH_COUNT_CAP;
    // Whether a text holds a word whatever the case of its letters (see `likeClauses`).
    db.function('callout_holds_folded', { deterministic: true }, (text: unknown, word: unknown) =>
      typeof text === 'string' && typeof word === 'string' && foldCase(text).includes(word) ? 1 : 0,
    );
    for (const [k, v] of Object.entries(tuning)) {
      if (v !== undefined && (!Number.isSafeInteger(v) || v < 1)) throw new RangeError(`HistoryRepository: ${k} must be a positive integer.`);
    }
  }

  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      // One entry per query shape (filters used, number of values): stays small.
      if (this.statements.size > 500) this.statements.clear();
      this.statements.set(sql, s);
    }
    return s;
  }

  // ——— messages ———

  /** Up to `limit` messages matching `filter`, newest first, read a page at a time; `capped` when more were left. */
  upTo(filter: HistoryFilter, limit: number): { rows: MessageRecord[]; capped: boolean } {
    const rows: MessageRecord[] = [];
    let cursor: string | null = null;
    do {
      const page = this.page(filter, { limit: Math.min(1000, limit - rows.length), cursor });
      rows.push(...page.rows);
      cursor = page.nextCursor;
    } while (cursor && rows.length < limit);
    return { rows, capped: cursor !== null };
  }

  /** One page of messages matching `filter`, newest (default) or oldest first. */
  page(filter: HistoryFilter = {}, request: HistoryPageRequest = {}): HistoryPage {
    const limit = pageSize(request.limit);
    const order = request.order ?? 'newest';
    const cursor = request.cursor ? decodeCursor(request.cursor) : null;
    const plan = this.plan(filter);
    const result = plan.kind === 'matches' ? this.pageFromMatches(plan, cursor, order, limit) : this.pageFromWalk(plan, cursor, order, limit);
    const page: HistoryPage = {
      rows: result.ids.map((id) => this.messages.get(id)).filter((m): m is MessageRecord => m !== undefined),
      nextCursor: result.next,
    };
    if (result.searchedTo !== undefined) page.searchedTo = result.searchedTo;
    if (request.withTotal) {
      const c = this.countPlan(plan);
      page.total = c.count;
      page.totalCapped = c.capped;
    }
    return page;
  }

  /**
   * How many messages match `filter`. Exact up to a cap, then `capped` (at least that many):
   * {@link COUNT_CAP} for filters, {@link SEARCH_COUNT_CAP} for text found through the index; a
   * search on 1–2 character words counts within the most recent {@link COUNT_CAP} rows of the
   * other filters. Costs at most ~10–50 ms at a million rows.
   */
  count(filter: HistoryFilter = {}): HistoryCount {
    return this.countPlan(this.plan(filter));
  }

  /**
   * Calls per local day by outcome, and units billed for answered calls, for a chart, from the
   * hourly counts of `message_stats` (a year in a few ms), and for an offset that is not whole hours
   * (e.g. +05:30) the hour each day's boundary cuts from its messages.
   */
  overview(req: OverviewRequest): Overview {
    const off = Math.round(req.utcOffsetMinutes) * 60_000;
    if (!Number.isFinite(req.from) || !Number.isFinite(req.to) || req.to <= req.from) {
      throw fail('history-invalid', { kind: 'range' });
    }
    if (Math.abs(req.utcOffsetMinutes) > 14 * 60) throw fail('history-invalid', { kind: 'utc-offset' });
    const firstDay = Math.floor((req.from + off) / DAY_MS);
    const lastDay = Math.floor((req.to - 1 + off) / DAY_MS);
    if (lastDay - firstDay + 1 > MAX_OVERVIEW_DAYS) throw fail('history-invalid', { kind: 'days', max: MAX_OVERVIEW_DAYS });
    const start = firstDay * DAY_MS - off;
    const end = (lastDay + 1) * DAY_MS - off;
    const profile = req.profileId ?? null;
    // The counts and rows keep the profile by its key (migration 0029), or by its id where an upgrade has not reached them.
    const byProfile = profile === null ? [] : storedForms(this.db, [profile], 'messages');
    const marks = byProfile.map(() => '?').join(', ');
    // Each hour wholly inside one local day from the hourly counts. An offset that is not whole hours
    // (+05:30) makes each day's boundary cut an hour: those hours (one a day) are counted from their
    // messages by the created_at index. Counting every message of the range took seconds for a year
    // of a large store.
    const rows = this.stmt(
      `SELECT (hour * ${HOUR_MS} + CAST(? AS INTEGER)) / ${DAY_MS} AS day, outcome, state, sum(n) AS n, sum(units) AS units
       FROM message_stats WHERE hour >= ? AND hour < ?${profile === null ? '' : ` AND profile IN (${marks})`}
         AND (hour * ${HOUR_MS} + CAST(? AS INTEGER)) / ${DAY_MS} = ((hour + 1) * ${HOUR_MS} - 1 + CAST(? AS INTEGER)) / ${DAY_MS}
       GROUP BY day, outcome, state`,
    ).all(off, Math.floor(start / HOUR_MS), Math.ceil(end / HOUR_MS), ...byProfile, off, off) as Array<{
      day: number;
      outcome: Outcome;
      state: CallState;
      n: number;
      units: number;
    }>;
    if (off % HOUR_MS !== 0) {
      const cut = this.stmt(
        `SELECT (created_at + CAST(? AS INTEGER)) / ${DAY_MS} AS day, outcome, state, count(*) AS n, coalesce(sum(billed_units), 0) AS units
         FROM messages WHERE created_at >= ? AND created_at < ?${profile === null ? '' : ` AND +profile IN (${marks})`}
         GROUP BY day, outcome, state`,
      );
      for (let boundary = start; boundary <= end; boundary += DAY_MS) {
        const hour = Math.floor(boundary / HOUR_MS) * HOUR_MS;
        const from = Math.max(hour, start);
        const to = Math.min(hour + HOUR_MS, end);
        if (from < to) rows.push(...(cut.all(off, from, to, ...byProfile) as typeof rows));
      }
    }
    const empty = (): OverviewCounts => ({ answered: 0, noAnswer: 0, busy: 0, otherFailures: 0, unknown: 0, rejected: 0, inProgress: 0, total: 0, units: 0 });
    const days: OverviewDay[] = [];
    for (let d = firstDay; d <= lastDay; d++) days.push({ day: new Date(d * DAY_MS).toISOString().slice(0, 10), start: d * DAY_MS - off, ...empty() });
    const totals = empty();
    for (const r of rows) {
      const day = days[r.day - firstDay];
      if (!day) continue;
      const bucket = overviewBucket(r.outcome, r.state);
      for (const c of [day, totals]) {
        c[bucket] += r.n;
        c.total += r.n;
        if (bucket === 'answered') c.units += r.units;
      }
    }
    return { days, totals };
  }

  // ——— exchanges (the inspector) ———

  exchange(id: number): ExchangeRecord | undefined {
    return this.exchanges.get(id);
  }

  /**
   * Exchanges newest (default) or oldest first, keyset-paginated on (started_at, id), as the
   * message pages are (see the class comment):
   * - one index walk per value of the most selective filter (message, operation, profile, exact
   *   status or "no reply", provider code), merged in time order; the other filters (status
   *   classes such as 4xx included) are checked on the rows walked, at most SCAN_WINDOW per page;
   * - words of 3+ characters are looked up in the word index of the exchanges' text (URL, headers,
   *   bodies: their trigrams but those every call holds, 0027), an entry a call (migration 0021; an
   *   exchange, 0012, until the indexing job is done); when they match fewer than RARE_MATCHES
   *   entries, the page is read from their exchanges, checking at most RARE_MATCHES texts (a page
   *   short of that says how far it looked, as a walk does); otherwise (and for 1–2 character
   *   words, or words made only of trigrams every call holds) the walk checks the text.
   */
  listExchanges(q: ExchangeQuery = {}): ExchangePage {
    // One snapshot: the dictionaries read first are those of every packed row the statements read (exchange-pack.ts).
    return this.db.transaction(() => {
      refreshDictionaries(this.db);
      return this.listExchangesNow(q);
    })();
  }

  private listExchangesNow(q: ExchangeQuery): ExchangePage {
    const limit = pageSize(q.limit);
    const order = q.order ?? 'newest';
    const cursor = q.cursor ? decodeCursor(q.cursor) : null;
    for (const x of [q.from, q.to]) {
      if (x !== undefined && !Number.isFinite(x)) throw fail('history-invalid', { kind: 'dates' });
    }
    // Rows keep a profile by its id or by its key (migration 0025): both are asked for.
    const dims = exchangeDimensions(q.profiles ? { ...q, profiles: storedForms(this.db, q.profiles) } : q);
    const terms = (q.search ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 8);
    const range: Range = { from: q.from, to: q.to };
    let result: PageResult | null = null;
    // The index of calls (migration 0021) holds their uncommon trigrams as tokens (0027, words.ts);
    // in a store at an older schema it is SQLite's trigram index, as is the index of each exchange a
    // store upgraded from before 0021 keeps until the indexing job is done (0012).
    const words = terms.some((t) => codePoints(t) >= 3) ? this.wordIndex() : null;
    const perCall = words !== null && words !== 'exchanges';
    // The trigram index answers a plain LIKE only (an ESCAPE clause makes FTS5 scan every row): there,
    // words holding a LIKE wildcard (% or _) or a backslash are checked on the text, as short words are.
    const indexed = terms.filter((t) => codePoints(t) >= 3 && (words === 'tokens' || !/[\\%_\0]/.test(t)));
    const match = !indexed.length ? null : words === 'tokens' ? wordsQuery(indexed) : trigramQuery(indexed);
    if (match !== null) {
      // The index is asked for each trigram of the words on its own: a single token is answered from
      // the index alone, where a phrase (or LIKE) makes it read each candidate's text (detail=none).
      // That gives every entry holding all the trigrams: a call's exchanges together (migration 0021),
      // or, until the indexing job is done, each exchange on its own (migration 0012). Words made of
      // common trigrams only are not asked for: the walk checks them (as words too common to narrow).
      const index = perCall ? 'exchange_words' : 'exchanges_fts';
      const found = (
        this.stmt(`SELECT count(*) AS n FROM (SELECT 1 FROM ${index} WHERE ${index} MATCH ? LIMIT ${this.rareMatches})`).get(match) as {
          n: number;
        }
      ).n;
      if (found < this.rareMatches) {
        const desc = order === 'newest';
        const residual = [...dims.map((d) => d.clause('e.', true)), ...exchangeRange(range, 'e.', true)];
        if (cursor) residual.push({ sql: `(+e.started_at, +e.id) ${desc ? '<' : '>'} (?, ?)`, params: cursor });
        const dir = desc ? 'DESC' : 'ASC';
        const where = residual.map((c) => ` AND ${c.sql}`).join('');
        const params = residual.flatMap((c) => c.params);
        // The candidates in page order (ids and times only): the exchanges of each entry found (a
        // message's, or one alone; an exchange of a long call may be in both, hence UNION); each
        // one's text is read (unpacked) and checked for every word only until the page is full.
        const candidates = (
          perCall
            ? this.stmt(
                `SELECT id, created_at FROM (
                   SELECT e.id, e.started_at AS created_at FROM exchanges e
                   WHERE e.message_id IN (SELECT rowid FROM exchange_words WHERE exchange_words MATCH ? AND rowid > 0)${where}
                   UNION
                   SELECT e.id, e.started_at AS created_at FROM exchanges e
                   WHERE e.id IN (SELECT -rowid FROM exchange_words WHERE exchange_words MATCH ? AND rowid < 0)${where})
                 ORDER BY created_at ${dir}, id ${dir}`,
              ).all(match, ...params, match, ...params)
            : this.stmt(
                `SELECT e.id, e.started_at AS created_at FROM exchanges e
                 WHERE e.id IN (SELECT rowid FROM exchanges_fts WHERE exchanges_fts MATCH ?)${where}
                 ORDER BY e.started_at ${dir}, e.id ${dir}`,
              ).all(match, ...params)
        ) as Row[];
        const textOf = this.stmt(`SELECT t.id, t.started_at AS created_at, ${this.textColumns('t')} FROM exchanges t WHERE t.id = ?`);
        const matches = textMatcher(this.db, terms);
        const rows: Row[] = [];
        // At most RARE_MATCHES texts a page (an entry is a whole call: the words may be in few of its
        // exchanges, or in none together); past that the page holds what was found, and says how far it looked.
        const reads = Math.min(candidates.length, this.rareMatches);
        for (let i = 0; i < reads && rows.length <= limit; i++) {
          const c = candidates[i]!;
          const row = textOf.get(c.id) as TextRow | undefined;
          if (row && matches(row)) rows.push({ id: c.id, created_at: c.created_at });
        }
        if (rows.length <= limit && reads < candidates.length) {
          const edge = candidates[reads - 1]!;
          result = { ids: rows.map((r) => r.id), next: encodeCursor(edge.created_at, edge.id), searchedTo: edge.created_at };
        } else result = finish(rows, limit);
      }
    }
    result ??= this.walkExchanges(dims, range, terms, cursor, order, limit);
    const page: ExchangePage = {
      rows: result.ids.map((id) => this.exchanges.get(id)).filter((e): e is ExchangeRecord => e !== undefined),
      nextCursor: result.next,
    };
    if (result.searchedTo !== undefined) page.searchedTo = result.searchedTo;
    return page;
  }

  /**
   * How the words are indexed: a call at a time (migration 0021), as its uncommon trigrams' tokens
   * (0027) or, in a store at an older schema, as text for the trigram tokenizer; or each exchange on
   * its own, which a store upgraded from before 0021 keeps until the indexing job has dropped that index.
   */
  private wordIndex(): 'tokens' | 'text' | 'exchanges' {
    if (this.stmt("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'exchanges_fts'").get() !== undefined) return 'exchanges';
    return wordsForm(this.db);
  }

  /**
   * The columns a row's search text is read from, `alias` the row's table: with its message's base
   * (migration 0026), read in the same statement (the text is read while the statement runs).
   */
  private textColumns(alias: string): string {
    const bases = keepsBases(this.db);
    const cols = TEXT_COLUMNS.split(', ')
      .map((c) => `${alias}.${c}`)
      .join(', ');
    return bases ? `${cols}, (SELECT b.packed FROM exchange_bases b WHERE b.message_id = ${alias}.message_id) AS base_packed` : cols;
  }

  private walkExchanges(
    dims: ExchangeDimension[],
    range: Range,
    terms: string[],
    cursor: [number, number] | null,
    order: HistoryOrder,
    limit: number,
  ): PageResult {
    // The driving walk: the message's own exchanges; else the filter with the fewest rows (an index per value).
    let drive: ExchangeDimension | null = dims.find((d) => d.key === 'message') ?? null;
    const drivable = dims.filter((d) => d.arms !== null && d.arms.length <= MAX_ARMS);
    if (!drive && drivable.length === 1) drive = drivable[0]!;
    else if (!drive && drivable.length > 1) {
      let best = Infinity;
      for (const d of drivable) {
        const c = d.clause('', false);
        const n = (this.stmt(`SELECT count(*) AS n FROM (SELECT 1 FROM exchanges WHERE ${c.sql} LIMIT 5000)`).get(...c.params) as { n: number }).n;
        if (n < best) [best, drive] = [n, d];
      }
    }
    const dir = order === 'newest' ? 'DESC' : 'ASC';
    const after = (id: string): Clause[] => (cursor ? [{ sql: `(started_at, ${id}) ${order === 'newest' ? '<' : '>'} (?, ?)`, params: cursor }] : []);
    const common = [...exchangeRange(range, ''), ...after('id')];
    const arm = (head: Clause | null, columns: string): Clause => {
      const where = head ? [head, ...common] : common;
      return {
        sql: `SELECT ${columns} FROM exchanges${where.length ? ` WHERE ${where.map((c) => c.sql).join(' AND ')}` : ''}`,
        params: where.flatMap((c) => c.params),
      };
    };
    // A message's exchanges: its own (exchanges_message, sorted: ten or so a call, migration 0028)
    // merged with the posts linked to it, in time order from the link table's key (message_id,
    // started_at, exchange_id). With other filters the linked posts' rows are read by id and sorted:
    // a message is named by a few posts at most.
    const linked = (messageId: number, columns: string): Clause => {
      const where = [{ sql: 'message_id = ?', params: [messageId] }, ...exchangeRange(range, ''), ...after('exchange_id')];
      const sql = `SELECT ${columns === '*' ? 'exchange_id' : 'exchange_id AS id, started_at AS created_at'} FROM exchange_messages WHERE ${where.map((c) => c.sql).join(' AND ')}`;
      return { sql: columns === '*' ? `SELECT * FROM exchanges WHERE id IN (${sql})` : sql, params: where.flatMap((c) => c.params) };
    };
    const walk = (columns: string): Clause => {
      const own =
        drive?.messageId !== undefined ? [arm({ sql: 'message_id = ?', params: [drive.messageId] }, columns), linked(drive.messageId, columns)] : null;
      const arms = own ?? (drive?.arms ? drive.arms.map((a) => arm(a, columns)) : [arm(drive ? drive.clause('', false) : null, columns)]);
      return { sql: arms.map((a) => a.sql).join(' UNION ALL '), params: arms.flatMap((a) => a.params) };
    };
    const residual = dims.filter((d) => d !== drive).map((d) => d.clause('', false));
    const keys = walk('id, started_at AS created_at');
    if (residual.length === 0 && terms.length === 0) {
      return finish(this.stmt(`${keys.sql} ORDER BY created_at ${dir}, id ${dir} LIMIT ?`).all(...keys.params, limit + 1) as Row[], limit);
    }
    const all = walk('*');
    // The words are checked on each row's text, read (unpacked) once for all of them, until the page is full.
    const textColumns = terms.length ? `, ${this.textColumns('w')}` : '';
    const walked = `SELECT id, started_at AS created_at${textColumns} FROM (${all.sql} ORDER BY started_at ${dir}, id ${dir} LIMIT ${this.scanWindow}) w${
      residual.length ? ` WHERE ${residual.map((c) => c.sql).join(' AND ')}` : ''
    }`;
    const params = [...all.params, ...residual.flatMap((c) => c.params)];
    let rows: Row[];
    if (!terms.length) rows = this.stmt(`${walked} LIMIT ?`).all(...params, limit + 1) as Row[];
    else {
      const matches = textMatcher(this.db, terms);
      rows = [];
      for (const r of this.stmt(walked).iterate(...params) as Iterable<TextRow>) {
        if (!matches(r)) continue;
        rows.push({ id: r.id, created_at: r.created_at });
        if (rows.length > limit) break;
      }
    }
    if (rows.length > limit) return finish(rows, limit);
    const edge = this.stmt(`${keys.sql} ORDER BY created_at ${dir}, id ${dir} LIMIT 1 OFFSET ${this.scanWindow - 1}`).get(...keys.params) as Row | undefined;
    if (!edge) return { ids: rows.map((r) => r.id), next: null };
    return { ids: rows.map((r) => r.id), next: encodeCursor(edge.created_at, edge.id), searchedTo: edge.created_at };
  }

  // ——— planning ———

  private plan(f: HistoryFilter): Plan {
    for (const x of [f.from, f.to]) {
      if (x !== undefined && !Number.isFinite(x)) throw fail('history-invalid', { kind: 'dates' });
    }
    const values = new Map<Dimension, string[]>();
    for (const d of DIMENSIONS) {
      const v = uniq(f[d.key] as string[] | undefined);
      // Messages keep a profile by its key (migration 0029): a filter walks each form rows keep.
      if (v.length) values.set(d, d.key === 'profiles' ? storedForms(this.db, v, 'messages') : v);
    }
    const terms = termsOf(f);
    const range = { from: f.from, to: f.to };
    const indexed = terms.filter((t) => codePoints(t.text) >= 3);
    if (indexed.length) {
      // The index names the messages that hold each of the words' trigrams (migration 0030), not
      // where: each one it names is checked against the words themselves, but for a word of one
      // trigram anywhere in the message, which the index tells alone (a count reads no row for it).
      // (A word of one trigram past the query's 64 is checked too.)
      const grams = trigramsOf(indexed.map((t) => t.text));
      const match = ftsAll(grams);
      const short = terms.filter((t) => codePoints(t.text) < 3);
      const checked = terms.filter((t) => codePoints(t.text) !== 3 || t.mobileOnly || !grams.has(t.text));
      // Words alone: the matches read in id order give the page however many there are (about a
      // page's rows read, `pageFromMatches`), so they are not counted first.
      if (values.size === 0 && short.length === 0 && range.from === undefined && range.to === undefined) {
        return { kind: 'matches', match, values, range, likes: checked, terms };
      }
      let found = (
        this.stmt(`SELECT count(*) AS n FROM (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT ${this.rareMatches})`).get(match) as { n: number }
      ).n;
      // A word that repeats a trigram ("0000", "哈哈哈哈"), or past the query's 64, is in far fewer
      // messages than hold its trigrams: when those are fewer than a walk's window (the page then
      // reads them all), its matches are counted on the rows themselves, fewer than a window read.
      if (found >= this.rareMatches && indexed.some((t) => trigramsOf([t.text]).size < codePoints(t.text) - 2)) {
        const candidates = (
          this.stmt(`SELECT count(*) AS n FROM (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT ${this.scanWindow})`).get(match) as { n: number }
        ).n;
        if (candidates < this.scanWindow) {
          const likes = likeClauses(checked, 'm.');
          found = (
            this.stmt(
              `SELECT count(*) AS n FROM (SELECT 1 FROM messages_fts CROSS JOIN messages m ON m.id = messages_fts.rowid
               WHERE messages_fts MATCH ?${likes.map((c) => ` AND ${c.sql}`).join('')} LIMIT ${this.rareMatches})`,
            ).get(match, ...likes.flatMap((c) => c.params)) as { n: number }
          ).n;
        }
      }
      if (found < this.rareMatches) return { kind: 'matches', match, values, range, likes: checked, terms };
    }
    return this.walkPlan(values, range, terms);
  }

  /** Walk an index in time order: the most selective filter column drives. */
  private walkPlan(values: Map<Dimension, string[]>, range: Range, terms: Term[]): WalkPlan {
    let drive: Dimension | null = null;
    if (values.size === 1) drive = [...values.keys()][0]!;
    else if (values.size > 1) {
      let best = Infinity;
      for (const [d, v] of values) {
        const n = this.cappedCount(d, v, range, 5000);
        if (n < best) [best, drive] = [n, d];
      }
    }
    if (drive && values.get(drive)!.length > MAX_ARMS) drive = null;
    return { kind: 'walk', drive, values, range, likes: terms };
  }

  private cappedCount(d: Dimension, v: string[], range: Range, cap: number): number {
    const where = [inList(d.column, v, false), ...rangeClauses(range, '')];
    return (
      this.stmt(`SELECT count(*) AS n FROM (SELECT 1 FROM messages WHERE ${where.map((c) => c.sql).join(' AND ')} LIMIT ${cap})`).get(
        ...where.flatMap((c) => c.params),
      ) as { n: number }
    ).n;
  }

  /**
   * Read the page from the full-text matches (words alone, or fewer than RARE_MATCHES with other
   * filters) in time order: from the page's end of their ids, stopping once no match left can
   * enter the page (`time-blocks.ts`), not every match read and sorted.
   */
  private pageFromMatches(plan: MatchPlan, cursor: [number, number] | null, order: HistoryOrder, limit: number): PageResult {
    // One read of the store for the bounds, the matches and the time index: a message another
    // process stores meanwhile is in all of them or none.
    return this.db.transaction(() => this.pageFromMatchesNow(plan, cursor, order, limit))();
  }

  private pageFromMatchesNow(plan: MatchPlan, cursor: [number, number] | null, order: HistoryOrder, limit: number): PageResult {
    const desc = order === 'newest';
    const blocks = this.stmt('SELECT block, min_at AS min, max_at AS max FROM message_time_blocks ORDER BY block').all() as TimeBlock[];
    const bounds = { from: plan.range.from, to: plan.range.to, cursor };
    const start = startId(blocks, desc, bounds);
    if (start === 'none') return { ids: [], next: null };
    const where = [...residualClauses(plan.values, null, 'm.'), ...likeClauses(plan.likes, 'm.')];
    const ok = where.length ? where.map((c) => `(${c.sql})`).join(' AND ') : '1';
    const okParams = where.flatMap((c) => c.params);
    const dir = desc ? 'DESC' : 'ASC';
    const select = `SELECT m.id, m.created_at, coalesce(${ok}, 0) AS ok FROM messages_fts CROSS JOIN messages m ON m.id = messages_fts.rowid WHERE messages_fts MATCH ?`;
    // Read in batches (each from where the last ended: the index seeks there), so that no statement
    // is open while the time index and the index's single matches are asked (`settled`).
    const batch = this.stmt(`${select} AND messages_fts.rowid ${desc ? '<=' : '>='} CAST(? AS INTEGER) ORDER BY messages_fts.rowid ${dir} LIMIT ?`);
    const candidates = (function* () {
      let from = start ?? (desc ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER);
      for (let size = 128; ; size = Math.min(size * 2, 2048)) {
        const rows = batch.all(...okParams, plan.match, from, size) as Candidate[];
        yield* rows;
        if (rows.length < size) return;
        from = rows.at(-1)!.id + (desc ? -1 : 1);
      }
    })();
    // The messages the time index names that the read has not reached: each looked up in the index.
    // (FTS5 ignores `rowid = ?` for a value bound as a JS number, a REAL: the cast makes it an integer.)
    const one = this.stmt(`${select} AND messages_fts.rowid = CAST(? AS INTEGER)`);
    const settled = (last: TimeRow, at: number): Candidate[] | null => {
      const unread = this.unread(desc, bounds, last, at);
      return unread && unread.flatMap((id) => one.all(...okParams, plan.match, id) as Candidate[]);
    };
    const page = pageInTimeOrder(blocks, desc, bounds, candidates, limit + 1, settled, this.scanWindow);
    // Not told whole within the window (times far out of id order): walked as a common word's page is.
    if (!page) return this.pageFromWalk(this.walkPlan(plan.values, plan.range, plan.terms), cursor, order, limit);
    return finish(page, limit);
  }

  /**
   * For `pageInTimeOrder`: the messages between the cursor (or the start) and the page's last row
   * that the read has not reached (an id past `at`), from the time index; `null` when more than
   * {@link SETTLE_WINDOW} are between, or more than {@link SETTLE_UNREAD} not reached.
   */
  private unread(desc: boolean, bounds: TimeBounds, last: TimeRow, at: number): number[] | null {
    const where: Clause[] = [{ sql: `(created_at, id) ${desc ? '>' : '<'} (?, ?)`, params: [last.created_at, last.id] }];
    if (bounds.cursor) where.push({ sql: `(created_at, id) ${desc ? '<' : '>'} (?, ?)`, params: bounds.cursor });
    const ids = (
      this.stmt(`SELECT id FROM messages WHERE ${where.map((c) => c.sql).join(' AND ')} LIMIT ${SETTLE_WINDOW}`).all(...where.flatMap((c) => c.params)) as Row[]
    ).map((r) => r.id);
    if (ids.length >= SETTLE_WINDOW) return null;
    const unread = ids.filter((id) => (desc ? id < at : id > at));
    return unread.length > SETTLE_UNREAD ? null : unread;
  }

  /** Walk the driving index in time order, checking the other filters on each row, within SCAN_WINDOW rows. */
  private pageFromWalk(plan: WalkPlan, cursor: [number, number] | null, order: HistoryOrder, limit: number): PageResult {
    const residual = [...residualClauses(plan.values, plan.drive, ''), ...likeClauses(plan.likes, '')];
    const dir = order === 'newest' ? 'DESC' : 'ASC';
    const keys = this.walkSql(plan, cursor, order, 'id, created_at');
    if (residual.length === 0) {
      const rows = this.stmt(`${keys.sql} ORDER BY created_at ${dir}, id ${dir} LIMIT ?`).all(...keys.params, limit + 1) as Row[];
      return finish(rows, limit);
    }
    const walk = this.walkSql(plan, cursor, order, '*');
    const rows = this.stmt(
      `SELECT id, created_at FROM (${walk.sql} ORDER BY created_at ${dir}, id ${dir} LIMIT ${this.scanWindow})
       WHERE ${residual.map((c) => c.sql).join(' AND ')} LIMIT ?`,
    ).all(...walk.params, ...residual.flatMap((c) => c.params), limit + 1) as Row[];
    if (rows.length > limit) return finish(rows, limit);
    // Fewer than a page: either the walk ran out of rows (the end), or it stopped at the window.
    // The window's last row (an index-only walk) says where the next page goes on.
    const edge = this.stmt(`${keys.sql} ORDER BY created_at ${dir}, id ${dir} LIMIT 1 OFFSET ${this.scanWindow - 1}`).get(...keys.params) as Row | undefined;
    if (!edge) return { ids: rows.map((r) => r.id), next: null };
    return { ids: rows.map((r) => r.id), next: encodeCursor(edge.created_at, edge.id), searchedTo: edge.created_at };
  }

  /** The driving walk: one index range per value of the driving column, merged in time order. */
  private walkSql(plan: WalkPlan, cursor: [number, number] | null, order: HistoryOrder, columns: string): Clause {
    const common = rangeClauses(plan.range, '');
    if (cursor) common.push({ sql: `(created_at, id) ${order === 'newest' ? '<' : '>'} (?, ?)`, params: cursor });
    const arm = (head: Clause | null): Clause => {
      const where = head ? [head, ...common] : common;
      return {
        sql: `SELECT ${columns} FROM messages${where.length ? ` WHERE ${where.map((c) => c.sql).join(' AND ')}` : ''}`,
        params: where.flatMap((c) => c.params),
      };
    };
    const arms = plan.drive ? plan.values.get(plan.drive)!.map((v) => arm({ sql: `${plan.drive!.column} = ?`, params: [v] })) : [arm(null)];
    return { sql: arms.map((a) => a.sql).join(' UNION ALL '), params: arms.flatMap((a) => a.params) };
  }

  private countPlan(plan: Plan): HistoryCount {
    if (plan.kind === 'matches') {
      const where = [...residualClauses(plan.values, null, 'm.'), ...rangeClauses(plan.range, 'm.', true), ...likeClauses(plan.likes, 'm.')];
      // With something to check on the rows (filters, words the index does not tell alone), each
      // match is read with its row and checked as read, until the cap (not every match listed
      // first); with nothing, the index's matches are the count (no row read each).
      const sql = where.length
        ? `SELECT count(*) AS n FROM (SELECT 1 FROM messages_fts CROSS JOIN messages m ON m.id = messages_fts.rowid
           WHERE messages_fts MATCH ?${where.map((c) => ` AND ${c.sql}`).join('')} LIMIT ${this.searchCountCap + 1})`
        : `SELECT count(*) AS n FROM (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT ${this.searchCountCap + 1})`;
      const n = (this.stmt(sql).get(plan.match, ...where.flatMap((c) => c.params)) as { n: number }).n;
      return n > this.searchCountCap ? { count: this.searchCountCap, capped: true } : { count: n, capped: false };
    }
    if (plan.likes.length === 0) {
      const where = [...residualClauses(plan.values, null, ''), ...rangeClauses(plan.range, '')];
      const n = (
        this.stmt(
          `SELECT count(*) AS n FROM (SELECT 1 FROM messages${where.length ? ` WHERE ${where.map((c) => c.sql).join(' AND ')}` : ''} LIMIT ${this.countCap + 1})`,
        ).get(...where.flatMap((c) => c.params)) as { n: number }
      ).n;
      return n > this.countCap ? { count: this.countCap, capped: true } : { count: n, capped: false };
    }
    // Words the index cannot serve: count within the most recent COUNT_CAP rows of the walk.
    const walk = this.walkSql(plan, null, 'newest', '*');
    const residual = [...residualClauses(plan.values, plan.drive, ''), ...likeClauses(plan.likes, '')];
    const r = this.stmt(
      `SELECT count(*) AS walked, coalesce(sum(${residual.map((c) => `(${c.sql})`).join(' AND ')}), 0) AS n
       FROM (${walk.sql} ORDER BY created_at DESC, id DESC LIMIT ${this.countCap})`,
    ).get(...residual.flatMap((c) => c.params), ...walk.params) as { walked: number; n: number };
    return { count: r.n, capped: r.walked >= this.countCap };
  }
}

type Range = { from?: number; to?: number };
type Row = { id: number; created_at: number };
interface MatchPlan {
  kind: 'matches';
  match: string;
  values: Map<Dimension, string[]>;
  range: Range;
  likes: Term[];
  /** Every word (a walk checks them all). */
  terms: Term[];
}
interface WalkPlan {
  kind: 'walk';
  drive: Dimension | null;
  values: Map<Dimension, string[]>;
  range: Range;
  likes: Term[];
}
type Plan = MatchPlan | WalkPlan;
interface PageResult {
  ids: number[];
  next: string | null;
  searchedTo?: number;
}

function finish(rows: Row[], limit: number): PageResult {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { ids: page.map((r) => r.id), next: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : null };
}

/** Filters other than the driving column; `+` keeps SQLite from walking their indexes instead. */
function residualClauses(values: Map<Dimension, string[]>, drive: Dimension | null, prefix: string): Clause[] {
  const out: Clause[] = [];
  // In a walk the filters apply to a subquery's rows: no index to avoid there.
  for (const [d, v] of values) if (d !== drive) out.push(inList(`${prefix}${d.column}`, v, prefix !== ''));
  return out;
}

function rangeClauses(range: Range, prefix: string, noIndex = false): Clause[] {
  const col = `${noIndex ? '+' : ''}${prefix}created_at`;
  const out: Clause[] = [];
  if (range.from !== undefined) out.push({ sql: `${col} >= ?`, params: [range.from] });
  if (range.to !== undefined) out.push({ sql: `${col} < ?`, params: [range.to] });
  return out;
}

/**
 * Each word checked on a message's number (and text): a substring, its letters' case folded as the
 * search index folds them. LIKE folds ASCII letters only; in the text, a word with other cased
 * letters ("Привет", "ΠΡΟΣ", full-width "ＡＢＣ") is checked by `callout_holds_folded` (registered in
 * the constructor: `foldCase`). A number holds digits only.
 */
function likeClauses(terms: Term[], prefix: string): Clause[] {
  return terms.map((t) => {
    if (!t.mobileOnly && hasOtherCase(t.text)) {
      return {
        sql: `(${prefix}mobile LIKE ? ESCAPE '\\' OR callout_holds_folded(${prefix}content, ?))`,
        params: [likePattern(t.text), foldCase(t.text)],
      };
    }
    return t.mobileOnly
      ? { sql: `${prefix}mobile LIKE ? ESCAPE '\\'`, params: [likePattern(t.text)] }
      : { sql: `(${prefix}mobile LIKE ? ESCAPE '\\' OR ${prefix}content LIKE ? ESCAPE '\\')`, params: [likePattern(t.text), likePattern(t.text)] };
  });
}

/** Whether a word has a cased letter that is not ASCII. */
const hasOtherCase = (word: string) => [...word].some((c) => c > '\x7f' && c.toLowerCase() !== c.toUpperCase());

const foldedLetters = new Map<string, string>();

/**
 * A text with each letter's case folded on its own, as FTS5's trigram tokenizer folds it: σ, ς and Σ
 * alike, µ (micro) as μ. Not `toLowerCase()`, whose Σ at a word's end becomes ς (so "ΠΡΟΣ" would
 * not be in "ΠΡΟΣΦΟΡΑ"); a letter whose one case is two characters (İ, ß) stays as it is.
 */
function foldCase(text: string): string {
  let out = '';
  for (const c of text) {
    if (c < '\x80') {
      out += c >= 'A' && c <= 'Z' ? String.fromCharCode(c.charCodeAt(0) + 32) : c;
      continue;
    }
    let f = foldedLetters.get(c);
    if (f === undefined) {
      const upper = c.toUpperCase();
      const lower = ([...upper].length === 1 ? upper : c).toLowerCase();
      f = [...lower].length === 1 ? lower : c;
      foldedLetters.set(c, f);
    }
    out += f;
  }
  return out;
}

// ——— exchange filters ———

/**
 * An FTS5 query of every distinct trigram of the words (each one token of the trigram tokenizer),
 * all required: at most 64 of them, which still finds every row holding the words. For an index of
 * SQLite's trigram tokenizer: the messages' (migration 0030), and the one of each exchange that a
 * store upgraded from before migration 0021 keeps until the indexing job is done, or that of calls
 * at schemas 21–26.
 */
function trigramQuery(words: string[]): string {
  return ftsAll(trigramsOf(words));
}

/** The distinct trigrams of the words, at most 64 (those of the first words). */
function trigramsOf(words: string[]): Set<string> {
  const grams = new Set<string>();
  for (const w of words) {
    const chars = [...w];
    for (let i = 0; i + 3 <= chars.length && grams.size < 64; i++) grams.add(chars.slice(i, i + 3).join(''));
  }
  return grams;
}

/** An FTS5 query that requires every one of the tokens. */
const ftsAll = (tokens: Set<string>) => [...tokens].map((g) => `"${g.replace(/"/g, '""')}"`).join(' AND ');

/** The columns an exchange's search text is read from, packed or not. */
const TEXT_COLUMNS = 'packed, url, request_headers, request_body, response_headers, response_body';
type TextRow = Row & Partial<PackedParts> & { packed: Buffer | null; base_packed?: Buffer | null };

/**
 * Whether a row's text holds every word, as `LIKE '%word%'` would say (a substring, ASCII case
 * folded), reading its text once. The dictionaries were read at the start of the query's snapshot.
 */
function textMatcher(db: Database, terms: string[]): (row: TextRow) => boolean {
  const words = terms.map(asciiFold);
  return (row) => {
    const text = asciiFold(searchText(unpackRow(db, row, false) as PackedParts));
    return words.every((w) => text.includes(w));
  };
}

function exchangeRange(range: Range, prefix: string, noIndex = false): Clause[] {
  const col = `${noIndex ? '+' : ''}${prefix}started_at`;
  const out: Clause[] = [];
  if (range.from !== undefined) out.push({ sql: `${col} >= ?`, params: [range.from] });
  if (range.to !== undefined) out.push({ sql: `${col} < ?`, params: [range.to] });
  return out;
}

/** A column whose index holds every value but `common` (migration 0024). */
interface Sparse {
  column: string;
  common: string | number;
}

/** One filter of the exchange list: its check on a row, and (when it can drive a walk) one index range per value. */
interface ExchangeDimension {
  key: 'message' | 'operation' | 'profile' | 'status' | 'code' | 'captured';
  clause(prefix: string, noIndex: boolean): Clause;
  arms: Clause[] | null;
  /** The message filter's id: its walk merges two indexes (see walkExchanges). */
  messageId?: number;
}

function exchangeDimensions(q: ExchangeQuery): ExchangeDimension[] {
  const out: ExchangeDimension[] = [];
  const col = (name: string, prefix: string, noIndex: boolean) => `${noIndex ? '+' : ''}${prefix}${name}`;
  const list = <T extends string | number>(key: ExchangeDimension['key'], column: string, values: readonly T[], sparse?: Sparse) => {
    const v = [...new Set(values)];
    if (!v.length) return;
    // A sparse index (migration 0024) holds the rows of every value but the common one: a walk by it
    // names its condition (SQLite uses a partial index only then); the common value is never walked
    // by it, but checked on the rows of another walk (nearly every row has it).
    const rare = sparse !== undefined && !v.some((x) => x === sparse.common);
    const also = (c: string) => (rare ? ` AND ${sparseCondition(sparse, c)}` : '');
    out.push({
      key,
      clause: (prefix, noIndex) => {
        const c = col(column, prefix, noIndex);
        return { sql: `(${c} IN (${v.map(() => '?').join(', ')})${also(c)})`, params: [...v] };
      },
      arms: sparse && !rare ? null : v.map((x) => ({ sql: `${column} = ?${also(column)}`, params: [x] })),
    });
  };
  if (q.messageId !== undefined) {
    // Its own exchanges, and the posts of receipts linked to it (exchange_messages, migration 0016).
    const id = q.messageId;
    out.push({
      key: 'message',
      clause: (prefix, noIndex) => ({
        sql: `(${col('message_id', prefix, noIndex)} = ? OR ${prefix}id IN (SELECT exchange_id FROM exchange_messages WHERE message_id = ?))`,
        params: [id, id],
      }),
      arms: null,
      messageId: id,
    });
  }
  list('operation', 'operation', [...(q.operation ? [q.operation] : []), ...(q.operations ?? [])], SPARSE.operation);
  list('profile', 'profile', q.profiles ?? []);
  list('code', 'provider_code', q.providerCodes ?? [], SPARSE.provider_code);
  if (q.captured || q.verdicts?.length) {
    // The capture proxy's exchanges (of some verdicts): the partial index exchanges_captured (started_at) holds exactly them.
    const verdicts = [...new Set(q.verdicts ?? [])];
    out.push({
      key: 'captured',
      clause: (prefix, noIndex) =>
        verdicts.length
          ? { sql: `${col('capture_verdict', prefix, noIndex)} IN (${verdicts.map(() => '?').join(', ')})`, params: [...verdicts] }
          : { sql: `${col('capture_verdict', prefix, noIndex)} IS NOT NULL`, params: [] },
      arms: verdicts.length ? verdicts.map((v) => ({ sql: 'capture_verdict = ?', params: [v] })) : [{ sql: 'capture_verdict IS NOT NULL', params: [] }],
    });
  }
  const statuses = [...new Set(q.statuses ?? [])];
  if (statuses.length) {
    const part = (s: StatusFilter, c: string): Clause =>
      s === 'none'
        ? { sql: `${c} IS NULL`, params: [] }
        : typeof s === 'number'
          ? { sql: `${c} = ?`, params: [s] }
          : { sql: `(${c} >= ? AND ${c} < ?)`, params: [Number(s[0]) * 100, Number(s[0]) * 100 + 100] };
    // Exact statuses (and "no reply") are one range each of the sparse index (migration 0024); a
    // class (4xx), or 200 (nearly every row), is checked on the rows walked.
    const rare = statuses.every((s) => (typeof s === 'number' && s !== SPARSE.status.common) || s === 'none');
    const also = (c: string) => (rare ? ` AND ${sparseCondition(SPARSE.status, c)}` : '');
    out.push({
      key: 'status',
      clause: (prefix, noIndex) => {
        const c = col('status', prefix, noIndex);
        const parts = statuses.map((s) => part(s, c));
        return { sql: `((${parts.map((p) => p.sql).join(' OR ')})${also(c)})`, params: parts.flatMap((p) => p.params) };
      },
      arms: rare
        ? statuses.map((s) => {
            const p = part(s, 'status');
            return { sql: `${p.sql}${also('status')}`, params: p.params };
          })
        : null,
    });
  }
  return out;
}

export function overviewBucket(outcome: Outcome, state: CallState): Exclude<keyof OverviewCounts, 'total' | 'units'> {
  if (outcome === 'rejected') return 'rejected';
  if (outcome === 'unknown') return 'unknown';
  if (outcome === 'pending') return 'inProgress';
  switch (state) {
    case 'answered':
      return 'answered';
    case 'no_answer':
      return 'noAnswer';
    case 'busy':
      return 'busy';
    case 'pending':
    case 'calling':
      return 'inProgress';
    case 'unknown':
      return 'unknown';
    default:
      return 'otherFailures';
  }
}
