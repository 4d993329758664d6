// Helpers for the secret-store tests: a unique keychain service per run, a probe of the real
// keychain, and fake keytar-shaped modules (plain CommonJS files in a temp folder) that
// KeytarSecretStore loads through its `modulePath` option, exactly as it would load an
// Electron build of keytar.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeytarSecretStore, SecretStoreError } from '../../../main/secrets';

/** CI sets CALLOUT_REQUIRE_KEYCHAIN=1: then an unreachable keychain fails the tests. */
export const KEYCHAIN_REQUIRED = process.env.CALLOUT_REQUIRE_KEYCHAIN === '1';

/** A keytar service name no real profile uses, unique to this test run. */
export function uniqueService(label = ''): string {
  return `Callout-test-${label}${process.pid}-${randomUUID().slice(0, 8)}`;
}

export interface KeychainProbe {
  readonly available: boolean;
  /** Why it is unavailable (plain message and technical detail), or null. */
  readonly reason: string | null;
}

/** Opens the real keychain (keytar from node_modules) under service, as the app would. */
export async function probeRealKeychain(service: string): Promise<KeychainProbe> {
  try {
    await KeytarSecretStore.open({ service, probeTimeoutMs: 5_000 });
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
export interface FakeKeytarState {
  entries: Map<string, string>;
  calls: Array<{ op: string; service: string; account: string }>;
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
 */
export type FakeBehaviour = 'healthy' | 'hanging' | 'slow-probe' | 'locked' | 'echoing' | 'hang-after-probe' | 'sync-throw' | 'not-keytar';

const FAKE_SOURCE = (behaviour: FakeBehaviour, probeAccount: string): string => `'use strict';
const behaviour = ${JSON.stringify(behaviour)};
const PROBE = ${JSON.stringify(probeAccount)};
const state = { entries: new Map(), calls: [] };
const key = (s, a) => s + '\\u0000' + a;
const never = () => new Promise(() => {});
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
    findCredentials: () => { throw new Error('findCredentials must never be called (it crashes keytar on a locked keyring)'); },
    __state: state,
  };
}
`;

export interface FakeModules {
  readonly dir: string;
  /** Writes a fresh fake (unique file, so its state is its own) and returns its absolute path. */
  path(behaviour: FakeBehaviour): string;
  /** The state of a fake written by path(). */
  state(modulePath: string): FakeKeytarState;
  cleanup(): void;
}

export function fakeKeytarModules(probeAccount: string): FakeModules {
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
      return (requireHere(modulePath) as { __state: FakeKeytarState }).__state;
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
