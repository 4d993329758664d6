// openSecretStore's fallback and KeychainSecretStore's failure paths, driven through the real
// loading path (`modulePath`) with missing modules and fake keytar-shaped modules. No keychain
// needed: these run everywhere.
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/clock';
import {
  FORCED_SESSION_REASON,
  KEYCHAIN_SERVICE,
  KEYCHAIN_RETRY_DELAY_MS,
  KEYCHAIN_SERVICE_ENV,
  KeychainSecretStore,
  PROBE_ACCOUNT,
  SecretStoreError,
  SessionSecretStore,
  keychainUnavailableHint,
  loadKeychainModule,
  openSecretStore,
  resolveKeychainService,
  type SecretStoreStatus,
} from '../../../main/secrets';
import { drive } from '../../helpers/manual-clock';
import { fakeKeychainModules } from './helpers';

const fakes = fakeKeychainModules(PROBE_ACCOUNT);
afterAll(() => fakes.cleanup());

const savedServiceEnv = process.env[KEYCHAIN_SERVICE_ENV];
afterEach(() => {
  if (savedServiceEnv === undefined) delete process.env[KEYCHAIN_SERVICE_ENV];
  else process.env[KEYCHAIN_SERVICE_ENV] = savedServiceEnv;
});

const MISSING_MODULE = join(fakes.dir, 'does-not-exist', 'keytar.node');
const SECRET = 'sk-live-5e1f0c9a7d3b2468';

/** A reason a person can read: a sentence or two, no stack, no module paths, no error class names. */
function expectPlainReason(status: SecretStoreStatus): void {
  expect(status.reason).toEqual(expect.any(String));
  const reason = status.reason ?? '';
  expect(reason).toMatch(/keychain/i);
  expect(reason).not.toMatch(/\n|\bat .+:\d+|Error:|Cannot find module|does-not-exist|\.node\b|\.cjs\b/);
  expect(reason.length).toBeLessThan(400);
}

/** Every way an error can reach a log or a screen. */
function everyRendering(error: unknown): string[] {
  const e = error as SecretStoreError;
  return [e.message, String(e.detail), e.stack ?? '', String(e), inspect(e, { depth: 10, showHidden: true }), JSON.stringify(e)];
}

describe('openSecretStore fallback to the session store', () => {
  it('falls back when the keychain module cannot be loaded, and says so plainly', async () => {
    const { store, status } = await openSecretStore({ modulePath: MISSING_MODULE });
    expect(store).toBeInstanceOf(SessionSecretStore);
    expect(store.kind).toBe('session');
    expect(status.kind).toBe('session');
    expect(status.keychainAvailable).toBe(false);
    expectPlainReason(status);
    // The technical reason is kept apart, for logs.
    expect(status.detail).toContain('does-not-exist');
    // The fallback store works.
    await store.set('p1', SECRET);
    expect(await store.get('p1')).toBe(SECRET);
  });

  it('uses the session store without touching any keychain when forceSession is set', async () => {
    const fake = fakes.path('healthy');
    const { store, status } = await openSecretStore({ forceSession: true, modulePath: fake });
    expect(store).toBeInstanceOf(SessionSecretStore);
    expect(status).toEqual({ kind: 'session', keychainAvailable: false, reason: FORCED_SESSION_REASON, reasonCode: 'forced' });
    expect(fakes.state(fake).calls).toEqual([]);
  });

  it('falls back when the module is not keytar-shaped', async () => {
    const { store, status } = await openSecretStore({ modulePath: fakes.path('not-keytar') });
    expect(store.kind).toBe('session');
    expectPlainReason(status);
  });

  it('falls back within the probe timeout when the keychain never answers', async () => {
    const clock = new ManualClock();
    let settled = false;
    const opening = openSecretStore({ modulePath: fakes.path('hanging'), probeTimeoutMs: 150, clock }).finally(() => (settled = true));
    await clock.advance(149);
    expect(settled).toBe(false);
    await clock.advance(1);
    const { store, status } = await opening;
    expect(store.kind).toBe('session');
    expectPlainReason(status);
    expect(status.reason).toMatch(/did not answer within 0\.2 s/);
  });

  it('falls back when the keychain is locked (reads say "nothing stored", writes fail)', async () => {
    const fake = fakes.path('locked');
    const { store, status } = await openSecretStore({ modulePath: fake });
    expect(store.kind).toBe('session');
    expectPlainReason(status);
    expect(status.reason).toMatch(/locked/);
    expect(status.reason).toContain(keychainUnavailableHint());
  });

  it('uses the keychain when the probe succeeds, and leaves no probe entry behind', async () => {
    const fake = fakes.path('healthy');
    const { store, status } = await openSecretStore({ modulePath: fake, service: 'Svc-A' });
    expect(status).toEqual({ kind: 'keychain', keychainAvailable: true, reason: null, reasonCode: null });
    expect(store).toBeInstanceOf(KeychainSecretStore);
    const state = fakes.state(fake);
    expect(state.calls.map((c) => c.op)).toEqual(['set', 'get', 'delete']);
    expect(state.calls.every((c) => c.service === 'Svc-A' && c.account === PROBE_ACCOUNT)).toBe(true);
    expect(state.entries.size).toBe(0);
  });

  it('cleans up the probe entry even when the probe finishes after the timeout', async () => {
    const fake = fakes.path('slow-probe');
    const { store } = await openSecretStore({ modulePath: fake, probeTimeoutMs: 100 });
    expect(store.kind).toBe('session');
    const state = fakes.state(fake);
    await expect.poll(() => state.calls.map((c) => c.op), { timeout: 5_000 }).toEqual(['set', 'get', 'delete']);
    await expect.poll(() => state.entries.size, { timeout: 5_000 }).toBe(0);
  });

  it('gives Linux users the Secret Service hint', () => {
    expect(keychainUnavailableHint('linux')).toMatch(/Secret Service/);
    expect(keychainUnavailableHint('linux')).toMatch(/GNOME Keyring|KWallet/);
    expect(keychainUnavailableHint('darwin')).toMatch(/Keychain/);
    expect(keychainUnavailableHint('win32')).toMatch(/Credential Manager/);
  });
});

describe('KeychainSecretStore.open', () => {
  it('throws keychain-unavailable (not a crash) when the module cannot be loaded', async () => {
    const error = await KeychainSecretStore.open({ modulePath: MISSING_MODULE }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretStoreError);
    expect((error as SecretStoreError).code).toBe('keychain-unavailable');
  });

  it('throws keychain-unavailable with a plain explanation when the keychain never answers', async () => {
    const error = await KeychainSecretStore.open({ modulePath: fakes.path('hanging'), probeTimeoutMs: 100 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'keychain-unavailable' });
    expect((error as SecretStoreError).message).toContain(keychainUnavailableHint());
  });

  it('loads a module once and reuses it', async () => {
    const fake = fakes.path('healthy');
    expect(await loadKeychainModule(fake)).toBe(await loadKeychainModule(fake));
  });
});

describe('keychain service name', () => {
  it('is "Callout" by default, overridden by CALLOUT_KEYCHAIN_SERVICE, overridden by the option', () => {
    expect(KEYCHAIN_SERVICE).toBe('Callout');
    expect(resolveKeychainService(undefined, {})).toBe('Callout');
    expect(resolveKeychainService(undefined, { CALLOUT_KEYCHAIN_SERVICE: '  ' })).toBe('Callout');
    expect(resolveKeychainService(undefined, { CALLOUT_KEYCHAIN_SERVICE: 'Callout-test' })).toBe('Callout-test');
    expect(resolveKeychainService('Explicit', { CALLOUT_KEYCHAIN_SERVICE: 'Callout-test' })).toBe('Explicit');
  });

  it('is read from the environment when the store is opened', async () => {
    process.env[KEYCHAIN_SERVICE_ENV] = 'Callout-env-test';
    const fake = fakes.path('healthy');
    const { store } = await openSecretStore({ modulePath: fake });
    expect((store as KeychainSecretStore).service).toBe('Callout-env-test');
    await store.set('p1', SECRET);
    expect(fakes.state(fake).calls.at(-1)).toEqual({ op: 'set', service: 'Callout-env-test', account: 'p1' });
  });
});

describe('error messages never contain the secret', () => {
  it('when the keychain fails to save it, even if the native error repeats it', async () => {
    const store = await KeychainSecretStore.open({ modulePath: fakes.path('echoing') });
    const padded = `  ${SECRET}\n`; // stored trimmed: both forms must be hidden
    const error = await store.set('p1', padded).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretStoreError);
    expect((error as SecretStoreError).code).toBe('keychain-failed');
    expect((error as SecretStoreError).message).toBe('The system keychain could not save the API Key.');
    // The native reason is kept for logs, with the secret cut out of it.
    expect((error as SecretStoreError).detail).toContain('backend refused set of password "[redacted]"');
    for (const text of everyRendering(error)) expect(text).not.toContain(SECRET);
  });

  it('when the keychain fails to read or delete', async () => {
    const store = await KeychainSecretStore.open({ modulePath: fakes.path('echoing') });
    await expect(store.get('p1')).rejects.toMatchObject({ code: 'keychain-failed' });
    await expect(store.has('p1')).rejects.toMatchObject({ code: 'keychain-failed' });
    await expect(store.delete('p1')).rejects.toMatchObject({ code: 'keychain-failed' });
  });

  it('when the backend throws synchronously instead of rejecting', async () => {
    const store = await KeychainSecretStore.open({ modulePath: fakes.path('sync-throw') });
    const error = await store.set('p1', SECRET).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'keychain-failed' });
    for (const text of everyRendering(error)) expect(text).not.toContain(SECRET);
  });

  it('when the key is refused as invalid', async () => {
    const store = await KeychainSecretStore.open({ modulePath: fakes.path('healthy') });
    for (const bad of [`${SECRET}\u0000`, `${SECRET}\t${SECRET}`, SECRET.repeat(20)]) {
      const error = await store.set('p1', bad).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'invalid-key' });
      for (const text of everyRendering(error)) expect(text).not.toContain(SECRET);
    }
  });

  it('when a later call times out (an unlock prompt nobody answers)', async () => {
    const fake = fakes.path('hang-after-probe');
    const clock = new ManualClock();
    const store = await KeychainSecretStore.open({ modulePath: fake, operationTimeoutMs: 100, clock });
    let settled = false;
    const saving = store
      .set('p1', SECRET)
      .catch((e: unknown) => e)
      .finally(() => (settled = true));
    await clock.advance(99);
    expect(settled).toBe(false);
    await clock.advance(1);
    const error = await saving;
    expect(error).toMatchObject({ code: 'keychain-failed' });
    expect((error as SecretStoreError).message).toMatch(/did not answer within 0\.1 s when asked to save the API Key/);
    for (const text of everyRendering(error)) expect(text).not.toContain(SECRET);
  });
});

describe('a keychain daemon that aborts (GNOME Keyring #190)', () => {
  it('asks again after a pause when the daemon left without replying, had not admitted the call or lost its session, and the key is saved and read', async () => {
    const fake = fakes.path('aborts-once');
    const clock = new ManualClock();
    const store = await KeychainSecretStore.open({ modulePath: fake, clock });
    let settled = false;
    const saving = store.set('p1', SECRET).finally(() => (settled = true));
    // Nothing is asked again at once: the bus needs a moment to start the daemon again.
    await clock.advance(KEYCHAIN_RETRY_DELAY_MS - 1);
    expect(settled).toBe(false);
    await drive(clock, saving);
    // The read's first answer: a session the daemon, started again, never opened.
    expect(await drive(clock, store.get('p1'))).toBe(SECRET);
    const state = fakes.state(fake);
    expect(state.calls.filter((c) => c.account === 'p1').map((c) => c.op)).toEqual(['set', 'set', 'set', 'get', 'get']);
  });

  it('says the keychain is locked when the daemon came back locked', async () => {
    const fake = fakes.path('aborts-relocked');
    const clock = new ManualClock();
    const store = await KeychainSecretStore.open({ modulePath: fake, clock });
    const error = await drive(
      clock,
      store.set('p1', SECRET).catch((e: unknown) => e),
    );
    expect(error).toMatchObject({ code: 'keychain-failed' });
    expect((error as SecretStoreError).message).toBe('The system keychain is locked, so Callout could not save the API Key. Unlock it and try again.');
    // Asked twice (the abort, then the locked answer), not three times: a locked keychain is not asked again.
    expect(fakes.state(fake).calls.filter((c) => c.account === 'p1').length).toBe(2);
    for (const text of everyRendering(error)) expect(text).not.toContain(SECRET);
  });

  it('does not ask again after a failure of another kind', async () => {
    const fake = fakes.path('echoing');
    const clock = new ManualClock();
    const store = await KeychainSecretStore.open({ modulePath: fake, clock });
    await expect(store.set('p1', SECRET)).rejects.toMatchObject({ code: 'keychain-failed' });
    expect(fakes.state(fake).calls.filter((c) => c.account === 'p1').length).toBe(1);
  });

  it("counts the wait in the queue in a call's time limit; a call whose caller gave up never starts, and a hung call holds no one after its time", async () => {
    const fake = fakes.path('hang-once');
    const clock = new ManualClock();
    const patient = await KeychainSecretStore.open({ modulePath: fake, service: 'Svc-A', operationTimeoutMs: 1_000, clock });
    const hasty = await KeychainSecretStore.open({ modulePath: fake, service: 'Svc-B', operationTimeoutMs: 100, clock });
    const hung = patient.set('p1', SECRET).catch((e: unknown) => e);
    const waiting = hasty.get('p2').catch((e: unknown) => e);
    // The read waits behind the hung save, and fails at its own 100 ms, not after the save's second.
    await clock.advance(100);
    expect(await waiting).toMatchObject({ code: 'keychain-failed', message: expect.stringMatching(/did not answer within 0\.1 s when asked to read/) });
    await clock.advance(900);
    expect(await hung).toMatchObject({ code: 'keychain-failed', message: expect.stringMatching(/did not answer within 1 s when asked to save/) });
    // The read whose caller gave up was never asked of the keychain.
    expect(fakes.state(fake).calls.filter((c) => c.account === 'p2')).toEqual([]);
    // The next call does not wait for the hung one.
    await hasty.set('p3', 'key-after-the-hang');
    expect(await hasty.get('p3')).toBe('key-after-the-hang');
  });

  it('never has two keychain calls under way at once in a process, even across stores', async () => {
    const fake = fakes.path('counting');
    const [a, b] = await Promise.all([
      KeychainSecretStore.open({ modulePath: fake, service: 'Svc-A' }),
      KeychainSecretStore.open({ modulePath: fake, service: 'Svc-B' }),
    ]);
    await Promise.all([a.set('p1', 'key-a-0001'), b.set('p1', 'key-b-0001'), a.set('p2', 'key-a-0002')]);
    expect(await Promise.all([a.get('p1'), b.get('p1'), a.get('p2'), b.has('p2')])).toEqual(['key-a-0001', 'key-b-0001', 'key-a-0002', false]);
    const state = fakes.state(fake);
    expect(state.calls.length).toBeGreaterThan(10);
    expect(state.most).toBe(1);
  });
});
