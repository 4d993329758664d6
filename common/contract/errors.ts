// The one error model. Every failure main reports carries a stable code from this list and typed
// parameters; its words live in the message catalog (common/messages), rendered in the user's
// language by the renderer's i18n and by the CLI. `kind`, where a code has one, picks the variant
// of its text (an i18next context: error.not-found_batch, error.not-found_profile, ...).
import type { ContentError } from '../domain/units';
import type { MobileError } from '../domain/mobile';
import type { ImportLimit } from '../domain/import-limits';
import type { IntakeProblem } from '../paging/intake';

export type NotFoundKind =
  'profile' | 'message' | 'exchange' | 'template' | 'batch' | 'contact' | 'group' | 'import' | 'sandbox' | 'collection' | 'request' | 'environment' | 'run';

export type ImportProblem =
  'no-rows' | 'no-data-rows' | 'unreadable-csv' | 'unreadable-xlsx' | 'xls-unsupported' | 'zip-not-spreadsheet' | 'not-xlsx' | 'cannot-read' | 'reader-failed';

export type HistoryProblem = 'cursor' | 'page-size' | 'mobile-digits' | 'range' | 'utc-offset' | 'days' | 'dates';

export type KeychainReason = 'forced' | 'component-missing' | 'timeout' | 'unavailable';

/** Why a collection or environment file cannot be read. */
export type CollectionFileProblem = 'invalid-json' | 'not-a-collection' | 'unsupported-schema' | 'too-many' | 'no-requests' | 'invalid-request' | 'too-deep';

/** Why a raw request cannot be built as asked. */
export type RawRequestProblem = 'credentials-in-text' | 'credentials-not-object' | 'url-outside-profile' | 'header-value';

export type PagingProblem =
  | 'incident-not-found'
  | 'incident-acknowledged'
  | 'incident-resolved'
  | 'route-not-found'
  | 'policy-not-found'
  | 'policy-in-use'
  | 'schedule-not-found'
  | 'window-not-found'
  | 'alert-invalid'
  /** The route's template could not be filled from the alert (say.ts names the problem). */
  | 'say';

export type VectorFileProblem = 'invalid-json' | 'wrong-format' | 'unsupported-version' | 'invalid-vector' | 'too-many';

/** Each error code with the parameters its text uses. */
export interface ErrorParams {
  /** Field problems are in `issues` (each a path and an issue code). */
  'invalid-input': Record<string, never>;
  'unknown-channel': Record<string, never>;
  'forbidden-sender': Record<string, never>;
  'not-found': { kind: NotFoundKind; id?: string | number };
  'no-key': { profile: string };
  /** The profile's address is not the origin its key was entered for: the key is not sent. */
  'key-origin': { profile: string; origin: string };
  /** The key would travel over plain http:// to a host that is not this machine, without consent. */
  'key-transport': { profile: string; origin: string };
  'keychain-unavailable': { kind: KeychainReason };
  /** The alert receiver's bearer token or basic-auth password could not be kept: no keychain (it would be gone at the next start). */
  'receiver-keychain-unavailable': { kind: KeychainReason };
  'keychain-failed': Record<string, never>;
  'invalid-key': { kind: 'empty' | 'too-short' | 'too-long' | 'control-characters'; min?: number; max?: number };
  'invalid-mobile': { kind: MobileError };
  'invalid-content': { kind: ContentError; length: number };
  'invalid-template': { kind: 'empty' | 'too-long' | 'marker-names'; length?: number; markers?: number; names?: number };
  'send-in-flight': Record<string, never>;
  /** The result of an earlier send of this text to this number is not stored yet (a full disk): sending it again could call twice. */
  'result-not-stored': { id: number; smsid: string | null };
  /**
   * The disk holding the data directory is full: nothing more can be stored. At start: kind 'open',
   * the store could not be opened; 'upgrade', it could not be upgraded to this version.
   */
  'disk-full': { dir?: string; kind?: 'open' | 'upgrade' };
  'still-in-progress': { id: number };
  'builtin-profile': { kind: 'remove' | 'set-key' | 'delete-key' };
  'database-too-new': { version: number; supported: number };
  unavailable: { kind: 'clipboard' | 'calls' | 'browser-key-copy' };
  'exchange-without-profile': Record<string, never>;
  'vector-file-invalid': { kind: VectorFileProblem; where: string | null };
  'import-failed': { kind: ImportProblem; name?: string; detail?: string; row?: number };
  /**
   * A spreadsheet over one of the import limits (common/domain/import-limits.ts): `max` the limit,
   * `found` the file's figure (`atLeast`: reading stopped there, the file has at least that much),
   * `row` where it was found (a cell too long).
   */
  'import-too-large': { kind: ImportLimit; max: number; found: number; atLeast?: boolean; row?: number };
  /** The import was cancelled while the file was being read. */
  'import-cancelled': Record<string, never>;
  'bad-mapping': Record<string, never>;
  'batch-state': { id: number; kind: 'not-startable' | 'stopping' | 'not-started' | 'done' | 'running'; state?: string };
  'running-elsewhere': { id: number };
  'confirm-required': Record<string, never>;
  'nothing-to-send': Record<string, never>;
  'contact-ambiguous': { query: string; count: number; names: string };
  'history-invalid': { kind: HistoryProblem; max?: number };
  'retention-invalid': { field: string; min: number };
  /** Archiving old months, or opening an archive, could not be done (archive.ts). */
  'archive-failed': {
    kind:
      | 'month'
      | 'empty'
      | 'busy'
      | 'running-elsewhere'
      | 'stopped'
      | 'stopped-removing'
      | 'disk-full'
      | 'disk-full-removing'
      | 'store-busy'
      | 'changed'
      | 'future'
      | 'unwritable'
      | 'check'
      | 'name-taken'
      | 'not-found'
      | 'unreadable'
      | 'too-new'
      | 'not-archive';
    month?: string;
    name?: string;
  };
  /** The profile's dialect says its provider has no status query: its calls are followed by receipts. */
  'no-status-query': { dialect: string };
  /** A dialect (a file, or one made in the teach flow) is not valid: the problems are in `issues`. */
  'dialect-invalid': Record<string, never>;
  /** The receipt listener could not listen there. */
  'listen-failed': { kind: 'in-use' | 'address' | 'denied' | 'other'; host: string; port: number };
  /** The request uses variables that have no value (names separated by commas). */
  'unresolved-variables': { names: string };
  'raw-request-invalid': { kind: RawRequestProblem; name?: string };
  'collection-file-invalid': { kind: CollectionFileProblem; where?: string };
  'name-taken': { kind: 'collection' | 'environment'; name: string };
  /** The capture proxy is already running (at `url`). */
  'capture-running': { url: string };
  /** --target is not an http(s) base URL. */
  'capture-target': { value: string };
  /** The capture proxy could not listen on that port. */
  'capture-listen': { port: number; detail: string };
  /** Paging (issue 25): an incident, route, policy, schedule or maintenance window problem. */
  /** `field`, `problem`, `limit`: for alert-invalid, where the intake found the problem (`paging.intake.<problem>`). */
  paging: { kind: PagingProblem; id?: number; field?: string; problem?: IntakeProblem; limit?: number };
  internal: Record<string, never>;
}

export type ErrorCode = keyof ErrorParams;

/** A field's problem: where (a dotted path into the input) and what (an issue code with its own text). */
export interface Issue {
  path: string;
  message: string;
}

/** An error as it crosses IPC, the browser transport and the CLI: code, typed parameters, field issues. */
export type IpcError = {
  [C in ErrorCode]: { code: C; params: ErrorParams[C]; issues?: Issue[] };
}[ErrorCode];

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };
