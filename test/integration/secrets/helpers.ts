// Helpers for the secret-store tests: a unique keychain service per run, a probe of the real
// keychain, and fake keytar-shaped modules (plain CommonJS files in a temp folder) that
// KeychainSecretStore loads through its `modulePath` option, exactly as it would load an
// Electron build of keytar.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeychainSecretStore, SecretStoreError } from '../../../main/secrets';

/** CI sets CALLOUT_REQUIRE_KEYCHAIN=1: then an unreachable keychain fails the tests. */
export const KEYCHAIN_REQUIRED = process.env.CALLOUT_REQUIRE_KEYCHAIN === '1';

/** A keychain service name no real profile uses, unique to this test run. */
export function uniqueService(label = ''): string {
  return `Callout-test-${label}${process.pid}-${randomUUID().slice(0, 8)}`;
}

export interface KeychainProbe {
  readonly available: boolean;
  /** Why it is unavailable (plain message and technical detail), or null. */
  readonly reason: string | null;
}

/** Opens the real keychain (@napi-rs/keyring from node_modules) under service, as the app would. */
export async function probeRealKeychain(service: string): Promise<KeychainProbe> {
  try {
    await KeychainSecretStore.open({ service, probeTimeoutMs: 5_000 });
    return { available: true, reason: null };
  } catch (error) {
    if (error instanceof SecretStoreError) {
      return { available: false, reason: `${error.message}${error.detail ? ` [${error.detail}]` : ''}` };
    }
    return { available: false, reason: String(error) };
  }
}

export const NO_KEYCHAIN_HINT =
  "run the tests under dbus-run-session -- sh -c 'printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; npx vitest run', " +
  'and set CALLOUT_REQUIRE_KEYCHAIN=1 to make an unreachable keychain fail instead of skip';

/** State a fake module exposes as `__state`, shared with the test through the require cache. */
export interface FakeKeychainState {
  entries: Map<string, string>;
  calls: Array<{ op: string; service: string; account: string }>;
  /** The most calls under way at once ('counting' only). */
  most: number;
}

/**
 * Behaviours of the fakes. Every fake keeps its entries in memory, keyed "service\u0000account".
 * - healthy: works.
 * - hanging: no call ever settles.
 * - slow-probe: every call settles after 400 ms (to outlive a short probe timeout).
 * - locked: setPassword rejects like libsecret on a locked collection; reads resolve null.
 * - echoing: the probe works, but every other call fails with an error whose text repeats the
 *   password (the worst a native backend could do).
 * - hang-after-probe: the probe works, later calls never settle.
 * - sync-throw: the probe works, later calls throw synchronously (like keytar's raw binding
 *   given bad arguments).
 * - not-keytar: exports something else.
 * - aborts-once: the probe works; the next call fails as GNOME Keyring's abort makes it fail (the
 *   daemon left the bus without replying), the next as its admission race does (a method "not
 *   implemented"), the fourth as a call on a session the restarted daemon never opened; every other
 *   call works, as when the bus has started the daemon again.
 * - aborts-relocked: the probe works; the next call fails as the abort makes it fail, then every call
 *   fails as a locked keychain does (the daemon came back locked).
 * - counting: works, every call taking 20 ms; `__state.most` is the most calls ever under way at once.
 * - hang-once: the probe works; the next call never settles (an unlock prompt nobody answers); every
 *   later call works.
 */
export type FakeBehaviour =
  | 'healthy'
  | 'hanging'
  | 'slow-probe'
  | 'locked'
  | 'echoing'
  | 'hang-after-probe'
  | 'sync-throw'
  | 'not-keytar'
  | 'aborts-once'
  | 'aborts-relocked'
  | 'counting'
  | 'hang-once';

const FAKE_SOURCE = (behaviour: FakeBehaviour, probeAccount: string): string => `'use strict';
const behaviour = ${JSON.stringify(behaviour)};
const PROBE = ${JSON.stringify(probeAccount)};
const state = { entries: new Map(), calls: [], most: 0 };
let failures = 0;
let underWay = 0;
const ABORTED = 'Platform failure: DBus error: Message recipient disconnected from message bus without replying';
const NOT_ADMITTED = 'Platform failure: DBus error: Method OpenSession is not implemented on interface org.freedesktop.Secret.Service';
const NO_SESSION = 'Platform failure: DBus error: The session does not exist';
const key = (s, a) => s + '\\u0000' + a;
const never = () => new Promise(() => {});
// Real time: a slow native keychain, faked; a native module answers on its own time, outside main's Clock.
const later = (fn) => new Promise((resolve, reject) => setTimeout(() => { try { resolve(fn()); } catch (e) { reject(e); } }, 400));
function wrap(op, fn) {
  return function (service, account, password) {
    state.calls.push({ op, service, account });
    const isProbe = account === PROBE;
    switch (behaviour) {
      case 'hanging': return never();
      case 'slow-probe': return later(() => fn(service, account, password));
      case 'locked':
        if (op === 'set') return Promise.reject(new Error('Cannot create an item in a locked collection'));
        if (op === 'get') return Promise.resolve(null);
        return Promise.resolve(false);
      case 'echoing':
        if (isProbe) break;
        return Promise.reject(new Error('backend refused ' + op + ' of password "' + password + '" for ' + account + ' in ' + service + '\\n  at native stack'));
      case 'hang-after-probe':
        if (isProbe) break;
        return never();
      case 'sync-throw':
        if (isProbe) break;
        throw new TypeError('Password is required. (raw binding said ' + password + ')');
      case 'aborts-once': {
        if (isProbe) break;
        const failure = [ABORTED, NOT_ADMITTED, null, NO_SESSION][failures++];
        if (failure) return Promise.reject(new Error(failure));
        break;
      }
      case 'aborts-relocked':
        if (isProbe) break;
        if (++failures === 1) return Promise.reject(new Error(ABORTED));
        return Promise.reject(new Error('Platform failure: Cannot ' + op + ': the collection is locked'));
      case 'hang-once':
        if (isProbe || failures >= 1) break;
        failures++;
        return never();
      case 'counting':
        state.most = Math.max(state.most, ++underWay);
        return new Promise((resolve) => setTimeout(() => { underWay--; resolve(fn(service, account, password)); }, 20));
    }
    return Promise.resolve(fn(service, account, password));
  };
}
if (behaviour === 'not-keytar') {
  module.exports = { hello: 'not keytar', __state: state };
} else {
  module.exports = {
    getPassword: wrap('get', (s, a) => (state.entries.has(key(s, a)) ? state.entries.get(key(s, a)) : null)),
    setPassword: wrap('set', (s, a, p) => { state.entries.set(key(s, a), p); }),
    deletePassword: wrap('delete', (s, a) => state.entries.delete(key(s, a))),
    findCredentials: () => { throw new Error('findCredentials must never be called (it crashed keytar on a locked keyring)'); },
    __state: state,
  };
}
`;

export interface FakeModules {
  readonly dir: string;
  /** Writes a fresh fake (unique file, so its state is its own) and returns its absolute path. */
  path(behaviour: FakeBehaviour): string;
  /** The state of a fake written by path(). */
  state(modulePath: string): FakeKeychainState;
  cleanup(): void;
}

export function fakeKeychainModules(probeAccount: string): FakeModules {
  const dir = mkdtempSync(join(tmpdir(), 'callout-fake-keytar-'));
  const requireHere = createRequire(import.meta.url);
  let n = 0;
  return {
    dir,
    path(behaviour) {
      const file = join(dir, `${behaviour}-${++n}.cjs`);
      writeFileSync(file, FAKE_SOURCE(behaviour, probeAccount));
      return file;
    },
    state(modulePath) {
      return (requireHere(modulePath) as { __state: FakeKeychainState }).__state;
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type SecretServiceCall = (path: string, iface: string, member: string, signature: string, body: unknown[]) => Promise<unknown[]>;

/** A first call that needs no client, so that GNOME Keyring has admitted the connection (as keytar-layout.ts does). */
async function admitted(call: SecretServiceCall): Promise<void> {
  await call('/org/freedesktop/secrets', 'org.freedesktop.DBus.Properties', 'Get', 'ss', ['org.freedesktop.Secret.Service', 'Collections']).catch(
    () => undefined,
  );
}

/**
 * Writes an entry the way keytar 7 (libsecret) did on Linux, straight through the Secret Service's
 * D-Bus API: in the default collection, attributes { service, account, xdg:schema:
 * org.freedesktop.Secret.Generic }, label "service/account", the key as UTF-8 text/plain. (Checked
 * against keytar 7.9 itself before it was removed: these are the attributes and label it wrote.)
 */
export async function storeAsKeytarDid(service: string, account: string, key: string): Promise<void> {
  const dbus = createRequire(import.meta.url)('@jellybrick/dbus-next') as typeof import('@jellybrick/dbus-next');
  const bus = dbus.sessionBus();
  const call = async (path: string, iface: string, member: string, signature: string, body: unknown[]) =>
    (await bus.call(new dbus.Message({ destination: 'org.freedesktop.secrets', path, interface: iface, member, signature, body })))?.body ?? [];
  try {
    await admitted(call);
    const [, session] = (await call('/org/freedesktop/secrets', 'org.freedesktop.Secret.Service', 'OpenSession', 'sv', [
      'plain',
      new dbus.Variant('s', ''),
    ])) as [unknown, string];
    const properties = {
      'org.freedesktop.Secret.Item.Label': new dbus.Variant('s', `${service}/${account}`),
      'org.freedesktop.Secret.Item.Attributes': new dbus.Variant('a{ss}', { service, account, 'xdg:schema': 'org.freedesktop.Secret.Generic' }),
    };
    const secret = [session, Buffer.alloc(0), Buffer.from(key, 'utf8'), 'text/plain'];
    await call('/org/freedesktop/secrets/aliases/default', 'org.freedesktop.Secret.Collection', 'CreateItem', 'a{sv}(oayays)b', [properties, secret, true]);
  } finally {
    bus.disconnect();
  }
}

/** How many entries in keytar's Linux layout exist for (service, account). */
export async function keytarEntries(service: string, account: string): Promise<number> {
  const dbus = createRequire(import.meta.url)('@jellybrick/dbus-next') as typeof import('@jellybrick/dbus-next');
  const bus = dbus.sessionBus();
  const call: SecretServiceCall = async (path, iface, member, signature, body) =>
    (await bus.call(new dbus.Message({ destination: 'org.freedesktop.secrets', path, interface: iface, member, signature, body })))?.body ?? [];
  try {
    await admitted(call);
    const [unlocked, locked] = (await call('/org/freedesktop/secrets', 'org.freedesktop.Secret.Service', 'SearchItems', 'a{ss}', [{ service, account }])) as [
      string[],
      string[],
    ];
    return unlocked.length + locked.length;
  } finally {
    bus.disconnect();
  }
}
