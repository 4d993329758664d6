import { CONTENT_ERRORS, checkContent, unitsFor } from '../../common/domain/units';
import { MOBILE_ERRORS, normalizeMobile } from '../../common/domain/mobile';
import { FINAL_STATES } from '../../common/domain/status';
import type { MessageRecord } from '../../common/records';
import type { ExchangeRepository } from '../store/exchange-repository';
import type { MessageRepository } from '../store/message-repository';
import { VoiceClient, type ClientFailure, type ProviderEndpoint } from './client';
import type { BalanceReply, SendReply, StatusReply } from './replies';

export type ValidationCode = 'invalid-mobile' | 'invalid-content' | 'send-in-flight' | 'unknown-message' | 'not-accepted';

/** Local validation failed: nothing was sent. */
export class ValidationError extends Error {
  constructor(
    readonly code: ValidationCode,
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

export interface SendInput {
  mobile: string;
  content: string;
  templateId?: string | null;
  /** A deliberate re-send of this message (confirmed by a person). */
  resendOf?: number | null;
}

export interface SendResult {
  message: MessageRecord;
  reply: SendReply | null;
  failure: ClientFailure | null;
}

export interface StatusResult {
  message: MessageRecord | null;
  reply: StatusReply | null;
  failure: ClientFailure | null;
}

export interface BalanceResult {
  reply: BalanceReply | null;
  failure: ClientFailure | null;
}

export interface MessageServiceDeps {
  messages: MessageRepository;
  exchanges: ExchangeRepository;
  clientFor?: (endpoint: ProviderEndpoint) => VoiceClient;
  /** Told of every change to a message (push events to the renderer). */
  onChange?: (message: MessageRecord) => void;
}

/** Checks a send locally. Throws ValidationError; returns the normalised mobile and the units. */
export function validateSend(input: SendInput): { mobile: string; content: string; units: number } {
  const mobile = normalizeMobile(input.mobile);
  if (!mobile.ok) throw new ValidationError('invalid-mobile', MOBILE_ERRORS[mobile.error].en, mobile.error);
  const content = checkContent(input.content);
  if (!content.ok) {
    const detail = content.error === 'too-long' ? ` (it has ${content.length})` : '';
    throw new ValidationError('invalid-content', CONTENT_ERRORS[content.error].en + detail, content.error);
  }
  return { mobile: mobile.mobile, content: input.content, units: unitsFor(input.content) };
}

/**
 * Sends, follows and records messages. A send is written `pending` before its request leaves and
 * ends `accepted`, `rejected` or `unknown`. It is never repeated here: a request that may have
 * reached the provider is recorded `unknown` for a person to decide.
 */
export class MessageService {
  private readonly inFlight = new Set<string>();
  private readonly clientFor: (endpoint: ProviderEndpoint) => VoiceClient;

  constructor(private readonly deps: MessageServiceDeps) {
    this.clientFor = deps.clientFor ?? ((e) => new VoiceClient(e));
  }

  async send(endpoint: ProviderEndpoint, input: SendInput, signal?: AbortSignal): Promise<SendResult> {
    const checked = validateSend(input);
    const key = `${endpoint.profile}\n${endpoint.baseUrl}\n${checked.mobile}\n${checked.content}`;
    if (this.inFlight.has(key)) {
      throw new ValidationError('send-in-flight', 'The same text to the same number is already being sent; wait for its result.');
    }
    this.inFlight.add(key);
    try {
      const { messages, exchanges } = this.deps;
      const pending = messages.insertPending({
        profile: endpoint.profile,
        baseUrl: endpoint.baseUrl,
        apiId: endpoint.apiId,
        mobile: checked.mobile,
        content: checked.content,
        templateId: input.templateId ?? null,
        units: checked.units,
        resendOf: input.resendOf ?? null,
      });
      this.deps.onChange?.(pending);
      const result = await this.clientFor(endpoint).send({ mobile: checked.mobile, content: checked.content }, signal);
      for (const e of result.exchanges) exchanges.insert(e, { messageId: pending.id, profile: endpoint.profile });
      const message = this.recordSendOutcome(pending.id, result.reply, result.failure);
      this.deps.onChange?.(message);
      return { message, reply: result.reply, failure: result.failure };
    } finally {
      this.inFlight.delete(key);
    }
  }

  private recordSendOutcome(id: number, reply: SendReply | null, failure: ClientFailure | null): MessageRecord {
    const { messages } = this.deps;
    if (failure) {
      if (failure.outcome === 'unknown') return messages.markUnknown(id, { errorKind: failure.kind === 'transport' ? failure.transportKind : failure.kind, errorMessage: failure.message });
      const errorKind = failure.kind === 'transport' ? `not-sent:${failure.transportKind}` : failure.kind;
      return messages.markRejected(id, { code: null, msg: null, errorKind, errorMessage: failure.message });
    }
    const r = reply!;
    if (r.code === 2) return messages.markAccepted(id, { code: 2, msg: r.msg, smsid: r.smsid, count: r.count });
    if (r.code === 500 || r.code === null) {
      // "Internal server error": the provider may or may not have placed the call.
      return messages.markUnknown(id, {
        errorKind: 'provider-error',
        errorMessage: `The provider answered code ${r.code ?? '(none)'}${r.msg ? ` (${r.msg})` : ''}; the call may or may not have been placed.`,
        code: r.code,
        msg: r.msg,
      });
    }
    return messages.markRejected(id, { code: r.code, msg: r.msg, errorKind: 'provider-code' });
  }

  /** Asks the provider for a message's call state and records it on the local message, if there is one. */
  async status(endpoint: ProviderEndpoint, smsid: string, signal?: AbortSignal): Promise<StatusResult> {
    const { messages, exchanges } = this.deps;
    const local = messages.findBySmsid(smsid) ?? null;
    const result = await this.clientFor(endpoint).status(smsid, signal);
    for (const e of result.exchanges) exchanges.insert(e, { messageId: local?.id ?? null, profile: endpoint.profile });
    let message = local;
    if (local && result.reply?.code === 2 && result.reply.state !== 'unknown') {
      message = messages.updateState(local.id, result.reply.state, {
        duration: result.reply.duration,
        attempts: result.reply.attempts,
        final: FINAL_STATES.has(result.reply.state),
        detail: result.reply.rawState === null ? null : String(result.reply.rawState),
      });
      if (message.updatedAt !== local.updatedAt) this.deps.onChange?.(message);
    }
    return { message, reply: result.reply, failure: result.failure };
  }

  async balance(endpoint: ProviderEndpoint, signal?: AbortSignal): Promise<BalanceResult> {
    const result = await this.clientFor(endpoint).balance(signal);
    for (const e of result.exchanges) this.deps.exchanges.insert(e, { profile: endpoint.profile });
    return { reply: result.reply, failure: result.failure };
  }
}
