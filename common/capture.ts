// The capture proxy's checks, as both sides agree on them: what each captured exchange was checked
// for (its signature as the backend signed it, the clock, the spec's request rules, the reply read
// through the profile's dialect), each with a verdict and a coded text. Stored with the exchange as
// JSON; rendered in the reader's language from the message catalog (common/messages:
// capture.check.<code> for a check, capture.rule.<code> for a broken rule, diagnosis.<code> for the
// signature's evidence), `kind` picking a variant as everywhere.
import type { CallState } from './domain/status';
import type { MobileError } from './domain/mobile';
import type { CodedText, DiagnosisCause, VerifyDetail, VerifyReason } from './signature-types';
import type { TransportErrorKind } from './vocabulary';

type NoParams = Record<string, never>;

/** What a check looks at. */
export const CHECK_NAMES = ['signature', 'clock', 'rules', 'reply'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/** How a check (or a whole exchange) came out; `skip`: not checked, and why is said. */
export const VERDICTS = ['pass', 'warn', 'fail', 'skip'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** The voice operations of the spec, by path below the provider's base URL. */
export type VoiceOperation = 'send' | 'status' | 'balance';

/** Which way a Date is off, and whose clock it was compared with (the provider's Date header, or this computer's). */
export type ClockKind = `${'provider' | 'callout'}-${'ahead' | 'behind' | 'in-step'}`;

/** Each check text with its parameters (catalog: capture.check.<code>). */
export interface CheckParams {
  // signature
  /** No Authorization header: the spec's voice requests carry account and password in the body. */
  unsigned: NoParams;
  /** No key to check with (no profile, no CALLOUT_API_KEY). */
  'no-key': NoParams;
  'signature-valid': { variant: string; host: string };
  /** Valid as signed, for the proxy's Host: the provider receives another one (the reverse proxy). */
  'signed-for-proxy': { host: string; provider: string };
  'signature-invalid': { kind: VerifyReason };
  // clock
  'no-date': NoParams;
  'date-unreadable': NoParams;
  'clock-within': { kind: ClockKind; seconds: number; window: number };
  'clock-near-edge': { kind: ClockKind; seconds: number; window: number };
  'clock-outside': { kind: ClockKind; seconds: number; window: number };
  // rules
  'rules-met': { kind: VoiceOperation; template: string };
  'rules-warned': { count: number };
  'rules-broken': { count: number };
  /** Not one of the spec's voice operations: passed through, not checked against the rules. */
  'not-voice': { path: string };
  /** Not for the provider (--target): passed through, not checked. */
  'other-host': { host: string; target: string };
  /** HTTPS through CONNECT: encrypted end to end, nothing to read. */
  tunnel: { authority: string };
  // reply
  'reply-sent': { code: number | string; id: string };
  'reply-no-id': { code: number | string };
  'reply-refused': { code: number | string; msg: string };
  'reply-unknown': { code: string; msg: string };
  'reply-status': { kind: CallState; value: string; duration: string };
  'reply-unmapped': { value: string };
  'reply-balance': { units: number };
  'reply-balance-unknown': NoParams;
  'reply-signature-rejected': { status: number };
  'reply-http-status': { status: number; code: number };
  'reply-unreadable': { status: number; type: string };
  /** No reply from the provider: `kind` says why (refused, timeout, reset, the backend went away…). */
  'reply-none': { kind: TransportErrorKind };
  /** The reply was larger than what is kept: it was passed on whole, but not read. */
  'reply-cut': { max: number };
}
export type CheckCode = keyof CheckParams;

/** A broken (or doubtful) request rule (catalog: capture.rule.<code>). */
export interface RuleParams {
  missing: { field: string };
  'not-text': { field: string };
  mobile: { kind: MobileError | 'not-bare'; value: string; normalised: string };
  content: { kind: 'empty' | 'too-long'; length: number; max: number };
  template: { kind: 'none' | 'pending' | 'no-library'; name: string };
  format: { value: string };
  method: { method: string; expected: string };
  'content-type': { type: string; expected: string };
  account: { account: string; apiId: string };
  password: NoParams;
  body: { kind: 'unreadable' | 'cut' | 'not-object'; type: string; max: number };
}
export type RuleCode = keyof RuleParams;

export type RuleIssue = CodedText<RuleParams> & { verdict: 'fail' | 'warn' };

export type CaptureCheck = CodedText<CheckParams> & {
  check: CheckName;
  verdict: Verdict;
  /** The rules check: each broken or doubtful rule. */
  issues?: RuleIssue[];
  /** The signature check when it fails: why the gateway would reject it, and the likely causes (as the workbench diagnoses them). */
  detail?: VerifyDetail;
  causes?: DiagnosisCause[];
};

/** How the request reached the proxy. */
export type CaptureMode = 'reverse' | 'forward' | 'tunnel';

/** What the capture proxy adds to an exchange it recorded. */
export interface CaptureInfo {
  mode: CaptureMode;
  /** Where the backend sent it: the proxy's own URL (reverse), the URL it named (forward), or host:port (tunnel). */
  sentTo: string;
  /** The Host header the provider received, when the proxy replaced the backend's (reverse mode); null when it went on unchanged. */
  hostForwarded: string | null;
  /** Who answered the backend: the provider, the proxy itself (it could not reach the provider), or nobody. */
  answeredBy: 'target' | 'proxy' | 'none';
  /** The whole body's size in bytes, and whether only its start is kept (`kept` bytes). */
  request: { bytes: number; kept: number };
  response: { bytes: number; kept: number };
  verdict: Verdict;
  checks: CaptureCheck[];
}

const RANK: Record<Verdict, number> = { skip: 0, pass: 1, warn: 2, fail: 3 };

/** The worst of some verdicts (fail, then warn, then pass); skip when nothing was checked. */
export function worstVerdict(verdicts: Iterable<Verdict>): Verdict {
  let worst: Verdict = 'skip';
  for (const v of verdicts) if (RANK[v] > RANK[worst]) worst = v;
  return worst;
}

/** Builds a check, typed by its code. */
export function check<C extends CheckCode>(
  name: CheckName,
  verdict: Verdict,
  code: C,
  params: CheckParams[C],
  extra: Pick<CaptureCheck, 'issues' | 'detail' | 'causes'> = {},
): CaptureCheck {
  return { check: name, verdict, code, params, ...extra } as CaptureCheck;
}

/** Builds a rule issue, typed by its code. */
export function rule<C extends RuleCode>(verdict: 'fail' | 'warn', code: C, params: RuleParams[C]): RuleIssue {
  return { verdict, code, params } as RuleIssue;
}

/** Every check code with the kinds its text has a variant for (the catalog test checks both languages have each). */
export const CHECK_TEXT_KINDS: { [C in CheckCode]: readonly string[] } = {
  unsigned: [],
  'no-key': [],
  'signature-valid': [],
  'signed-for-proxy': [],
  'signature-invalid': ['signature-mismatch', 'malformed-header', 'missing-date', 'unknown-key', 'unsupported-algorithm', 'missing-authorization'],
  'no-date': [],
  'date-unreadable': [],
  'clock-within': ['provider-ahead', 'provider-behind', 'provider-in-step', 'callout-ahead', 'callout-behind', 'callout-in-step'],
  'clock-near-edge': ['provider-ahead', 'provider-behind', 'callout-ahead', 'callout-behind'],
  'clock-outside': ['provider-ahead', 'provider-behind', 'callout-ahead', 'callout-behind'],
  'rules-met': ['send', 'status', 'balance'],
  'rules-warned': [],
  'rules-broken': [],
  'not-voice': [],
  'other-host': [],
  tunnel: [],
  'reply-sent': [],
  'reply-no-id': [],
  'reply-refused': [],
  'reply-unknown': [],
  'reply-status': ['pending', 'calling', 'answered', 'no_answer', 'busy', 'rejected', 'powered_off', 'unreachable', 'invalid_number', 'failed', 'unknown'],
  'reply-unmapped': [],
  'reply-balance': [],
  'reply-balance-unknown': [],
  'reply-signature-rejected': [],
  'reply-http-status': [],
  'reply-unreadable': [],
  'reply-none': ['dns', 'refused', 'connect-timeout', 'tls', 'timeout', 'reset', 'aborted', 'too-large', 'network'],
  'reply-cut': [],
};

export const RULE_TEXT_KINDS: { [C in RuleCode]: readonly string[] } = {
  missing: [],
  'not-text': [],
  mobile: ['empty', 'invalid-characters', 'wrong-length', 'landline', 'not-mainland-mobile', 'not-bare'],
  content: ['empty', 'too-long'],
  template: ['none', 'pending', 'no-library'],
  format: [],
  method: [],
  'content-type': [],
  account: [],
  password: [],
  body: ['unreadable', 'cut', 'not-object'],
};

/** The capture proxy as the app and the CLI see it. */
export interface CaptureStatus {
  running: boolean;
  /** Where the backend points (reverse mode) or its HTTP_PROXY (forward mode): http://127.0.0.1:PORT. */
  url: string | null;
  port: number | null;
  /** The provider's base URL. */
  target: string | null;
  /** The profile whose key, API ID, signing variant and dialect the checks use. */
  profileId: string | null;
  /** What the signatures and passwords are checked with. */
  key: 'profile' | 'ad-hoc' | 'none';
  startedAt: number | null;
  /** Exchanges recorded since the proxy started, by verdict; `unstored` could not be written (a full disk). */
  counts: { exchanges: number; pass: number; warn: number; fail: number; skip: number; unstored: number };
}
