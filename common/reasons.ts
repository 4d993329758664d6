// Why something happened, as a code with parameters: why a send's outcome is unknown or rejected,
// why following a call stopped, why a batch item was skipped or a batch paused. Stored with the
// record (never as a sentence) and rendered in the reader's language from the message catalog
// (common/messages: reason.<code>, with `kind` picking a variant).
import type { ErrorCode } from './contract/errors';
import type { IssueKind, StopReason, TransportErrorKind } from './vocabulary';

/** Why a batch stopped, in full: the stored pause reason, or a finer cause of it. */
/** `keychain`: the profile's key could not be read from the system keychain (a finer cause of 'profile'). */
export type StopKind = StopReason | 'cancelled' | 'internal' | 'queued' | 'signature' | 'keychain';

/** Each reason code with its parameters. */
export interface ReasonParams {
  /** Callout stopped while the send was in flight (a batch item: whether a request was recorded for it). */
  interrupted: { kind?: 'item' | 'item-unrecorded' };
  /** The request failed in transit (never left, or may have reached the provider: see the outcome). */
  transport: { kind: TransportErrorKind; ms?: number; detail?: string };
  'unreadable-reply': { status: number | null; type: string };
  'signature-rejected': { status: number };
  /** Provider code 500, or a reply without a code: the call may or may not have been placed. `meaning`: the dialect's words for the code (kind 'dialect'). */
  'provider-error': { code: number | string | null; msg: string | null; kind?: 'dialect' | 'said' | 'dialectSaid'; meaning?: string };
  /** The provider refused the send with this code. `meaning`: the dialect's words for the code (kind 'dialect'). */
  'provider-code': { code: number | string; msg: string | null; kind?: 'dialect' | 'said' | 'dialectSaid'; meaning?: string };
  /** The body said success (code 2) but the HTTP status was not a success: the call may have been placed. */
  'http-status': { status: number; code: number | string };
  /** The provider accepted the send but gave no usable message ID: the call cannot be followed. */
  'no-message-id': Record<string, never>;
  /** A call that could not be followed got its message ID from its send reply, read again with the profile's new dialect: followed again. */
  'message-id-read': { smsid: string };
  /** The provider reported a state value the profile's dialect does not map (shown, never guessed). */
  'unmapped-state': { value: string };
  /** Following the call stopped: the provider does not know the message (400). */
  'tracking-unknown-message': { code: number; msg: string | null };
  /** Following the call stopped: the provider refuses the credentials (401). */
  'tracking-credentials': { code: number; msg: string | null };
  /** Following the call stopped: no final state was reported in time. */
  'tracking-timeout': Record<string, never>;
  /** Following the call stopped: the profile can no longer be used (removed, key deleted...). */
  'tracking-profile': { error: ErrorCode };
  /** A bulk row that cannot be sent (its first problem). */
  'invalid-row': { kind: IssueKind };
  /** A bulk row left out as a repeat of an earlier row. */
  duplicate: { row: number };
  'same-mobile': { row: number };
  /** The same text to the same number was being sent at that moment: queued after it. */
  'send-in-flight': Record<string, never>;
  /** Nothing was sent: a local check refused it. */
  refused: { error: ErrorCode };
  /** A batch stopped (paused or cancelled): why. */
  stop: { kind: StopKind; error?: ErrorCode; transport?: TransportErrorKind };
  /** A person queued an unknown item again. */
  requeued: Record<string, never>;
  /** A person queued items of a finished batch again: it reopened paused. */
  'batch-requeued': { count: number };
  /** Something failed inside Callout; the send may or may not have left. */
  internal: Record<string, never>;
  /**
   * The request left but its result could not be written (a full disk): the provider's answer is
   * kept in memory and in a file outside the database (it survives the process), and written as
   * soon as possible, at the latest by the next start. `kind`: what the provider answered.
   */
  'store-incomplete': { smsid: string | null; kind: 'accepted' | 'rejected' | 'unknown' | 'no-reply' };
  /** As store-incomplete, but the answer could not be kept in a file either: it lives only as long as this process. */
  'store-unkept': { smsid: string | null; kind: 'accepted' | 'rejected' | 'unknown' | 'no-reply' };
}

export type ReasonCode = keyof ReasonParams;

/** Every reason code (checked against ReasonParams at compile time, both ways). */
export const REASON_CODES = [
  'interrupted',
  'transport',
  'unreadable-reply',
  'signature-rejected',
  'provider-error',
  'provider-code',
  'http-status',
  'no-message-id',
  'message-id-read',
  'unmapped-state',
  'tracking-unknown-message',
  'tracking-credentials',
  'tracking-timeout',
  'tracking-profile',
  'invalid-row',
  'duplicate',
  'same-mobile',
  'send-in-flight',
  'refused',
  'stop',
  'requeued',
  'batch-requeued',
  'internal',
  'store-incomplete',
  'store-unkept',
] as const satisfies readonly ReasonCode[];
const reasonCodesComplete: Exclude<ReasonCode, (typeof REASON_CODES)[number]> extends never ? true : false = true;
void reasonCodesComplete;

export type Reason = { [C in ReasonCode]: { code: C; params: ReasonParams[C] } }[ReasonCode];

/** Builds a reason, typed by its code. */
export function reason<C extends ReasonCode>(code: C, params: ReasonParams[C]): Extract<Reason, { code: C }> {
  return { code, params } as Extract<Reason, { code: C }>;
}

/** The provider's state value the profile's dialect does not map, when that is why the call's state is unknown (else null). */
export function unmappedValue(why: Reason | null | undefined): string | null {
  return why?.code === 'unmapped-state' ? why.params.value : null;
}
