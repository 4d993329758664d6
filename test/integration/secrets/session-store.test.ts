import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SecretStoreError, SessionSecretStore, type SecretStore } from '../../../main/secrets';

const SECRET = 'sk-session-7f3a9c1e5b';

describe('SessionSecretStore', () => {
  it('is the session kind and implements SecretStore', () => {
    const store: SecretStore = new SessionSecretStore();
    expect(store.kind).toBe('session');
  });

  it('round-trips set / get / has / delete', async () => {
    const store = new SessionSecretStore();
    expect(await store.get('p1')).toBeNull();
    expect(await store.has('p1')).toBe(false);
    await store.set('p1', SECRET);
    expect(await store.get('p1')).toBe(SECRET);
    expect(await store.has('p1')).toBe(true);
    expect(await store.delete('p1')).toBe(true);
    expect(await store.get('p1')).toBeNull();
    expect(await store.has('p1')).toBe(false);
  });

  it('stores the trimmed key', async () => {
    const store = new SessionSecretStore();
    await store.set('p1', `  ${SECRET}\n`);
    expect(await store.get('p1')).toBe(SECRET);
  });

  it('replaces a key', async () => {
    const store = new SessionSecretStore();
    await store.set('p1', 'first-key');
    await store.set('p1', 'second-key');
    expect(await store.get('p1')).toBe('second-key');
    expect(store.size).toBe(1);
  });

  it('returns false when deleting a missing key', async () => {
    const store = new SessionSecretStore();
    expect(await store.delete('nobody')).toBe(false);
    await store.set('p1', SECRET);
    expect(await store.delete('p2')).toBe(false);
    expect(await store.get('p1')).toBe(SECRET);
  });

  it('keeps accounts apart, and unicode accounts and keys intact', async () => {
    const store = new SessionSecretStore();
    await store.set('профиль-測試-🚀', 'ключ-密钥-🔑');
    await store.set('p2', 'other-key');
    expect(await store.get('профиль-測試-🚀')).toBe('ключ-密钥-🔑');
    expect(await store.get('p2')).toBe('other-key');
  });

  it('forgets every key on clear()', async () => {
    const store = new SessionSecretStore();
    await store.set('p1', SECRET);
    await store.set('p2', 'other-key');
    store.clear();
    expect(store.size).toBe(0);
    expect(await store.get('p1')).toBeNull();
    expect(await store.has('p2')).toBe(false);
  });

  it('shares nothing between instances (nothing is persisted)', async () => {
    const a = new SessionSecretStore();
    await a.set('p1', SECRET);
    const b = new SessionSecretStore();
    expect(await b.get('p1')).toBeNull();
  });

  it('refuses an invalid key without echoing it, and keeps the previous one', async () => {
    const store = new SessionSecretStore();
    await store.set('p1', SECRET);
    const bad = `${SECRET}\nsecond-line`;
    const error = await store.set('p1', bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretStoreError);
    const e = error as SecretStoreError;
    expect(e.code).toBe('invalid-key');
    for (const text of [e.message, String(e.detail), e.stack ?? '', inspect(e), JSON.stringify(e)]) {
      expect(text).not.toContain(SECRET);
    }
    expect(await store.get('p1')).toBe(SECRET);
    await expect(store.set('p1', '   ')).rejects.toMatchObject({ code: 'invalid-key' });
    await expect(store.set('p1', 'x'.repeat(257))).rejects.toMatchObject({ code: 'invalid-key' });
  });

  it('never shows its keys when logged or serialised', async () => {
    const store = new SessionSecretStore();
    await store.set('p1', SECRET);
    expect(inspect(store, { depth: 10, showHidden: true })).not.toContain(SECRET);
    expect(JSON.stringify(store)).not.toContain(SECRET);
    expect(String(store)).not.toContain(SECRET);
  });

  it('rejects an empty account as a programming error', async () => {
    const store = new SessionSecretStore();
    await expect(store.get('')).rejects.toBeInstanceOf(TypeError);
    await expect(store.set('', SECRET)).rejects.toBeInstanceOf(TypeError);
  });
});
