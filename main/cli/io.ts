import type { Clock } from '../clock';
import type { ErrorCode, IpcError } from '../../common/contract/errors';

/** Where the CLI writes, and what it reads from its surroundings: injectable for tests. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Standard error is a terminal: the progress lines (written there) are shown only then. */
  stderrIsTTY: boolean;
  /**
   * Calls `listener` each time a line is typed on an interactive terminal (`callout ui`: Enter for a
   * new link); returns the function that stops listening. Absent when stdin is not a terminal.
   */
  onLine?: (listener: () => void) => () => void;
  /** What `-` reads as a file (`callout bulk -`, `callout run -`); default the process's standard input. */
  stdin?: AsyncIterable<Buffer | string>;
  /** A secret (an API Key): from standard input when piped, else a prompt that does not echo. Null when cancelled. */
  readSecret?: (prompt: string) => Promise<string | null>;
  /** Resolves when a foreground command (`callout capture`) should stop; default SIGINT or SIGTERM (tests pass their own). */
  until?: Promise<void>;
  /** The time of the commands and of the services they open; default systemClock (tests pass their own). */
  clock?: Clock;
}

/**
 * The exit statuses, the one table (said in `callout --help`, cli:help.exitStatus, and the README's
 * CLI section): a script tells a negative result (1) from a crash (70) by the number alone.
 */
export const EXIT = {
  ok: 0,
  /** A negative result: `verify` the signature is not valid; `run` an assertion failed; `dial` nobody answered; `bulk` interrupted. */
  invalid: 1,
  /** Usage or local validation error: nothing was sent. */
  usage: 2,
  /** The provider rejected the request; its code is in the JSON. */
  rejected: 3,
  /** Transport failure or unknown outcome. */
  transport: 4,
  /**
   * `send --wait`, `dial`: stopped waiting for a call's end after --wait-timeout. The call was
   * accepted and may still be going on; it was not resent.
   */
  gaveUp: 5,
  /** An internal error (a bug, an unexpected exception): sysexits' EX_SOFTWARE. The details go to a log file. */
  internal: 70,
} as const;

/** How long `send --wait` and `dial` wait for a call's end unless --wait-timeout says otherwise. */
export const DEFAULT_WAIT_TIMEOUT_MS = 10 * 60_000;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The exit status of every error code main can report: the one table. Errors that stop a command
 * before anything is sent are usage errors (2); an internal failure is 70.
 */
export const EXIT_FOR_ERROR: Record<ErrorCode, ExitCode> = {
  'invalid-input': EXIT.usage,
  'unknown-channel': EXIT.usage,
  'forbidden-sender': EXIT.usage,
  'not-found': EXIT.usage,
  'no-key': EXIT.usage,
  'key-origin': EXIT.usage,
  'key-transport': EXIT.usage,
  'keychain-unavailable': EXIT.usage,
  'receiver-keychain-unavailable': EXIT.usage,
  'keychain-failed': EXIT.usage,
  'invalid-key': EXIT.usage,
  'invalid-mobile': EXIT.usage,
  'invalid-content': EXIT.usage,
  'invalid-template': EXIT.usage,
  'send-in-flight': EXIT.usage,
  'result-not-stored': EXIT.usage,
  'disk-full': EXIT.usage,
  'still-in-progress': EXIT.usage,
  'builtin-profile': EXIT.usage,
  'database-too-new': EXIT.usage,
  unavailable: EXIT.usage,
  'exchange-without-profile': EXIT.usage,
  'vector-file-invalid': EXIT.usage,
  'import-failed': EXIT.usage,
  'import-too-large': EXIT.usage,
  'import-cancelled': EXIT.invalid,
  'bad-mapping': EXIT.usage,
  'batch-state': EXIT.usage,
  'running-elsewhere': EXIT.usage,
  'confirm-required': EXIT.usage,
  'nothing-to-send': EXIT.usage,
  'contact-ambiguous': EXIT.usage,
  'history-invalid': EXIT.usage,
  'retention-invalid': EXIT.usage,
  'archive-failed': EXIT.usage,
  'no-status-query': EXIT.usage,
  'dialect-invalid': EXIT.usage,
  'listen-failed': EXIT.usage,
  'unresolved-variables': EXIT.usage,
  'raw-request-invalid': EXIT.usage,
  'collection-file-invalid': EXIT.usage,
  'name-taken': EXIT.usage,
  'capture-running': EXIT.usage,
  'capture-target': EXIT.usage,
  'capture-listen': EXIT.usage,
  paging: EXIT.usage,
  internal: EXIT.internal,
};

/** What a failure says: a catalog key with its parameters (or an error of main's, rendered from its code). */
export type CliText = { key: string; params?: Record<string, unknown> } | { error: IpcError };

/** A failure the CLI reports as one line on stderr (and, with --json, as {"error": ...} on stdout). */
export class CliFailure {
  constructor(
    readonly exitCode: number,
    readonly kind: string,
    readonly text: CliText,
    readonly extra: Record<string, unknown> = {},
  ) {}

  /** The value was already printed on stdout (a provider's reply that scripts read). */
  printed = false;
}

/** A usage error (exit 2, nothing sent), said by a key of the CLI's dictionary. */
export function usage(key: string, params?: Record<string, unknown>, kind = 'usage'): CliFailure {
  return new CliFailure(EXIT.usage, kind, { key: `cli:usage.${key}`, params });
}

/** One of main's errors, with its exit status from the table. */
export function failureFromIpc(error: IpcError, extra: Record<string, unknown> = {}): CliFailure {
  return new CliFailure(EXIT_FOR_ERROR[error.code], error.code, { error }, extra);
}
