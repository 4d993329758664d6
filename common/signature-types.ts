// Types of the signature scheme that main and the renderer share: the steps of a signature,
// verification reasons, the diagnosis, test vectors, captured requests and probes.
import type { Exchange } from './records';

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

export interface DiagnosisPart {
  part: DiagnosedPart;
  status: PartStatus;
  /** What the request has, or (for an inferred difference) what the signature was computed with. */
  got: string | null;
  /** What the gateway uses. */
  expected: string | null;
  note?: string;
}

export interface DiagnosisCause {
  id: LikelyCause;
  confidence: CauseConfidence;
  evidence: string;
}

export interface VariantComputation {
  stringToSign: string;
  signature: string;
  /** True when the request's signature is this one. */
  matches: boolean;
}

/** One change from the gateway's string to sign that made the signature match. */
export interface InferredChange {
  dimension: 'framing' | 'host' | 'path' | 'method' | 'date';
  from: string;
  to: string;
}

export interface Diagnosis {
  /** Same as verifyRequest(...).valid with the same inputs. */
  valid: boolean;
  /** verifyRequest's reason; null when valid. */
  verdict: VerifyReason | null;
  /** verifyRequest's detail for malformed-header and unsupported-algorithm. */
  detail?: string;
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

export type ParseVectorFileResult =
  | { ok: true; vectors: SignatureVector[]; description?: string }
  /** `detail` is the first problem; `problems` lists them all (at most 50), each naming the place, e.g. `vectors[2].input.date`. */
  | { ok: false; error: VectorFileError; detail: string; problems: string[] };

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
  error?: string;
  /** The keyRef whose key is needed (and was not supplied). */
  needsKey?: string;
}

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
  error: string | null;
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
  /** Why the outcome is undetermined, in plain words; null otherwise. */
  message: string | null;
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
  /** Things that were assumed or ignored, in plain words (e.g. "method not given: assumed POST"). */
  warnings: string[];
}

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

export type ParseCapturedResult =
  | { ok: true; value: CapturedRequest }
  | { ok: false; error: CapturedParseError; detail: string };

export type VerifyReason =
  | 'signature-mismatch'
  | 'clock-skew'
  | 'malformed-header'
  | 'missing-date'
  | 'unknown-key'
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
