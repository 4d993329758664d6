// Typed access to main: window.callout is built by the preload from the shared contract.
// The renderer reaches main only through it, and every call resolves to an IpcResult.
import type { TFunction } from 'i18next';
import type { CalloutApi, ErrorCode, IpcError, IpcResult } from '../../../common/contract';

declare global {
  interface Window {
    /** Provided by the preload (or the browser test bridge); see common/api.ts. */
    readonly callout: CalloutApi;
  }
}

export type { CalloutApi, IpcError, IpcResult };

/** The API, or null when the page runs without the preload (then every call fails cleanly). */
export function calloutApi(): CalloutApi | null {
  return (window as { callout?: CalloutApi }).callout ?? null;
}

const UNREACHABLE: IpcError = { code: 'internal', message: 'window.callout is missing or failed' };

/**
 * Runs one call on window.callout. Never throws: a missing bridge or a rejected promise becomes
 * an `internal` error, like any other failure, so screens handle one shape.
 */
export async function call<T>(run: (api: CalloutApi) => Promise<IpcResult<T>>): Promise<IpcResult<T>> {
  const api = calloutApi();
  if (!api) return { ok: false, error: UNREACHABLE };
  try {
    const result = await run(api);
    if (result && typeof result === 'object' && 'ok' in result) return result;
    return { ok: false, error: UNREACHABLE };
  } catch {
    return { ok: false, error: UNREACHABLE };
  }
}

const ERROR_CODES: readonly ErrorCode[] = [
  'invalid-input',
  'unknown-channel',
  'forbidden-sender',
  'not-found',
  'no-key',
  'keychain-unavailable',
  'invalid-mobile',
  'invalid-content',
  'invalid-template',
  'send-in-flight',
  'builtin-profile',
  'database-too-new',
  'internal',
];

/** Issue messages from the contract's schemas (and main's checks) that have their own text. */
export const ISSUE_KEYS = [
  'name-required',
  'name-too-long',
  'name-taken',
  'base-url-invalid',
  'api-id-required',
  'api-id-too-long',
  'timeout-order',
  'key-required',
  'key-too-long',
] as const;
export type IssueKey = (typeof ISSUE_KEYS)[number];

function isIssueKey(message: string): message is IssueKey {
  return (ISSUE_KEYS as readonly string[]).includes(message);
}

/** A field's own fallback text when a problem has no specific key (e.g. a number out of range). */
export const FIELD_FALLBACKS = ['name', 'baseUrl', 'apiId', 'signing', 'format', 'connectTimeoutMs', 'totalTimeoutMs', 'lowBalanceThreshold', 'apiKey'] as const;
export type FieldPath = (typeof FIELD_FALLBACKS)[number];

function isFieldPath(path: string): path is FieldPath {
  return (FIELD_FALLBACKS as readonly string[]).includes(path);
}

/** Limits shown in fallback texts, in the units the UI uses (seconds for timeouts). */
const FIELD_LIMITS: Partial<Record<FieldPath, Record<string, number>>> = {
  connectTimeoutMs: { min: 0.5, max: 60 },
  totalTimeoutMs: { min: 1, max: 300 },
  lowBalanceThreshold: { max: 10_000_000 },
};

/** The user's-language text for an error: by its stable code, never the raw code or English message. */
export function describeError(t: TFunction, error: IpcError | null | undefined): string {
  if (!error) return t('errors.generic');
  if (error === UNREACHABLE) return t('errors.unreachable');
  if ((ERROR_CODES as readonly string[]).includes(error.code)) return t(`errors.code.${error.code}`);
  return t('errors.generic');
}

/** The text for one field problem: its specific key, else the field's fallback, else a generic text. */
export function describeIssue(t: TFunction, issue: { path: string; message: string }): string {
  if (isIssueKey(issue.message)) return t(`errors.issue.${issue.message}`);
  if (isFieldPath(issue.path)) return t(`errors.field.${issue.path}`, FIELD_LIMITS[issue.path] ?? {});
  return t('errors.code.invalid-input');
}

export type Unwrapped<T> = { ok: true; value: T } | { ok: false; error: IpcError; message: string; fields: { path: string; message: string }[] };

/** Unwraps a result into its value, or the error with its text and field problems in the user's language. */
export function unwrap<T>(t: TFunction, result: IpcResult<T>): Unwrapped<T> {
  if (result.ok) return result;
  return {
    ok: false,
    error: result.error,
    message: describeError(t, result.error),
    fields: (result.error.issues ?? []).map((i) => ({ path: i.path, message: describeIssue(t, i) })),
  };
}
