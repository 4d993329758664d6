// API Keys kept in main's memory for a short while after a keychain read.
//
// Every look at a followed call, every send, balance check and profile list needs the profile's key.
// Read from the keychain each time, a bulk run of twenty calls asked the keychain (over D-Bus, or
// macOS's keychain, which may ask the person) a few times a second, and under load a slow answer
// stopped following a call or paused a batch. Here a key read is kept for `ttlMs` (main's memory
// is where a key may live besides the keychain), concurrent reads of one entry share one keychain
// call, and a write or delete in this process forgets the entry at once. Another process (the CLI
// setting a key while the app runs) is seen when the entry is next read: at most `ttlMs` later, or
// at once after the provider refuses the old key (`forget`). Only a key found is kept: neither "no
// key" (one the CLI adds is seen at the next use) nor a failed read. An entry past its time is
// dropped at the next read of any key, and one kept before the system clock went back is not used.
import { systemClock, type Clock } from '../clock';
import type { SecretStore } from './secret-store';

/** How long a key read from the keychain is used without asking the keychain again. */
export const KEY_CACHE_MS = 15_000;

export class CachedSecretStore implements SecretStore {
  readonly #inner: SecretStore;
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #kept = new Map<string, { value: string; at: number }>();
  /** Reads on their way; a write, delete or forget removes one, so that what it brings back is not kept. */
  readonly #reading = new Map<string, Promise<string | null>>();

  constructor(inner: SecretStore, { clock = systemClock, ttlMs = KEY_CACHE_MS }: { clock?: Clock; ttlMs?: number } = {}) {
    this.#inner = inner;
    this.#clock = clock;
    this.#ttlMs = ttlMs;
  }

  get kind() {
    return this.#inner.kind;
  }

  async get(account: string): Promise<string | null> {
    const now = this.#clock.now();
    for (const [name, entry] of this.#kept) if (!this.#fresh(entry, now)) this.#kept.delete(name);
    const kept = this.#kept.get(account);
    if (kept) return kept.value;
    const reading = this.#reading.get(account);
    if (reading) return reading;
    const read: Promise<string | null> = this.#inner.get(account).then((value) => {
      if (value !== null && this.#reading.get(account) === read) this.#kept.set(account, { value, at: this.#clock.now() });
      return value;
    });
    this.#reading.set(account, read);
    const done = () => {
      if (this.#reading.get(account) === read) this.#reading.delete(account);
    };
    read.then(done, done);
    return read;
  }

  async set(account: string, secret: string): Promise<void> {
    this.forget(account);
    try {
      await this.#inner.set(account, secret);
    } finally {
      this.forget(account);
    }
  }

  async delete(account: string): Promise<boolean> {
    this.forget(account);
    try {
      return await this.#inner.delete(account);
    } finally {
      this.forget(account);
    }
  }

  async has(account: string): Promise<boolean> {
    return (await this.get(account)) !== null;
  }

  #fresh(entry: { at: number }, now: number): boolean {
    const age = now - entry.at;
    return age >= 0 && age < this.#ttlMs;
  }

  /** The next read of account asks the keychain (the provider refused the key this process used). */
  forget(account: string): void {
    this.#kept.delete(account);
    this.#reading.delete(account);
  }
}
