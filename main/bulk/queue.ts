// The bulk queue: runs batches of sends under the profile's governor, crash-safe.
//
// Per item: it is marked `in_flight` in SQLite (committed) BEFORE its send starts, then its outcome is
// recorded. Nothing is ever re-sent automatically: an outcome that may have placed a call (500,
// timeout, reset, unreadable reply, a crash mid-send) is `unknown`, listed for a person to decide,
// and only `requeue` (an explicit decision) sends it again. Only what provably placed no call goes back
// to the queue by itself (402 insufficient balance, 403 content not approved, a request that never
// left): the batch pauses and "resume" sends it.
import { setMaxListeners } from 'node:events';
import { nextCall } from '../../common/domain/outcomes';
import type { FailureView } from '../../common/contract/send';
import type { MessageRecord, TransportErrorKind } from '../../common/records';
import { reason, type Reason, type StopKind } from '../../common/reasons';
import { CalloutError, fail } from '../errors';
import {
  ownerAlive,
  type BatchCounts,
  type BatchItemRecord,
  type BatchItemView,
  type BatchRecord,
  type BatchRepository,
  type ItemStatus,
  type StopReason,
} from '../store';
import { resultsTable } from './export';
import { tableCsv, tableXlsx } from '../export/table';
import type { Lang } from '../../common/domain/i18n-text';
import type { GovernorRegistry, Slot } from '../lines/governor';
import { invalidReason, skippedAsDuplicate, type DuplicatePolicy, type PreparedRow } from './import';
import type { BatchListRow, BatchProgress } from '../../common/bulk-types';
import { systemClock, type Clock, type TimerHandle } from '../clock';
export type { BatchProgress } from '../../common/bulk-types';

export interface SendInput {
  mobile: string;
  content: string;
  templateId: string | null;
  /** A deliberate re-send of an item whose outcome was unknown (a person queued it again). */
  resendOf?: number | null;
  /** The batch row it is sent for (History and the batch count its sends from the same rows). */
  batchItemId?: number | null;
}

/** What a send returns (the call service's SendOutcome, as far as the queue and the dialer read it). */
export interface SendLike {
  message: MessageRecord;
  failure: FailureView | null;
}

/** Sends one message for a profile: the call service's send (validates, writes pending, POSTs, records, follows). */
export type SendFn = (profileId: string, input: SendInput) => Promise<SendLike>;
/** Resolves when nothing more will happen to the message (its call ended, or it places no call). */
export type AwaitEnd = (messageId: number, signal?: AbortSignal) => Promise<MessageRecord>;

export interface CreateBatchInput {
  profileId: string;
  templateId: string | null;
  name: string;
  /** The sheet's own header (kept for the results export). */
  columns?: readonly string[] | null;
  rows: readonly PreparedRow[];
  /** Which repeated rows to leave out (the first occurrence is always kept). */
  duplicates: DuplicatePolicy;
}

export interface BulkQueueOptions {
  batches: BatchRepository;
  send: SendFn;
  awaitEnd: AwaitEnd;
  governors: GovernorRegistry;
  /** Progress of a batch: at most every progressIntervalMs, and at once when its status changes. */
  onProgress?: (p: BatchProgress) => void;
  progressIntervalMs?: number;
  /** How long a send with an unknown outcome holds its line (its call may be ringing). Default 60 s. */
  unknownHoldMs?: number;
  /** A line is given back after this long even if the call's end was never reported. Default 10 min. */
  maxHoldMs?: number;
  /** Pause after this many unknown outcomes in a row (the provider is failing). Default 10; 0 = never. */
  unknownStreakLimit?: number;
  /** The time and the timers (hold times, progress). Default systemClock. */
  clock?: Clock;
  /**
   * Follows the batch's calls still going on that a process now gone left (killed mid-batch): without
   * it nobody asks about them and their lines stay taken until maxHoldMs.
   */
  followLeft?: (messageIds: number[]) => void;
  log?: (error: unknown) => void;
}

const key = (i: { mobile: string; content: string }) => `${i.mobile}\n${i.content}`;

/** A send refused before its request could leave (a local check, or a profile that cannot be used): what became of it. */
function notSent(error: unknown): { kind: 'in-flight' | 'invalid' | 'profile'; code: CalloutError['code'] } | null {
  if (!(error instanceof CalloutError)) return null;
  if (error.code === 'send-in-flight') return { kind: 'in-flight', code: error.code };
  if (error.code === 'invalid-mobile' || error.code === 'invalid-content') return { kind: 'invalid', code: error.code };
  return { kind: 'profile', code: error.code };
}

const stopped = (kind: StopKind, extra: Omit<Extract<Reason, { code: 'stop' }>['params'], 'kind'> = {}): Reason => reason('stop', { kind, ...extra });

/** What one batch is doing in this process: its counts, its runner, the calls it holds lines for. */
class BatchState {
  counts: BatchCounts;
  launches: number[] = [];
  runner: Runner | null = null;
  readonly heldMessages = new Set<number>();
  readonly holdAbort = new AbortController();
  progressTimer: TimerHandle | null = null;
  lastEmit = 0;
  constructor(counts: BatchCounts) {
    this.counts = counts;
    // One listener per call holding a line (up to the concurrency limit).
    setMaxListeners(0, this.holdAbort.signal);
  }
}

class Runner {
  stopping = false;
  readonly abort = new AbortController();
  readonly sending = new Set<Promise<void>>();
  readonly inFlightKeys = new Set<string>();
  buffer: BatchItemRecord[] = [];
  deferred: BatchItemRecord[] = [];
  lastId = 0;
  unknownStreak = 0;
  done: Promise<void> = Promise.resolve();
}

export class BulkQueue {
  private readonly states = new Map<number, BatchState>();
  private readonly o: Required<Pick<BulkQueueOptions, 'progressIntervalMs' | 'unknownHoldMs' | 'maxHoldMs' | 'unknownStreakLimit' | 'clock'>> &
    BulkQueueOptions;

  constructor(options: BulkQueueOptions) {
    this.o = {
      progressIntervalMs: 250,
      unknownHoldMs: 60_000,
      maxHoldMs: 10 * 60_000,
      unknownStreakLimit: 10,
      clock: systemClock,
      ...options,
    };
  }

  private get repo(): BatchRepository {
    return this.o.batches;
  }

  // ------------------------------------------------------------ batches

  /** A draft batch from prepared rows: valid rows queued, invalid and (by choice) duplicate rows skipped with the reason. */
  create(input: CreateBatchInput): BatchRecord {
    const items = input.rows.map((r) => {
      const cells = r.cells ?? null;
      if (!r.valid)
        return {
          rowNumber: r.row,
          mobile: r.mobile,
          content: r.content,
          units: r.units,
          status: 'skipped' as const,
          errorKind: 'invalid-row',
          reason: invalidReason(r),
          cells,
        };
      if (skippedAsDuplicate(r, input.duplicates)) {
        const why = input.duplicates === 'same-text' ? reason('duplicate', { row: r.duplicateOf! }) : reason('same-mobile', { row: r.sameMobileAs! });
        return {
          rowNumber: r.row,
          mobile: r.mobile,
          content: r.content,
          units: r.units,
          status: 'skipped' as const,
          errorKind: 'duplicate',
          reason: why,
          cells,
        };
      }
      return { rowNumber: r.row, mobile: r.mobile, content: r.content, units: r.units, status: 'queued' as const, cells };
    });
    return this.repo.create({ profile: input.profileId, templateId: input.templateId, name: input.name, columns: input.columns ?? null }, items);
  }

  list(limit?: number): BatchListRow[] {
    return this.repo.list(limit);
  }

  get(batchId: number): BatchRecord {
    const b = this.repo.get(batchId);
    if (!b) throw fail('not-found', { kind: 'batch', id: batchId });
    return b;
  }

  items(batchId: number, q: { status?: ItemStatus; offset?: number; limit?: number } = {}): BatchItemView[] {
    this.get(batchId);
    return this.repo.items(batchId, q);
  }

  /** Items whose outcome is unknown (interrupted sends, 500s, timeouts), for a person to decide. */
  unknownItems(batchId: number): BatchItemView[] {
    return this.items(batchId, { status: 'unknown', limit: 200_000 });
  }

  /**
   * The results: the sheet's own columns and what became of each row, in `lang` and local time, as
   * CSV (UTF-8 with BOM, formula-safe) or XLSX (bytes).
   */
  async exportResults(
    batchId: number,
    o: { lang: Lang; utcOffsetMinutes?: number; format: 'csv' | 'xlsx' },
  ): Promise<{ rows: number; csv?: string; xlsx?: Buffer }> {
    const batch = this.get(batchId);
    const all: BatchItemView[] = [];
    for (let offset = 0; ; offset += 50_000) {
      const page = this.repo.items(batchId, { offset, limit: 50_000 });
      all.push(...page);
      if (page.length < 50_000) break;
    }
    const table = resultsTable(batch, all, o.lang, o.utcOffsetMinutes);
    if (o.format === 'xlsx') return { rows: all.length, xlsx: await tableXlsx(table, batch.name) };
    return { rows: all.length, csv: tableCsv(table) };
  }

  /**
   * After a crash: batches left running reopen paused (interrupted); their in-flight items become
   * unknown. Call once at start, before starting anything.
   */
  recover(): { batches: BatchRecord[]; items: BatchItemRecord[] } {
    const r = this.repo.recoverInterrupted();
    for (const b of r.batches) {
      this.states.delete(b.id);
      this.emitNow(b.id);
    }
    return r;
  }

  /** Starts a draft batch or resumes a paused one. Returns at once; see whenStopped. */
  start(batchId: number): BatchProgress {
    let batch = this.get(batchId);
    const current = this.states.get(batchId)?.runner;
    if (current && !current.stopping) return this.progress(batchId);
    if (!current && batch.status === 'running' && !ownerAlive(batch.owner)) {
      // Left running by a process that is gone and not recovered yet: recover it first (it reopens paused).
      this.recover();
      batch = this.get(batchId);
    }
    const state = this.state(batchId);
    if (batch.status === 'running') throw fail('running-elsewhere', { id: batchId });
    if (batch.status !== 'draft' && batch.status !== 'paused') throw fail('batch-state', { id: batchId, kind: 'not-startable', state: batch.status });
    if (state.runner) throw fail('batch-state', { id: batchId, kind: 'stopping' });
    this.repo.markRunning(batchId);
    state.counts = this.repo.counts(batchId);
    const runner = new Runner();
    state.runner = runner;
    runner.done = this.run(batchId, state, runner).catch((error) => {
      this.o.log?.(error);
      if (!runner.stopping) this.stop(batchId, runner, 'paused', 'interrupted', stopped('internal'));
    });
    this.emitNow(batchId);
    return this.progress(batchId);
  }

  resume(batchId: number): BatchProgress {
    return this.start(batchId);
  }

  /** Stops starting new sends; sends already in flight finish and are recorded. */
  pause(batchId: number): BatchProgress {
    const batch = this.get(batchId);
    const runner = this.states.get(batchId)?.runner;
    if (runner && !runner.stopping) this.stop(batchId, runner, 'paused', 'user', stopped('user'));
    else if (batch.status === 'draft') throw fail('batch-state', { id: batchId, kind: 'not-started' });
    else if (batch.status === 'running' && !runner) throw fail('running-elsewhere', { id: batchId });
    return this.progress(batchId);
  }

  /** Stops the batch for good: queued items become cancelled. Sends in flight finish and are recorded. */
  cancel(batchId: number): BatchProgress {
    const batch = this.get(batchId);
    const runner = this.states.get(batchId)?.runner;
    if (runner && !runner.stopping) this.stop(batchId, runner, 'cancelled', 'user', stopped('cancelled'));
    else if (batch.status === 'running' && !runner) throw fail('running-elsewhere', { id: batchId });
    else if (batch.status === 'done') throw fail('batch-state', { id: batchId, kind: 'done' });
    else {
      this.repo.cancelQueued(batchId);
      if (batch.status !== 'cancelled') this.repo.setStatus(batchId, 'cancelled', 'user', stopped('cancelled'));
      this.refresh(batchId);
      this.emitNow(batchId);
    }
    return this.progress(batchId);
  }

  /**
   * A person decided to send these items again (unknown ones by default: the call may already have
   * been placed, hence the explicit confirmation). A finished batch reopens paused: resume sends them.
   */
  requeue(batchId: number, itemIds: readonly number[], opts: { confirm: true; from?: readonly ItemStatus[] }): number {
    if (opts?.confirm !== true) throw fail('confirm-required');
    const batch = this.get(batchId);
    const n = this.repo.requeue(batchId, itemIds, opts.from ?? ['unknown']);
    if (n > 0 && (batch.status === 'done' || batch.status === 'cancelled')) {
      this.repo.setStatus(batchId, 'paused', 'user', reason('batch-requeued', { count: n }));
      this.repo.releaseOwner(batchId);
    }
    this.refresh(batchId);
    this.emitNow(batchId);
    return n;
  }

  /** A person decided not to send these items (unknown or still queued). */
  skip(batchId: number, itemIds: readonly number[]): number {
    this.get(batchId);
    const n = this.repo.skip(batchId, itemIds);
    this.refresh(batchId);
    this.emitNow(batchId);
    return n;
  }

  remove(batchId: number): boolean {
    if (this.states.get(batchId)?.runner) throw fail('batch-state', { id: batchId, kind: 'running' });
    this.states.delete(batchId);
    return this.repo.remove(batchId);
  }

  progress(batchId: number): BatchProgress {
    const batch = this.get(batchId);
    const state = this.state(batchId);
    const c = state.counts;
    const now = this.o.clock.now();
    const recent = state.launches.filter((t) => t > now - 60_000);
    state.launches = recent;
    const running = batch.status === 'running' && !!state.runner && !state.runner.stopping;
    const rate = running ? recent.length : 0;
    const remaining = c.queued + c.inFlight;
    const g = this.o.governors.for(batch.profile).snapshot();
    return {
      batchId,
      status: batch.status,
      pausedReason: batch.pausedReason,
      statusReason: batch.statusReason,
      total: c.total,
      sent: c.accepted + c.rejected + c.unknown,
      accepted: c.accepted,
      answered: c.answered,
      notAnswered: c.notAnswered,
      calling: c.calling,
      rejected: c.rejected,
      refusedSends: c.refusedSends,
      refusedNow: c.refusedNow,
      failed: c.rejected + c.notAnswered,
      unknown: c.unknown,
      skipped: c.skipped,
      cancelled: c.cancelled,
      queued: c.queued,
      inFlight: c.inFlight,
      remaining,
      unitsRemaining: c.unitsRemaining,
      ratePerMinute: rate,
      etaMs: rate > 0 ? Math.round((remaining / rate) * 60_000) : null,
      governor: { limit: g.limits.concurrency, inUse: g.inUse, perHour: g.limits.perHour, startsInWindow: g.startsInWindow },
      at: now,
    };
  }

  /** Resolves when the batch's runner in this process has stopped (done, paused or cancelled). */
  async whenStopped(batchId: number): Promise<BatchProgress> {
    const runner = this.states.get(batchId)?.runner;
    if (runner) await runner.done;
    return this.progress(batchId);
  }

  /** Resolves when every call of the batch this process follows has ended (answered counts are final). */
  async whenCallsEnded(batchId: number, pollMs = 50): Promise<BatchProgress> {
    await this.whenStopped(batchId);
    const state = this.states.get(batchId);
    while (state && state.heldMessages.size > 0) await this.o.clock.sleep(pollMs);
    this.refresh(batchId);
    return this.progress(batchId);
  }

  /** Pauses every batch running here (reason: closed) and waits for their sends in flight. */
  async close(): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const [id, s] of this.states) {
      if (s.runner && !s.runner.stopping) this.stop(id, s.runner, 'paused', 'closed', stopped('closed'));
      if (s.runner) waits.push(s.runner.done);
    }
    await Promise.all(waits);
    for (const s of this.states.values()) {
      s.holdAbort.abort();
      s.progressTimer?.cancel();
    }
    this.states.clear();
  }

  // ------------------------------------------------------------ the runner

  private state(batchId: number): BatchState {
    let s = this.states.get(batchId);
    if (!s) {
      s = new BatchState(this.repo.counts(batchId));
      this.states.set(batchId, s);
    }
    return s;
  }

  /** Counts again from SQLite (the truth: every transition is committed before it is counted in memory). */
  private refresh(batchId: number): void {
    const s = this.states.get(batchId);
    if (s) s.counts = this.repo.counts(batchId);
  }

  private async run(batchId: number, state: BatchState, runner: Runner): Promise<void> {
    const batch = this.repo.require(batchId);
    const governor = this.o.governors.for(batch.profile);
    // Calls of this batch still ringing (from before a restart) hold lines: count them, and follow
    // those a process now gone left, so that their lines free as they end.
    const left = this.repo.openCalls(batchId);
    this.o.followLeft?.(left.filter((o) => !state.heldMessages.has(o.messageId)).map((o) => o.messageId));
    for (const open of left) {
      if (state.heldMessages.has(open.messageId)) continue;
      this.holdUntilEnded(batchId, state, governor.adopt(), open.messageId);
    }
    try {
      while (!runner.stopping) {
        const item = this.next(batchId, runner);
        if (!item) {
          if (runner.sending.size > 0) {
            await Promise.race(runner.sending);
            continue;
          }
          // Final sweep: anything queued again behind us (a person's requeue, a send that found its twin in flight).
          const more = this.repo.nextQueued(batchId, 0, 200);
          if (more.length === 0) break;
          // Items whose twin (same number, same text) was being sent by someone else: give it a moment.
          if (more.every((i) => i.errorKind === 'send-in-flight')) await this.o.clock.sleep(200);
          runner.buffer = more;
          runner.lastId = more.at(-1)!.id;
          continue;
        }
        let slot: Slot;
        try {
          slot = await governor.acquire({ signal: runner.abort.signal });
        } catch {
          break; // stopping
        }
        if (runner.stopping) {
          slot.release({ refund: true });
          break;
        }
        this.launch(batchId, state, runner, item, slot, batch.profile, batch.templateId);
      }
      await Promise.all(runner.sending);
    } finally {
      await Promise.allSettled(runner.sending);
      const current = this.repo.require(batchId);
      // A refusal that arrived after a cancel put its item back: a cancelled batch keeps nothing queued.
      if (current.status === 'cancelled') this.repo.cancelQueued(batchId);
      if (!runner.stopping) {
        runner.stopping = true;
        const c = this.repo.counts(batchId);
        if (c.queued === 0 && c.inFlight === 0) this.repo.setStatus(batchId, 'done', null, null);
        else this.repo.setStatus(batchId, 'paused', 'interrupted', stopped('queued'));
      }
      this.repo.releaseOwner(batchId);
      state.counts = this.repo.counts(batchId);
      state.runner = null;
      this.emitNow(batchId);
    }
  }

  private next(batchId: number, runner: Runner): BatchItemRecord | null {
    for (;;) {
      if (runner.buffer.length === 0) {
        const fetched = this.repo.nextQueued(batchId, runner.lastId, 200);
        if (fetched.length === 0) return null;
        runner.buffer = fetched;
        runner.lastId = fetched.at(-1)!.id;
      }
      const item = runner.buffer.shift()!;
      if (runner.inFlightKeys.has(key(item))) {
        // The same text to the same number is being sent right now: send this one after it.
        runner.deferred.push(item);
        continue;
      }
      return item;
    }
  }

  private launch(batchId: number, state: BatchState, runner: Runner, item: BatchItemRecord, slot: Slot, profile: string, templateId: string | null): void {
    if (!this.repo.markInFlight(item.id)) {
      slot.release({ refund: true }); // skipped or cancelled meanwhile
      return;
    }
    const c = state.counts;
    c.queued--;
    c.inFlight++;
    const k = key(item);
    runner.inFlightKeys.add(k);
    const wasRefused = this.repo.lastSendRefused(item.id);
    state.launches.push(this.o.clock.now());
    const p = (async () => {
      let result: SendLike | undefined;
      let thrown: unknown;
      try {
        result = await this.o.send(profile, {
          mobile: item.mobile,
          content: item.content,
          templateId,
          resendOf: item.errorKind === 'requeued' ? item.messageId : null,
          batchItemId: item.id,
        });
      } catch (error) {
        thrown = error;
      }
      runner.inFlightKeys.delete(k);
      const twin = runner.deferred.findIndex((d) => key(d) === k);
      if (twin >= 0) runner.buffer.unshift(runner.deferred.splice(twin, 1)[0]!);
      c.inFlight--;
      try {
        this.settle(batchId, state, runner, item, slot, result, thrown, wasRefused);
      } catch (error) {
        slot.release();
        throw error;
      }
      this.scheduleProgress(batchId);
    })();
    runner.sending.add(p);
    void p.catch((e) => this.o.log?.(e)).finally(() => runner.sending.delete(p));
  }

  private settle(
    batchId: number,
    state: BatchState,
    runner: Runner,
    item: BatchItemRecord,
    slot: Slot,
    result: SendLike | undefined,
    thrown: unknown,
    wasRefused: boolean,
  ): void {
    const c = state.counts;
    const repo = this.repo;
    // Any outcome recorded below ends the item's wait; a return to the queue adds its units back.
    c.unitsRemaining -= item.units;
    const requeued = () => {
      c.queued++;
      c.unitsRemaining += item.units;
    };
    if (!result) {
      const local = notSent(thrown);
      slot.release({ refund: local !== null });
      if (local?.kind === 'in-flight') {
        repo.returnToQueue(item.id, { code: null, errorKind: 'send-in-flight', reason: reason('send-in-flight', {}) });
        requeued();
      } else if (local?.kind === 'invalid') {
        repo.recordOutcome(item.id, 'rejected', { messageId: null, code: null, errorKind: 'invalid', reason: reason('refused', { error: local.code }) });
        c.rejected++;
      } else if (local?.kind === 'profile') {
        repo.returnToQueue(item.id, { code: null, errorKind: 'profile', reason: reason('refused', { error: local.code }) });
        requeued();
        this.stop(batchId, runner, 'paused', 'profile', stopped(local.code === 'keychain-unavailable' ? 'keychain' : 'profile', { error: local.code }));
      } else {
        this.o.log?.(thrown);
        repo.recordOutcome(item.id, 'unknown', { messageId: null, code: null, errorKind: 'internal', reason: reason('internal', {}) });
        c.unknown++;
        this.countUnknown(batchId, runner);
      }
      return;
    }
    const m = result.message;
    const failure = result.failure;
    // History lists this send as rejected: the batch counts it the same way.
    if (m.outcome === 'rejected') c.refusedSends++;
    // Still refused: rows whose latest send was refused (one sent since no longer counts).
    if (m.outcome === 'rejected' && !wasRefused) c.refusedNow++;
    else if (m.outcome !== 'rejected' && wasRefused) c.refusedNow--;
    const next = nextCall({ outcome: m.outcome, code: m.code, failure });
    switch (next.kind) {
      case 'accepted':
        repo.recordOutcome(item.id, 'accepted', { messageId: m.id, code: m.code });
        c.accepted++;
        c.calling++;
        runner.unknownStreak = 0;
        this.holdUntilEnded(batchId, state, slot, m.id);
        return;
      case 'not-sent':
        // Nothing was placed: the item waits in the queue until the provider can be reached.
        slot.release({ refund: true });
        repo.returnToQueue(item.id, { code: null, errorKind: 'not-sent', reason: failure!.reason });
        requeued();
        this.stop(batchId, runner, 'paused', 'provider-unreachable', stopped('provider-unreachable', { transport: failure!.kind as TransportErrorKind }));
        return;
      case 'account':
        slot.release();
        if (next.retryLater) {
          // 402 / 403: no call was placed; the item waits for a person to recharge or for the approval.
          repo.returnToQueue(item.id, {
            code: m.code,
            errorKind: next.cause,
            reason: m.reason ?? reason('provider-code', { code: m.code!, msg: m.providerMsg }),
          });
          requeued();
          this.stop(batchId, runner, 'paused', next.cause as StopReason, stopped(next.cause as StopReason));
        } else {
          repo.recordOutcome(item.id, 'rejected', { messageId: m.id, code: m.code, errorKind: failure?.kind ?? 'credentials', reason: m.reason });
          c.rejected++;
          this.stop(batchId, runner, 'cancelled', 'credentials', stopped(next.cause === 'signature' ? 'signature' : 'credentials'));
        }
        return;
      case 'number':
        // Refused for another reason than the number's format: maybe the provider counts calls waiting to redial.
        if (m.code !== 404) slot.refused();
        slot.release();
        repo.recordOutcome(item.id, 'rejected', { messageId: m.id, code: m.code, errorKind: failure?.kind ?? 'provider-code', reason: m.reason });
        c.rejected++;
        runner.unknownStreak = 0;
        return;
      case 'unknown':
        break;
    }
    // unknown (or, defensively, still pending): the call may have been placed. Never resent.
    repo.recordOutcome(item.id, 'unknown', {
      messageId: m.id,
      code: m.code,
      errorKind: m.errorKind ?? failure?.kind ?? 'unknown',
      reason: m.reason ?? failure?.reason ?? null,
    });
    c.unknown++;
    // It may be ringing: keep its line for a while.
    const abort = () => {
      hold.cancel();
      slot.release();
    };
    const hold = this.o.clock.setTimeout(() => {
      state.holdAbort.signal.removeEventListener('abort', abort);
      slot.release();
    }, this.o.unknownHoldMs);
    state.holdAbort.signal.addEventListener('abort', abort, { once: true });
    this.countUnknown(batchId, runner);
  }

  private countUnknown(batchId: number, runner: Runner): void {
    runner.unknownStreak++;
    if (this.o.unknownStreakLimit > 0 && runner.unknownStreak >= this.o.unknownStreakLimit) {
      this.stop(batchId, runner, 'paused', 'too-many-unknown', stopped('too-many-unknown'));
    }
  }

  /** Keeps the call's line until its call ends (or maxHoldMs), then updates the answered counts. */
  private holdUntilEnded(batchId: number, state: BatchState, slot: Slot, messageId: number): void {
    state.heldMessages.add(messageId);
    slot.holds(messageId);
    let timer: TimerHandle | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = this.o.clock.setTimeout(() => resolve(null), this.o.maxHoldMs).unref();
    });
    void Promise.race([this.o.awaitEnd(messageId, state.holdAbort.signal).catch(() => null), timeout])
      .then((m) => {
        if (m && m.endedAt !== null) {
          state.counts.calling = Math.max(0, state.counts.calling - 1);
          if (m.state === 'answered') state.counts.answered++;
          else state.counts.notAnswered++;
        }
      })
      .finally(() => {
        timer?.cancel();
        state.heldMessages.delete(messageId);
        slot.release();
        this.scheduleProgress(batchId);
      });
  }

  private stop(batchId: number, runner: Runner, status: 'paused' | 'cancelled', stop: StopReason, why: Reason): void {
    if (runner.stopping) return;
    runner.stopping = true;
    runner.abort.abort();
    if (status === 'cancelled') this.repo.cancelQueued(batchId);
    this.repo.setStatus(batchId, status, stop, why);
    if (status === 'cancelled') this.refresh(batchId);
    this.emitNow(batchId);
  }

  // ------------------------------------------------------------ progress events

  private emitNow(batchId: number): void {
    const s = this.states.get(batchId);
    if (s?.progressTimer) {
      s.progressTimer.cancel();
      s.progressTimer = null;
    }
    if (s) s.lastEmit = this.o.clock.now();
    if (!this.o.onProgress) return;
    try {
      this.o.onProgress(this.progress(batchId));
    } catch (error) {
      this.o.log?.(error);
    }
  }

  private scheduleProgress(batchId: number): void {
    const s = this.states.get(batchId);
    if (!s || s.progressTimer || !this.o.onProgress) return;
    const wait = Math.max(0, s.lastEmit + this.o.progressIntervalMs - this.o.clock.now());
    s.progressTimer = this.o.clock
      .setTimeout(() => {
        s.progressTimer = null;
        this.emitNow(batchId);
      }, wait)
      .unref();
  }
}
