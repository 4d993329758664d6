// The OS keychain, through keytar. THE ONLY MODULE IN THE REPOSITORY THAT LOADS KEYTAR
// (test/integration/secrets/keytar-boundary.test.ts enforces it), so that
// `@napi-rs/keyring/keytar`, which has the same API, can replace it here in one change.
//
// keytar is a native addon, loaded lazily by loadKeytar(): importing main/secrets loads
// nothing native, and a load failure (missing or mis-built addon) becomes
// SecretStoreError('keychain-unavailable') instead of a crash.
//
// What we learned about keytar 7.9 on Linux (libsecret), and how this module copes:
// - Without a D-Bus session, every call rejects ("Cannot autolaunch D-Bus without X11 $DISPLAY").
// - With D-Bus but a Secret Service whose collection is locked (or missing) and that cannot
//   show its unlock prompt, getPassword/findPassword resolve null as if nothing were stored,
//   setPassword rejects ("Cannot create an item in a locked collection") and findCredentials
//   crashes the whole process (SIGSEGV). So this module never calls findCredentials, and the
//   probe in open() writes, reads back and deletes a throwaway entry: a read-only probe would
//   call a locked keychain "available".
// - A Secret Service that shows an unlock prompt waits for the user: the probe is bounded by
//   probeTimeoutMs (3 s by default) and every later call by operationTimeoutMs.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { requireValidApiKey } from './api-key';
import { assertAccount, errorText, SecretStoreError, resolveKeychainService, type SecretStore } from './secret-store';
import { systemClock, type Clock } from '../clock';

/** The package loaded when no modulePath is given. */
export const KEYTAR_MODULE = 'keytar';

/** The part of keytar's API we use (also the shape of its raw `keytar.node` binding). */
export interface KeytarModule {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export const DEFAULT_PROBE_TIMEOUT_MS = 3_000;
export const DEFAULT_OPERATION_TIMEOUT_MS = 60_000;

/** The throwaway entry open() writes, reads back and deletes under the service. */
export const PROBE_ACCOUNT = 'callout-keychain-probe';

export interface KeytarStoreOptions {
  /** keytar service name; default $CALLOUT_KEYCHAIN_SERVICE, else 'Callout'. */
  readonly service?: string;
  /**
   * What to load instead of the `keytar` package: an absolute path to a keytar build for
   * Electron's ABI (`keytar.node`, see main/native-modules.ts keytarModulePath()) or to a
   * module with the same API.
   */
  readonly modulePath?: string;
  /** How long open() waits for the keychain to answer the probe. Default 3000 ms. */
  readonly probeTimeoutMs?: number;
  /** How long each later get/set/delete waits (an unlock prompt may be up). Default 60 s. */
  readonly operationTimeoutMs?: number;
}

const loaded = new Map<string, KeytarModule>();

function firstLine(text: string): string {
  return text.split(/\r?\n/, 1)[0] ?? '';
}

function asKeytarModule(candidate: unknown): KeytarModule | null {
  const isApi = (value: unknown): value is KeytarModule =>
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as Record<string, unknown>).getPassword === 'function' &&
    typeof (value as Record<string, unknown>).setPassword === 'function' &&
    typeof (value as Record<string, unknown>).deletePassword === 'function';
  if (isApi(candidate)) return candidate;
  // An ES module seen through require() may carry the API on `default`.
  const fallback = (candidate as { default?: unknown } | null | undefined)?.default;
  return isApi(fallback) ? fallback : null;
}

/**
 * Loads keytar (or the module at modulePath) on first use and caches it. Throws
 * SecretStoreError('keychain-unavailable') when it cannot be loaded or is not keytar-shaped.
 */
export async function loadKeytar(modulePath?: string): Promise<KeytarModule> {
  const id = modulePath ?? KEYTAR_MODULE;
  const cached = loaded.get(id);
  if (cached) return cached;
  let candidate: unknown;
  try {
    candidate = createRequire(import.meta.url)(id);
  } catch (error) {
    throw new SecretStoreError(
      'keychain-unavailable',
      { kind: 'component-missing' },
      "Callout's keychain component could not be loaded (it may be missing, or built for another version of the app), so the system keychain cannot be used.",
      { reasonCode: 'component-missing', detail: `loading ${id}: ${firstLine(errorText(error))}` },
    );
  }
  const api = asKeytarModule(candidate);
  if (!api) {
    throw new SecretStoreError(
      'keychain-unavailable',
      { kind: 'component-missing' },
      "Callout's keychain component could not be loaded (it is not the expected module), so the system keychain cannot be used.",
      { reasonCode: 'component-missing', detail: `${id} does not export getPassword, setPassword and deletePassword` },
    );
  }
  loaded.set(id, api);
  return api;
}

/** What to tell a person when the keychain cannot be used, per platform. */
export function keychainUnavailableHint(platform: NodeJS.Platform = process.platform): string {
  switch (platform) {
    case 'darwin':
      return 'Check that your login keychain in Keychain Access is unlocked, then restart Callout.';
    case 'win32':
      return 'Check that Windows Credential Manager is working for your account, then restart Callout.';
    default:
      return "Callout keeps the API Key in your desktop's Secret Service: install and unlock one, such as GNOME Keyring or KWallet, then restart Callout.";
  }
}

function seconds(ms: number): string {
  return `${Math.round((ms / 1000) * 10) / 10} s`;
}

/** Resolves or rejects like promise, or rejects with onTimeout() after ms. The late outcome is swallowed. */
function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error, clock: Clock = systemClock): Promise<T> {
  if (!Number.isFinite(ms) || ms <= 0) return promise;
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (value) => {
        timer.cancel();
        resolve(value);
      },
      (error: unknown) => {
        timer.cancel();
        reject(error);
      },
    );
  });
}

/** Writes, reads back and deletes a throwaway entry (see the notes at the top). */
async function writeProbe(keytar: KeytarModule, service: string): Promise<void> {
  const token = randomBytes(16).toString('hex');
  await keytar.setPassword(service, PROBE_ACCOUNT, token);
  try {
    const back = await keytar.getPassword(service, PROBE_ACCOUNT);
    if (back !== token) throw new Error('the keychain did not return the entry just stored');
  } finally {
    await Promise.resolve()
      .then(() => keytar.deletePassword(service, PROBE_ACCOUNT))
      .catch(() => false);
  }
}

function isLockedText(text: string): boolean {
  return /\blocked\b/i.test(text);
}

export class KeytarSecretStore implements SecretStore {
  readonly kind = 'keychain' as const;
  readonly service: string;
  readonly #keytar: KeytarModule;
  readonly #operationTimeoutMs: number;

  private constructor(keytar: KeytarModule, service: string, operationTimeoutMs: number) {
    this.#keytar = keytar;
    this.service = service;
    this.#operationTimeoutMs = operationTimeoutMs;
  }

  /**
   * Loads keytar and checks that the keychain can really store a secret, within
   * probeTimeoutMs. Throws SecretStoreError('keychain-unavailable') with a plain explanation
   * (and the technical reason in `detail`) when it cannot.
   */
  static async open(options: KeytarStoreOptions = {}): Promise<KeytarSecretStore> {
    const service = resolveKeychainService(options.service);
    const probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
    const keytar = await loadKeytar(options.modulePath);
    const timedOut = new SecretStoreError(
      'keychain-unavailable',
      { kind: 'timeout' },
      `The system keychain did not answer within ${seconds(probeTimeoutMs)} (it may be locked or not running). ${keychainUnavailableHint()}`,
      { reasonCode: 'timeout', detail: `probe of service "${service}" timed out after ${probeTimeoutMs} ms` },
    );
    try {
      await withTimeout(
        Promise.resolve().then(() => writeProbe(keytar, service)),
        probeTimeoutMs,
        () => timedOut,
      );
    } catch (error) {
      if (error === timedOut) throw error;
      const detail = firstLine(errorText(error));
      const what = isLockedText(detail)
        ? 'The system keychain is locked, so Callout cannot store the API Key in it.'
        : 'No usable system keychain was found, so Callout cannot store the API Key in it.';
      throw new SecretStoreError('keychain-unavailable', { kind: 'unavailable' }, `${what} ${keychainUnavailableHint()}`, {
        reasonCode: 'unavailable',
        detail: `probe of service "${service}": ${detail}`,
      });
    }
    return new KeytarSecretStore(keytar, service, options.operationTimeoutMs ?? DEFAULT_OPERATION_TIMEOUT_MS);
  }

  async get(account: string): Promise<string | null> {
    assertAccount(account);
    const value = await this.#call('read the API Key', () => this.#keytar.getPassword(this.service, account), []);
    return typeof value === 'string' ? value : null;
  }

  async set(account: string, secret: string): Promise<void> {
    assertAccount(account);
    const value = requireValidApiKey(secret);
    await this.#call('save the API Key', () => this.#keytar.setPassword(this.service, account, value), [secret, value]);
  }

  async delete(account: string): Promise<boolean> {
    assertAccount(account);
    const deleted = await this.#call('delete the API Key', () => this.#keytar.deletePassword(this.service, account), []);
    return deleted === true;
  }

  async has(account: string): Promise<boolean> {
    return (await this.get(account)) !== null;
  }

  async #call<T>(what: string, operation: () => Promise<T>, redact: readonly string[]): Promise<T> {
    const timedOut = new SecretStoreError(
      'keychain-failed',
      {},
      `The system keychain did not answer within ${seconds(this.#operationTimeoutMs)} when asked to ${what}.`,
    );
    try {
      return await withTimeout(Promise.resolve().then(operation), this.#operationTimeoutMs, () => timedOut);
    } catch (error) {
      if (error === timedOut) throw error;
      const detail = firstLine(errorText(error));
      const message = isLockedText(detail)
        ? `The system keychain is locked, so Callout could not ${what}. Unlock it and try again.`
        : `The system keychain could not ${what}.`;
      throw new SecretStoreError('keychain-failed', {}, message, { detail, redact });
    }
  }
}
