// Sending and following calls: one send, a deliberate send-again, status of any smsid, balance.
import { z } from 'zod';
import type { CallState } from '../domain/status';
import type { ExchangeRecord, MessageEventRecord, MessageRecord } from '../records';
import type { Reason } from '../reasons';
import { id, messageId, none, op } from './define';
import { event } from './define';
import { EVENT_CHANNELS } from './channels';

/** Why a request failed before a usable reply came back, and whether it may have reached the provider. */
export interface FailureView {
  kind: string;
  outcome: 'not-sent' | 'unknown' | 'rejected';
  reason: Reason;
}

export interface SendView {
  message: MessageRecord;
  /** The provider's result code, when it sent one (its meaning is in the catalog: provider.<code>). */
  providerCode: number | null;
  failure: FailureView | null;
}

export interface BalanceView {
  profileId: string;
  /** The provider answered with a success code (by the profile's dialect: the spec's is 2). */
  accepted: boolean;
  units: number | null;
  /** The provider's reply as parsed, for testers (the field carrying the units is not in the spec). */
  raw: Record<string, unknown> | null;
  providerCode: number | null;
  failure: FailureView | null;
  low: boolean;
  checkedAt: number;
}

export interface StatusView {
  smsid: string;
  /** The provider answered with a success code (by the profile's dialect: the spec's is 2). */
  accepted: boolean;
  providerCode: number | null;
  msg: string | null;
  state: CallState;
  /** The provider's state value, as it sent it. */
  value: string | null;
  /** The value is one the profile's dialect does not map ("not recognised — map it"). */
  unmapped: boolean;
  duration: number | null;
  raw: Record<string, unknown> | null;
  /** The local message with that smsid, updated, if Callout sent it. */
  message: MessageRecord | null;
  failure: FailureView | null;
  /**
   * The profile's dialect has no status query (the provider only pushes receipts): nothing was
   * asked; `state`, `duration` and an unmapped `value` are the stored call's, as its receipts left it.
   */
  receiptsOnly: boolean;
}

export interface RecentsView {
  /** Numbers called most recently, newest first. */
  mobiles: string[];
  /**
   * The last send of each template, by template id: its values, and to whom and when they went. A new
   * send never starts from them; the form offers them as an explicit choice that says whose they were.
   */
  lastSends: Record<string, LastSendView>;
}

/** The variable values of a template's last send, with the number they went to and when (epoch ms). */
export interface LastSendView {
  values: string[];
  mobile: string;
  at: number;
}

/** A message with its call timeline and every exchange that concerned it. */
export interface MessageDetail {
  message: MessageRecord;
  /** The newest send of the same text to the same number made after this one, if any: the way forward from this message. */
  later: MessageRecord | null;
  events: MessageEventRecord[];
  exchanges: ExchangeRecord[];
  /**
   * Its exchanges that were moved to archives of old months (read-only there), per archive file,
   * oldest first; each record names its archive. Empty when none were archived.
   */
  archived: Array<{ archive: string; exchanges: ExchangeRecord[] }>;
  /** The paging incident this call was placed for (History links to it), or null. */
  incident: { id: number; title: string } | null;
}

export const sendOps = {
  'messages.send': op<SendView>()(
    z
      .object({
        profileId: id,
        mobile: z.string().max(64),
        content: z.string().max(2000),
        templateId: id.nullable().optional(),
      })
      .strict(),
  ),
  'messages.refreshStatus': op<MessageRecord>()(z.object({ id: messageId }).strict()),
  /**
   * A deliberate new send of the same text to the same number, after a person confirmed it
   * (the original's outcome was unknown, or its call failed). Never automatic.
   */
  'messages.sendAgain': op<SendView>()(z.object({ id: messageId, confirm: z.literal(true, { error: 'confirm-required' }) }).strict()),
  'messages.recents': op<RecentsView>()(none),
  /** Asks the provider about any smsid (also ones sent elsewhere). */
  'messages.queryStatus': op<StatusView>()(z.object({ profileId: id, smsid: z.string().trim().min(1, 'smsid-required').max(128) }).strict()),
  'messages.get': op<MessageDetail>()(z.object({ id: messageId }).strict()),
  'balance.query': op<BalanceView>()(z.object({ profileId: id }).strict()),
};

export const sendEvents = {
  /** A message changed (outcome, call state, duration). */
  messageUpdated: event<MessageRecord>()(EVENT_CHANNELS.messageUpdated),
  /**
   * A followed call reached its final state, once per call. The desktop app notifies from main; the
   * console in a browser (`callout ui`) shows a browser notification, with the user's permission.
   */
  callEnded: event<MessageRecord>()(EVENT_CHANNELS.callEnded),
};
