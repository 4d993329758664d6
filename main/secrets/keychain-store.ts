// The OS keychain, through @napi-rs/keyring (keyring-rs): prebuilt Node-API binaries shipped in npm
// packages, so nothing is compiled on install and the same binary loads in Node and in Electron.
// THE ONLY MODULE IN THE REPOSITORY THAT LOADS IT (test/integration/secrets/keychain-boundary.test.ts
// enforces it). Keys that keytar stored before are read through keytar-layout.ts and moved over.
//
// The library is loaded lazily, by loadKeychainModule(): importing main/secrets loads nothing native,
// and a load failure (missing or broken binary) becomes SecretStoreError('keychain-unavailable')
// instead of a crash.
//
// How this module copes with the keychains it meets:
// - Linux: entries are pinned to the Secret Service ({ linux: { store: 'secret-service' } }).
//   Left to itself the library falls back to the kernel's keyutils keyring, which forgets every key
//   at the next reboot: a key must not look saved when it is not. Without a D-Bus session or a
//   Secret Service, every call fails and Callout keeps keys for the session only, and says so.
// - A keychain that is locked and cannot show an unlock prompt refuses reads and writes: the
//   probe in open() writes, reads back and deletes a throwaway entry, so a locked keychain is never
//   called "available".
// - A keychain that shows an unlock prompt waits for the user: the probe is bounded by
//   probeTimeoutMs (3 s by default) and every later call by operationTimeoutMs.
// - GNOME Keyring (42 in Debian 12, still in 50) has a race: it admits a new D-Bus connection as a
//   client in an idle callback that the connection's first call can beat. @napi-rs/keyring opens a
//   connection for every call, whose first message is OpenSession. Losing the race fails the call
//   ("… is not implemented on interface …") or aborts the daemon, which its service manager starts
//   again, locked (upstream gnome-keyring #190). Callout cannot remove the race, only meet it less
//   and recover: it makes one keychain call at a time in a process (its own calls never pile up on
//   the daemon; other processes still may), and asks again, after KEYCHAIN_RETRY_DELAY_MS, when a
//   call failed that way. Every call here is a read, a replace or a delete, so asking again is safe
//   (a delete that had done its work before the daemon died answers "nothing there" the second
//   time). A daemon that came back locked then gets the "locked" message, not a puzzling one. A call's
//   time limit counts its wait in the queue, and a call whose caller gave up asks nothing more.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { requireValidApiKey } from './api-key';
import { keytarLayoutFor, NO_KEYTAR_LAYOUT, type KeytarLayout, type TargetEntryLibrary } from './keytar-layout';
import { assertAccount, errorText, SecretStoreError, resolveKeychainService, type SecretStore } from './secret-store';
import { systemClock, type Clock } from '../clock';

/** The package loaded when no modulePath is given. */
export const KEYCHAIN_LIBRARY = '@napi-rs/keyring';

/** What the store needs of a keychain library: keytar's three calls (what a `modulePath` module exports). */
export interface KeychainModule {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export const DEFAULT_PROBE_TIMEOUT_MS = 3_000;
export const DEFAULT_OPERATION_TIMEOUT_MS = 60_000;

/** The throwaway entry open() writes, reads back and deletes under the service. */
export const PROBE_ACCOUNT = 'callout-keychain-probe';

export interface KeychainStoreOptions {
  /** The keychain's service name; default $CALLOUT_KEYCHAIN_SERVICE, else 'Callout'. */
  readonly service?: string;
  /**
   * What to load instead of @napi-rs/keyring: an absolute path to a module exporting keytar's
   * getPassword, setPassword and deletePassword (tests load fakes this way).
   */
  readonly modulePath?: string;
  /**
   * Where keys stored by keytar are read from. Default: this platform's keytar layout with the real
   * library, none with a modulePath.
   */
  readonly keytarLayout?: KeytarLayout;
  /** How long open() waits for the keychain to answer the probe. Default 3000 ms. */
  readonly probeTimeoutMs?: number;
  /** How long each later get/set/delete waits (an unlock prompt may be up). Default 60 s. */
  readonly operationTimeoutMs?: number;
  /** The clock those waits run on. Default systemClock. */
  readonly clock?: Clock;
}

const loaded = new Map<string, { module: KeychainModule; keytarLayout: KeytarLayout }>();

function firstLine(text: string): string {
  return text.split(/\r?\n/, 1)[0] ?? '';
}

function asKeychainModule(candidate: unknown): KeychainModule | null {
  const isApi = (value: unknown): value is KeychainModule =>
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

/** The part of @napi-rs/keyring this module uses. */
interface KeyringLibrary extends TargetEntryLibrary {
  AsyncEntry: TargetEntryLibrary['AsyncEntry'] & {
    new (
      service: string,
      username: string,
      options?: { linux?: { store?: 'secret-service' | 'keyutils' } },
    ): {
      getPassword(): Promise<string | null>;
      setPassword(password: string): Promise<void>;
      deletePassword(): Promise<boolean>;
    };
  };
}

function isKeyringLibrary(candidate: unknown): candidate is KeyringLibrary {
  const entry = (candidate as { AsyncEntry?: unknown } | null | undefined)?.AsyncEntry;
  return typeof entry === 'function' && typeof (entry as { withTarget?: unknown }).withTarget === 'function';
}

/** keytar's three calls on @napi-rs/keyring, each entry pinned to the Secret Service on Linux. */
export function keyringModule(library: KeyringLibrary, platform: NodeJS.Platform = process.platform): KeychainModule {
  const options = platform === 'linux' ? { linux: { store: 'secret-service' as const } } : undefined;
  // The constructor throws when the pinned store is unavailable: a rejection, like every other failure.
  const entry = async (service: string, account: string) => new library.AsyncEntry(service, account, options);
  return {
    getPassword: async (service, account) => (await entry(service, account)).getPassword(),
    setPassword: async (service, account, password) => (await entry(service, account)).setPassword(password),
    deletePassword: async (service, account) => (await entry(service, account)).deletePassword(),
  };
}

function componentMissing(message: string, detail: string): SecretStoreError {
  return new SecretStoreError('keychain-unavailable', { kind: 'component-missing' }, message, { reasonCode: 'component-missing', detail });
}

/**
 * Loads @napi-rs/keyring (or the module at modulePath) on first use and caches it, with where keys
 * keytar stored are read from. Throws SecretStoreError('keychain-unavailable') when it cannot be
 * loaded or does not have the expected API.
 */
export async function loadKeychainModule(modulePath?: string): Promise<{ module: KeychainModule; keytarLayout: KeytarLayout }> {
  const id = modulePath ?? KEYCHAIN_LIBRARY;
  const cached = loaded.get(id);
  if (cached) return cached;
  let candidate: unknown;
  try {
    candidate = createRequire(import.meta.url)(id);
  } catch (error) {
    throw componentMissing(
      "Callout's keychain component could not be loaded (it may be missing, or built for another system), so the system keychain cannot be used.",
      `loading ${id}: ${firstLine(errorText(error))}`,
    );
  }
  let found: { module: KeychainModule; keytarLayout: KeytarLayout } | null = null;
  if (modulePath === undefined) {
    if (isKeyringLibrary(candidate)) found = { module: keyringModule(candidate), keytarLayout: keytarLayoutFor(process.platform, candidate) };
  } else {
    const api = asKeychainModule(candidate);
    if (api) found = { module: api, keytarLayout: NO_KEYTAR_LAYOUT };
  }
  if (!found) {
    throw componentMissing(
      "Callout's keychain component could not be loaded (it is not the expected module), so the system keychain cannot be used.",
      modulePath === undefined ? `${id} does not export AsyncEntry` : `${id} does not export getPassword, setPassword and deletePassword`,
    );
  }
  loaded.set(id, found);
  return found;
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

/** How long to wait before asking again after a call failed in passing (see the notes at the top). */
export const KEYCHAIN_RETRY_DELAY_MS = 1_000;
/** How many times a call is asked again. */
const KEYCHAIN_RETRIES = 2;

/**
 * The keychain's service went away under the call, answered before it had admitted the connection,
 * or no longer knew the session the call had opened (it was started again in between).
 */
function failedInPassing(error: unknown): boolean {
  return /disconnected from (the )?message bus without replying|is not implemented on interface|the session does not exist/i.test(errorText(error));
}

/**
 * The operation, asked again up to KEYCHAIN_RETRIES times while it fails in passing; never again
 * once its caller has given up (`signal`), so a late retry cannot undo a later call's work.
 */
async function withRetries<T>(operation: () => Promise<T>, clock: Clock, signal: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await Promise.resolve().then(operation);
    } catch (error) {
      if (attempt >= KEYCHAIN_RETRIES || !failedInPassing(error) || signal.aborted) throw error;
      await clock.sleep(KEYCHAIN_RETRY_DELAY_MS, signal);
    }
  }
}

/** The keychain work of this process, one piece at a time: each waits for the one before to settle. */
let keychainQueue: Promise<unknown> = Promise.resolve();

/**
 * Runs work when the keychain work queued before it has settled, within ms of being asked (the wait
 * in the queue counts). A caller whose time ran out gets onTimeout() at once and gives up: its work
 * does not start if it has not, asks nothing again if it has, and no longer holds the queue.
 */
function keychainTurn<T>(work: (signal: AbortSignal) => Promise<T>, ms: number, onTimeout: () => Error, clock: Clock): Promise<T> {
  const gaveUp = new AbortController();
  const start = () => {
    if (gaveUp.signal.aborted) throw gaveUp.signal.reason;
    return work(gaveUp.signal);
  };
  const run = withTimeout(
    keychainQueue.then(start, start),
    ms,
    () => {
      const error = onTimeout();
      gaveUp.abort(error);
      return error;
    },
    clock,
  );
  keychainQueue = run.catch(() => undefined);
  return run;
}

/** Writes, reads back and deletes a throwaway entry (see the notes at the top). */
async function writeProbe(keychain: KeychainModule, service: string, clock: Clock, signal: AbortSignal): Promise<void> {
  const token = randomBytes(16).toString('hex');
  await withRetries(() => keychain.setPassword(service, PROBE_ACCOUNT, token), clock, signal);
  try {
    const back = await withRetries(() => keychain.getPassword(service, PROBE_ACCOUNT), clock, signal);
    if (back !== token) throw new Error('the keychain did not return the entry just stored');
  } finally {
    // The throwaway entry goes even when the probe's time has run out (then asked once, not again).
    await withRetries(() => keychain.deletePassword(service, PROBE_ACCOUNT), clock, signal).catch(() => false);
  }
}

function isLockedText(text: string): boolean {
  return /\blocked\b/i.test(text);
}

export class KeychainSecretStore implements SecretStore {
  readonly kind = 'keychain' as const;
  readonly service: string;
  readonly #keychain: KeychainModule;
  readonly #keytarLayout: KeytarLayout;
  readonly #operationTimeoutMs: number;
  readonly #clock: Clock;

  private constructor(keychain: KeychainModule, keytarLayout: KeytarLayout, service: string, operationTimeoutMs: number, clock: Clock) {
    this.#keychain = keychain;
    this.#keytarLayout = keytarLayout;
    this.service = service;
    this.#operationTimeoutMs = operationTimeoutMs;
    this.#clock = clock;
  }

  /**
   * Loads the keychain library and checks that the keychain can really store a secret, within
   * probeTimeoutMs. Throws SecretStoreError('keychain-unavailable') with a plain explanation
   * (and the technical reason in `detail`) when it cannot.
   */
  static async open(options: KeychainStoreOptions = {}): Promise<KeychainSecretStore> {
    const service = resolveKeychainService(options.service);
    const probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
    const { module: keychain, keytarLayout } = await loadKeychainModule(options.modulePath);
    const timedOut = new SecretStoreError(
      'keychain-unavailable',
      { kind: 'timeout' },
      `The system keychain did not answer within ${seconds(probeTimeoutMs)} (it may be locked or not running). ${keychainUnavailableHint()}`,
      { reasonCode: 'timeout', detail: `probe of service "${service}" timed out after ${probeTimeoutMs} ms` },
    );
    const clock = options.clock ?? systemClock;
    try {
      await keychainTurn(
        (signal) => writeProbe(keychain, service, clock, signal),
        probeTimeoutMs,
        () => timedOut,
        clock,
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
    return new KeychainSecretStore(keychain, options.keytarLayout ?? keytarLayout, service, options.operationTimeoutMs ?? DEFAULT_OPERATION_TIMEOUT_MS, clock);
  }

  /** The key; one that keytar stored is moved to the library's own layout on first read. */
  async get(account: string): Promise<string | null> {
    assertAccount(account);
    const value = await this.#call('read the API Key', () => this.#keychain.getPassword(this.service, account), []);
    if (typeof value === 'string') return value;
    const old = await this.#call('read the API Key saved by an earlier version', () => this.#keytarLayout.read(this.service, account), []);
    if (typeof old !== 'string') return null;
    // Written in the new layout before the old entry goes: a failure between the two loses nothing.
    await this.#call('save the API Key', () => this.#keychain.setPassword(this.service, account, old), [old]);
    await this.#removeKeytarEntry(account);
    return old;
  }

  async set(account: string, secret: string): Promise<void> {
    assertAccount(account);
    const value = requireValidApiKey(secret);
    await this.#call('save the API Key', () => this.#keychain.setPassword(this.service, account, value), [secret, value]);
    // An older key in keytar's layout would come back after a later delete.
    await this.#removeKeytarEntry(account);
  }

  async delete(account: string): Promise<boolean> {
    assertAccount(account);
    const deleted = await this.#call('delete the API Key', () => this.#keychain.deletePassword(this.service, account), []);
    const deletedOld = await this.#removeKeytarEntry(account);
    return deleted === true || deletedOld;
  }

  async has(account: string): Promise<boolean> {
    return (await this.get(account)) !== null;
  }

  /** Removes the entry keytar stored for account; true when there was one. */
  async #removeKeytarEntry(account: string): Promise<boolean> {
    return (await this.#call('delete the API Key saved by an earlier version', () => this.#keytarLayout.remove(this.service, account), [])) === true;
  }

  async #call<T>(what: string, operation: () => Promise<T>, redact: readonly string[]): Promise<T> {
    const timedOut = new SecretStoreError(
      'keychain-failed',
      {},
      `The system keychain did not answer within ${seconds(this.#operationTimeoutMs)} when asked to ${what}.`,
    );
    try {
      return await keychainTurn(
        (signal) => withRetries(operation, this.#clock, signal),
        this.#operationTimeoutMs,
        () => timedOut,
        this.#clock,
      );
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
