import type { KeychainReason, KeyCheck, ProfileInput, ProfileSaveResult, ProfileView } from '../../common/contract';
import { profileInput } from '../../common/contract';
import { keyMayGoTo, originOf, sameOrigin } from '../../common/domain/key-origin';
import { requireValidApiKey, validateApiKey } from '../secrets/api-key';
import type { SecretStore } from '../secrets/secret-store';
import type { ProfileRecord, ProfileRepository } from '../store';
import type { ProviderEndpoint } from '../voice/client';
import type { SignatureVariant } from '../signing';
import { fail, invalid } from '../errors';
import { builtinDialect, DEFAULT_DIALECT_ID, isBuiltinUnchanged, SPEC_DIALECT, type Dialect } from '../../common/dialects';
import type { FollowMode } from '../../common/contract/profiles';
import type { ListenerStatus } from '../receipts/receipt-listeners';
import { newReceiptSecret } from '../receipts/listener';
import { isIP } from 'node:net';
import { systemClock, type Clock } from '../clock';

export const SANDBOX_PROFILE_ID = 'sandbox';
export const SANDBOX_API_ID = 'sandbox-demo';
/** Stored base URL of the built-in profile; resolved to the embedded sandbox's address at run time. */
export const SANDBOX_BASE_URL = 'http://sandbox.callout.invalid';

export const secretAccount = (profileId: string) => `profile:${profileId}`;

/** A profile that lives only in this process (the CLI's --base-url/--api-id, or flags over a saved one). */
export type EphemeralProfile = Omit<
  ProfileRecord,
  'createdAt' | 'updatedAt' | 'builtin' | 'keyOrigin' | 'sendKeyUnencrypted' | 'dialect' | 'dialectId' | 'follow' | 'receipts'
> &
  Partial<Pick<ProfileRecord, 'dialect' | 'dialectId' | 'follow' | 'receipts'>> & { sendKeyUnencrypted?: boolean };

/** Settings a saved profile takes for this process only (see overrideForProcess). */
export type ProcessOverrides = Partial<Pick<ProfileRecord, 'totalTimeoutMs' | 'connectTimeoutMs' | 'signing' | 'format'>> & {
  reading?: Partial<Pick<ProfileRecord, 'dialect' | 'dialectId' | 'follow'>>;
};

/**
 * Profiles (in SQLite, no secrets) and their keys (in the secret store). Keys leave only as endpoints, inside main.
 *
 * A key is bound to where it may go (common/domain/key-origin.ts), here and nowhere else, so the
 * app, the CLI's ad-hoc profile and its profile commands all get the same rule:
 * - it belongs to the origin (scheme, host, port) it was entered for: saving a keyed profile with
 *   another origin deletes the key from the keychain, unless a new key comes in the same save;
 *   `endpoint()` hands a key out only to the origin it was entered for, whatever changed the address;
 * - plain http:// is allowed to this machine (loopback) only, unless a person ticked "send my key
 *   unencrypted" (`sendKeyUnencrypted`);
 * - redirects are never followed (the transport), so the key never goes anywhere else on its own.
 */
export class ProfileService {
  /** Profiles that live only in this process (the CLI's --base-url/--api-id), with their key. */
  private readonly ephemeral = new Map<string, { record: ProfileRecord; apiKey: string }>();
  private listenerStatus: (id: string) => ListenerStatus = () => ({ state: 'off', url: null });
  /** The provider's last word on each profile's key: one place for every screen (see KeyCheck). */
  private readonly checks = new Map<string, KeyCheck>();

  constructor(
    private readonly repo: ProfileRepository,
    private readonly secrets: SecretStore,
    private readonly sandboxBaseUrl: () => string | null,
    private readonly clock: Clock = systemClock,
    /**
     * Why the system keychain is not in use (null when it is, or when a person chose session-only
     * storage): a key it holds cannot be read, so a missing key is said as that, not as "no key".
     */
    private readonly keychainProblem: () => Promise<KeychainReason | null> = async () => null,
  ) {}

  /** The error for a profile whose key cannot be had: the keychain's problem if it has one, else "no key". */
  private async missingKey(name: string): Promise<never> {
    const problem = await this.keychainProblem();
    if (problem) throw fail('keychain-unavailable', { kind: problem });
    throw fail('no-key', { profile: name });
  }

  /** Makes sure the built-in Sandbox profile exists (first start). */
  ensureSandboxProfile(): ProfileRecord {
    return (
      this.repo.get(SANDBOX_PROFILE_ID) ??
      this.repo.save({
        id: SANDBOX_PROFILE_ID,
        name: 'Sandbox',
        baseUrl: SANDBOX_BASE_URL,
        apiId: SANDBOX_API_ID,
        signing: 'off',
        format: 'json',
        connectTimeoutMs: 5_000,
        totalTimeoutMs: 15_000,
        lowBalanceThreshold: 3,
        builtin: true,
      })
    );
  }

  /** A profile for this process only (the CLI's --base-url with CALLOUT_API_KEY): the same key rules as a saved one. */
  registerEphemeral(record: EphemeralProfile, apiKey: string): void {
    const key = requireValidApiKey(apiKey);
    const sendKeyUnencrypted = record.sendKeyUnencrypted ?? false;
    if (!keyMayGoTo(record.baseUrl, sendKeyUnencrypted))
      throw fail('key-transport', { profile: record.name, origin: originOf(record.baseUrl) ?? record.baseUrl });
    const at = this.clock.now();
    const full: ProfileRecord = {
      dialect: SPEC_DIALECT,
      dialectId: DEFAULT_DIALECT_ID,
      follow: 'poll',
      receipts: { host: '127.0.0.1', port: 0, secret: null },
      ...record,
      sendKeyUnencrypted,
      keyOrigin: record.baseUrl,
      builtin: false,
      createdAt: at,
      updatedAt: at,
    };
    this.ephemeral.set(record.id, { record: full, apiKey: key });
  }

  /**
   * A saved profile with some settings changed for this process only (the CLI's --timeout, --sign,
   * --format or --dialect with --profile): its key stays the saved one, under the same rules.
   */
  async overrideForProcess(id: string, o: ProcessOverrides): Promise<void> {
    const record = this.record(id);
    const { apiKey } = await this.endpoint(id);
    const total = o.totalTimeoutMs;
    this.registerEphemeral(
      {
        ...record,
        totalTimeoutMs: total ?? record.totalTimeoutMs,
        connectTimeoutMs: o.connectTimeoutMs ?? Math.min(record.connectTimeoutMs, total ?? Infinity),
        signing: o.signing ?? record.signing,
        format: o.format ?? record.format,
        dialect: record.dialect,
        dialectId: record.dialectId,
        follow: record.follow,
        receipts: record.receipts,
        ...o.reading,
      },
      apiKey,
    );
  }

  /**
   * The keys a vector file names by reference ("profile:<name>"), looked up inside main: each one
   * found, and the references whose profile or key is missing.
   */
  async keysByReference(refs: Iterable<string>): Promise<{ keys: Map<string, string>; missing: string[] }> {
    const keys = new Map<string, string>();
    const missing: string[] = [];
    for (const ref of refs) {
      const profile = ref.startsWith('profile:') ? this.findByName(ref.slice('profile:'.length)) : undefined;
      const key = profile
        ? await this.endpoint(profile.id).then(
            (e) => e.apiKey,
            () => null,
          )
        : null;
      if (key) keys.set(ref, key);
      else missing.push(ref);
    }
    return { keys, missing };
  }

  record(id: string): ProfileRecord {
    const r = this.ephemeral.get(id)?.record ?? this.repo.get(id);
    if (!r) throw fail('not-found', { kind: 'profile', id });
    return r;
  }

  /** The stored profiles' records (the built-in one first, then by name). */
  records(): ProfileRecord[] {
    return this.repo.list();
  }

  findByName(name: string): ProfileRecord | undefined {
    return this.repo.findByName(name);
  }

  async view(r: ProfileRecord): Promise<ProfileView> {
    const hasKey = this.ephemeral.has(r.id) || (await this.secrets.has(secretAccount(r.id)));
    const listener = this.listenerStatus(r.id);
    const receipts = { host: r.receipts.host, port: r.receipts.port, url: listener.url, state: listener.state };
    const { keyOrigin: _keyOrigin, ...shown } = r;
    return {
      ...shown,
      baseUrl: r.builtin ? (this.sandboxBaseUrl() ?? r.baseUrl) : r.baseUrl,
      hasKey,
      receipts,
      keyCheck: hasKey ? (this.checks.get(r.id) ?? null) : null,
    };
  }

  /** Where the views learn whether a profile's receipt listener runs. */
  attachListeners(status: (id: string) => ListenerStatus): void {
    this.listenerStatus = status;
  }

  /**
   * Sets the reply dialect: a built-in one (by id) or one of the profile's own. A dialect without
   * a status query can only be followed by receipts: a profile that polled switches to receipts.
   */
  setDialect(id: string, choice: { builtin: string } | { custom: Dialect }): ProfileRecord {
    const r = this.record(id);
    const dialect = 'builtin' in choice ? builtinDialect(choice.builtin) : choice.custom;
    if (!dialect) throw invalid(['dialect', 'dialect-unknown']);
    // Without a status query and without receipts, no call could ever be followed.
    if (!dialect.status && !dialect.receipt) throw invalid(['dialect', 'dialect-cannot-follow']);
    const stored = isBuiltinUnchanged(dialect) ? dialect.id! : JSON.stringify({ ...dialect, id: undefined });
    if (this.ephemeral.has(id)) {
      const e = this.ephemeral.get(id)!;
      e.record = { ...e.record, dialect, dialectId: isBuiltinUnchanged(dialect) ? dialect.id! : null };
      return e.record;
    }
    this.repo.setDialect(id, stored);
    // Follow the calls the way this provider can be followed: receipts when it has no status query, queries when it says nothing of receipts.
    if (!dialect.status && r.follow === 'poll') return this.setFollow(id, { follow: 'receipts' });
    if (!dialect.receipt && r.follow !== 'poll') return this.setFollow(id, { follow: 'poll' });
    return this.record(id);
  }

  /** How the profile's calls are followed, and where its receipt listener listens. */
  setFollow(id: string, s: { follow: FollowMode; host?: string; port?: number; newSecret?: boolean }): ProfileRecord {
    const r = this.record(id);
    if (s.follow === 'poll' && !r.dialect.status) throw invalid(['follow', 'follow-needs-status']);
    if (s.follow !== 'poll' && !r.dialect.receipt) throw invalid(['follow', 'follow-needs-receipt']);
    const host = (s.host ?? r.receipts.host).trim();
    if (host !== 'localhost' && isIP(host) === 0) throw invalid(['host', 'listen-host']);
    const port = s.port ?? r.receipts.port;
    const secret = s.newSecret || (s.follow !== 'poll' && !r.receipts.secret) ? newReceiptSecret() : r.receipts.secret;
    if (this.ephemeral.has(id)) {
      const e = this.ephemeral.get(id)!;
      e.record = { ...e.record, follow: s.follow, receipts: { host, port, secret } };
      return e.record;
    }
    return this.repo.setFollow(id, s.follow, { host, port, secret })!;
  }

  /**
   * What a reply says about a profile's key: any code 2 means it works; a 401 or a rejected signature
   * means it does not. Returns true when that changes what the profile shows (then it is pushed).
   */
  noteKeyCheck(id: string, check: KeyCheck): boolean {
    const before = this.checks.get(id);
    this.checks.set(id, check);
    return before?.result !== check.result || before?.code !== check.code || before?.kind !== check.kind;
  }

  /** A new key (or none): what the provider said about the old one no longer holds. */
  private forgetKeyCheck(id: string): void {
    this.checks.delete(id);
  }

  async list(): Promise<ProfileView[]> {
    return Promise.all(this.repo.list().map((r) => this.view(r)));
  }

  async save(raw: ProfileInput): Promise<ProfileSaveResult> {
    const parsed = profileInput.parse(raw);
    const existing = parsed.id ? this.repo.get(parsed.id) : undefined;
    if (parsed.id && !existing) throw fail('not-found', { kind: 'profile', id: parsed.id });
    const clash = this.repo.findByName(parsed.name);
    if (clash && clash.id !== parsed.id) {
      throw invalid(['name', 'name-taken']);
    }
    // The built-in profile always points at the embedded sandbox: its address and API ID are not the user's to change.
    if (parsed.totalTimeoutMs < parsed.connectTimeoutMs) {
      throw invalid(['totalTimeoutMs', 'timeout-order']);
    }
    const builtin = existing?.builtin ?? false;
    const baseUrl = builtin ? existing!.baseUrl : parsed.baseUrl;
    const { apiKey: newKey, ...fields } = parsed;
    if (!builtin && !keyMayGoTo(baseUrl, parsed.sendKeyUnencrypted)) throw invalid(['baseUrl', 'base-url-plain-http']);
    if (builtin && newKey !== undefined) throw fail('builtin-profile', { kind: 'set-key' });
    const key = newKey === undefined ? undefined : checkedKey(newKey);
    // What the provider said of the key no longer holds once the key, the address, the API ID or the signing changes.
    if (existing && !builtin && (key !== undefined || existing.baseUrl !== baseUrl || existing.apiId !== parsed.apiId || existing.signing !== parsed.signing))
      this.forgetKeyCheck(existing.id);
    // A key stays with the origin it was entered for: moving the profile elsewhere takes it away
    // first (a keychain that cannot delete it stops the save), and only a key entered now goes along.
    let keyRemoved = false;
    if (existing && !builtin && !sameOrigin(existing.baseUrl, baseUrl)) {
      keyRemoved = await this.secrets.delete(secretAccount(existing.id));
      this.repo.setKeyOrigin(existing.id, null);
    }
    const saved = this.repo.save({ ...fields, baseUrl, apiId: builtin ? existing!.apiId : parsed.apiId, builtin });
    if (key !== undefined) {
      await this.secrets.set(secretAccount(saved.id), key);
      this.repo.setKeyOrigin(saved.id, saved.baseUrl);
      keyRemoved = false;
    }
    return { ...(await this.view(this.repo.get(saved.id)!)), keyRemoved };
  }

  async remove(id: string): Promise<boolean> {
    const r = this.record(id);
    if (r.builtin) throw fail('builtin-profile', { kind: 'remove' });
    const removed = this.repo.remove(id);
    await this.secrets.delete(secretAccount(id));
    this.forgetKeyCheck(id);
    return removed;
  }

  async setKey(id: string, apiKey: string): Promise<ProfileView> {
    const r = this.record(id);
    if (r.builtin) throw fail('builtin-profile', { kind: 'set-key' });
    const key = apiKey.trim();
    if (!key) throw invalid(['apiKey', 'key-required']);
    await this.secrets.set(secretAccount(id), key);
    this.repo.setKeyOrigin(id, r.baseUrl);
    this.forgetKeyCheck(id);
    return this.view(r);
  }

  async deleteKey(id: string): Promise<ProfileView> {
    const r = this.record(id);
    if (r.builtin) throw fail('builtin-profile', { kind: 'delete-key' });
    await this.secrets.delete(secretAccount(id));
    this.repo.setKeyOrigin(id, null);
    this.forgetKeyCheck(id);
    return this.view(r);
  }

  /**
   * Main-only: what the capture proxy checks a backend's requests with — the key, API ID, signing
   * variant and dialect. The key is compared here and never sent anywhere, so where it may go does
   * not apply.
   */
  async checkKey(id: string): Promise<{ apiKey: string; apiId: string; variant: SignatureVariant | null; dialect: Dialect }> {
    const r = this.record(id);
    const apiKey = this.ephemeral.get(id)?.apiKey ?? (await this.secrets.get(secretAccount(id)));
    if (!apiKey) return this.missingKey(r.name);
    return { apiKey, apiId: r.apiId, variant: r.signing === 'off' ? null : r.signing, dialect: r.dialect };
  }

  /**
   * The built-in Sandbox's demo account (its API ID and key), for a tester's own backend to
   * authenticate through the capture proxy. A local sandbox's account opens nothing else, so it is
   * shown; only the built-in profile's (a person cannot set its key): a real profile's key never
   * leaves main this way. null when the Sandbox has no key yet.
   */
  async sandboxDemoAccount(): Promise<{ apiId: string; apiKey: string } | null> {
    const r = this.repo.get(SANDBOX_PROFILE_ID);
    if (!r?.builtin) return null;
    const apiKey = await this.secrets.get(secretAccount(r.id));
    return apiKey ? { apiId: r.apiId, apiKey } : null;
  }

  /** Main-only: the endpoint with its key, for the client. */
  async endpoint(id: string): Promise<ProviderEndpoint> {
    const r = this.record(id);
    const apiKey = this.ephemeral.get(id)?.apiKey ?? (await this.secrets.get(secretAccount(id)));
    if (!apiKey) return this.missingKey(r.name);
    const baseUrl = r.builtin ? this.sandboxBaseUrl() : r.baseUrl;
    if (!baseUrl) throw fail('not-found', { kind: 'sandbox' });
    if (!r.builtin) {
      // The key goes only where it was entered for, and over plain http only with consent.
      if (r.keyOrigin === null || !sameOrigin(r.keyOrigin, baseUrl)) throw fail('key-origin', { profile: r.name, origin: originOf(baseUrl) ?? baseUrl });
      if (!keyMayGoTo(baseUrl, r.sendKeyUnencrypted)) throw fail('key-transport', { profile: r.name, origin: originOf(baseUrl) ?? baseUrl });
      // A key stored before keys had a minimum length: refused rather than sent (and redacted letter by letter).
      const valid = validateApiKey(apiKey);
      if (!valid.ok) throw fail('invalid-key', { kind: valid.error });
    }
    return {
      profile: r.id,
      baseUrl,
      apiId: r.apiId,
      apiKey,
      signing: r.signing === 'off' ? null : r.signing,
      connectTimeoutMs: r.connectTimeoutMs,
      totalTimeoutMs: r.totalTimeoutMs,
      format: r.format,
      dialect: r.dialect,
      // A provider without a status query can only be followed by receipts.
      follow: r.dialect.status ? r.follow : 'receipts',
    };
  }
}

/** The key as it will be stored, or the field issue the form shows. */
function checkedKey(raw: string): string {
  const v = validateApiKey(raw);
  if (v.ok) return v.value;
  throw invalid(['apiKey', v.error === 'empty' ? 'key-required' : `key-${v.error}`]);
}
