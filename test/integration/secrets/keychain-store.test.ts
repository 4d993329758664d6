// KeychainSecretStore (@napi-rs/keyring) against the REAL OS keychain (on Linux: a Secret Service over D-Bus).
//
// - A Secret Service is reachable: every test runs, under a service name unique to this run,
//   and every entry it writes is deleted afterwards.
// - None is reachable: the keychain suites are SKIPPED, and the reason is printed and shown in
//   the suite's name.
// - CALLOUT_REQUIRE_KEYCHAIN=1 (CI): an unreachable keychain FAILS the run instead.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYCHAIN_SERVICE_ENV, KeychainSecretStore, PROBE_ACCOUNT, SecretStoreError, openSecretStore } from '../../../main/secrets';
import { KEYCHAIN_REQUIRED, NO_KEYCHAIN_HINT, keytarEntries, probeRealKeychain, storeAsKeytarDid, uniqueService } from './helpers';

const SERVICE = uniqueService();
const UNICODE_SERVICE = `${uniqueService('ünï-服务-')}-🔐`;
const keychain = await probeRealKeychain(SERVICE);
const skip = !keychain.available && !KEYCHAIN_REQUIRED;
const skipNote = skip ? ` [SKIPPED: no keychain reachable: ${keychain.reason}; ${NO_KEYCHAIN_HINT}]` : '';
if (skip) console.warn(`keychain-store.test.ts: real-keychain tests skipped. ${keychain.reason}\n  To run them, ${NO_KEYCHAIN_HINT}.`);

/** Every (service, account) written, deleted in afterAll even when a test fails half-way. */
const written: Array<{ store: KeychainSecretStore; account: string }> = [];
let store: KeychainSecretStore;

async function openStore(service = SERVICE): Promise<KeychainSecretStore> {
  return KeychainSecretStore.open({ service, probeTimeoutMs: 5_000 });
}

async function put(target: KeychainSecretStore, account: string, secret: string): Promise<void> {
  written.push({ store: target, account });
  await target.set(account, secret);
}

describe('real keychain availability', () => {
  it.runIf(KEYCHAIN_REQUIRED)('is reachable, as CALLOUT_REQUIRE_KEYCHAIN=1 demands', () => {
    expect(keychain.available, `CALLOUT_REQUIRE_KEYCHAIN=1 but the keychain is unreachable: ${keychain.reason}`).toBe(true);
  });

  it.skipIf(!keychain.available)(`was probed under the unique service ${SERVICE}`, () => {
    expect(keychain.reason).toBeNull();
  });
});

describe.skipIf(skip)(`KeychainSecretStore on the real keychain${skipNote}`, () => {
  beforeAll(async () => {
    if (!keychain.available) {
      throw new Error(`CALLOUT_REQUIRE_KEYCHAIN=1 but the keychain is unreachable: ${keychain.reason}`);
    }
    store = await openStore();
  });

  afterAll(async () => {
    const failures: string[] = [];
    for (const { store: s, account } of written) {
      await s.delete(account).catch((e: unknown) => failures.push(`${s.service}/${account}: ${String(e)}`));
    }
    for (const { store: s, account } of written) {
      if (await s.has(account).catch(() => false)) failures.push(`${s.service}/${account} still present`);
    }
    expect(failures).toEqual([]);
  });

  it('opens as the keychain kind under the requested service, leaving no probe entry', async () => {
    expect(store.kind).toBe('keychain');
    expect(store.service).toBe(SERVICE);
    expect(await store.has(PROBE_ACCOUNT)).toBe(false);
  });

  it('round-trips set / get / has / delete', async () => {
    const account = 'profile-round-trip';
    expect(await store.get(account)).toBeNull();
    expect(await store.has(account)).toBe(false);
    await put(store, account, 'sk-live-roundtrip-0001');
    expect(await store.get(account)).toBe('sk-live-roundtrip-0001');
    expect(await store.has(account)).toBe(true);
    expect(await store.delete(account)).toBe(true);
    expect(await store.get(account)).toBeNull();
    expect(await store.has(account)).toBe(false);
  });

  it('keeps the key in the keychain, not in the store object: a new store reads it back', async () => {
    const account = 'profile-persisted';
    await put(store, account, 'sk-live-persisted-0002');
    const reopened = await openStore();
    expect(await reopened.get(account)).toBe('sk-live-persisted-0002');
    expect(inspect(store, { depth: 10, showHidden: true })).not.toContain('sk-live-persisted-0002');
  });

  it('replaces a key', async () => {
    const account = 'profile-replace';
    await put(store, account, 'first-key-aaaa');
    await store.set(account, 'second-key-bbbb');
    expect(await store.get(account)).toBe('second-key-bbbb');
    expect(await store.delete(account)).toBe(true);
    expect(await store.delete(account)).toBe(false);
  });

  it('returns false when deleting a key that is not there', async () => {
    expect(await store.delete('profile-never-set')).toBe(false);
  });

  it('stores the trimmed key', async () => {
    const account = 'profile-trim';
    await put(store, account, '  sk-live-trimmed-0003\n');
    expect(await store.get(account)).toBe('sk-live-trimmed-0003');
  });

  it('keeps accounts apart', async () => {
    await put(store, 'profile-a', 'key-for-a');
    await put(store, 'profile-b', 'key-for-b');
    expect(await store.get('profile-a')).toBe('key-for-a');
    expect(await store.get('profile-b')).toBe('key-for-b');
    await store.delete('profile-a');
    expect(await store.get('profile-b')).toBe('key-for-b');
  });

  it("keeps services apart (a test service never sees another service's entries)", async () => {
    const other = await openStore(uniqueService('other-'));
    await put(store, 'profile-shared-name', 'key-in-main-service');
    expect(await other.get('profile-shared-name')).toBeNull();
    expect(await other.delete('profile-shared-name')).toBe(false);
    expect(await store.get('profile-shared-name')).toBe('key-in-main-service');
  });

  it('round-trips unicode keys, accounts and service names', async () => {
    const key = 'ключ-密钥-🔑-ü-ß-é-日本語';
    await put(store, 'профиль-測試-🚀', key);
    expect(await store.get('профиль-測試-🚀')).toBe(key);

    const unicodeService = await openStore(UNICODE_SERVICE);
    expect(unicodeService.service).toBe(UNICODE_SERVICE);
    await put(unicodeService, 'プロファイル', key);
    expect(await unicodeService.get('プロファイル')).toBe(key);
    expect(await unicodeService.delete('プロファイル')).toBe(true);
  });

  it('round-trips the longest accepted key (256 characters, 512 UTF-16 units)', async () => {
    await put(store, 'profile-long-ascii', 'k'.repeat(256));
    expect(await store.get('profile-long-ascii')).toBe('k'.repeat(256));
    await put(store, 'profile-long-emoji', '🔑'.repeat(256));
    expect(await store.get('profile-long-emoji')).toBe('🔑'.repeat(256));
  });

  it('refuses an invalid key without echoing it and keeps the stored one', async () => {
    const account = 'profile-invalid';
    const secret = 'sk-live-keepme-0004';
    await put(store, account, secret);
    for (const bad of [`${secret}\n${secret}`, `${secret}\u0000`, secret.repeat(20), '   ']) {
      const error = await store.set(account, bad).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SecretStoreError);
      expect((error as SecretStoreError).code).toBe('invalid-key');
      const e = error as SecretStoreError;
      for (const text of [e.message, String(e.detail), e.stack ?? '', inspect(e), JSON.stringify(e)]) {
        expect(text).not.toContain(secret);
      }
    }
    expect(await store.get(account)).toBe(secret);
  });

  describe.runIf(process.platform === 'linux')("keys keytar stored (an earlier version's layout on Linux)", () => {
    it('reads a key stored the way keytar did, moves it to the new layout and removes the old entry', async () => {
      const account = 'profile-from-keytar';
      const key = 'sk-live-keytar-密钥-0007';
      await storeAsKeytarDid(SERVICE, account, key);
      written.push({ store, account });
      expect(await keytarEntries(SERVICE, account)).toBe(1);
      // A new store, as after an upgrade: the key is there.
      const upgraded = await openStore();
      expect(await upgraded.get(account)).toBe(key);
      expect(await upgraded.has(account)).toBe(true);
      // Moved: the old entry is gone and the key is read from the new layout from now on.
      expect(await keytarEntries(SERVICE, account)).toBe(0);
      expect(await openStore().then((s) => s.get(account))).toBe(key);
      expect(await upgraded.delete(account)).toBe(true);
      expect(await upgraded.get(account)).toBeNull();
    });

    it('a key replaced or deleted after the upgrade never comes back from the old entry', async () => {
      const account = 'profile-keytar-replaced';
      await storeAsKeytarDid(SERVICE, account, 'sk-live-old-key-0008');
      written.push({ store, account });
      await store.set(account, 'sk-live-new-key-0009');
      expect(await keytarEntries(SERVICE, account)).toBe(0);
      expect(await store.get(account)).toBe('sk-live-new-key-0009');
      expect(await store.delete(account)).toBe(true);
      expect(await store.get(account)).toBeNull();

      const only = 'profile-keytar-only';
      await storeAsKeytarDid(SERVICE, only, 'sk-live-only-old-0010');
      written.push({ store, account: only });
      // Deleted without ever being read: the old entry goes too, and delete says a key was there.
      expect(await store.delete(only)).toBe(true);
      expect(await keytarEntries(SERVICE, only)).toBe(0);
      expect(await store.get(only)).toBeNull();
    });

    it('keeps services apart in the old layout too', async () => {
      await storeAsKeytarDid(SERVICE, 'profile-keytar-elsewhere', 'sk-live-elsewhere-0011');
      written.push({ store, account: 'profile-keytar-elsewhere' });
      const other = await openStore(uniqueService('other-'));
      expect(await other.get('profile-keytar-elsewhere')).toBeNull();
      expect(await store.get('profile-keytar-elsewhere')).toBe('sk-live-elsewhere-0011');
    });
  });

  it('openSecretStore picks the keychain, under CALLOUT_KEYCHAIN_SERVICE', async () => {
    const saved = process.env[KEYCHAIN_SERVICE_ENV];
    process.env[KEYCHAIN_SERVICE_ENV] = SERVICE;
    try {
      const { store: opened, status } = await openSecretStore({ probeTimeoutMs: 5_000 });
      expect(status).toEqual({ kind: 'keychain', keychainAvailable: true, reason: null, reasonCode: null });
      expect(opened).toBeInstanceOf(KeychainSecretStore);
      expect((opened as KeychainSecretStore).service).toBe(SERVICE);
      await put(opened as KeychainSecretStore, 'profile-env', 'sk-live-env-0005');
      expect(await store.get('profile-env')).toBe('sk-live-env-0005');
    } finally {
      if (saved === undefined) delete process.env[KEYCHAIN_SERVICE_ENV];
      else process.env[KEYCHAIN_SERVICE_ENV] = saved;
    }
  });
});
