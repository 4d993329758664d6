import { afterEach, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { hostname } from 'node:os';
import type { CallState } from '../../../common/domain/status';
import type { MessageRecord } from '../../../common/records';
import { EndWatcher } from '../../../main/calls/follow';
import { GovernorRegistry } from '../../../main/lines/governor';
import type { PreparedRow } from '../../../main/bulk/import';
import { BulkQueue, type BatchProgress, type SendInput, type SendLike } from '../../../main/bulk/queue';
import { fail } from '../../../main/errors';
import { reason } from '../../../common/reasons';
import { openStore } from '../../../main/store';
import { ManualClock } from '../../../main/clock';
import { drive } from '../../helpers/manual-clock';
import { tempHome } from '../../helpers/temp-home';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Behaviour = (input: SendInput, n: number) => 'accept' | 'unknown' | 'throw' | 'not-sent' | 'invalid' | number;

/** A provider in memory: records every send, writes real message rows, and ends calls when told. */
function setup(opts: { behaviour?: Behaviour; sendDelayMs?: number; lines?: number; unknownStreakLimit?: number; progressIntervalMs?: number } = {}) {
  const home = tempHome();
  // The queue, its governors and the calls run on a manual clock (see `clock` below): no test waits on real time.
  clock = new ManualClock();
  const store = openStore(home.dir, { clock });
  const watcher = new EndWatcher({ get: (id) => store.messages.get(id), pollMs: 20, clock });
  const governors = new GovernorRegistry((id) => store.dialSettings.profileLines(id), { clock });
  const sends: (SendInput & { itemStatusAtSend: string | undefined })[] = [];
  const progress: BatchProgress[] = [];
  if (opts.lines) {
    store.profiles.save({
      id: 'p',
      name: 'P',
      baseUrl: 'http://x',
      apiId: 'a',
      signing: 'off',
      format: 'json',
      connectTimeoutMs: 1000,
      totalTimeoutMs: 1000,
      lowBalanceThreshold: null,
    });
    store.dialSettings.setProfileLines('p', opts.lines);
  }
  // A second connection: what it sees is committed.
  const observer = openStore(home.dir);
  const send = async (_profile: string, input: SendInput): Promise<SendLike> => {
    const row = observer.db
      .prepare('SELECT status FROM batch_items WHERE mobile = ? AND content = ? ORDER BY updated_at DESC, id LIMIT 1')
      .get(input.mobile, input.content) as { status: string } | undefined;
    sends.push({ ...input, itemStatusAtSend: row?.status });
    const n = sends.length;
    if (opts.sendDelayMs) await clock.sleep(opts.sendDelayMs);
    const what = (opts.behaviour ?? (() => 'accept'))(input, n);
    if (what === 'throw') throw new Error('socket hang up inside');
    if (what === 'invalid') throw fail('invalid-mobile', { kind: 'wrong-length' });
    const pending = store.messages.insertPending({
      profile: 'p',
      baseUrl: 'http://x',
      apiId: 'a',
      mobile: input.mobile,
      content: input.content,
      templateId: input.templateId,
      units: 1,
      resendOf: input.resendOf ?? null,
      batchItemId: input.batchItemId ?? null,
    });
    if (what === 'accept')
      return { message: store.messages.markAccepted(pending.id, { code: 2, msg: 'ok', smsid: `S${pending.id}`, count: 1 }), failure: null };
    if (what === 'unknown') {
      const why = reason('transport', { kind: 'timeout', ms: 1000 });
      return {
        message: store.messages.markUnknown(pending.id, { errorKind: 'timeout', reason: why }),
        failure: { kind: 'timeout', outcome: 'unknown', reason: why },
      };
    }
    if (what === 'not-sent') {
      const why = reason('transport', { kind: 'refused' });
      return {
        message: store.messages.markRejected(pending.id, { code: null, msg: null, errorKind: 'not-sent:refused', reason: why }),
        failure: { kind: 'refused', outcome: 'not-sent', reason: why },
      };
    }
    if (what === 500)
      return {
        message: store.messages.markUnknown(pending.id, { errorKind: 'provider-error', reason: reason('provider-error', { code: 500, msg: null }), code: 500 }),
        failure: null,
      };
    return { message: store.messages.markRejected(pending.id, { code: what, msg: `code ${what}`, errorKind: 'provider-code' }), failure: null };
  };
  const queue = new BulkQueue({
    batches: store.batches,
    send,
    awaitEnd: (id, signal) => watcher.awaitEnd(id, signal),
    governors,
    onProgress: (p) => progress.push(p),
    progressIntervalMs: opts.progressIntervalMs ?? 250,
    unknownHoldMs: 10,
    unknownStreakLimit: opts.unknownStreakLimit,
    clock,
  });
  // Waiting for a batch to stop (or its calls to end) moves the manual clock from timer to timer until it has.
  const whenStopped = queue.whenStopped.bind(queue);
  const whenCallsEnded = queue.whenCallsEnded.bind(queue);
  queue.whenStopped = (id) => drive(clock, whenStopped(id));
  queue.whenCallsEnded = (id, pollMs) => drive(clock, whenCallsEnded(id, pollMs));
  const endCall = (m: MessageRecord | number, state: CallState = 'answered') => {
    const id = typeof m === 'number' ? m : m.id;
    watcher.notify(store.messages.updateState(id, state, { final: true }));
  };
  const endAllCalls = (state: CallState = 'answered') => {
    for (const m of store.messages.openMessages()) endCall(m, state);
  };
  cleanups.push(
    home.cleanup,
    () => store.close(),
    () => observer.close(),
    () => watcher.close(),
    async () => queue.close(),
  );
  return { store, queue, sends, progress, endCall, endAllCalls, governors };
}

const rows = (n: number, f: (i: number) => Partial<PreparedRow> = () => ({})): PreparedRow[] =>
  Array.from({ length: n }, (_, i) => ({
    row: i + 2,
    mobile: `138${String(i).padStart(8, '0')}`,
    content: `您的验证码是${i}，5分钟内有效。`,
    length: 15,
    units: 1,
    valid: true,
    issues: [],
    duplicateOf: null,
    sameMobileAs: null,
    ...f(i),
  }));

/** The clock of the latest setup(). */
let clock: ManualClock;

/** Moves the clock 5 ms at a time until `pred` holds (at most `ms` of the clock's time). */
const until = async (pred: () => boolean, ms = 5000) => {
  const end = clock.now() + ms;
  while (!pred()) {
    if (clock.now() > end) throw new Error('timed out');
    await clock.advance(5);
  }
};

describe('bulk queue', () => {
  it('keeps every row as an item: invalid rows and skipped duplicates are skipped with the reason', () => {
    const { queue, store } = setup();
    const b = queue.create({
      profileId: 'p',
      templateId: 't',
      name: 'list.csv',
      duplicates: 'same-text',
      rows: rows(4, (i) =>
        i === 1
          ? { valid: false, issues: ['bad-mobile'], mobile: '123' }
          : i === 3
            ? { mobile: '13800000000', content: '您的验证码是0，5分钟内有效。', duplicateOf: 2, sameMobileAs: 2, issues: ['duplicate'] }
            : {},
      ),
    });
    expect(b).toMatchObject({ status: 'draft', total: 4, name: 'list.csv' });
    const items = store.batches.items(b.id);
    expect(items.map((i) => [i.rowNumber, i.status, i.reason])).toEqual([
      [2, 'queued', null],
      [3, 'skipped', { code: 'invalid-row', params: { kind: 'bad-mobile' } }],
      [4, 'queued', null],
      [5, 'skipped', { code: 'duplicate', params: { row: 2 } }],
    ]);
  });

  it('marks each item in flight, committed, before its send starts, and records the outcome', async () => {
    const { queue, sends, store, endAllCalls } = setup();
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(5) });
    queue.start(b.id);
    await until(() => sends.length === 5);
    expect(sends.map((s) => s.itemStatusAtSend)).toEqual(Array(5).fill('in_flight'));
    const p = await queue.whenStopped(b.id);
    expect(p).toMatchObject({ status: 'done', accepted: 5, calling: 5, remaining: 0 });
    endAllCalls();
    const ended = await queue.whenCallsEnded(b.id);
    expect(ended).toMatchObject({ answered: 5, calling: 0 });
    expect(store.batches.items(b.id).every((i) => i.status === 'accepted' && i.messageId !== null)).toBe(true);
  });

  it('keeps at most 20 calls at once per line and holds a line until its call ends', async () => {
    const { queue, sends, endCall, store } = setup();
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(50) });
    queue.start(b.id);
    await until(() => sends.length === 20);
    await clock.advance(50);
    expect(sends).toHaveLength(20); // accepted quickly, but their calls are still ringing
    expect(queue.progress(b.id)).toMatchObject({ accepted: 20, queued: 30, governor: { limit: 20, inUse: 20 } });
    for (const m of store.messages.openMessages().slice(0, 5)) endCall(m, 'no_answer');
    await until(() => sends.length === 25);
    await clock.advance(30);
    expect(sends).toHaveLength(25);
    expect(queue.progress(b.id)).toMatchObject({ notAnswered: 5, failed: 5 });
    // Ending calls one by one lets the rest through, never more than 20 open.
    while (sends.length < 50) {
      expect(store.messages.openMessages().length).toBeLessThanOrEqual(20);
      const open = store.messages.openMessages();
      if (open[0]) endCall(open[0]);
      await clock.advance(2);
    }
    await queue.whenStopped(b.id);
  });

  it("uses the profile's lines: two lines allow 40 calls at once", async () => {
    const { queue, sends } = setup({ lines: 2 });
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(60) });
    queue.start(b.id);
    await until(() => sends.length === 40);
    await clock.advance(50);
    expect(sends).toHaveLength(40);
    queue.pause(b.id);
  });

  it('pauses on 402 with a clear reason; the refused item is queued again and sent on resume', async () => {
    let broke = true;
    const { queue, sends, endAllCalls, store } = setup({ behaviour: (_i, n) => (n === 3 && broke ? 402 : 'accept') });
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(30) });
    queue.start(b.id);
    const paused = await queue.whenStopped(b.id);
    expect(paused).toMatchObject({ status: 'paused', pausedReason: 'insufficient-balance' });
    expect(paused.statusReason).toEqual({ code: 'stop', params: { kind: 'insufficient-balance' } });
    const refused = sends[2]!;
    const item = store.batches.items(b.id).find((i) => i.mobile === refused.mobile)!;
    expect(item).toMatchObject({ status: 'queued', code: 402 });
    // The refused row is still refused: counted, until it is sent.
    expect(queue.progress(b.id)).toMatchObject({ refusedSends: 1, refusedNow: 1 });
    expect(store.batches.counts(b.id).refusedNow).toBe(1);
    const sentBeforePause = sends.length;
    expect(sentBeforePause).toBeLessThan(30);
    broke = false;
    queue.resume(b.id);
    const ender = clock.setInterval(endAllCalls, 5);
    cleanups.push(() => ender.cancel());
    const done = await queue.whenStopped(b.id);
    // No row was rejected, but History lists the refused send: the batch counts it the same way.
    expect(done).toMatchObject({ status: 'done', accepted: 30, rejected: 0, refusedSends: 1 });
    // Sent after the top-up: nothing is still refused (History keeps the refused send).
    expect(done.refusedNow).toBe(0);
    expect(store.batches.counts(b.id).refusedNow).toBe(0);
    const rejectedInHistory = store.history.page({ outcomes: ['rejected'] }).rows;
    expect(rejectedInHistory.map((m) => [m.code, m.batchItemId])).toEqual([[402, item.id]]);
    expect(store.batches.counts(b.id).refusedSends).toBe(1);
    expect(store.batches.items(b.id).find((i) => i.id === item.id)).toMatchObject({ status: 'accepted', refusedSends: 1 });
    // Only the refused item was sent twice (the provider placed no call the first time).
    const perItem = new Map<string, number>();
    for (const s of sends) perItem.set(s.mobile, (perItem.get(s.mobile) ?? 0) + 1);
    expect([...perItem].filter(([, n]) => n > 1)).toEqual([[refused.mobile, 2]]);
  });

  it('stops the batch on 401: the rest is cancelled and nothing more is sent', async () => {
    const { queue, sends } = setup({ behaviour: (_i, n) => (n === 2 ? 401 : 'accept'), sendDelayMs: 5 });
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(40) });
    queue.start(b.id);
    const p = await queue.whenStopped(b.id);
    expect(p).toMatchObject({ status: 'cancelled', pausedReason: 'credentials', rejected: 1, queued: 0 });
    expect(p.statusReason).toEqual({ code: 'stop', params: { kind: 'credentials' } });
    expect(p.cancelled).toBe(40 - sends.length);
    const n = sends.length;
    expect(() => queue.start(b.id)).toThrow(/cancelled/);
    await clock.advance(30);
    expect(sends.length).toBe(n);
  });

  it('marks 500s, timeouts and failures inside the send unknown and goes on without resending them', async () => {
    const { queue, sends, endAllCalls } = setup({ behaviour: (_i, n) => (n % 4 === 1 ? 500 : n % 4 === 2 ? 'unknown' : n % 4 === 3 ? 'throw' : 'accept') });
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(12) });
    queue.start(b.id);
    const p = await queue.whenStopped(b.id);
    endAllCalls();
    expect(p).toMatchObject({ status: 'done', unknown: 9, accepted: 3, remaining: 0 });
    expect(new Set(sends.map((s) => s.mobile)).size).toBe(12);
    expect(sends).toHaveLength(12);
    const unknown = queue.unknownItems(b.id);
    expect(unknown).toHaveLength(9);
    expect(unknown.map((i) => i.errorKind).sort()).toEqual(
      [...Array(3).fill('internal'), ...Array(3).fill('provider-error'), ...Array(3).fill('timeout')].sort(),
    );
  });

  it('sends an unknown item again only when a person queues it again, confirmed, as a re-send of its message', async () => {
    let n = 0;
    const { queue, sends, endAllCalls } = setup({ behaviour: () => (++n === 1 ? 'unknown' : 'accept') });
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(3) });
    queue.start(b.id);
    await queue.whenStopped(b.id);
    endAllCalls();
    const [unknown] = queue.unknownItems(b.id);
    expect(() => queue.requeue(b.id, [unknown!.id], {} as { confirm: true })).toThrow(/confirm/);
    expect(queue.requeue(b.id, [unknown!.id], { confirm: true })).toBe(1);
    expect(queue.get(b.id).status).toBe('paused');
    queue.resume(b.id);
    const p = await queue.whenStopped(b.id);
    expect(p).toMatchObject({ status: 'done', unknown: 0, accepted: 3 });
    expect(sends).toHaveLength(4);
    expect(sends[3]).toMatchObject({ mobile: unknown!.mobile, resendOf: unknown!.messageId });
  });

  it('lets a person skip unknown items instead', async () => {
    const { queue } = setup({ behaviour: () => 'unknown' });
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(2) });
    queue.start(b.id);
    await queue.whenStopped(b.id);
    expect(
      queue.skip(
        b.id,
        queue.unknownItems(b.id).map((i) => i.id),
      ),
    ).toBe(2);
    expect(queue.progress(b.id)).toMatchObject({ unknown: 0, skipped: 2 });
  });

  it('pauses when many sends in a row have an unknown outcome (the provider is failing)', async () => {
    const { queue, sends } = setup({ behaviour: () => 500, unknownStreakLimit: 5, sendDelayMs: 2 });
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(100) });
    queue.start(b.id);
    const p = await queue.whenStopped(b.id);
    expect(p).toMatchObject({ status: 'paused', pausedReason: 'too-many-unknown' });
    expect(sends.length).toBeLessThan(40);
  });

  it('pauses when the provider cannot be reached, without counting the item as sent', async () => {
    const { queue, store } = setup({ behaviour: (_i, n) => (n === 1 ? 'not-sent' : 'accept') });
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(1) });
    queue.start(b.id);
    const p = await queue.whenStopped(b.id);
    expect(p).toMatchObject({ status: 'paused', pausedReason: 'provider-unreachable', queued: 1, sent: 0 });
    expect(store.batches.items(b.id)[0]).toMatchObject({ status: 'queued', errorKind: 'not-sent' });
  });

  it('pause stops new sends and lets the ones in flight finish; cancel cancels what is still queued', async () => {
    const { queue, sends, endAllCalls } = setup({ sendDelayMs: 20 });
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(30) });
    queue.start(b.id);
    await until(() => sends.length >= 5);
    queue.pause(b.id);
    const paused = await queue.whenStopped(b.id);
    expect(paused).toMatchObject({ status: 'paused', pausedReason: 'user', inFlight: 0 });
    expect(paused.accepted).toBe(sends.length);
    const n = sends.length;
    await clock.advance(50);
    expect(sends).toHaveLength(n);
    endAllCalls();
    const cancelled = queue.cancel(b.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelled: 30 - n, queued: 0 });
    expect(() => queue.resume(b.id)).toThrow(/cancelled/);
  });

  it('never sends the same number and text twice at the same time (duplicates kept by choice go one after the other)', async () => {
    let inFlight = 0;
    let maxSame = 0;
    const { queue, sends, endAllCalls } = setup({
      sendDelayMs: 10,
      behaviour: () => {
        inFlight--;
        return 'accept';
      },
    });
    const twins = rows(6, () => ({ mobile: '13800000000', content: 'same' }));
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: twins });
    const origSend = sends.push.bind(sends);
    sends.push = (...items) => {
      inFlight++;
      maxSame = Math.max(maxSame, inFlight);
      return origSend(...items);
    };
    queue.start(b.id);
    const p = await queue.whenStopped(b.id);
    endAllCalls();
    expect(p).toMatchObject({ status: 'done', accepted: 6 });
    expect(maxSame).toBe(1);
  });

  it('reports progress at a bounded rate, and at once when the status changes', async () => {
    const { queue, progress, endAllCalls } = setup({ sendDelayMs: 3, progressIntervalMs: 25 });
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(200) });
    const started = clock.now();
    queue.start(b.id);
    const timer = clock.setInterval(endAllCalls, 10);
    try {
      await queue.whenStopped(b.id);
    } finally {
      timer.cancel();
    }
    const elapsed = clock.now() - started;
    expect(progress[0]).toMatchObject({ status: 'running', total: 200, remaining: 200 });
    expect(progress.at(-1)).toMatchObject({ status: 'done', remaining: 0, sent: 200 });
    const running = progress.filter((p) => p.status === 'running');
    expect(running.length).toBeGreaterThan(2);
    expect(running.length).toBeLessThanOrEqual(2 + Math.ceil(elapsed / 25));
    const midway = running.find((p) => p.sent > 0 && p.remaining > 0)!;
    expect(midway.ratePerMinute).toBeGreaterThan(0);
    expect(midway.etaMs).toBeGreaterThan(0);
    expect(midway.governor).toMatchObject({ limit: 20, perHour: 2000 });
  });

  it("exports the sheet's own columns and each row's result, in the reader's language and local time, formula-safe; as CSV or XLSX", async () => {
    const { queue, endAllCalls } = setup({ behaviour: (_i, n) => (n === 2 ? 404 : 'accept') });
    const sheet = [
      ['王工', 'A1001', '=HYPERLINK("http://evil")'],
      ['李四', 'A1002', '+1 通知, "引号"'],
    ];
    const b = queue.create({
      profileId: 'p',
      templateId: 't',
      name: '客户名单',
      duplicates: 'none',
      columns: ['客户', '订单号', '备注'],
      rows: rows(2, (i) => ({ cells: sheet[i] })),
    });
    queue.start(b.id);
    await queue.whenStopped(b.id);
    endAllCalls();
    await queue.whenCallsEnded(b.id);

    const zh = await queue.exportResults(b.id, { lang: 'zh-CN', utcOffsetMinutes: 480, format: 'csv' });
    expect(zh.csv!.startsWith('\ufeff客户,订单号,备注,行号,')).toBe(true);
    const lines = Papa.parse<string[]>(zh.csv!.slice(1), { skipEmptyLines: true }).data;
    expect(lines).toHaveLength(3);
    const header = lines[0]!;
    const col = (name: string) => header.indexOf(name);
    expect(lines[1]!.slice(0, 3)).toEqual(['王工', 'A1001', `'=HYPERLINK("http://evil")`]);
    expect(lines[2]!.slice(0, 3)).toEqual(['李四', 'A1002', `'+1 通知, "引号"`]);
    expect(lines[1]![col('结果')]).toBe('已受理');
    expect(lines[1]![col('呼叫状态')]).toBe('已接听');
    expect(lines[1]![col('计费条数')]).toBe('1');
    // The refused row: its words in Chinese, and nothing charged.
    expect(lines[2]![col('结果')]).toBe('已拒绝');
    expect(lines[2]![col('计费条数')]).toBe('0');
    expect(lines[2]![col('已拒绝的发送')]).toBe('1');
    // Local time (UTC+8 here), never ISO with a Z.
    expect(lines[1]![col('发送时间')]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(zh.csv).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/);
    expect(zh.csv).not.toMatch(/\baccepted\b|\bpowered_off\b/);

    const en = await queue.exportResults(b.id, { lang: 'en', utcOffsetMinutes: 0, format: 'csv' });
    expect(Papa.parse<string[]>(en.csv!.slice(1)).data[0]!.slice(0, 8)).toEqual([
      '客户',
      '订单号',
      '备注',
      'Row',
      'Number called',
      'Text read out',
      'Result',
      'Call state',
    ]);

    // A sheet with a column of the same name as a result column: the result's is told apart.
    const clash = queue.create({
      profileId: 'p',
      templateId: 't',
      name: 'y',
      duplicates: 'none',
      columns: ['Row', 'Mobile'],
      rows: rows(1, () => ({ cells: ['7', '13800138000'] })),
    });
    const clashed = await queue.exportResults(clash.id, { lang: 'en', format: 'csv' });
    expect(Papa.parse<string[]>(clashed.csv!.slice(1)).data[0]!.slice(0, 4)).toEqual(['Row', 'Mobile', 'Row (Callout)', 'Number called']);

    const xlsx = await queue.exportResults(b.id, { lang: 'zh-CN', utcOffsetMinutes: 480, format: 'xlsx' });
    const { readSheet } = await import('read-excel-file/node');
    const read = (await readSheet(xlsx.xlsx!)) as unknown[][];
    expect(read[0]!.slice(0, 4)).toEqual(['客户', '订单号', '备注', '行号']);
    // In a workbook a value is text, never a formula: no apostrophe needed.
    expect(read[1]!.slice(0, 3)).toEqual(['王工', 'A1001', '=HYPERLINK("http://evil")']);
    expect(read).toHaveLength(3);
  });

  it('after a crash: a batch left running reopens paused, its in-flight items become unknown, and nothing is resent', () => {
    const { queue, store } = setup();
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(3) });
    store.batches.markRunning(b.id);
    const [first, second] = store.batches.items(b.id);
    // The dead process had marked two items in flight; the first had written its pending message.
    store.batches.markInFlight(first!.id);
    store.batches.markInFlight(second!.id);
    const pending = store.messages.insertPending({ profile: 'p', baseUrl: 'http://x', apiId: 'a', mobile: first!.mobile, content: first!.content, units: 1 });
    store.db.prepare('UPDATE batches SET owner = ?').run(`${hostname()}:999999`); // a process that is gone
    const r = queue.recover();
    expect(r.batches.map((x) => [x.id, x.status, x.pausedReason])).toEqual([[b.id, 'paused', 'interrupted']]);
    expect(r.items.map((i) => [i.id, i.status, i.errorKind, i.messageId])).toEqual([
      [first!.id, 'unknown', 'interrupted', pending.id],
      [second!.id, 'unknown', 'interrupted', null],
    ]);
    expect(r.items.map((i) => i.reason)).toEqual([
      { code: 'interrupted', params: { kind: 'item' } },
      { code: 'interrupted', params: { kind: 'item-unrecorded' } },
    ]);
    expect(queue.unknownItems(b.id).map((i) => i.id)).toEqual([first!.id, second!.id]);
    expect(queue.progress(b.id)).toMatchObject({ status: 'paused', unknown: 2, queued: 1, inFlight: 0 });
  });

  it('recovers a batch left running by a dead process when it is started again, marking its in-flight items unknown', async () => {
    const { queue, store, sends } = setup();
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(2) });
    store.batches.markRunning(b.id);
    const first = store.batches.items(b.id)[0]!;
    store.batches.markInFlight(first.id);
    store.db.prepare('UPDATE batches SET owner = ?').run(`${hostname()}:999999`);
    queue.start(b.id);
    const p = await queue.whenStopped(b.id);
    expect(p).toMatchObject({ status: 'done', unknown: 1, accepted: 1 });
    expect(sends.map((s) => s.mobile)).not.toContain(first.mobile);
  });

  it('leaves a batch alone when the process running it is alive', () => {
    const { queue, store } = setup();
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(1) });
    store.batches.markRunning(b.id); // owned by this very process
    store.batches.markInFlight(store.batches.items(b.id)[0]!.id);
    expect(queue.recover()).toEqual({ batches: [], items: [] });
    expect(() => queue.start(b.id)).toThrow(/another Callout process/);
  });

  it('refuses what makes no sense: unknown batch, pausing a draft', () => {
    const { queue } = setup();
    expect(() => queue.get(99)).toThrow(/no batch #99/);
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(1) });
    expect(() => queue.pause(b.id)).toThrow(/not started/);
  });

  it('treats local validation errors from the send as rejected without pausing', async () => {
    const { queue, endAllCalls } = setup({ behaviour: (_i, n) => (n === 1 ? 'invalid' : 'accept') });
    const b = queue.create({ profileId: 'p', templateId: 't', name: 'x', duplicates: 'none', rows: rows(3) });
    queue.start(b.id);
    const p = await queue.whenStopped(b.id);
    endAllCalls();
    expect(p).toMatchObject({ status: 'done', rejected: 1, accepted: 2 });
  });
});
