// Session-only storage: used when no keychain is reachable. The API Key lives in this
// process's memory until clear() (call it when the app quits) and is never written anywhere.
import { requireValidApiKey } from './api-key';
import { assertAccount, type SecretStore } from './secret-store';

export class SessionSecretStore implements SecretStore {
  readonly kind = 'session' as const;
  // A private field: util.inspect / console.log / JSON.stringify of the store never show it.
  readonly #secrets = new Map<string, string>();

  async get(account: string): Promise<string | null> {
    assertAccount(account);
    return this.#secrets.get(account) ?? null;
  }

  async set(account: string, secret: string): Promise<void> {
    assertAccount(account);
    const value = requireValidApiKey(secret);
    this.#secrets.set(account, value);
  }

  async delete(account: string): Promise<boolean> {
    assertAccount(account);
    return this.#secrets.delete(account);
  }

  async has(account: string): Promise<boolean> {
    assertAccount(account);
    return this.#secrets.has(account);
  }

  /** Forgets every secret. Call on quit. */
  clear(): void {
    this.#secrets.clear();
  }

  /** How many secrets are held (not which ones). */
  get size(): number {
    return this.#secrets.size;
  }
}
