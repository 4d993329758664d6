// The `history` group: a store of 1,000,000 messages (each with one timeline event and one
// captured exchange), then the history screen's hot queries against it.
//
// The store is generated at schema version 4 and then opened normally, so migration 0005 (the
// full-text backfill and the history indexes) runs on a million rows as an upgrade would. It is
// cached under os.tmpdir(), keyed by a generator version and a hash of the schema the migrations
// build, so a rerun reuses it and any schema change regenerates it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { migrate, openDatabase } from '../../main/store/database';
import { STATE_TEXT, TALKING_LABEL } from '../../main/sandbox/voice-service';
import { openDatabaseSafely } from '../../main/store/integrity';
import { packBatch, packingProgress } from '../../main/store/exchange-packing';
import { refreshDictionaries, withBases } from '../../main/store/exchange-pack';
import { EXCHANGE_TEXT, indexAlone, wordsForm } from '../../main/store/exchange-words';
import { indexWords } from '../../main/store/words';
import { fileBytes, vacuum } from '../../main/store/retention';
import { ArchiveShelf, Archiver, monthOf } from '../../main/store/archive';
import { systemClock } from '../../main/clock';
import { HistoryRepository, type ExchangeQuery, type HistoryFilter } from '../../main/store/history-repository';
import type { CallState, Outcome } from '../../common/domain/status';

/** Bump when the generated data changes shape. */
const GENERATOR_VERSION = 'history-gen-6';
export const HISTORY_ROWS = 1_000_000;
const DAY = 86_400_000;
/** The generated history ends here (fixed, so reruns and figures are comparable). */
export const HISTORY_END = Date.UTC(2026, 10, 1);
export const HISTORY_START = HISTORY_END - 730 * DAY;

/** mulberry32: small, fast, seeded. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PREFIXES = [
  '130',
  '131',
  '132',
  '133',
  '135',
  '136',
  '137',
  '138',
  '139',
  '150',
  '151',
  '152',
  '153',
  '155',
  '156',
  '157',
  '158',
  '159',
  '166',
  '177',
  '180',
  '181',
  '182',
  '183',
  '185',
  '186',
  '187',
  '188',
  '189',
  '191',
  '198',
  '199',
];
const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
const GIVEN = '伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华建国建华志强文婷玉兰红梅海燕国庆晓东小红春梅子涵浩然欣怡宇轩梓萱俊杰思远雨桐';
const ALARMS = [
  '数据库主库CPU使用率超过90%',
  '支付网关响应超时',
  '磁盘空间不足',
  '订单服务不可用',
  '机房温度过高',
  '核心交换机端口中断',
  '证书即将过期',
  'Redis 内存使用率过高',
  '消息队列积压',
  'API 错误率升高',
];
const SERVICES = ['体检', '维修', '家政保洁', '牙科复诊', '车辆保养', '宽带安装', '理疗', '面试'];

export interface GeneratedTemplate {
  id: string;
  content: (r: () => number) => string;
  weight: number;
}

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)]!;
}
function digits(r: () => number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(r() * 10);
  return s;
}
function personName(r: () => number): string {
  const g = GIVEN.length / 1;
  const first = GIVEN[Math.floor(r() * g)]!;
  return pick(r, [...SURNAMES]) + (r() < 0.6 ? first + GIVEN[Math.floor(r() * g)]! : first);
}

export const TEMPLATES: readonly GeneratedTemplate[] = [
  { id: 'tpl-shipping', weight: 30, content: (r) => `您好，${personName(r)}，您的订单${digits(r, 12)}已发货，请注意查收。` },
  { id: 'tpl-alarm', weight: 20, content: (r) => `${pick(r, ['生产环境', '测试环境', '华东机房', '华北机房'])}告警：${pick(r, ALARMS)}，请立即处理。` },
  { id: 'tpl-code', weight: 30, content: (r) => `您的验证码是${digits(r, 6)}，5分钟内有效。` },
  {
    id: 'tpl-appointment',
    weight: 12,
    content: (r) =>
      `尊敬的${personName(r)}，您预约的${pick(r, SERVICES)}服务将于${1 + Math.floor(r() * 12)}月${1 + Math.floor(r() * 28)}日${8 + Math.floor(r() * 10)}点开始。`,
  },
  { id: '', weight: 8, content: (r) => `${personName(r)}您好，您的快递已到${pick(r, ['东门', '南门', '3号楼', '物业前台'])}驿站，取件码${digits(r, 4)}。` },
];

/**
 * The profiles the calls go through, ids as Callout makes them (a UUID; the Sandbox's is its name),
 * each with the provider account (API ID) it signs in as.
 */
export const PROFILES = [
  { id: '3f1c9a52-6a0e-4c8e-9d2b-7b5e2f1a9c41', account: 'prod-main-api', weight: 70 },
  { id: 'b7e04d19-2c5f-4b8a-a1e6-0d9f3c7a5e28', account: 'prod-backup-api', weight: 25 },
  { id: 'sandbox', account: 'sandbox-api', weight: 5 },
];

/** (state, outcome) and their shares, roughly what a voice-notification account sees. */
const RESULTS: ReadonlyArray<{ state: CallState; outcome: Outcome; weight: number }> = [
  { outcome: 'accepted', state: 'answered', weight: 620 },
  { outcome: 'accepted', state: 'no_answer', weight: 140 },
  { outcome: 'accepted', state: 'busy', weight: 50 },
  { outcome: 'accepted', state: 'rejected', weight: 30 },
  { outcome: 'accepted', state: 'powered_off', weight: 30 },
  { outcome: 'accepted', state: 'unreachable', weight: 20 },
  { outcome: 'accepted', state: 'invalid_number', weight: 10 },
  { outcome: 'accepted', state: 'failed', weight: 10 },
  { outcome: 'rejected', state: 'failed', weight: 40 },
  { outcome: 'unknown', state: 'unknown', weight: 15 },
];

/** How often the follower looks at a call in the real-shaped history: with its calls (about 60 s on the provider) about 8.6 looks a call, as `statusPollsPerCall` in the bulk group. */
const POLL_INTERVAL_MS = 8000;

function weighted<T extends { weight: number }>(list: readonly T[]): (r: () => number) => T {
  const total = list.reduce((s, x) => s + x.weight, 0);
  return (r) => {
    let x = r() * total;
    for (const item of list) if ((x -= item.weight) < 0) return item;
    return list.at(-1)!;
  };
}

/**
 * Message times: more on weekdays and in working hours, growing over the two years; ascending
 * with the id, as the app writes them.
 */
function timesFor(rows: number, r: () => number): Float64Array {
  const days = Math.round((HISTORY_END - HISTORY_START) / DAY);
  const dayWeight = Array.from({ length: days }, (_, d) => {
    const weekday = new Date(HISTORY_START + d * DAY).getUTCDay();
    return (weekday === 0 || weekday === 6 ? 0.4 : 1) * (0.5 + d / days);
  });
  const sum = dayWeight.reduce((a, b) => a + b, 0);
  const out = new Float64Array(rows);
  let i = 0;
  for (let d = 0; d < days; d++) {
    const n = d === days - 1 ? rows - i : Math.round((dayWeight[d]! / sum) * rows);
    const day: number[] = [];
    for (let k = 0; k < n && i + day.length < rows; k++) {
      // 08:00–20:00 Beijing time (00:00–12:00 UTC), a few at night.
      const hour = r() < 0.93 ? r() * 12 : 12 + r() * 12;
      day.push(HISTORY_START + d * DAY + Math.floor(hour * 3_600_000));
    }
    day.sort((a, b) => a - b);
    for (const t of day) out[i++] = t;
  }
  return out.subarray(0, i);
}

/**
 * How much a message brings with it: `simple` (one event and one exchange, the first model) or
 * `real` — what a bulk run against the Sandbox stores: events `created`, `submitted`, `state` (and
 * `redial` for a fifth of the calls not answered), the send's exchange and every status query's
 * until the follower sees the end (about 8.6 a call), with the headers, bodies and
 * timings the client keeps. (A run with time sped up 50 times stored one status query a call: its
 * calls ended before the first look.)
 */
export type HistoryShape = 'simple' | 'real';

/** Fills an empty database at schema version 4 with `rows` messages, events and exchanges. */
export function generateHistory(db: BetterSqlite3.Database, rows: number, seed = 20261101, shape: HistoryShape = 'simple'): number {
  const r = seededRandom(seed);
  const template = weighted(TEMPLATES);
  const profile = weighted(PROFILES);
  const result = weighted(RESULTS);
  const regulars = Array.from({ length: Math.max(10, Math.floor(rows / 10)) }, () => pick(r, PREFIXES) + digits(r, 8));
  const times = timesFor(rows, r);
  const insertMessage = db.prepare(`
    INSERT INTO messages (id, profile, base_url, api_id, mobile, content, template_id, units, outcome, code, provider_msg, smsid,
      billed_units, state, duration, error_kind, error_message, owner, created_at, updated_at, ended_at, attempts)
    VALUES (?, ?, 'https://api.example.com', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?)`);
  const insertEvent = db.prepare('INSERT INTO message_events (message_id, at, kind, state, detail) VALUES (?, ?, ?, ?, ?)');
  const insertExchange = db.prepare(`
    INSERT INTO exchanges (message_id, operation, profile, method, url, request_headers, request_body, status, status_text,
      response_headers, response_body, error_kind, error_message, started_at, timings)
    VALUES (?, 'send', ?, 'POST', 'https://api.example.com/voice/vm', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertStatus = db.prepare(`
    INSERT INTO exchanges (message_id, operation, profile, method, url, request_headers, request_body, status, status_text,
      response_headers, response_body, error_kind, error_message, started_at, timings)
    VALUES (?, 'status', ?, 'POST', 'https://api.example.com/voice/status', ?, ?, 200, 'OK', ?, ?, NULL, NULL, ?, ?)`);
  const real = shape === 'real';
  const headersFor = (length: number) =>
    JSON.stringify([
      ['Content-Type', 'application/json; charset=utf-8'],
      ['Accept', 'application/json'],
      ['Host', 'api.example.com'],
      ['Content-Length', String(length)],
      ['Connection', 'close'],
    ]);
  const requestHeaders = JSON.stringify([
    ['Content-Type', 'application/json; charset=utf-8'],
    ['Accept', 'application/json'],
    ['Content-Length', '160'],
  ]);
  db.transaction(() => {
    for (let i = 0; i < times.length; i++) {
      const id = i + 1;
      const at = times[i]!;
      const t = template(r);
      const { id: p, account } = profile(r);
      const res = result(r);
      const mobile = r() < 0.7 ? pick(r, regulars) : pick(r, PREFIXES) + digits(r, 8);
      const content = t.content(r);
      const units = Math.ceil([...content].length / 70);
      const accepted = res.outcome === 'accepted';
      const smsid = accepted ? `V${id.toString(36).toUpperCase().padStart(8, '0')}` : null;
      const code = accepted ? 2 : res.outcome === 'rejected' ? pick(r, [402, 403, 404]) : null;
      const answered = res.state === 'answered';
      const ended = res.outcome === 'unknown' ? null : at + (answered ? 20_000 + Math.floor(r() * 60_000) : 45_000 + Math.floor(r() * 90_000));
      insertMessage.run(
        id,
        p,
        account,
        mobile,
        content,
        t.id || null,
        units,
        res.outcome,
        code,
        accepted ? '提交成功' : res.outcome === 'rejected' ? '内容未审核：没有匹配的已审核模板' : null,
        smsid,
        accepted ? units : null,
        res.state,
        answered ? 5 + Math.floor(r() * 55) : accepted ? 0 : null,
        res.outcome === 'unknown' ? 'timeout' : null,
        res.outcome === 'unknown' ? 'No complete reply within 15000 ms; the request may have reached the provider.' : null,
        at,
        ended ?? at,
        ended,
        accepted ? (res.state === 'no_answer' ? 3 : 1) : null,
      );
      if (real) {
        insertEvent.run(id, at, 'created', 'pending', null);
        if (accepted) {
          insertEvent.run(id, at + 200, 'submitted', 'pending', '提交成功');
          if (!answered && r() < 0.21) insertEvent.run(id, at + 30_000, 'redial', 'calling', null);
          insertEvent.run(id, ended ?? at, 'state', res.state, res.state);
        } else {
          insertEvent.run(id, at + 200, res.outcome, res.state, null);
        }
      } else {
        insertEvent.run(id, ended ?? at, res.outcome === 'accepted' ? 'state' : res.outcome, res.state, null);
      }
      const wait = 40 + r() * 200;
      const requestBody = JSON.stringify({ account, password: '[REDACTED]', mobile, content, format: 'json' });
      const responseBody =
        res.outcome === 'unknown'
          ? null
          : JSON.stringify(accepted ? { code: 2, msg: '提交成功', smsid, count: units } : { code, msg: '内容未审核：没有匹配的已审核模板' });
      insertExchange.run(
        id,
        p,
        real ? headersFor(Buffer.byteLength(requestBody)) : requestHeaders,
        requestBody,
        responseBody === null ? null : 200,
        responseBody === null ? null : 'OK',
        responseBody === null
          ? null
          : JSON.stringify([
              ['Content-Type', 'application/json; charset=utf-8'],
              ['Date', new Date(at).toUTCString()],
              ['Content-Length', String(Buffer.byteLength(responseBody))],
              ['Connection', 'close'],
            ]),
        responseBody,
        responseBody === null ? 'timeout' : null,
        responseBody === null ? 'No complete reply within 15000 ms; the request may have reached the provider.' : null,
        at,
        JSON.stringify(
          responseBody === null
            ? { dnsMs: 3.1, connectMs: 21.4, tlsMs: 48.2, firstByteMs: null, totalMs: 15000 }
            : { dnsMs: 3.1, connectMs: 21.4, tlsMs: 48.2, firstByteMs: Math.round(48 + wait), totalMs: Math.round(50 + wait) },
        ),
      );
      if (real && accepted && ended !== null) {
        // The follower's looks until it sees the end (every status reply is kept), one every
        // POLL_INTERVAL_MS, the last one after the end with the provider's final record.
        const body = JSON.stringify({ account, password: '[REDACTED]', smsid, format: 'json' });
        const headers = headersFor(Buffer.byteLength(body));
        const iso = (t: number) => new Date(t).toISOString();
        const answeredAt = at + 8000;
        const duration = answered ? 5 + Math.floor(r() * 55) : 0;
        for (let look = at + 2000; ; look += POLL_INTERVAL_MS) {
          const over = look >= ended;
          const talking = answered && look >= answeredAt;
          const reply = JSON.stringify({
            code: 2,
            msg: '查询成功',
            smsid,
            state: over ? res.state : 'calling',
            status: over ? STATE_TEXT[res.state] : talking ? TALKING_LABEL : STATE_TEXT.calling,
            duration: over ? duration : 0,
            attempts: res.state === 'no_answer' ? 3 : 1,
            submittedAt: iso(at),
            calledAt: iso(at + 1000),
            answeredAt: talking ? iso(answeredAt) : null,
            endedAt: over ? iso(ended) : null,
          });
          insertStatus.run(
            id,
            p,
            headers,
            body,
            JSON.stringify([
              ['Date', new Date(look).toUTCString()],
              ['Content-Type', 'application/json; charset=utf-8'],
              ['Content-Length', String(Buffer.byteLength(reply))],
              ['Connection', 'close'],
            ]),
            reply,
            look,
            JSON.stringify({ dnsMs: null, connectMs: 2.3, tlsMs: null, firstByteMs: Math.round(18 + r() * 40), totalMs: Math.round(20 + r() * 40) }),
          );
          if (over) break;
        }
      }
    }
  })();
  return times.length;
}

/**
 * A hash of the schema the migrations build and of its version: a change regenerates the cached
 * store (a migration that changes rows but no table, such as 0029, changes the version only).
 */
function schemaKey(): string {
  const db = new BetterSqlite3(':memory:');
  try {
    migrate(db, ':memory:');
    const sql = (db.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY type, name').all() as unknown[]).map((x) => JSON.stringify(x)).join('\n');
    const version = db.pragma('user_version', { simple: true }) as number;
    return createHash('sha256').update(`${GENERATOR_VERSION}\n${HISTORY_ROWS}\n${version}\n${sql}`).digest('hex').slice(0, 16);
  } finally {
    db.close();
  }
}

export interface PreparedHistory {
  file: string;
  generated: boolean;
  /** Measured when the cached store was generated (kept beside it). */
  generateSec: number;
  migrateSec: number;
  /**
   * The real-shaped store only: packing every exchange as the app's job does after the upgrade
   * (migration 0020), indexing the calls' words (0021), then the one compaction Storage advises; the
   * file's size before.
   */
  packSec?: number;
  indexSec?: number;
  compactSec?: number;
  unpackedBytes?: number;
  /** A store grown from the million-call one (growHistory): its size. */
  grownFrom?: number;
}

/** The cached million-row store, generated (at version 4, then migrated) when missing. */
export function prepareHistoryStore(rows = HISTORY_ROWS, shape: HistoryShape = 'simple'): PreparedHistory {
  const dir = join(tmpdir(), `callout-bench-history-${schemaKey()}${rows === HISTORY_ROWS ? '' : `-${rows}`}${shape === 'simple' ? '' : `-${shape}`}`);
  const file = join(dir, 'callout.db');
  const meta = join(dir, 'generated.json');
  if (existsSync(file) && existsSync(meta)) {
    const m = JSON.parse(readFileSync(meta, 'utf8')) as Omit<PreparedHistory, 'file' | 'generated'>;
    return { file, generated: false, ...m };
  }
  if (shape === 'real' && rows > HISTORY_ROWS) {
    if (rows % HISTORY_ROWS !== 0) throw new Error(`bench: a real-shaped history above ${HISTORY_ROWS} is grown from it: give a multiple of it`);
    const source = prepareHistoryStore(HISTORY_ROWS, 'real');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const partial = join(dir, 'partial.db');
    const t0 = performance.now();
    growHistory(source.file, partial, rows / HISTORY_ROWS);
    const figures: Omit<PreparedHistory, 'file' | 'generated'> = {
      generateSec: round((performance.now() - t0) / 1000, 1),
      migrateSec: 0,
      grownFrom: HISTORY_ROWS,
    };
    renameSync(partial, file);
    writeFileSync(meta, JSON.stringify(figures));
    return { file, generated: true, ...figures };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const partial = join(dir, 'partial.db');
  const t0 = performance.now();
  const v4 = openDatabase(partial, { targetVersion: 4 });
  // A rollback journal, not the WAL the store opens with: new pages are written once, not twice
  // (better-sqlite3's defensive mode refuses journal_mode = OFF).
  v4.pragma('journal_mode = DELETE');
  v4.pragma('synchronous = OFF');
  v4.pragma('cache_size = -262144');
  generateHistory(v4, rows, undefined, shape);
  v4.pragma('journal_mode = WAL');
  v4.close();
  const t1 = performance.now();
  const db = openDatabase(partial);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const t2 = performance.now();
  const figures: Omit<PreparedHistory, 'file' | 'generated'> = { generateSec: round((t1 - t0) / 1000, 1), migrateSec: round((t2 - t1) / 1000, 1) };
  if (shape === 'real') {
    figures.unpackedBytes = statSync(partial).size;
    // As the app's job does after the upgrade: pack every exchange (migration 0020), then index the
    // calls' words (0021, which drops the index of each exchange at its end).
    while (packingProgress(db)?.step === 'packing') packBatch(db);
    const t3 = performance.now();
    while (packBatch(db) !== null);
    const t4 = performance.now();
    vacuum(db);
    figures.packSec = round((t3 - t2) / 1000, 1);
    figures.indexSec = round((t4 - t3) / 1000, 1);
    figures.compactSec = round((performance.now() - t4) / 1000, 1);
  }
  db.close();
  renameSync(partial, file);
  writeFileSync(meta, JSON.stringify(figures));
  return { file, generated: true, ...figures };
}

/**
 * Ten million real-shaped calls cannot be made the way a million are: generated at an old schema
 * they would take 135 GB before packing (more than this machine's free disk), and packing and
 * indexing them as the app's job does would take about seven hours here. So they are grown from the
 * million-call store (upgraded, packed and indexed as a user's would be): `copies` copies of its
 * calls, copy k's in the k-th of `copies` equal parts of the same two years, their times
 * `copies` times closer together (ids still rise with time, and a day holds `copies` times the
 * calls), each call's events and exchanges moved with it. The packed rows and the dictionaries are
 * the source's, so a call weighs what an upgraded store's call weighs. The word index's entries are
 * made as the indexing job makes them (one a call, its exchanges' texts), a call's text read once
 * for all its copies; the index's triggers are off meanwhile and put back as they were after.
 */
export function growHistory(sourceFile: string, partial: string, copies: number): void {
  const db = openDatabase(partial);
  try {
    db.pragma('journal_mode = DELETE'); // as for the generated store (above)
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = OFF');
    db.pragma('cache_size = -1048576');
    db.prepare('ATTACH DATABASE ? AS src').run(sourceFile);
    const most = (table: string) => (db.prepare(`SELECT coalesce(max(id), 0) AS n FROM src.${table}`).get() as { n: number }).n;
    const step = { messages: most('messages'), events: most('message_events'), exchanges: most('exchanges') };
    db.exec('INSERT INTO exchange_dicts (id, after_exchange, kind, crc, rows, data) SELECT id, after_exchange, kind, crc, 0, data FROM src.exchange_dicts');
    // The rows name their profile by its key (migrations 0025, 0029): the same keys.
    db.exec('INSERT INTO profile_keys (key, profile) SELECT key, profile FROM src.profile_keys');
    refreshDictionaries(db);
    const wordTriggers = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'exchanges' AND name LIKE 'exchange^_words^_%' ESCAPE '^'")
      .all() as Array<{ name: string; sql: string }>;
    for (const t of wordTriggers) db.exec(`DROP TRIGGER ${t.name}`);
    const columns = (table: string) => (db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as Array<{ name: string }>).map((c) => c.name);
    const part = Math.floor((HISTORY_END - HISTORY_START) / copies);
    /** Copy k's time of a source time (SQL). */
    const moved = (k: number, t: string) => `(${HISTORY_START} + (${t} - ${HISTORY_START}) / ${copies} + ${k * part})`;
    for (let k = 0; k < copies; k++) {
      const shift = `(${moved(k, 'm.created_at')} - m.created_at)`;
      const plus = (table: keyof typeof step) => k * step[table];
      const messageColumns = columns('messages');
      const messageValue: Record<string, string> = {
        id: `m.id + ${plus('messages')}`,
        created_at: moved(k, 'm.created_at'),
        updated_at: `m.updated_at + ${shift}`,
        ended_at: `m.ended_at + ${shift}`,
        resend_of: `m.resend_of + ${plus('messages')}`,
      };
      const eventValue: Record<string, string> = { id: `e.id + ${plus('events')}`, message_id: `e.message_id + ${plus('messages')}`, at: `e.at + ${shift}` };
      const exchangeValue: Record<string, string> = {
        id: `e.id + ${plus('exchanges')}`,
        message_id: `e.message_id + ${plus('messages')}`,
        started_at: `CASE WHEN m.id IS NULL THEN ${moved(k, 'e.started_at')} ELSE e.started_at + ${shift} END`,
      };
      const select = (names: string[], value: Record<string, string>, alias: string) => names.map((c) => value[c] ?? `${alias}.${c}`).join(', ');
      db.transaction(() => {
        db.exec(`INSERT INTO messages (${messageColumns.join(', ')}) SELECT ${select(messageColumns, messageValue, 'm')} FROM src.messages m ORDER BY m.id`);
        const events = columns('message_events');
        db.exec(
          `INSERT INTO message_events (${events.join(', ')}) SELECT ${select(events, eventValue, 'e')}
           FROM src.message_events e JOIN src.messages m ON m.id = e.message_id ORDER BY e.id`,
        );
        const exchanges = columns('exchanges');
        db.exec(
          `INSERT INTO exchanges (${exchanges.join(', ')}) SELECT ${select(exchanges, exchangeValue, 'e')}
           FROM src.exchanges e LEFT JOIN src.messages m ON m.id = e.message_id ORDER BY e.id`,
        );
        // Each copy's bases (migration 0026), counted in its bytes. A copied poll's blob names its
        // source message, whose base the first copy keeps (the same ids): it reads back the same.
        db.exec(`INSERT INTO exchange_bases (message_id, dict_id, packed) SELECT message_id + ${plus('messages')}, dict_id, packed FROM src.exchange_bases`);
      })();
      process.stderr.write(`bench: grown ${k + 1} of ${copies} copies\n`);
    }
    // The word index: a call's text read once from the source, an entry for each of its copies.
    const texts = db.prepare(
      `SELECT message_id AS id, group_concat(${EXCHANGE_TEXT}, char(10)) AS text FROM src.exchanges
       WHERE message_id > ? AND message_id <= ? GROUP BY message_id`,
    );
    const entry = db.prepare('INSERT INTO exchange_words (rowid, text) VALUES (?, ?)');
    // What the index holds of a text: its uncommon trigrams' tokens (migration 0027), or the text.
    const held = wordsForm(db) === 'tokens' ? indexWords : (text: string) => text;
    const batch = 5_000;
    for (let after = 0; after < step.messages; after += batch) {
      db.transaction(() => {
        // The polls' bases given to the text's SQL function first (it cannot read them itself).
        const rows = withBases(db, 'src', after + 1, after + batch, () => texts.all(after, after + batch)) as Array<{ id: number; text: string }>;
        for (const r of rows) {
          const text = held(r.text);
          for (let k = 0; k < copies; k++) entry.run(r.id + k * step.messages, text);
        }
      })();
      if ((after / batch) % 20 === 0) process.stderr.write(`bench: word index ${after} of ${step.messages} calls\n`);
    }
    let alone = 0;
    for (let r; (r = db.transaction(() => indexAlone(db, 'main', alone, 1_000))()); alone = r.last);
    for (const t of wordTriggers) db.exec(t.sql);
    db.exec('DETACH DATABASE src');
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
}

function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function p95(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
}

function timed(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

const PAGE_STATES: CallState[] = ['answered', 'no_answer', 'busy', 'unknown', 'failed', 'powered_off'];
/** 2–4 Chinese characters or a word: template words (common), names and places (rarer). */
const TEXT_QUERIES = ['验证码', '已发货', '告警', '磁盘空间', '王伟', '体检', '取件码', '牙科复诊', 'Redis', '华东机房', '李娜', '张秀英', '东门驿站', '证书'];

export async function history(): Promise<Record<string, number>> {
  const prepared = prepareHistoryStore();
  process.stderr.write(
    prepared.generated
      ? `bench: history store generated in ${prepared.generateSec} s, migrated in ${prepared.migrateSec} s\n`
      : `bench: history store reused (${prepared.file}; delete it to regenerate)\n`,
  );
  const t0 = performance.now();
  const { db, recovered } = openDatabaseSafely(prepared.file);
  const openCheckMs = performance.now() - t0;
  if (recovered) throw new Error(`bench: the cached history store failed its check (${recovered.reason})`);
  try {
    const repo = new HistoryRepository(db);
    const r = seededRandom(7);
    const rows = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
    const span = HISTORY_END - HISTORY_START;

    const pageFilter = (): HistoryFilter => {
      const days = pick(r, [1, 7, 30, 90, 365]);
      const to = HISTORY_START + Math.floor(r() * span);
      return { states: [pick(r, PAGE_STATES)], from: to - days * DAY, to };
    };
    for (let i = 0; i < 20; i++) repo.page(pageFilter(), { limit: 100 }); // warm-up
    const pageMs: number[] = [];
    for (let i = 0; i < 200; i++) {
      const f = pageFilter();
      pageMs.push(timed(() => repo.page(f, { limit: 100, order: 'newest' })));
    }

    const mobiles = (
      db.prepare('SELECT mobile FROM messages WHERE id IN (?, ?, ?, ?, ?, ?, ?, ?)').all(...Array.from({ length: 8 }, () => 1 + Math.floor(r() * rows))) as {
        mobile: string;
      }[]
    ).map((m) => m.mobile);
    const searchFilter = (i: number): HistoryFilter => {
      if (i % 2 === 0) {
        const m = pick(r, mobiles);
        const len = 4 + Math.floor(r() * 3);
        const start = Math.floor(r() * (m.length - len + 1));
        return { search: m.slice(start, start + len) };
      }
      return { search: pick(r, TEXT_QUERIES) };
    };
    for (let i = 0; i < 20; i++) repo.page(searchFilter(i), { limit: 100 });
    const searchMs: number[] = [];
    for (let i = 0; i < 200; i++) {
      const f = searchFilter(i);
      searchMs.push(timed(() => repo.page(f, { limit: 100, order: 'newest' })));
    }
    // Exchanges (issue 15): words anywhere in the URL, headers and bodies (part of a number, an
    // smsid, a reply's text), and filters by provider code, "no reply" and status + operation + dates.
    const exchangeSearch = (i: number): ExchangeQuery => {
      const m = pick(r, mobiles);
      if (i % 3 === 0) return { search: m.slice(2, 9) };
      if (i % 3 === 1) return { search: `V${(1 + Math.floor(r() * rows)).toString(36).toUpperCase().padStart(8, '0')}` };
      return { search: pick(r, ['内容未审核', 'timeout', '提交成功']) };
    };
    // Its own random numbers: the other queries stay the ones earlier runs measured.
    const rf = seededRandom(12);
    const exchangeFilter = (i: number): ExchangeQuery => {
      const to = HISTORY_START + Math.floor(rf() * span);
      if (i % 3 === 0) return { providerCodes: [pick(r, [402, 403, 404])] };
      if (i % 3 === 1) return { statuses: ['none'] };
      return { operations: ['send'], statuses: [200], from: to - 30 * DAY, to };
    };
    for (let i = 0; i < 10; i++) repo.listExchanges({ ...exchangeSearch(i), limit: 100 });
    const exchangeSearchMs: number[] = [];
    const exchangeFilterMs: number[] = [];
    for (let i = 0; i < 60; i++) {
      const s = exchangeSearch(i);
      exchangeSearchMs.push(timed(() => repo.listExchanges({ ...s, limit: 100 })));
      const f = exchangeFilter(i);
      exchangeFilterMs.push(timed(() => repo.listExchanges({ ...f, limit: 100 })));
    }
    const overviewMs: number[] = [];
    for (let i = 0; i < 20; i++) {
      const to = HISTORY_END - Math.floor(r() * 300) * DAY;
      overviewMs.push(timed(() => repo.overview({ from: to - 365 * DAY, to, utcOffsetMinutes: 480 })));
    }
    return {
      historyRows: rows,
      historyPageP95Ms: round(p95(pageMs)),
      historySearchP95Ms: round(p95(searchMs)),
      historyOverviewYearP95Ms: round(p95(overviewMs)),
      exchangeSearchP95Ms: round(p95(exchangeSearchMs)),
      exchangeFilterP95Ms: round(p95(exchangeFilterMs)),
      historyGenerateSec: prepared.generateSec,
      historyMigrateSec: prepared.migrateSec,
      historyOpenCheckMs: round(openCheckMs),
      historyDbMB: Math.round(statSync(prepared.file).size / 1e6),
    };
  } finally {
    db.close();
  }
}

/**
 * Drops the store's files from the operating system's page cache (posix_fadvise DONTNEED, through
 * python3: Node has no binding) and the connection's own cache, so the next query reads from disk.
 * False when that is not possible here (then no cold figures).
 */
function evictor(file: string, db: BetterSqlite3.Database): (() => void) | null {
  if (!dropFromPageCache(file)) return null;
  return () => {
    db.pragma('shrink_memory');
    dropFromPageCache(file);
  };
}

/** Drops a store's file (and its WAL) from the operating system's page cache; false when that is not possible here. */
export function dropFromPageCache(file: string): boolean {
  const script =
    'import os,sys\nfor p in sys.argv[1:]:\n  try:\n    fd=os.open(p,os.O_RDONLY)\n  except OSError:\n    continue\n  os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)\n  os.close(fd)\n';
  return spawnSync('python3', ['-c', script, file, `${file}-wal`], { stdio: 'ignore' }).status === 0;
}

/**
 * Archiving the oldest quarter of the history (issue 27), on a copy of the store: how long it takes
 * (copy, check, removal and the index's merge, with the job's pauses), what the archive and the live
 * file weigh after, and exchange search in the archive (warm).
 */
async function measureArchive(source: BetterSqlite3.Database, cut: number, search: (i: number) => ExchangeQuery): Promise<Record<string, number>> {
  const dir = join(tmpdir(), `callout-bench-archive-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    const file = join(dir, 'callout.db');
    source.exec(`VACUUM INTO '${file.replace(/'/g, "''")}'`);
    const db = openDatabase(file);
    try {
      const liveBefore = fileBytes(db);
      const archiver = new Archiver({ db, folder: join(dir, 'archives'), clock: systemClock });
      const t = performance.now();
      const { name, exchanges } = archiver.start(monthOf(cut, 480), 480);
      await archiver.finished();
      const sec = round((performance.now() - t) / 1000, 1);
      const state = archiver.state();
      if (state.error || !state.last) throw new Error(`bench: the archive failed (${state.error?.code ?? 'no result'})`);
      const shelf = new ArchiveShelf(join(dir, 'archives'));
      try {
        const history = shelf.get(name).history;
        for (let i = 0; i < 10; i++) history.listExchanges({ ...search(i), limit: 100 });
        const ms: number[] = [];
        for (let i = 0; i < 60; i++) {
          const q = search(i);
          ms.push(timed(() => history.listExchanges({ ...q, limit: 100 })));
        }
        return {
          archiveExchanges: exchanges,
          archiveSec: sec,
          archiveExchangesPerSec: Math.round(exchanges / Math.max(sec, 0.001)),
          archiveMB: round(state.last.archiveBytes / 1e6, 1),
          archiveLiveMBBefore: round(liveBefore / 1e6, 1),
          archiveLiveMBAfter: round(fileBytes(db) / 1e6, 1),
          archiveSearchWarmP95Ms: round(p95(ms)),
        };
      } finally {
        shelf.close();
      }
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * History as real calls leave it (issue 27): each message with the events and exchanges a bulk run
 * stores, at `messages` (default a million), the page and search queries warm and with a cold cache
 * (the file evicted before each one), and the bytes a message takes on disk.
 */
export async function historyReal(opts: { quick: boolean; messages?: number }): Promise<Record<string, number>> {
  const rows = opts.messages ?? (opts.quick ? 20_000 : HISTORY_ROWS);
  const prepared = prepareHistoryStore(rows, 'real');
  process.stderr.write(
    prepared.generated
      ? `bench: real-shaped history (${rows}) generated in ${prepared.generateSec} s, migrated in ${prepared.migrateSec} s\n`
      : `bench: real-shaped history reused (${prepared.file}; delete it to regenerate)\n`,
  );
  const { db, recovered } = openDatabaseSafely(prepared.file);
  if (recovered) throw new Error(`bench: the cached history store failed its check (${recovered.reason})`);
  try {
    const repo = new HistoryRepository(db);
    const r = seededRandom(11);
    const span = HISTORY_END - HISTORY_START;
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const messages = count('messages');
    const mobiles = (
      db
        .prepare('SELECT mobile FROM messages WHERE id IN (?, ?, ?, ?, ?, ?, ?, ?)')
        .all(...Array.from({ length: 8 }, () => 1 + Math.floor(r() * messages))) as {
        mobile: string;
      }[]
    ).map((m) => m.mobile);
    const page = (): HistoryFilter => {
      const days = pick(r, [1, 7, 30, 90, 365]);
      const to = HISTORY_START + Math.floor(r() * span);
      return { states: [pick(r, PAGE_STATES)], from: to - days * DAY, to };
    };
    const search = (i: number): HistoryFilter => {
      if (i % 2 === 0) {
        const m = pick(r, mobiles);
        return { search: m.slice(3, 3 + 4 + Math.floor(r() * 3)) };
      }
      return { search: pick(r, TEXT_QUERIES) };
    };
    const exchangeSearch = (i: number): ExchangeQuery =>
      i % 2 === 0 ? { search: pick(r, mobiles).slice(2, 9) } : { search: pick(r, ['内容未审核', '用户忙', '提交成功']) };
    // Exchanges filtered (no words): uncommon values (a refusal's code, no reply, the sends), walked by
    // their sparse indexes (migration 0024), and the common ones (status polls, 200, code 2), walked by time.
    // Its own random numbers: the other queries stay the ones earlier runs measured.
    const rf = seededRandom(12);
    const exchangeFilter = (i: number): ExchangeQuery => {
      const to = HISTORY_START + Math.floor(rf() * span);
      const filters: ExchangeQuery[] = [
        { providerCodes: [pick(rf, [402, 403, 404])] },
        { statuses: ['none'] },
        { operation: 'send', from: to - 30 * DAY, to },
        { operation: 'status' },
        { statuses: [200], from: to - 7 * DAY, to },
        { providerCodes: [2], operation: 'send' },
      ];
      return filters[i % filters.length]!;
    };
    const measure = (samples: number, before: () => void) => {
      const pageMs: number[] = [];
      const searchMs: number[] = [];
      const exchangeMs: number[] = [];
      const filterMs: number[] = [];
      for (let i = 0; i < samples; i++) {
        const f = page();
        before();
        pageMs.push(timed(() => repo.page(f, { limit: 100, order: 'newest' })));
        const s = search(i);
        before();
        searchMs.push(timed(() => repo.page(s, { limit: 100, order: 'newest' })));
        const x = exchangeSearch(i);
        before();
        exchangeMs.push(timed(() => repo.listExchanges({ ...x, limit: 100 })));
        const xf = exchangeFilter(i);
        before();
        filterMs.push(timed(() => repo.listExchanges({ ...xf, limit: 100 })));
      }
      return { page: round(p95(pageMs)), search: round(p95(searchMs)), exchanges: round(p95(exchangeMs)), filter: round(p95(filterMs)) };
    };
    measure(20, () => undefined); // warm-up
    const warm = measure(opts.quick ? 40 : 200, () => undefined);
    const evict = evictor(prepared.file, db);
    const cold = evict ? measure(opts.quick ? 20 : 100, evict) : null;
    const bytes = statSync(prepared.file).size;
    // Archiving works on a copy of the store: measured only where the disk holds one.
    const free = (() => {
      const s = statfsSync(tmpdir());
      return s.bavail * s.bsize;
    })();
    const archived = free > bytes * 1.2 ? await measureArchive(db, HISTORY_START + Math.floor(span / 4), (i) => exchangeSearch(i)) : {};
    if (free <= bytes * 1.2)
      process.stderr.write(
        `bench: archiving not measured: a copy of the ${Math.round(bytes / 1e9)} GB store does not fit in ${Math.round(free / 1e9)} GB free\n`,
      );
    return {
      ...archived,
      ...(prepared.unpackedBytes ? { realBytesPerMessageUnpacked: Math.round(prepared.unpackedBytes / messages) } : {}),
      ...(prepared.packSec !== undefined ? { realPackSec: prepared.packSec, realCompactSec: prepared.compactSec! } : {}),
      ...(prepared.indexSec !== undefined ? { realIndexSec: prepared.indexSec } : {}),
      realMessages: messages,
      ...(prepared.grownFrom ? { realGrownFromMessages: prepared.grownFrom } : {}),
      realExchangesPerMessage: round(count('exchanges') / messages, 2),
      realEventsPerMessage: round(count('message_events') / messages, 2),
      realBytesPerMessage: Math.round(bytes / messages),
      realDbMB: Math.round(bytes / 1e6),
      realGenerateSec: prepared.generateSec,
      realMigrateSec: prepared.migrateSec,
      realPageWarmP95Ms: warm.page,
      realSearchWarmP95Ms: warm.search,
      realExchangeSearchWarmP95Ms: warm.exchanges,
      realExchangeFilterWarmP95Ms: warm.filter,
      ...(cold
        ? {
            realPageColdP95Ms: cold.page,
            realSearchColdP95Ms: cold.search,
            realExchangeSearchColdP95Ms: cold.exchanges,
            realExchangeFilterColdP95Ms: cold.filter,
          }
        : {}),
    };
  } finally {
    db.close();
  }
}
