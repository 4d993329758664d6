// The one error type of main. It carries a stable code from the contract and typed parameters (and,
// for invalid input, the fields concerned); its words are in the message catalog. `message` is the
// English text, for logs only: what a person sees is rendered in their language from the code.
import { ZodError } from 'zod';
import type { ErrorCode, ErrorParams, IpcError, Issue } from '../common/contract/errors';
import { errorArgs } from '../common/messages';
import { translator } from './i18n';

export class CalloutError<C extends ErrorCode = ErrorCode> extends Error {
  override readonly name = 'CalloutError';

  constructor(
    readonly code: C,
    readonly params: ErrorParams[C],
    readonly issues?: Issue[],
  ) {
    super(translator('en')(...errorArgs({ code, params } as Pick<IpcError, 'code' | 'params'>)) as string);
  }

  toIpc(): IpcError {
    return { code: this.code, params: this.params, ...(this.issues?.length ? { issues: this.issues } : {}) } as IpcError;
  }
}

/** Builds an error from a code and its parameters (the parameters' type follows the code). */
export function fail<C extends ErrorCode>(
  code: C,
  ...rest: ErrorParams[C] extends Record<string, never> ? [params?: ErrorParams[C], issues?: Issue[]] : [params: ErrorParams[C], issues?: Issue[]]
): CalloutError<C> {
  const [params, issues] = rest;
  return new CalloutError(code, (params ?? {}) as ErrorParams[C], issues);
}

/** Invalid input on named fields: `invalid(['date', 'date-invalid'])`. */
export function invalid(...issues: [path: string, code: string][]): CalloutError<'invalid-input'> {
  return new CalloutError(
    'invalid-input',
    {},
    issues.map(([path, message]) => ({ path, message })),
  );
}

export function isCalloutError(error: unknown, code?: ErrorCode): error is CalloutError {
  return error instanceof CalloutError && (code === undefined || error.code === code);
}

/** SQLite's "database or disk is full", or the file system's "no space left" (or over quota). */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || code === 'disk-full';
}

/** Another connection holds the database's lock (SQLITE_BUSY, SQLITE_LOCKED and their kinds): try again later. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** A folder or file Callout may not write in (permissions, a read-only disk). */
export function isUnwritable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (['EACCES', 'EPERM', 'EROFS', 'SQLITE_CANTOPEN', 'SQLITE_PERM'].includes(code) || code.startsWith('SQLITE_READONLY'));
}

/** A write that failed because of where the data lives (full, read-only, I/O error, locked), not because of what was written. */
export function isStorageError(error: unknown): boolean {
  if (isDiskFull(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return /^SQLITE_(IOERR|READONLY|CANTOPEN|BUSY|LOCKED|PROTOCOL)/.test(code) || code === 'EROFS' || code === 'EIO';
}

/** Turns anything thrown into a stable error code with its parameters. Never a stack, never a secret. */
export function toIpcError(error: unknown): IpcError {
  if (error instanceof CalloutError) return error.toIpc();
  if (isDiskFull(error)) return { code: 'disk-full', params: {} };
  if (error instanceof ZodError)
    return { code: 'invalid-input', params: {}, issues: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
  return { code: 'internal', params: {} };
}
