// Secret storage for API Keys: the OS keychain when reachable, else session-only memory.
//
// Importing this module loads no native code: the keychain library is loaded by openSecretStore()
// (through keychain-store.ts, the one module allowed to load it).
import { KeychainSecretStore, type KeychainStoreOptions } from './keychain-store';
import { errorText, SecretStoreError, type SecretStore, type SecretStoreKind } from './secret-store';
import { SessionSecretStore } from './session-store';

export * from './api-key';
export * from './secret-store';
import type { KeychainUnavailableReason } from './secret-store';
export { SessionSecretStore } from './session-store';
export {
  KeychainSecretStore,
  loadKeychainModule,
  keyringModule,
  keychainUnavailableHint,
  KEYCHAIN_LIBRARY,
  PROBE_ACCOUNT,
  DEFAULT_PROBE_TIMEOUT_MS,
  DEFAULT_OPERATION_TIMEOUT_MS,
  KEYCHAIN_RETRY_DELAY_MS,
  type KeychainModule,
  type KeychainStoreOptions,
} from './keychain-store';
export { keytarWindowsTarget, secretServiceKeytarLayout, windowsKeytarLayout, NO_KEYTAR_LAYOUT, type KeytarLayout } from './keytar-layout';

export interface SecretStoreStatus {
  kind: SecretStoreKind;
  keychainAvailable: boolean;
  /** Plain English, when the keychain is not used: why, and what to do about it. Null otherwise. */
  reason: string | null;
  /** The reason as a stable code, for the UI to say in the user's language. */
  reasonCode?: KeychainUnavailableReason | null;
  /** The technical reason (for logs), when there is one. Never contains a secret. */
  detail?: string;
}

export interface OpenSecretStoreOptions extends KeychainStoreOptions {
  /** Use the session-only store without trying the keychain. */
  readonly forceSession?: boolean;
}

export const FORCED_SESSION_REASON = 'Session-only storage was requested, so the system keychain is not used.';

/**
 * Opens the keychain store, or falls back to a SessionSecretStore when the keychain cannot be
 * used. The status tells which, and why in plain words, so the UI can warn that a key kept in
 * the session store is forgotten when the app quits. Never throws for an unreachable keychain.
 */
export async function openSecretStore(options: OpenSecretStoreOptions = {}): Promise<{ store: SecretStore; status: SecretStoreStatus }> {
  if (options.forceSession) {
    return {
      store: new SessionSecretStore(),
      status: { kind: 'session', keychainAvailable: false, reason: FORCED_SESSION_REASON, reasonCode: 'forced' },
    };
  }
  try {
    const store = await KeychainSecretStore.open(options);
    return { store, status: { kind: 'keychain', keychainAvailable: true, reason: null, reasonCode: null } };
  } catch (error) {
    const status: SecretStoreStatus =
      error instanceof SecretStoreError
        ? { kind: 'session', keychainAvailable: false, reason: error.message, reasonCode: error.reasonCode ?? 'unavailable' }
        : {
            kind: 'session',
            keychainAvailable: false,
            reason: 'The system keychain could not be opened, so Callout cannot store the API Key in it.',
            reasonCode: 'unavailable',
          };
    const detail = error instanceof SecretStoreError ? error.detail : errorText(error);
    if (detail) status.detail = detail;
    return { store: new SessionSecretStore(), status };
  }
}
