/**
 * Public types of the embedded sandbox provider (an HTTP server on 127.0.0.1 that answers like the
 * voice notification service of the spec, sections 1–8, with switchable faults).
 */

import type { CallState } from '../../common/domain/status';
import type { Dialect } from '../../common/dialects';
import type { VerifyReason } from '../signing';
import type { SignatureVariant } from '../signing';
import { type Clock } from '../clock';

/** The three voice operations: POST /voice/vm, /voice/status, /voice/balance. */
export type SandboxOp = 'send' | 'status' | 'balance';

/** 'off': no gateway; otherwise every /voice/* request must carry a valid signature of that variant. */
export type SandboxSignatureMode = 'off' | 'spec' | 'apisix' | 'any';

/**
 * A fault switch. `op` limits it to one operation (default: all three). `times` is how many
 * matching requests it affects (default: unlimited until cleared). When several faults match,
 * the one set most recently wins; an exhausted fault is dropped and older ones apply again.
 * delay, reset and html act in front of the signature gateway (network, proxy); timeout, http500
 * and code act behind it: a request the gateway rejects gets its HTTP 401 and does not use them up.
 */
export type SandboxFault =
  /** Answer normally, after `delayMs` real milliseconds (not scaled by timeScale). */
  | { kind: 'delay'; delayMs: number; op?: SandboxOp; times?: number }
  /** Read the request, process it (a valid send DOES place the call), never answer. */
  | { kind: 'timeout'; op?: SandboxOp; times?: number }
  /** HTTP 500 with JSON `{code: 500, msg}`; nothing is processed. */
  | { kind: 'http500'; op?: SandboxOp; times?: number }
  /** HTTP 502 with a text/html error page, as a reverse proxy would send; nothing is processed. */
  | { kind: 'html'; op?: SandboxOp; times?: number }
  /** Destroy the socket after reading the request; nothing is processed. */
  | { kind: 'reset'; op?: SandboxOp; times?: number }
  /** HTTP 200 with that provider code (in the requested format); nothing is processed. */
  | { kind: 'code'; code: 400 | 401 | 402 | 403 | 404 | 500; op?: SandboxOp; times?: number };

export type SandboxFaultKind = SandboxFault['kind'];

/** What a tester can change while the sandbox runs. */
export interface SandboxSettings {
  timeScale: number;
  signatureMode: SandboxSignatureMode;
  clockOffsetSeconds: number;
  /** Simulated ms a template newly registered for review waits before it is approved. */
  reviewDelayMs: number;
  /** The reply dialect spoken: a built-in dialect's id ('spec' for the spec's own shape), or a taught dialect's name. */
  dialect: string;
}

/** An account as the admin view shows it: never its key. */
export interface SandboxAccountSummary {
  apiId: string;
  balance: number;
  /** Units of calls ringing now, charged if they are answered. */
  reserved: number;
  available: number;
  lines: number;
  capacity: number;
  activeCalls: number;
  peakConcurrency: number;
  waitingForLine: number;
}

export interface SandboxAccountInput {
  apiId: string;
  apiKey: string;
  /** Units; default 10 (the free debug quota of a new registration). */
  balance?: number;
  /** Lines; 20 concurrent calls per line. Default 1. */
  lines?: number;
}

export interface SandboxOptions {
  /** Default 0 = a random free port. The server ALWAYS binds 127.0.0.1. */
  port?: number;
  /** Multiplies every simulated duration: 1 = real time, 0.001 = 1000x faster. Default 1. */
  timeScale?: number;
  /** The time the sandbox runs on (its time scale applies on top). Default systemClock. */
  clock?: Clock;
  /** Optional signature gateway in front of /voice/*. Default 'off'. */
  signature?: SandboxSignatureMode;
  /** Default: one demo account (see DEMO_ACCOUNT). The first account is `sandbox.demo`. */
  accounts?: SandboxAccountInput[];
  /** Default true: register the demo templates (three approved, one pending) for every account. */
  demoTemplates?: boolean;
  /** Template review delay in ms before timeScale; default 2 h (spec: "about 2 hours"). */
  reviewDelayMs?: number;
  /** The gateway's clock offset in seconds (for clock-skew tests); default 0. */
  clockOffsetSeconds?: number;
  /** Source of randomness (ring-time jitter); default Math.random. */
  random?: () => number;
  /** Answer in this dialect's shape (default: the spec's, the sandbox's own). */
  dialect?: Dialect;
  /** Push a receipt there when a call ends (in the dialect's receipt shape); default none. */
  receiptsUrl?: string | null;
}

export interface SandboxTemplate {
  id: string;
  apiId: string;
  name: string;
  content: string;
  status: 'approved' | 'pending';
  /** Same as status === 'approved'. */
  approved: boolean;
  /** ISO time the template was registered. */
  submittedAt: string;
  /** ISO time it was (or was registered as) approved; null while pending. */
  approvedAt: string | null;
  /** ISO time the review completes; null when approved. */
  reviewDueAt: string | null;
}

/** What happened to a call, in order. `state` is the state reported after the event. */
export interface SandboxCallEvent {
  /** ISO time on the call's simulated clock (see SandboxCall). */
  at: string;
  event: 'submitted' | 'dialing' | 'answered' | 'hung_up' | 'no_answer' | 'busy' | 'rejected' | 'powered_off' | 'unreachable' | 'invalid_number';
  state: CallState;
  /** Attempt number (0 before the first dial). */
  attempt: number;
}

/**
 * A call placed by an accepted send. Times are on the call's own simulated clock: it starts at
 * the real submission time and advances by the simulated durations (ringing, talking, redial
 * waits; queue waits are real time divided by timeScale), so differences between timestamps are
 * in simulated seconds even when timeScale is not 1.
 */
export interface SandboxCall {
  smsid: string;
  apiId: string;
  mobile: string;
  content: string;
  /** Length in code points and billing units of the content. */
  length: number;
  units: number;
  /** The outcome scripted by the mobile's last digit. */
  script: CallScriptName;
  /** The state the status endpoint reports. 'calling' while ringing AND while talking (answeredAt set). */
  state: CallState;
  /** Chinese label of the state as the status endpoint reports it ('通话中' while talking). */
  status: string;
  attempts: number;
  /** Whole seconds of conversation; live while talking; 0 when not answered. */
  duration: number;
  /** True once the units were charged (on answer). */
  billed: boolean;
  submittedAt: string;
  /** First dial. */
  calledAt: string | null;
  answeredAt: string | null;
  /** Set when the call reached its final state. */
  endedAt: string | null;
  timeline: SandboxCallEvent[];
}

export type CallScriptName = 'answered' | 'no_answer' | 'busy' | 'powered_off' | 'unreachable' | 'rejected' | 'answered_on_redial' | 'invalid_number';

export interface ReceivedRequest {
  seq: number;
  /** ISO time the request body was read. */
  time: string;
  method: string;
  /** Path and query as received (a `password` query parameter is redacted). */
  path: string;
  /** null for an unknown path. */
  op: SandboxOp | null;
  contentType: string | null;
  /** Reply format asked for by the `format` parameter. */
  format: 'json' | 'xml';
  /** Parsed parameters with `password` replaced by '[REDACTED]'; null when the body could not be parsed. */
  body: Record<string, unknown> | null;
  /** The body's text as it arrived (UTF-8, at most 4 KiB), every known key redacted; null without a body. */
  bodyText: string | null;
  bodyError?: 'malformed' | 'too-large';
  mobile: string | null;
  /** Present when the signature gateway checked the request. */
  signature?: {
    valid: boolean;
    reason: VerifyReason | 'bad-url' | null;
    variant: SignatureVariant | null;
    keyId: string | null;
    skewSeconds: number | null;
  };
  /** The fault that affected this request, if any. */
  fault?: SandboxFaultKind;
  /** What was answered; absent while no answer was sent (timeout fault, reset, still delayed). */
  response?: { httpStatus: number; code: number | null; smsid?: string };
  /** Timeout fault: what the provider decided but never sent (a send with code 2 DID place its call). */
  withheld?: { code: number; smsid?: string };
}

export interface SandboxStats {
  /** Highest number of calls ringing or talking at the same time, over all accounts. */
  peakConcurrency: number;
  /** Calls ringing or talking now. */
  activeCalls: number;
  /** Calls in state 'pending': not dialled yet (waiting for a line) or waiting to redial. */
  queuedCalls: number;
  /** Sends answered with code 2 (calls placed). */
  sendsAccepted: number;
}

export interface Sandbox {
  /** 'http://127.0.0.1:PORT' */
  baseUrl: string;
  port: number;
  /** The first account. */
  demo: { apiId: string; apiKey: string };
  addAccount(a: SandboxAccountInput): void;
  setBalance(apiId: string, units: number): void;
  /** Not approved → becomes approved after reviewDelayMs × timeScale. */
  addTemplate(apiId: string, content: string, opts?: { approved?: boolean; name?: string }): SandboxTemplate;
  /** Ends a pending template's review now. Throws RangeError for an unknown template. */
  approveTemplate(apiId: string, id: string): SandboxTemplate;
  /** Adds units to the balance; returns the new balance. */
  topUp(apiId: string, units: number): number;
  templates(apiId: string): SandboxTemplate[];
  accounts(): SandboxAccountSummary[];
  setFault(f: SandboxFault): void;
  clearFaults(): void;
  /** Active faults, oldest first, with the uses left (null: until cleared). */
  faults(): Array<SandboxFault & { remaining: number | null }>;
  setSignatureMode(m: SandboxSignatureMode): void;
  setClockOffset(seconds: number): void;
  /** Simulated durations × this; calls already scheduled keep their times. */
  setTimeScale(scale: number): void;
  /** The review delay of templates registered from now on (simulated ms). */
  setReviewDelay(ms: number): void;
  settings(): SandboxSettings;
  /** Every /voice/* (and unknown-path) request received, in order (the last `limit` only, when given); admin requests are not listed. */
  requests(limit?: number): ReceivedRequest[];
  /** How many requests were received since the start (the log keeps the most recent 10,000). */
  requestCount(): number;
  /** Every call placed, in order. */
  calls(): SandboxCall[];
  /** Speak another dialect from now on (null: the spec's). */
  setDialect(d: Dialect | null): void;
  /** Push receipts to this address from now on (null: push none). */
  setReceiptsUrl(url: string | null): void;
  /** Every post of receipts made, in order. */
  pushedReceipts(): PushedReceipt[];
  stats(): SandboxStats;
  /** Closes the server, clears all timers, destroys open sockets. Idempotent. */
  close(): Promise<void>;
}

/** A post of receipts the sandbox made. */
export interface PushedReceipt {
  seq: number;
  /** ISO time of the last attempt. */
  at: string;
  url: string;
  smsids: string[];
  contentType: string;
  /** The body as the provider meant it (decoded from its charset). */
  body: string;
  /** The listener's HTTP status, or null when no answer came. */
  status: number | null;
  error: string | null;
  attempts: number;
}
