// Records both sides of the app agree on: what a message, an event and an exchange look like.
import type { CallState, Outcome } from './domain/status';
import type { CaptureInfo } from './capture';
import type { Reason } from './reasons';
import type { Exchange } from './exchange';
export type { TransportErrorKind } from './vocabulary';
export type { Exchange, ExchangeTimings, Header, Operation } from './exchange';
export { OPERATIONS } from './exchange';

export interface MessageRecord {
  id: number;
  profile: string;
  baseUrl: string;
  apiId: string;
  mobile: string;
  content: string;
  templateId: string | null;
  units: number;
  outcome: Outcome;
  code: number | null;
  providerMsg: string | null;
  smsid: string | null;
  billedUnits: number | null;
  state: CallState;
  duration: number | null;
  /** How the send failed or why following it stopped, as a category (transport kind, provider-code, interrupted, ...). */
  errorKind: string | null;
  /** Why, in full: a code with parameters, rendered in the reader's language. */
  reason: Reason | null;
  createdAt: number;
  updatedAt: number;
  endedAt: number | null;
  /** Dial attempts reported by the provider (redials included), when it says. */
  attempts: number | null;
  /** The message this one deliberately re-sent. */
  resendOf: number | null;
  /** The bulk-send row (batch item) this send was made for, if any. */
  batchItemId: number | null;
}

export interface MessageEventRecord {
  id: number;
  messageId: number;
  at: number;
  kind: 'created' | 'submitted' | 'rejected' | 'unknown' | 'state' | 'redial' | 'error';
  state: CallState | null;
  /** What the provider said (its msg, or the raw state value), verbatim. */
  detail: string | null;
  /** Why, when Callout says something about it (a redial's attempt number, why following stopped). */
  reason: Reason | null;
}

export interface ExchangeRecord extends Exchange {
  id: number;
  messageId: number | null;
  profile: string | null;
  /** The provider's result code in the reply, as Callout read it when it stored the exchange. */
  providerCode: number | null;
  /** Set on an exchange the capture proxy recorded (a backend's request): how it came, and its checks. */
  capture?: CaptureInfo | null;
  /** Set on an exchange read from an archive file (its name): actions on it read it from there. */
  archive?: string;
}
