// Types of the signature scheme that main and the renderer share: the steps of a signature,
// verification reasons, the diagnosis, test vectors, captured requests and probes.
//
// Every text a person reads (a diagnosis' evidence and notes, why a paste or a vector file cannot
// be read, why the clock has no reading) is a code with parameters, never a sentence: its words are
// in the message catalog (common/messages, the section named at each type), rendered in the
// reader's language. Parameters are protocol tokens and values (header names, hosts, dates,
// numbers), never words. `kind`, where a code has one, picks the variant of its text.
import type { Exchange } from './exchange';
import type { TransportErrorKind } from './vocabulary';
import type { Reason } from './reasons';

/** A text as a code and its parameters, one family `P` of codes (code → parameters). */
export type CodedText<P, C extends keyof P = keyof P> = { [K in C]: { code: K; params: P[K] } }[C];

/** Builds the texts of one family, typed by code: `const note = coder<PartNoteParams>(); note('no-api-id', {})`. */
export function coder<P>(): <C extends keyof P>(code: C, params: P[C]) => CodedText<P, C> {
  return (code, params) => ({ code, params }) as never;
}

type NoParams = Record<string, never>;

export const VECTOR_FILE_FORMAT = 'callout-signature-vectors';
export const VECTOR_FILE_VERSION = 1;

export type DiagnosedPart = 'keyId' | 'algorithm' | 'headers' | 'path' | 'host' | 'date' | 'signature';

export type PartStatus = 'ok' | 'differs' | 'missing' | 'unknown';

export type LikelyCause =
  /** The query string is in line 2 although the gateway's variant leaves it out (or the reverse). */
  | 'query-string-signed'
  /** A line break after line 4 although the gateway's variant has none (or the reverse). */
  | 'trailing-line-break'
  /** Signed with another host name (localhost vs 127.0.0.1, the URL's host vs the Host header...). */
  | 'wrong-host'
  /** Signed with the port where the gateway has none, without it, or with another one. */
  | 'wrong-port'
  /** The Date is outside the ±window of the gateway's clock, or close to its edge. */
  | 'clock-drift'
  /** keyId is not the profile's API ID, or nothing matches with this key although the rest is consistent. */
  | 'key-from-another-profile'
  /** The method was signed in lower case (the scheme signs it upper-cased). */
  | 'method-case'
  /** The signed Date is not the one in the Date header (a candidate date matched). */
  | 'date-mismatch'
  /** Another path was signed: trailing slash, percent-encoding, a gateway route prefix. */
  | 'path-mismatch';

export type CauseConfidence = 'high' | 'medium' | 'low';

// ---------------------------------------------------------------- diagnosis texts (catalog: diagnosis.<code>)

/** Why an Authorization header cannot be read. */
export interface AuthorizationProblemParams {
  'authorization-empty': NoParams;
  /** Another scheme than Signature (Basic, Bearer...). */
  'authorization-scheme': { scheme: string };
  /** The parameter list cannot be read; `name` is the parameter concerned ('' before the first), `position` where reading stopped. */
  'authorization-syntax': {
    kind: 'name-expected' | 'equals-expected' | 'unquoted' | 'backslash' | 'unterminated' | 'duplicate' | 'comma-expected';
    name: string;
    position: number;
  };
  'authorization-no-key-id': NoParams;
  'authorization-no-signature': NoParams;
  'authorization-signature-not-base64': NoParams;
}
export type AuthorizationProblem = CodedText<AuthorizationProblemParams>;

/** verifyRequest's detail for malformed-header, unsupported-algorithm and missing-date. */
export interface VerifyDetailParams extends AuthorizationProblemParams {
  'no-algorithm': NoParams;
  'algorithm-unsupported': { algorithm: string };
  'headers-list': { got: string; expected: string };
  'date-not-http-date': NoParams;
}
export type VerifyDetail = CodedText<VerifyDetailParams>;

/** Which way a Date is off: `ahead` when the Date is later than the gateway's clock. */
export type SkewDirection = 'ahead' | 'behind';

/** Why a cause is named: what was found. `seconds` are absolute; `kind` says which way. */
export interface EvidenceParams {
  /** The Date is outside the ±window. */
  'clock-outside': { kind: SkewDirection; seconds: number; window: number };
  /** The Date is inside the window, close to its edge. */
  'clock-near-edge': { kind: SkewDirection; seconds: number; window: number };
  /** The signature matches with (added) or without (missing) a line break after line 4, against the gateway's form. */
  'trailing-line-break': { kind: 'added' | 'missing' };
  /** The signature matches with the query string in line 2 (added) or without it (missing), against the gateway's form. */
  'query-string': { kind: 'added' | 'missing'; query: string };
  /** The signature matches with another Host line: `host` instead of `base`. */
  'signed-host': { kind: 'url-host' | 'without-port' | 'port' | 'other-host'; host: string; base: string; port: string };
  /** The signature matches with another path; `prefix` is the gateway route prefix left out ('' for the other kinds). */
  'signed-path': { kind: 'without-slash' | 'with-slash' | 'decoded' | 'escapes-lower' | 'escapes-upper' | 'without-prefix'; path: string; prefix: string };
  /** The signature matches with the method in lower case. */
  'signed-method': { method: string };
  /** The signature matches with another date than the Date header. */
  'signed-date': { kind: 'candidate' | 'imf-fixdate' | 'second-before' | 'second-after'; date: string };
  /** keyId is not the profile's API ID. */
  'key-id-differs': { keyId: string; apiId: string };
  /** Nothing reproduces the signature with this key. */
  'no-variation': NoParams;
}
export type Evidence = CodedText<EvidenceParams>;

/** A note on one part of the diagnosis (besides an Authorization problem on keyId). */
export interface PartNoteParams {
  'no-api-id': NoParams;
  'inferred-target': NoParams;
  'inferred-host': NoParams;
  'inferred-date': NoParams;
  'method-lower-case': { method: string };
  'no-host-header': { host: string };
  'host-header-differs': { header: string; url: string };
  'no-date-header': NoParams;
  'date-not-http-date': NoParams;
  /** Within the window: how far the Date is from the gateway's clock. */
  'date-skew': { kind: SkewDirection | 'in-step'; seconds: number };
  'date-outside': { kind: SkewDirection; seconds: number; window: number };
}
export type PartNote = CodedText<PartNoteParams & AuthorizationProblemParams>;

/** Every text of a diagnosis, one code space: the catalog's `diagnosis.<code>`. */
export interface DiagnosisTextParams extends VerifyDetailParams, EvidenceParams, PartNoteParams {}
export type DiagnosisText = CodedText<DiagnosisTextParams>;
export type DiagnosisTextCode = keyof DiagnosisTextParams;

export interface DiagnosisPart {
  part: DiagnosedPart;
  status: PartStatus;
  /** What the request has, or (for an inferred difference) what the signature was computed with. */
  got: string | null;
  /** What the gateway uses. */
  expected: string | null;
  note?: PartNote;
}

export interface DiagnosisCause {
  id: LikelyCause;
  confidence: CauseConfidence;
  evidence: Evidence;
}

export interface VariantComputation {
  stringToSign: string;
  signature: string;
  /** True when the request's signature is this one. */
  matches: boolean;
}

/**
 * The form of a string to sign: `spec` (path only, no line break after line 4), `apisix` (query in
 * line 2, a line break after line 4), or one of the two in between.
 */
export type StringToSignForm = 'spec' | 'apisix' | 'trailing' | 'query';

/** One change from the gateway's string to sign that made the signature match: the form, or a value (a host, a path, the method, a date). */
export type InferredChange =
  { dimension: 'framing'; from: StringToSignForm; to: StringToSignForm } | { dimension: 'host' | 'path' | 'method' | 'date'; from: string; to: string };

export interface Diagnosis {
  /** Same as verifyRequest(...).valid with the same inputs. */
  valid: boolean;
  /** verifyRequest's reason; null when valid. */
  verdict: VerifyReason | null;
  /** verifyRequest's detail for malformed-header, unsupported-algorithm and missing-date. */
  detail?: VerifyDetail;
  parts: DiagnosisPart[];
  skew: { seconds: number | null; windowSeconds: number; within: boolean };
  /** Most likely first. */
  causes: DiagnosisCause[];
  /** Both variants computed with keyId (or the expected API ID), the URL and the headers as given. */
  variants: { spec: VariantComputation; apisix: VariantComputation };
  /** The string to sign that reproduces the request's signature when the gateway's does not; null if none was found. */
  inferred: { stringToSign: string; changes: InferredChange[] } | null;
}

export interface SignatureVectorInput {
  apiId: string;
  /** The HMAC key; null when the vector refers to a profile's key instead (keyRef). */
  apiKey: string | null;
  /** `profile:<name>`; present exactly when apiKey is null. */
  keyRef?: string;
  method: string;
  url: string;
  date: string;
}

export interface SignatureVectorExpected {
  stringToSign?: string;
  signature: string;
  authorization?: string;
}

export interface SignatureVector {
  name: string;
  description?: string;
  variant: SignatureVariant;
  input: SignatureVectorInput;
  expected: SignatureVectorExpected;
}

export interface SignatureVectorFile {
  format: typeof VECTOR_FILE_FORMAT;
  version: typeof VECTOR_FILE_VERSION;
  description?: string;
  vectors: SignatureVector[];
}

/** Where the key of an exported case came from. */
export type VectorKeySource = { kind: 'adhoc' } | { kind: 'profile'; profile: string };

export type VectorFileError = 'invalid-json' | 'wrong-format' | 'unsupported-version' | 'invalid-vector' | 'too-many';

/** What is wrong at one place of a vector file (catalog: vectors.problem.<code>). */
export type VectorProblemCode =
  | 'invalid-json'
  | 'not-an-object'
  | 'format'
  | 'version'
  | 'unknown-field'
  | 'description'
  | 'vectors-not-array'
  | 'too-many'
  | 'vector-not-object'
  | 'name'
  | 'variant'
  | 'input-not-object'
  | 'api-id'
  | 'api-id-characters'
  | 'key-ref'
  | 'key-ref-with-key'
  | 'api-key-empty'
  | 'api-key-type'
  | 'method'
  | 'url-type'
  | 'url'
  | 'date-type'
  | 'date'
  | 'expected-not-object'
  | 'signature'
  | 'string-to-sign-type'
  | 'authorization-type'
  | 'authorization';

export interface VectorProblem {
  /** The place, as a path into the file (`vectors[2].input.date`); null for the file as a whole. */
  where: string | null;
  code: VectorProblemCode;
}

export type ParseVectorFileResult =
  | { ok: true; vectors: SignatureVector[]; description?: string }
  /** `problems` lists them all in file order (at most 50; `more` says how many were left out); the first is the main one. */
  | { ok: false; error: VectorFileError; problems: VectorProblem[]; more: number };

/** Why a vector could not be checked (catalog: vectors.check.<code>). */
export interface VectorCheckErrorParams {
  /** The vector names a profile's key (`keyRef`) that was not supplied. */
  'key-missing': { ref: string };
  /** The engine refused the input (a vector not validated by parseVectorFile). */
  'cannot-sign': NoParams;
}
export type VectorCheckError = CodedText<VectorCheckErrorParams>;

export type VectorField = 'stringToSign' | 'signature' | 'authorization';

export interface VectorCheck {
  index: number;
  name: string;
  variant: SignatureVariant;
  pass: boolean;
  /** The expected fields that differ from what Callout computes (only fields the vector has). */
  mismatches: VectorField[];
  /** What Callout computes; null when it could not (no key, an error). */
  actual: { stringToSign: string; signature: string; authorization: string } | null;
  /** Set when the vector could not be checked. */
  error?: VectorCheckError;
  /** The keyRef whose key is needed (and was not supplied). */
  needsKey?: string;
}

/** Why a clock probe has no reading (catalog: clock.<code>; `transport` has a variant per kind). */
export interface ClockProbeErrorParams {
  'no-date-header': NoParams;
  /** The Date header as received (a value the server sent). */
  'bad-date-header': { value: string };
  timeout: { ms: number };
  transport: { kind: TransportErrorKind };
}
export type ClockProbeError = CodedText<ClockProbeErrorParams>;

export interface ClockProbe {
  /** The `Date` response header as received; null when there was none (or no reply). */
  serverDate: string | null;
  /** serverDate in epoch ms; null when absent or not an HTTP-date. */
  serverTime: number | null;
  /** Local epoch ms at the midpoint of the round trip (the moment the server most likely wrote its Date). */
  localTime: number;
  roundTripMs: number;
  /**
   * server − local midpoint in seconds, one decimal; positive when the server is ahead. The Date
   * header has whole seconds (truncated), so a server in step reads between −1 and 0.
   */
  skewSeconds: number | null;
  /** HTTP status of the reply (any status is fine for the probe); null without a reply. */
  httpStatus: number | null;
  /** Why there is no reading (connection refused, timeout, no Date header...); null on success. */
  error: ClockProbeError | null;
}

export interface VariantProbeResult {
  variant: SignatureVariant;
  httpStatus: number | null;
  /** True when the gateway answered HTTP 401 `{"message":"client request can't be validated"}`. */
  gatewayRejected: boolean;
  /** The voice service's result code when its reply came through (e.g. 2 = OK, 401 = bad credentials). */
  providerCode: number | null;
  /**
   * accepted: the request went past the gateway and the voice service answered; rejected: the
   * gateway refused the signature; undetermined: no readable answer (network error, 5xx page...).
   */
  outcome: 'accepted' | 'rejected' | 'undetermined';
  /** Why the outcome is undetermined; null otherwise. */
  reason: Reason | null;
  /** The redacted exchange (the client redacts the key). */
  exchange: Exchange | null;
}

export interface VariantProbe {
  /** The variants the gateway let through. Both when there is no gateway (or it accepts both). */
  accepted: SignatureVariant[];
  results: VariantProbeResult[];
}

export type CapturedFormat = 'http' | 'curl' | 'headers';

export interface CapturedRequest {
  /** As captured (case preserved; HTTP methods are case-sensitive). */
  method: string;
  /** Absolute http(s) URL, WHATWG-normalised, fragment removed. */
  url: string;
  /** Lower-case header name → value (trimmed). Only headers present in the capture; nothing synthesised. */
  headers: Record<string, string>;
  body: string | null;
  format: CapturedFormat;
  /** Things that were assumed or ignored (e.g. the method was not given: POST assumed). */
  warnings: ParseWarning[];
}

/** What was assumed or ignored while reading a captured request (catalog: parse.warning.<code>). */
export interface ParseWarningParams {
  'duplicate-header': { name: string };
  'no-http-version': NoParams;
  'host-from-authority': NoParams;
  'host-from-url': { origin: string };
  'scheme-assumed': NoParams;
  'method-assumed': NoParams;
  'text-after-curl': NoParams;
  'cookie-file': { option: string; file: string };
  'basic-auth': { option: string };
  'unknown-options': { options: string };
  'joined-lines': NoParams;
  'curl-default-url': NoParams;
  'several-urls': { count: number };
  /** A URL without a scheme: `kind` is the one assumed (http as cURL does, or the given URL's). */
  'url-scheme-assumed': { kind: 'http' | 'https' };
  'header-removed': { name: string };
  /** The body is not in the capture; `file` is where cURL would read it from ('' for a form). */
  'body-unavailable': { kind: 'file' | 'stdin' | 'json-file' | 'urlencode-file' | 'form' | 'upload'; file: string };
}
export type ParseWarning = CodedText<ParseWarningParams>;

/** Why a captured request cannot be read, in detail (catalog: parse.problem.<code>). Values quoted from the paste are clipped. */
export interface ParseProblemParams {
  'not-text': NoParams;
  'too-long': { length: number; max: number };
  empty: NoParams;
  /** Neither raw HTTP, nor cURL, nor header lines: the first line that is not a header. */
  'not-a-request': { line: number; text: string };
  'not-a-header': { line: number; text: string };
  'header-name': { line: number; name: string };
  method: { method: string };
  'http-version': { version: string };
  /** A request target that is neither a path nor an absolute URL. */
  target: { target: string };
  'target-asterisk': NoParams;
  'not-http-url': { url: string };
  scheme: { scheme: string };
  'host-name': { host: string };
  'url-from-host': { host: string; target: string };
  'default-url': { url: string };
  /** A path as request target, and no Host header nor URL to take the host from. */
  'no-host': NoParams;
  /** A :path pseudo-header, and no :authority, Host header nor URL. */
  'no-authority': NoParams;
  /** Only header lines, and no URL. */
  'headers-only': NoParams;
  'curl-cmd-exe': NoParams;
  'curl-quote': { kind: 'single' | 'double' | 'ansi-c' };
  'curl-backslash': NoParams;
  'curl-escape': { escape: string; position: number };
  'curl-control-escape': NoParams;
  'curl-option-value': { option: string };
  'curl-no-url': NoParams;
  'curl-header': { header: string };
}
export type ParseProblem = CodedText<ParseProblemParams>;

export type CapturedParseError =
  /** Nothing but white space. */
  | 'empty'
  /** Not raw HTTP, not a cURL command, not header lines. */
  | 'unrecognised'
  /** Looks like an HTTP request line but is not a valid one. */
  | 'bad-request-line'
  /** A header line that is not `Name: value`. */
  | 'bad-header'
  /** A cURL command that cannot be read (unterminated quote, missing option argument, cmd.exe syntax...). */
  | 'bad-curl'
  /** No URL in the capture and none in the defaults. */
  | 'no-url'
  /** A URL that is not an absolute http(s) URL. */
  | 'bad-url'
  /** Origin-form request target without a Host header and no default URL to take the host from. */
  | 'no-host';

export type ParseCapturedResult = { ok: true; value: CapturedRequest } | { ok: false; error: CapturedParseError; detail: ParseProblem };

export type VerifyReason =
  | 'signature-mismatch'
  | 'clock-skew'
  | 'malformed-header'
  | 'missing-date'
  | 'unknown-key'
  /** keyId names another API ID than the one expected (a gateway refuses it: APISIX's "Invalid key_id"). */
  | 'key-id-mismatch'
  | 'unsupported-algorithm'
  | 'missing-authorization';

export interface SignSteps {
  variant: SignatureVariant;
  /** Upper-cased. */
  method: string;
  /** The URL the request goes to: normalised (WHATWG), without the fragment. */
  url: string;
  host: string;
  path: string;
  /** The URL's query string without '?', whether or not it was signed. */
  query: string;
  /** True when the URL has a non-empty query string that the string to sign leaves out (spec variant). */
  droppedQuery: boolean;
  /** True when the URL had a fragment ('#...'); fragments are never sent nor signed. */
  droppedFragment: boolean;
  date: string;
  lines: string[];
  stringToSign: string;
  /** The UTF-8 bytes of the string to sign, as lowercase hex. */
  stringToSignBytesHex: string;
  /** The raw HMAC-SHA256 digest as lowercase hex; `signature` is the base64 of the same 32 bytes. */
  hmacHex: string;
  signature: string;
  authorization: string;
  headers: { Host: string; Date: string; Authorization: string };
}

/**
 * - `spec`: the spec's reading. Four lines joined by "\n", nothing after the last line;
 *   line 2 is the method and the path WITHOUT the query string.
 * - `apisix`: what APISIX's hmac-auth builds. A "\n" after every line including the last;
 *   line 2 is the method and the request target WITH the query string.
 */
export type SignatureVariant = 'spec' | 'apisix';
