// Records both sides of the app agree on: what a message, an event and an exchange look like.
import type { CallState, Outcome } from './domain/status';
import type { Reason } from './reasons';
import type { TransportErrorKind } from './vocabulary';
export type { TransportErrorKind } from './vocabulary';

/** What an exchange was: a request Callout made (send, status, balance, the raw client) or a receipt the provider posted to Callout. */
export const OPERATIONS = ['send', 'status', 'balance', 'raw', 'receipt'] as const;
export type Operation = (typeof OPERATIONS)[number];

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

export type Header = [name: string, value: string];

export interface ExchangeTimings {
  /** Milliseconds from the start of the exchange. */
  dnsMs: number | null;
  connectMs: number | null;
  tlsMs: number | null;
  firstByteMs: number | null;
  totalMs: number;
}


/** One HTTP exchange as captured: secrets already redacted. */
export interface Exchange {
  operation: Operation;
  method: string;
  url: string;
  requestHeaders: Header[];
  requestBody: string | null;
  status: number | null;
  statusText: string | null;
  responseHeaders: Header[] | null;
  responseBody: string | null;
  /** A failure in transit: its kind (words in the catalog: transport.<kind>), the technical text (for exports), the timeout in ms. */
  error: { kind: TransportErrorKind; message: string; ms?: number } | null;
  startedAt: number;
  timings: ExchangeTimings;
}

export interface ExchangeRecord extends Exchange {
  id: number;
  messageId: number | null;
  profile: string | null;
  /** The provider's result code in the reply, as Callout read it when it stored the exchange. */
  providerCode: number | null;
}
