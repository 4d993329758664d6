// The SecretStore contract: where main keeps the API Key of each profile.
//
// Two implementations: KeychainSecretStore (the OS keychain) and SessionSecretStore (memory
// only, forgotten when the app quits). Neither ever writes a secret to disk in plain text,
// and no message, detail or log line built here contains a secret.
//
// Plain Node: no electron import, no keychain library (see keychain-store.ts for the one place
// that loads it).

import type { ErrorParams, KeychainReason } from '../../common/contract/errors';
import { CalloutError } from '../errors';

export type SecretStoreKind = 'keychain' | 'session';

export interface SecretStore {
  readonly kind: SecretStoreKind;
  /** The stored secret, or null when none is stored. Main-only: never crosses IPC. */
  get(account: string): Promise<string | null>;
  /**
   * Stores (or replaces) the secret. It is checked with validateApiKey first and stored trimmed;
   * an invalid one is refused with SecretStoreError('invalid-secret').
   */
  set(account: string, secret: string): Promise<void>;
  /** True when a secret was stored and is now deleted, false when there was none. */
  delete(account: string): Promise<boolean>;
  has(account: string): Promise<boolean>;
}

/** The keychain's "service" for every entry; the account is the profile id. */
export const KEYCHAIN_SERVICE = 'Callout';

/** Overrides the service name (tests use a unique one so they never touch a user's entries). */
export const KEYCHAIN_SERVICE_ENV = 'CALLOUT_KEYCHAIN_SERVICE';

/** The service to use: the explicit one, else $CALLOUT_KEYCHAIN_SERVICE, else 'Callout'. */
export function resolveKeychainService(service?: string, env: NodeJS.ProcessEnv = process.env): string {
  const explicit = service?.trim();
  if (explicit) return explicit;
  const fromEnv = env[KEYCHAIN_SERVICE_ENV]?.trim();
  return fromEnv ? fromEnv : KEYCHAIN_SERVICE;
}

export type SecretStoreErrorCode = 'keychain-unavailable' | 'keychain-failed' | 'invalid-key';

export const REDACTED = '[redacted]';

/** Replaces every occurrence of each secret in text. Empty secrets are ignored. */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  let out = text;
  // Longest first, so that a secret containing another one is removed whole.
  const list = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length > 0))].sort((a, b) => b.length - a.length);
  for (const secret of list) out = out.split(secret).join(REDACTED);
  return out;
}

export interface SecretStoreErrorOptions {
  /**
   * Technical detail for logs (e.g. the native error's text), kept out of the plain message.
   * Redacted like the message.
   */
  readonly detail?: string | null;
  readonly reasonCode?: KeychainUnavailableReason;
  /** Secrets known at the failure site: removed from message and detail before they are kept. */
  readonly redact?: readonly (string | null | undefined)[];
}

/** Why the keychain is unavailable, as a stable code the UI translates. */
export type KeychainUnavailableReason = KeychainReason;

/**
 * A failure of a secret store: one of main's coded errors (what a person sees is rendered from the
 * code), with a plain English `message` and a technical `detail` for logs. Neither ever contains
 * a secret, and the original error is not kept as `cause` (its text could).
 */
export class SecretStoreError<C extends SecretStoreErrorCode = SecretStoreErrorCode> extends CalloutError<C> {
  readonly detail: string | null;
  readonly reasonCode: KeychainUnavailableReason | null;

  constructor(code: C, params: ErrorParams[C], logText: string, options: SecretStoreErrorOptions = {}) {
    super(code, params);
    const redact = options.redact ?? [];
    this.message = redactSecrets(logText, redact);
    this.detail = options.detail == null ? null : redactSecrets(options.detail, redact);
    this.reasonCode = options.reasonCode ?? null;
  }
}

/** The text of an unknown thrown value, for `detail` (callers redact it). */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return String(error);
  } catch {
    return 'unknown error';
  }
}

/**
 * Accounts are profile ids chosen by main, never typed by a user: an empty one is a
 * programming error, so it is a TypeError rather than a SecretStoreError.
 */
export function assertAccount(account: unknown): asserts account is string {
  if (typeof account !== 'string' || account.length === 0) {
    throw new TypeError('A secret store account (the profile id) must be a non-empty string.');
  }
}
