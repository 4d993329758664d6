// One HTTP exchange as both sides of the app agree on it (records.ts re-exports it): apart, so that
// the signature types and the capture proxy's checks can name it without a cycle through records.ts.
import type { TransportErrorKind } from './vocabulary';

/**
 * What an exchange was: a request Callout made (send, status, balance, the raw client), a receipt
 * the provider posted to Callout, or — captured by the capture proxy — a backend's request (its
 * voice operation, `raw` for any other path) or an HTTPS tunnel it opened (`tunnel`).
 */
export const OPERATIONS = ['send', 'status', 'balance', 'raw', 'receipt', 'tunnel'] as const;
export type Operation = (typeof OPERATIONS)[number];

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
