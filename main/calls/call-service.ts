// Send and follow: the one path every call takes, whoever asks for it (the Send screen, quick dial,
// the bulk queue, the CLI). validate → write `pending` → send → record the outcome → follow the
// call to its end → tell everyone (every change is emitted). The rules for what ends following a
// call (provider 400/401, a profile that can no longer be used, no final state in time) live here.
//
// A send is never repeated here: a request that may have reached the provider is recorded
// `unknown`, for a person to decide.
import { checkContent, unitsFor } from '../../common/domain/units';
import { normalizeMobile } from '../../common/domain/mobile';
import { FINAL_STATES, maySendAgain, stopsFollowing } from '../../common/domain';
import type { FailureView } from '../../common/contract/send';
import type { MessageRecord } from '../../common/records';
import { reason } from '../../common/reasons';
import { CalloutError, fail } from '../errors';
import type { ExchangeRepository } from '../store/exchange-repository';
import type { MessageRepository } from '../store/message-repository';
import { VoiceClient, type ProviderEndpoint } from '../voice/client';
import type { BalanceReply, SendReply, StatusReply } from '../voice/replies';
import { CallClock } from './call-clock';
import { EndWatcher } from './end-watcher';
import { Follower, type LookResult } from './follower';

export interface SendInput {
  mobile: string;
  content: string;
  templateId?: string | null;
  /** A deliberate re-send of this message (confirmed by a person). */
  resendOf?: number | null;
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
  /**
   * Following calls: `delayScale` multiplies every wait (the provider's seconds are this many real
   * seconds: tests, a sped-up sandbox), `maxAgeMs` how long a call is followed at most,
   * `budgetPerLine` the status queries a second per line (default STATUS_QUERIES_PER_LINE_PER_SECOND).
   */
  follow?: { delayScale?: number; maxAgeMs?: number; budgetPerLine?: number };
  /** Lines of a profile: its status-query budget grows with them. Default 1. */
  linesOf?: (profileId: string) => number;
  /** How often messages someone waits for are re-read from the store (a change by another process). Default 1000 ms. */
  watcherPollMs?: number;
  log?: (error: unknown) => void;
}

/** Checks a send locally: the normalised number, the text, its units. Throws invalid-mobile / invalid-content. */
export function validateSend(input: Pick<SendInput, 'mobile' | 'content'>): { mobile: string; content: string; units: number } {
  const mobile = normalizeMobile(input.mobile);
  if (!mobile.ok) throw fail('invalid-mobile', { kind: mobile.error }, [{ path: 'mobile', message: mobile.error }]);
  const content = checkContent(input.content);
  if (!content.ok) throw fail('invalid-content', { kind: content.error, length: content.length }, [{ path: 'content', message: `content-${content.error}` }]);
  return { mobile: mobile.mobile, content: input.content, units: unitsFor(input.content) };
}

export class CallService {
  private readonly inFlight = new Set<string>();
  private readonly clientFor: (endpoint: ProviderEndpoint) => VoiceClient;
  private readonly follower: Follower;
  private readonly watcher: EndWatcher;

  constructor(private readonly o: CallServiceOptions) {
    this.clientFor = o.clientFor ?? ((e) => new VoiceClient(e));
    this.watcher = new EndWatcher({ get: (id) => o.messages.get(id), pollMs: o.watcherPollMs });
    // Each profile's call timings start from the durations already in its history.
    const clock = new CallClock({ history: (profile) => o.messages.recentDurations(profile, 50) });
    this.follower = new Follower({
      get: (id) => o.messages.get(id),
      clock,
      linesOf: o.linesOf,
      look: (m) => this.look(m),
      expire: (m) => this.changed(o.messages.endTracking(m.id, reason('tracking-timeout', {}))),
      onFinal: (id) => {
        const m = o.messages.get(id);
        if (m) o.onCallEnded?.(m);
      },
      delayScale: o.follow?.delayScale,
      maxAgeMs: o.follow?.maxAgeMs,
      budgetPerLine: o.follow?.budgetPerLine,
      log: o.log,
    });
  }

  /** Sends one call and, once accepted, follows it to its end. */
  async send(profileId: string, input: SendInput, signal?: AbortSignal): Promise<SendOutcome> {
    const checked = validateSend(input);
    const endpoint = await this.o.endpoint(profileId);
    const key = `${endpoint.profile}\n${endpoint.baseUrl}\n${checked.mobile}\n${checked.content}`;
    if (this.inFlight.has(key)) throw fail('send-in-flight');
    this.inFlight.add(key);
    try {
      const pending = this.o.messages.insertPending({
        profile: endpoint.profile,
        baseUrl: endpoint.baseUrl,
        apiId: endpoint.apiId,
        mobile: checked.mobile,
        content: checked.content,
        templateId: input.templateId ?? null,
        units: checked.units,
        resendOf: input.resendOf ?? null,
      });
      this.changed(pending);
      const result = await this.clientFor(endpoint).send({ mobile: checked.mobile, content: checked.content }, signal);
      for (const e of result.exchanges) this.o.exchanges.insert(e, { messageId: pending.id, profile: endpoint.profile });
      const message = this.recordSend(pending.id, result.reply, result.failure);
      this.changed(message);
      if (message.outcome === 'accepted') this.follower.follow(message.id);
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
    if (opts.resume) for (const m of this.o.messages.openMessages()) this.follower.follow(m.id, m.createdAt);
    return interrupted;
  }

  /** Messages being followed now. */
  following(): number[] {
    return this.follower.following();
  }

  close(): void {
    this.follower.stop();
    this.watcher.close();
  }

  // ------------------------------------------------------------ internals

  private message(id: number): MessageRecord {
    const m = this.o.messages.get(id);
    if (!m) throw fail('not-found', { kind: 'message', id });
    return m;
  }

  /**
   * Every change of a message goes through here, whatever brought it (a send, a status query, a
   * receipt): those waiting for its end hear of it, and the follower stops asking about a call
   * that ended (or re-plans its next look).
   */
  private changed(m: MessageRecord): void {
    this.follower.observe(m);
    this.watcher.notify(m);
    this.o.onChange?.(m);
  }

  private async statusAt(endpoint: ProviderEndpoint, smsid: string, signal?: AbortSignal): Promise<StatusOutcome> {
    const { messages } = this.o;
    const local = messages.findBySmsid(smsid) ?? null;
    const result = await this.clientFor(endpoint).status(smsid, signal);
    for (const e of result.exchanges) this.o.exchanges.insert(e, { messageId: local?.id ?? null, profile: endpoint.profile });
    let message = local;
    if (local && result.reply?.code === 2 && result.reply.state !== 'unknown') {
      message = messages.updateState(local.id, result.reply.state, {
        duration: result.reply.duration,
        attempts: result.reply.attempts,
        final: FINAL_STATES.has(result.reply.state),
        detail: result.reply.rawState === null ? null : String(result.reply.rawState),
      });
      if (message.updatedAt !== local.updatedAt) this.changed(message);
    }
    return { message, reply: result.reply, failure: result.failure };
  }

  /** One look at a followed call: what ends following it is decided here, once for every caller. */
  private async look(m: MessageRecord): Promise<LookResult> {
    let endpoint: ProviderEndpoint;
    try {
      endpoint = await this.o.endpoint(m.profile);
    } catch (error) {
      if (!(error instanceof CalloutError)) throw error;
      this.changed(this.o.messages.endTracking(m.id, reason('tracking-profile', { error: error.code })));
      return 'stop';
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
    return code === 2 && r.reply?.state !== 'unknown' ? 'open' : 'retry';
  }

  private recordSend(id: number, reply: SendReply | null, failure: FailureView | null): MessageRecord {
    const { messages } = this.o;
    if (failure) {
      if (failure.outcome === 'unknown') return messages.markUnknown(id, { errorKind: failure.kind, reason: failure.reason });
      const errorKind = failure.outcome === 'not-sent' ? `not-sent:${failure.kind}` : failure.kind;
      return messages.markRejected(id, { code: null, msg: null, errorKind, reason: failure.reason });
    }
    const r = reply!;
    if (r.code === 2) return messages.markAccepted(id, { code: 2, msg: r.msg, smsid: r.smsid, count: r.count });
    if (r.code === 500 || r.code === null) {
      // "Internal server error": the provider may or may not have placed the call.
      return messages.markUnknown(id, { errorKind: 'provider-error', reason: reason('provider-error', { code: r.code, msg: r.msg }), code: r.code, msg: r.msg });
    }
    return messages.markRejected(id, { code: r.code, msg: r.msg, errorKind: 'provider-code', reason: reason('provider-code', { code: r.code, msg: r.msg }) });
  }
}
