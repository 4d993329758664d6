// A key read from the keychain is used for a few seconds without asking the keychain again; a write,
// a delete or a refusal makes the next read ask it; concurrent reads share one question; a failed
// read is never kept.
import { describe, expect, it } from 'vitest';
import { ManualClock, type Clock } from '../../../main/clock';
import { CachedSecretStore, KEY_CACHE_MS } from '../../../main/secrets/cached-store';
import { SecretStoreError, SessionSecretStore } from '../../../main/secrets';

const KEY = 'first-key-123456';
const NEW_KEY = 'second-key-654321';

/** The session store, counting the keychain's reads; `fail` makes the next reads throw, `hold` keeps them waiting. */
function keychain() {
  const inner = new SessionSecretStore();
  const state = { reads: 0, fail: false, hold: null as Promise<void> | null };
  const store = {
    get kind() {
      return inner.kind;
    },
    async get(account: string) {
      state.reads++;
      if (state.fail) throw new SecretStoreError('keychain-failed', {}, 'The system keychain did not answer.');
      const value = await inner.get(account);
      if (state.hold) await state.hold;
      return value;
    },
    set: (account: string, secret: string) => inner.set(account, secret),
    delete: (account: string) => inner.delete(account),
    has: (account: string) => inner.has(account),
  };
  return { store, state };
}

/** KEY stored for profile:a, and the cache over that keychain on `clock`. */
async function keyStored(clock: Clock = new ManualClock()) {
  const { store, state } = keychain();
  await store.set('profile:a', KEY);
  return { store, state, cached: new CachedSecretStore(store, { clock }) };
}

describe('keys kept in memory after a keychain read', () => {
  it('asks the keychain once while the key is fresh, and again once it is older than the cache time', async () => {
    const clock = new ManualClock();
    const { state, cached } = await keyStored(clock);
    for (let i = 0; i < 5; i++) expect(await cached.get('profile:a')).toBe(KEY);
    expect(await cached.has('profile:a')).toBe(true);
    expect(state.reads).toBe(1);
    await clock.advance(KEY_CACHE_MS - 1);
    await cached.get('profile:a');
    expect(state.reads).toBe(1);
    await clock.advance(1);
    await cached.get('profile:a');
    expect(state.reads).toBe(2);
  });

  it('reads that come together ask the keychain once', async () => {
    const { state, cached } = await keyStored();
    const all = await Promise.all([cached.get('profile:a'), cached.get('profile:a'), cached.get('profile:a')]);
    expect(all).toEqual([KEY, KEY, KEY]);
    expect(state.reads).toBe(1);
  });

  it('a key saved or deleted in this process is what the next read returns, at once', async () => {
    const { store } = keychain();
    const cached = new CachedSecretStore(store, { clock: new ManualClock() });
    expect(await cached.get('profile:a')).toBeNull();
    await cached.set('profile:a', NEW_KEY);
    expect(await cached.get('profile:a')).toBe(NEW_KEY);
    expect(await cached.delete('profile:a')).toBe(true);
    expect(await cached.get('profile:a')).toBeNull();
    expect(await cached.has('profile:a')).toBe(false);
  });

  it('a read still on its way when the key is replaced does not bring the old key back', async () => {
    const { state, cached } = await keyStored();
    let release!: () => void;
    state.hold = new Promise((r) => (release = r));
    const slow = cached.get('profile:a');
    await Promise.resolve();
    state.hold = null;
    await cached.set('profile:a', NEW_KEY);
    release();
    expect(await slow).toBe(KEY); // the read began before the change
    expect(await cached.get('profile:a')).toBe(NEW_KEY);
  });

  it('a failed read is not kept: the next read asks again and gets the key', async () => {
    const { state, cached } = await keyStored();
    state.fail = true;
    await expect(cached.get('profile:a')).rejects.toMatchObject({ code: 'keychain-failed' });
    state.fail = false;
    expect(await cached.get('profile:a')).toBe(KEY);
    expect(state.reads).toBe(2);
  });

  it('"no key" is not kept: a key another process adds is seen at the next read', async () => {
    const { store } = keychain();
    const cached = new CachedSecretStore(store, { clock: new ManualClock() });
    expect(await cached.get('profile:a')).toBeNull();
    await store.set('profile:a', KEY); // the CLI, in another process
    expect(await cached.get('profile:a')).toBe(KEY);
  });

  it('a key kept before the system clock went back is read again', async () => {
    // The system clock as a person may set it: an hour back.
    let now = Date.UTC(2026, 10, 28, 12);
    const clock = { now: () => now } as unknown as Clock;
    const { state, cached } = await keyStored(clock);
    await cached.get('profile:a');
    now -= 3_600_000;
    await cached.get('profile:a');
    expect(state.reads).toBe(2);
  });

  it('forget: a key another process replaced is read again at the next use', async () => {
    const { store, state, cached } = await keyStored();
    expect(await cached.get('profile:a')).toBe(KEY);
    await store.set('profile:a', NEW_KEY); // the CLI, in another process
    expect(await cached.get('profile:a')).toBe(KEY);
    cached.forget('profile:a'); // the provider refused the old key
    expect(await cached.get('profile:a')).toBe(NEW_KEY);
    expect(state.reads).toBe(2);
  });
});
