// Send and follow: the one path every call takes, whoever asks for it (the Send screen, quick dial,
// the bulk queue, the CLI). validate → write `pending` → send → record the outcome → follow the
// call to its end → tell everyone (every change is emitted). The rules for what ends following a
// call (provider 400/401, a profile that can no longer be used, no final state in time) live here.
//
// A send is never repeated here: a request that may have reached the provider is recorded
// `unknown`, for a person to decide.
//
// Once the request has left, the provider's answer is kept in memory until it is stored: the write
// is retried at once a few times, then in the background. While a message's result is not stored,
// the same text to the same number is refused (`result-not-stored`), so a full disk can never lead
// to a second call; the send itself reports `unknown` with the reason `store-incomplete` and the
// smsid the provider gave, never an internal error. The answer is also kept in a file outside the
// database (KeptAnswers), so that it survives the process: the next start, or the next send of any
// process, writes it into the store.
//
// The same text to the same number (profile and address) is sent once at a time: in this process
// (`inFlight`), and across the processes sharing the data directory (the app, `callout ui`, the
// CLI) by the `pending` row itself, claimed atomically before the request leaves (claimPending).
import { checkContent, unitsFor } from '../../common/domain/units';
import { normalizeMobile } from '../../common/domain/mobile';
import { FINAL_STATES, keyVerdict, mayMove, maySendAgain, stopsFollowing } from '../../common/domain';
import { followsByReceiptsOnly } from '../../common/domain/status';
import { readReceipts, readSend, readStatus, type Dialect, type ReceiptReading } from '../../common/dialects';
import type { FailureView } from '../../common/contract/send';
import type { CallState } from '../../common/domain/status';
import type { Exchange, MessageRecord } from '../../common/records';
import { reason } from '../../common/reasons';
import { CalloutError, fail, isDiskFull } from '../errors';
import { ownerAlive, processOwner, type ExchangeRepository, type KeptAnswers, type MessageRepository } from '../store';
import { dialectOf, VoiceClient, type ProviderEndpoint } from '../voice/client';
import { parseBody, parsePost, type BalanceReply, type SendReply, type StatusReply } from '../voice/replies';
import { CallClock, EndWatcher, Follower, redialAfter, type CallClockOptions, type LookResult } from './follow';
import { systemClock, type Clock, type TimerHandle } from '../clock';

export interface SendInput {
  mobile: string;
  content: string;
  templateId?: string | null;
  /** A deliberate re-send of this message (confirmed by a person). */
  resendOf?: number | null;
  /** The bulk-send row it is sent for. */
  batchItemId?: number | null;
}

export interface SendOutcome {
  message: MessageRecord;
  reply: SendReply | null;
  failure: FailureView | null;
}

export interface StatusOutcome {
  /** The local message with that smsid, updated, if Callout sent it. */
  message: MessageRecord | null;
  reply: StatusReply | null;
  failure: FailureView | null;
  /**
   * The profile's dialect has no status query (the provider only pushes receipts): nothing was
   * asked, and `message` is the call as its receipts left it.
   */
  receiptsOnly?: boolean;
}

/** What one look at a call found: its state (mapped, or a value the dialect does not map), duration and attempts. */
export interface CallReading {
  state: CallState;
  /** The provider's value, as text. */
  value: string | null;
  unmapped: boolean;
  duration: number | null;
  attempts?: number | null;
}

/** What a post of receipts held, and what became of it. */
export interface ReceiptOutcome {
  /** The body could be parsed (JSON, form or XML). */
  readable: boolean;
  receipts: number;
  /** Receipts that named one of this profile's messages. */
  matched: number;
  /** The exchange(s) stored for it. */
  exchangeIds: number[];
}

export interface BalanceOutcome {
  reply: BalanceReply | null;
  failure: FailureView | null;
}

export interface CallServiceOptions {
  messages: MessageRepository;
  exchanges: ExchangeRepository;
  /** The profile's endpoint with its key (main only); throws a CalloutError when it cannot be used. */
  endpoint: (profileId: string) => Promise<ProviderEndpoint>;
  clientFor?: (endpoint: ProviderEndpoint) => VoiceClient;
  /** Every change to a message (the main:message-updated push). */
  onChange?: (message: MessageRecord) => void;
  /** A followed call reached its final state (the desktop notification). */
  onCallEnded?: (message: MessageRecord) => void;
  /** The provider accepted (code 2) or rejected (401, signature) a profile's key: one record for every screen. */
  onKeyVerdict?: (profileId: string, verdict: { result: 'ok' | 'rejected'; code: number | null; kind: 'credentials' | 'signature' | null }) => void;
  /**
   * Following calls: `maxAgeMs` how long a call is followed at most, `budgetPerLine` the status
   * queries a second per line (default STATUS_QUERIES_PER_LINE_PER_SECOND).
   */
  follow?: { maxAgeMs?: number; budgetPerLine?: number };
  /** Lines of a profile: its status-query budget grows with them. Default 1. */
  linesOf?: (profileId: string) => number;
  /** Where each profile's learned redial wait is kept across restarts (see CallClockOptions.redialWaits). */
  redialWaits?: CallClockOptions['redialWaits'];
  /** A call waits to be redialled and holds no line until about `untilMs`, or (null) holds one again: see Follower. */
  onLineFree?: (messageId: number, untilMs: number | null) => void;
  /** How often messages someone waits for are re-read from the store (a change by another process). Default 1000 ms. */
  watcherPollMs?: number;
  /** A call of this profile is followed by receipts: make sure its receipt listener runs (before the send leaves). */
  ensureReceipts?: (profileId: string) => Promise<void>;
  log?: (error: unknown) => void;
  /**
   * Writing a send's result: waits before each retry made at once (default 50, 250, 1000 ms), then
   * how often the background retries run while something is not stored (default 2000 ms).
   */
  storeRetry?: { delaysMs?: readonly number[]; intervalMs?: number };
  /** A write failed (the store's health: disk full, I/O error) or, with null, a write succeeded again. */
  onStoreHealth?: (error: unknown | null) => void;
  /** The time and the timers (following, waiting for ends, store retries). Default systemClock. */
  clock?: Clock;
  /** Where an answer the store could not take is kept until it can (survives the process). Without it, only memory. */
  kept?: KeptAnswers;
  /** Follow the calls whose kept answer this process writes (the app: yes; the CLI follows only its own). */
  followKept?: boolean;
}

/** A send whose request left, with what the provider answered, not yet (completely) stored. */
interface Unstored {
  key: string;
  pending: MessageRecord;
  profile: string;
  reply: SendReply | null;
  failure: FailureView | null;
  /** Exchanges still to store. */
  exchanges: Exchange[];
  /** The stored outcome, once it is. */
  stored: MessageRecord | null;
  /** A file outside the database holds the answer too (KeptAnswers). */
  kept?: boolean;
}

/** Checks a send locally: the normalised number, the text, its units. Throws invalid-mobile / invalid-content. */
export function validateSend(input: Pick<SendInput, 'mobile' | 'content'>): { mobile: string; content: string; units: number } {
  const mobile = normalizeMobile(input.mobile);
  if (!mobile.ok) throw fail('invalid-mobile', { kind: mobile.error }, [{ path: 'mobile', message: mobile.error }]);
  const content = checkContent(input.content);
  if (!content.ok) throw fail('invalid-content', { kind: content.error, length: content.length }, [{ path: 'content', message: `content-${content.error}` }]);
  return { mobile: mobile.mobile, content: input.content, units: unitsFor(input.content) };
}

/** The same text to the same number, whatever the profile: what must never be called twice by accident. */
const sameCallKey = (mobile: string, content: string) => `${mobile}\n${content}`;

/** Looks in a row at which the keychain may fail before following the call stops (tracking-profile). */
export const KEYCHAIN_MISSES_TOLERATED = 3;

export class CallService {
  private readonly inFlight = new Set<string>();
  /** Answers not yet (completely) stored, by message id. */
  private readonly unstored = new Map<number, Unstored>();
  /** Looks in a row at which the keychain did not answer, by message (a few are waited out, see look()). */
  private readonly keychainMisses = new Map<number, number>();
  private flushTimer: TimerHandle | null = null;
  private readonly clientFor: (endpoint: ProviderEndpoint) => VoiceClient;
  private readonly follower: Follower;
  private readonly watcher: EndWatcher;
  private readonly time: Clock;

  constructor(private readonly o: CallServiceOptions) {
    this.time = o.clock ?? systemClock;
    this.clientFor = o.clientFor ?? ((e) => new VoiceClient(e, { clock: this.time }));
    this.watcher = new EndWatcher({ get: (id) => o.messages.get(id), pollMs: o.watcherPollMs, clock: this.time });
    // Each profile's call timings start from the durations already in its history.
    const clock = new CallClock({ history: (profile) => o.messages.recentDurations(profile, 50), redialWaits: o.redialWaits });
    this.follower = new Follower({
      get: (id) => o.messages.get(id),
      clock,
      linesOf: o.linesOf,
      onLineFree: o.onLineFree,
      look: (m) => this.look(m),
      expire: (m) => this.changed(o.messages.endTracking(m.id, reason('tracking-timeout', {}))),
      maxAgeMs: o.follow?.maxAgeMs,
      budgetPerLine: o.follow?.budgetPerLine,
      time: this.time,
      log: o.log,
    });
  }

  /** Sends one call and, once accepted, follows it to its end. */
  async send(profileId: string, input: SendInput, signal?: AbortSignal): Promise<SendOutcome> {
    const checked = validateSend(input);
    const endpoint = await this.o.endpoint(profileId);
    if (endpoint.follow === 'receipts' || endpoint.follow === 'both') await this.o.ensureReceipts?.(endpoint.profile).catch((e: unknown) => this.o.log?.(e));
    const key = `${endpoint.profile}\n${endpoint.baseUrl}\n${checked.mobile}\n${checked.content}`;
    if (this.inFlight.has(key)) throw fail('send-in-flight');
    const same = sameCallKey(checked.mobile, checked.content);
    const waiting = [...this.unstored.values()].find((u) => u.key === same && !u.stored);
    if (waiting) throw fail('result-not-stored', { id: waiting.pending.id, smsid: waiting.reply?.smsid ?? null });
    this.inFlight.add(key);
    try {
      // An answer another process kept but could not store (it is gone) is written first: its message is settled, not `pending`.
      this.replayKept();
      const claim = this.write(() =>
        this.o.messages.claimPending({
          profile: endpoint.profile,
          baseUrl: endpoint.baseUrl,
          apiId: endpoint.apiId,
          mobile: checked.mobile,
          content: checked.content,
          templateId: input.templateId ?? null,
          units: checked.units,
          resendOf: input.resendOf ?? null,
          batchItemId: input.batchItemId ?? null,
        }),
      );
      // Another running process is sending the same text to the same number: nothing leaves from here.
      if (claim.busy) throw fail('send-in-flight');
      const pending = claim.claimed;
      this.changed(pending);
      const result = await this.clientFor(endpoint).send({ mobile: checked.mobile, content: checked.content }, signal);
      this.noteKey(endpoint.profile, result.reply, result.failure);
      // From here the provider may have placed a call: its answer is kept until it is stored.
      const entry: Unstored = {
        key: sameCallKey(checked.mobile, checked.content),
        pending,
        profile: endpoint.profile,
        reply: result.reply,
        failure: result.failure,
        exchanges: [...result.exchanges],
        stored: null,
      };
      const message = await this.storeWithRetry(entry, [endpoint.apiKey]);
      return { message, reply: result.reply, failure: result.failure };
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** A deliberate new send of a settled message's text to its number (a person confirmed it). */
  async sendAgain(id: number): Promise<SendOutcome> {
    const original = this.message(id);
    if (!maySendAgain(original)) throw fail('still-in-progress', { id }, [{ path: 'id', message: 'still-in-progress' }]);
    return this.send(original.profile, { mobile: original.mobile, content: original.content, templateId: original.templateId, resendOf: original.id });
  }

  /** Asks the provider for any smsid's call state; records it on the local message, if there is one. */
  async status(profileId: string, smsid: string, signal?: AbortSignal): Promise<StatusOutcome> {
    return this.statusAt(await this.o.endpoint(profileId), smsid, signal);
  }

  /** Asks the provider again about one of our messages. */
  async refresh(id: number): Promise<MessageRecord> {
    const m = this.message(id);
    if (!m.smsid) return m;
    return (await this.status(m.profile, m.smsid)).message ?? m;
  }

  async balance(profileId: string, signal?: AbortSignal): Promise<BalanceOutcome> {
    const endpoint = await this.o.endpoint(profileId);
    const result = await this.clientFor(endpoint).balance(signal);
    this.noteKey(endpoint.profile, result.reply, result.failure);
    for (const e of result.exchanges) this.o.exchanges.insert(e, { profile: endpoint.profile });
    return { reply: result.reply, failure: result.failure };
  }

  /** Resolves with the message once nothing more will happen to it (its call ended, or there is no call to follow). */
  awaitEnd(id: number, signal?: AbortSignal): Promise<MessageRecord> {
    return this.watcher.awaitEnd(id, signal);
  }

  /**
   * After a restart: sends left `pending` by a process that is gone become `unknown` (they may have
   * reached the provider), and, with `resume`, calls still going on are followed again.
   */
  recover(opts: { resume: boolean }): MessageRecord[] {
    const interrupted = this.o.messages.recoverInterrupted();
    for (const m of interrupted) this.changed(m);
    if (opts.resume) for (const m of this.o.messages.claimOrphanedOpen()) this.follower.follow(m.id, m.createdAt);
    return interrupted;
  }

  /**
   * Answers kept in files because the store could not take them, by a process that is gone (or by
   * this one before a restart): written into the store now, their files removed. A process still
   * running writes its own. Returns the messages written.
   */
  replayKept(): MessageRecord[] {
    const kept = this.o.kept;
    if (!kept) return [];
    const written: MessageRecord[] = [];
    for (const { path, answer } of kept.list()) {
      if (answer.owner === processOwner() ? this.unstored.has(answer.messageId) : ownerAlive(answer.owner)) continue;
      try {
        const before = this.o.messages.get(answer.messageId);
        if (before && before.profile !== answer.profile) continue;
        // Written already (by another process replaying it too), or gone from the history: nothing to do.
        if (!before || !awaitsAnswer(before)) {
          kept.remove(path);
          continue;
        }
        const message = this.recordSend(before.id, answer.reply, answer.failure);
        for (const e of answer.exchanges) this.o.exchanges.insert(e, { messageId: before.id, profile: answer.profile });
        kept.remove(path);
        written.push(message);
        this.changed(message, before);
        if (this.o.followKept && message.outcome === 'accepted' && message.endedAt === null) this.follower.follow(message.id);
      } catch (error) {
        // Still cannot be written (the disk is still full): kept for the next try.
        this.o.log?.(error);
      }
    }
    return written;
  }

  /**
   * Follows those of these calls still going on that a process now gone left (a batch resumed in
   * another process: its lines free as they end). A call a running process follows stays with it.
   */
  followLeft(ids: readonly number[]): MessageRecord[] {
    const claimed = ids.length ? this.o.messages.claimOrphanedOpen(ids) : [];
    for (const m of claimed) this.follower.follow(m.id, m.createdAt);
    return claimed;
  }

  /** Messages being followed now. */
  following(): number[] {
    return this.follower.following();
  }

  /** Sends whose result is not stored yet (their number and text are refused until it is). */
  unstoredResults(): MessageRecord[] {
    return [...this.unstored.values()].filter((u) => !u.stored).map((u) => incompleteRecord(u, this.time.now()));
  }

  /** Tries once more to store what is waiting; true when nothing is left. */
  flushUnstored(): boolean {
    for (const entry of [...this.unstored.values()]) {
      try {
        this.writeEntry(entry);
      } catch (error) {
        this.o.onStoreHealth?.(error);
        return false;
      }
    }
    return this.unstored.size === 0;
  }

  close(): void {
    // A last try: what is still not stored stays `pending` in the store and becomes `unknown` at the next start.
    if (this.unstored.size) this.flushUnstored();
    this.flushTimer?.cancel();
    this.flushTimer = null;
    this.follower.stop();
    this.watcher.close();
  }

  // ------------------------------------------------------------ internals

  private message(id: number): MessageRecord {
    const m = this.o.messages.get(id);
    if (!m) throw fail('not-found', { kind: 'message', id });
    return m;
  }

  private noteKey(profileId: string, reply: { code: number | null } | null, failure: FailureView | null): void {
    const verdict = keyVerdict(reply?.code ?? null, failure?.kind ?? null);
    if (verdict) this.o.onKeyVerdict?.(profileId, { ...verdict, code: reply?.code ?? null });
  }

  /**
   * Every change of a message goes through here, whatever brought it (a send, a status query, a
   * receipt): those waiting for its end hear of it, the follower stops asking about a call that
   * ended (or re-plans its next look), and a call that just reached its final state is announced
   * once (the desktop notification).
   */
  private changed(m: MessageRecord, before?: MessageRecord): void {
    if (m.endedAt !== null) this.keychainMisses.delete(m.id);
    this.follower.observe(m);
    this.watcher.notify(m);
    this.o.onChange?.(m);
    if (before && before.endedAt === null && m.endedAt !== null && FINAL_STATES.has(m.state)) this.o.onCallEnded?.(m);
  }

  /**
   * Records what a status reply or a receipt said about one of our calls. A call never moves
   * backwards (mayMove): a repeated or late receipt, or an older state, changes nothing. A value the
   * dialect does not map is shown on the message ("not recognised — map it"), never guessed.
   */
  private apply(id: number, r: CallReading, notifyLater?: Array<() => void>): MessageRecord | null {
    const { messages } = this.o;
    const m = messages.get(id);
    if (!m || m.outcome !== 'accepted') return m ?? null;
    let next: MessageRecord = m;
    if (r.unmapped) {
      // A call that ended (or stopped being followed) keeps what it ended with.
      if (m.endedAt !== null || FINAL_STATES.has(m.state)) return m;
      next = messages.markUnmapped(id, r.value ?? '', reason('unmapped-state', { value: r.value ?? '' }));
    } else if (r.state !== 'unknown') {
      const final = FINAL_STATES.has(r.state);
      // After following stopped, only a final state is still news.
      if (m.endedAt !== null && !final) return m;
      const moves = mayMove(m.state, r.state);
      const sameButMore = m.state === r.state && m.endedAt === null && ((r.duration ?? m.duration) !== m.duration || (r.attempts ?? m.attempts) !== m.attempts);
      if (!moves && !sameButMore) return m;
      next = messages.updateState(id, r.state, { duration: r.duration, attempts: r.attempts ?? null, final, detail: r.value });
    }
    if (next.updatedAt !== m.updatedAt) {
      // Inside a transaction, nobody is told before it commits.
      if (notifyLater) notifyLater.push(() => this.changed(next, m));
      else this.changed(next, m);
    }
    return next;
  }

  private async statusAt(endpoint: ProviderEndpoint, smsid: string, signal?: AbortSignal): Promise<StatusOutcome> {
    const { messages } = this.o;
    const dialect = dialectOf(endpoint);
    const local = messages.findBySmsid(smsid) ?? null;
    if (!dialect.status) {
      // Nothing to ask: one of our calls is shown as its receipts left it; any other smsid cannot be asked about.
      if (local) return { message: local, reply: null, failure: null, receiptsOnly: true };
      throw fail('no-status-query', { dialect: dialect.name });
    }
    const result = await this.clientFor(endpoint).status(smsid, signal);
    this.noteKey(endpoint.profile, result.reply, result.failure);
    for (const e of result.exchanges) this.o.exchanges.insert(e, { messageId: local?.id ?? null, profile: endpoint.profile });
    let message = local;
    const reply = result.reply;
    if (local && reply?.outcome === 'accepted') {
      message =
        this.apply(local.id, { state: reply.state, value: reply.rawState, unmapped: reply.unmapped, duration: reply.duration, attempts: reply.attempts }) ??
        local;
    }
    // A reply that changed nothing on the call is still a new exchange of it: a panel showing the call lists it.
    if (local && message && message.updatedAt === local.updatedAt && result.exchanges.length > 0) this.o.onChange?.(message);
    return { message, reply, failure: result.failure };
  }

  /**
   * A post of receipts from the provider (the receipt listener): kept as an exchange in history —
   * linked to each message it names (or to none) — and each receipt recorded on its message,
   * matched by id through the profile's dialect. All of it in one transaction: when this throws
   * (the database locked by another process, a full disk), nothing of the post was kept, and the
   * listener asks the provider to send it again; a receipt applied twice changes nothing.
   */
  receive(profileId: string, dialect: Dialect, exchange: Exchange): ReceiptOutcome {
    const { messages, exchanges } = this.o;
    const type = exchange.requestHeaders.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? null;
    const parsed = exchange.requestBody === null ? null : parsePost(exchange.requestBody, type);
    const receipts = parsed === null ? [] : readReceipts(dialect, parsed);
    const notify: Array<() => void> = [];
    const outcome = messages.atomically((): ReceiptOutcome => {
      const matches: Array<{ id: number; receipt: ReceiptReading }> = [];
      for (const receipt of receipts) {
        const local = receipt.id ? messages.findBySmsid(receipt.id, profileId) : undefined;
        if (local) matches.push({ id: local.id, receipt });
      }
      const linked = [...new Set(matches.map((x) => x.id))];
      const exchangeIds = [exchanges.insert(exchange, { messageIds: linked, profile: profileId })];
      for (const { id, receipt } of matches)
        this.apply(id, { state: receipt.state, value: receipt.value, unmapped: receipt.unmapped, duration: receipt.duration }, notify);
      return { readable: parsed !== null, receipts: receipts.length, matched: matches.length, exchangeIds };
    });
    // Stored: what is told now can no longer be taken back (and a failure to tell is not a failure to store).
    for (const tell of notify) {
      try {
        tell();
      } catch (error) {
        this.o.log?.(error);
      }
    }
    return outcome;
  }

  /**
   * The profile's dialect changed: the calls still open are read again from the replies and
   * receipts already captured for them (oldest first), so a value just mapped takes effect at once.
   */
  reread(profileId: string, dialect: Dialect): MessageRecord[] {
    const changed: MessageRecord[] = [];
    // Calls that could not be followed (no message ID read from the send reply): the new reading may
    // find it. An ID is taken only when it is one call's alone: a value read from several replies (a
    // field that says "OK" every time) or one another message already has would follow the wrong call.
    const found = this.o.messages.unfollowed(profileId).flatMap((m) => {
      const send = this.o.exchanges.forMessage(m.id).find((e) => e.operation === 'send' && e.status !== null && e.responseBody !== null);
      const raw = send ? parseBody(send.responseBody) : null;
      const r = raw ? readSend(dialect, raw) : null;
      return r && r.outcome === 'accepted' && r.id !== null ? [{ m, id: r.id }] : [];
    });
    for (const { m, id } of found) {
      if (found.filter((f) => f.id === id).length > 1 || this.o.messages.findBySmsid(id, profileId)) continue;
      const now = this.o.messages.recoverMessageId(m.id, id);
      if (now.smsid !== id) continue;
      this.changed(now, m);
      this.follower.follow(now.id);
      changed.push(now);
    }
    for (const m of this.o.messages.openMessages(profileId)) {
      for (const e of this.o.exchanges.forMessage(m.id)) {
        if (e.operation === 'status' && e.status !== null && e.responseBody !== null) {
          const raw = parseBody(e.responseBody);
          if (!raw) continue;
          const r = readStatus(dialect, raw, m.smsid ?? undefined);
          if (r.outcome === 'accepted') this.apply(m.id, { state: r.state, value: r.value, unmapped: r.unmapped, duration: r.duration, attempts: r.attempts });
        } else if (e.operation === 'receipt' && e.requestBody !== null) {
          const type = e.requestHeaders.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? null;
          const parsed = parsePost(e.requestBody, type);
          if (parsed === null) continue;
          for (const r of readReceipts(dialect, parsed)) {
            if (r.id === m.smsid) this.apply(m.id, { state: r.state, value: r.value, unmapped: r.unmapped, duration: r.duration });
          }
        }
      }
      const now = this.o.messages.get(m.id);
      if (now && now.updatedAt !== m.updatedAt) changed.push(now);
    }
    return changed;
  }

  /** One look at a followed call: what ends following it is decided here, once for every caller. */
  private async look(m: MessageRecord): Promise<LookResult> {
    let endpoint: ProviderEndpoint;
    try {
      endpoint = await this.o.endpoint(m.profile);
    } catch (error) {
      if (!(error instanceof CalloutError)) throw error;
      // The keychain did not answer this time (slow under load, or locked for a moment): the call is
      // still followed and asked about again later. One that keeps failing (locked, refusing) ends
      // following it, saying so, as does a profile or key that is gone.
      const misses = (this.keychainMisses.get(m.id) ?? 0) + 1;
      if (error.code === 'keychain-failed' && misses < KEYCHAIN_MISSES_TOLERATED) {
        this.keychainMisses.set(m.id, misses);
        return 'retry';
      }
      this.changed(this.o.messages.endTracking(m.id, reason('tracking-profile', { error: error.code })));
      return 'stop';
    }
    this.keychainMisses.delete(m.id);
    // Followed by receipts only (or the provider has no status query): nothing to ask, the receipt listener records what arrives.
    if (followsByReceiptsOnly({ follow: endpoint.follow, dialect: dialectOf(endpoint) })) {
      await this.o.ensureReceipts?.(m.profile).catch((e: unknown) => this.o.log?.(e));
      return this.o.messages.get(m.id)?.endedAt != null ? 'final' : 'open';
    }
    const r = await this.statusAt(endpoint, m.smsid!);
    const code = r.reply?.code ?? null;
    const stop = stopsFollowing(code);
    if (stop) {
      this.changed(this.o.messages.endTracking(m.id, reason(stop, { code: code!, msg: r.reply?.msg ?? null })));
      return 'stop';
    }
    if (r.message?.endedAt != null) return 'final';
    // No reply, or one that says nothing about the call (an error code, an unmapped state): ask again later.
    if (r.reply?.outcome !== 'accepted' || r.reply.unmapped || r.reply.state === 'unknown') return 'retry';
    // Waiting again after an attempt that rang: the provider will redial (the stored call stays ringing).
    const waiting = redialAfter(m, r.reply);
    if (waiting !== null) return { redialAfter: waiting };
    return 'open';
  }

  /**
   * Stores a send's outcome, then its exchanges. Returns the stored message, or (when the outcome
   * cannot be written) the message as it stands in memory: `unknown`, reason `store-incomplete`, its
   * smsid kept, and the entry left for the background retries.
   */
  private async storeWithRetry(entry: Unstored, secrets: readonly string[]): Promise<MessageRecord> {
    const delays = this.o.storeRetry?.delaysMs ?? [50, 250, 1000];
    let failed: unknown;
    for (let attempt = 0; ; attempt++) {
      try {
        this.writeEntry(entry);
        failed = null;
        break;
      } catch (error) {
        failed = error;
        this.o.log?.(error);
        // Kept outside the database at once, before anything else can stop this process (and
        // counted as not stored from now: this process's own, never replayed by it meanwhile).
        if (attempt === 0 && !entry.stored) {
          entry.kept = this.keep(entry, secrets);
          this.unstored.set(entry.pending.id, entry);
        }
        if (entry.stored || attempt >= delays.length) break;
        await this.time.sleep(delays[attempt]!);
      }
    }
    if (failed !== null) {
      this.unstored.set(entry.pending.id, entry);
      this.scheduleFlush();
      this.o.onStoreHealth?.(failed);
    }
    if (entry.stored) return entry.stored;
    const message = incompleteRecord(entry, this.time.now());
    this.changed(message);
    return message;
  }

  /** One try at writing what is left of an entry (throws when a write fails). The outcome first: it is what prevents a second call. */
  private writeEntry(entry: Unstored): void {
    if (!entry.stored) {
      const current = this.o.messages.get(entry.pending.id);
      if (current && !awaitsAnswer(current)) {
        // Another process wrote it from the kept file (with its exchanges): taken as it is.
        entry.stored = current;
        entry.exchanges = [];
        this.changed(current);
      }
    }
    if (!entry.stored) {
      const message = this.recordSend(entry.pending.id, entry.reply, entry.failure);
      entry.stored = message;
      this.o.onStoreHealth?.(null);
      this.changed(message);
      // An accepted send without a usable ID has already ended (it cannot be followed).
      if (message.outcome === 'accepted' && message.endedAt === null) this.follower.follow(message.id);
    }
    while (entry.exchanges.length) {
      this.o.exchanges.insert(entry.exchanges[0]!, { messageId: entry.pending.id, profile: entry.profile });
      entry.exchanges.shift();
    }
    this.unstored.delete(entry.pending.id);
    if (entry.kept) {
      try {
        this.o.kept?.forget(entry.pending.id);
      } catch (error) {
        // Left behind, it is found already written at the next replay and removed then.
        this.o.log?.(error);
      }
    }
  }

  /** Keeps an answer the store cannot take in a file (true), or says it could not (false: memory only). */
  private keep(entry: Unstored, secrets: readonly string[]): boolean {
    const kept = this.o.kept?.keep(
      { messageId: entry.pending.id, profile: entry.profile, reply: entry.reply, failure: entry.failure, exchanges: entry.exchanges },
      secrets,
    );
    return kept !== undefined && kept !== null;
  }

  /** A write whose failure (a full disk...) is reported to the store's health before it is thrown. */
  private write<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      this.o.onStoreHealth?.(error);
      // Nothing has left yet: a full disk is said as such (the bulk queue pauses on it).
      throw isDiskFull(error) ? fail('disk-full', {}) : error;
    }
  }

  private scheduleFlush(): void {
    if (this.flushTimer) return;
    this.flushTimer = this.time
      .setInterval(() => {
        if (this.flushUnstored() && this.flushTimer) {
          this.flushTimer.cancel();
          this.flushTimer = null;
        }
      }, this.o.storeRetry?.intervalMs ?? 2000)
      .unref();
  }

  private recordSend(id: number, reply: SendReply | null, failure: FailureView | null): MessageRecord {
    const { messages } = this.o;
    if (failure) {
      if (failure.outcome === 'unknown') return messages.markUnknown(id, { errorKind: failure.kind, reason: failure.reason });
      const errorKind = failure.outcome === 'not-sent' ? `not-sent:${failure.kind}` : failure.kind;
      return messages.markRejected(id, { code: null, msg: null, errorKind, reason: failure.reason });
    }
    const r = reply!;
    // A code word (not a whole number) has no text in the catalog: the provider's own message is said with it.
    const word = r.code === null && r.codeText !== null && r.msg !== null;
    const said = r.meaning ? { kind: word ? ('dialectSaid' as const) : ('dialect' as const), meaning: r.meaning } : word ? { kind: 'said' as const } : {};
    const code = r.code ?? r.codeText;
    if (r.outcome === 'accepted') {
      // Accepted, but without an ID there is nothing to follow it by: its call ends at once as unknown (settled, never resent).
      if (r.smsid === null)
        return messages.markAccepted(id, { code: r.code, msg: r.msg, smsid: null, count: r.count, unfollowable: reason('no-message-id', {}) });
      return messages.markAccepted(id, { code: r.code, msg: r.msg, smsid: r.smsid, count: r.count });
    }
    if (r.outcome === 'unknown') {
      // "Internal server error", no code, or a code the dialect calls unknown: the provider may or may not have placed the call.
      return messages.markUnknown(id, {
        errorKind: 'provider-error',
        reason: reason('provider-error', { code, msg: r.msg, ...said }),
        code: r.code,
        msg: r.msg,
      });
    }
    return messages.markRejected(id, {
      code: r.code,
      msg: r.msg,
      errorKind: 'provider-code',
      reason: reason('provider-code', { code: code ?? '—', msg: r.msg, ...said }),
    });
  }
}

/** A message whose provider answer is not recorded: still `pending`, or marked interrupted by a later start. */
function awaitsAnswer(m: MessageRecord): boolean {
  return m.outcome === 'pending' || (m.outcome === 'unknown' && m.errorKind === 'interrupted');
}

/** A send whose outcome is not stored, as it stands in memory: `unknown`, why, and the provider's answer (its smsid above all). */
function incompleteRecord(u: Unstored, now: number): MessageRecord {
  const r = u.reply;
  const answer = u.failure ? 'no-reply' : r ? r.outcome : 'unknown';
  return {
    ...u.pending,
    outcome: 'unknown',
    state: 'unknown',
    code: r?.code ?? null,
    providerMsg: r?.msg ?? null,
    smsid: r?.smsid ?? null,
    billedUnits: r?.count ?? null,
    errorKind: 'store-incomplete',
    // Kept in a file, it survives this process; otherwise it is said that it does not (write the smsid down).
    reason: reason(u.kept ? 'store-incomplete' : 'store-unkept', { smsid: r?.smsid ?? null, kind: answer }),
    updatedAt: now,
  };
}
