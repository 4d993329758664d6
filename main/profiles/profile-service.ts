import type { KeyCheck, ProfileInput, ProfileView } from '../../common/contract';
import { profileInput } from '../../common/contract';
import type { SecretStore } from '../secrets/secret-store';
import type { ProfileRecord, ProfileRepository } from '../store/profile-repository';
import type { ProviderEndpoint } from '../voice/client';
import { fail, invalid } from '../errors';

export const SANDBOX_PROFILE_ID = 'sandbox';
export const SANDBOX_API_ID = 'sandbox-demo';
/** Stored base URL of the built-in profile; resolved to the embedded sandbox's address at run time. */
export const SANDBOX_BASE_URL = 'http://sandbox.callout.invalid';


export const secretAccount = (profileId: string) => `profile:${profileId}`;

/** Profiles (in SQLite, no secrets) and their keys (in the secret store). Keys leave only as endpoints, inside main. */
export class ProfileService {
  /** Profiles that live only in this process (the CLI's --base-url/--api-id), with their key. */
  private readonly ephemeral = new Map<string, { record: ProfileRecord; apiKey: string }>();
  /** The provider's last word on each profile's key: one place for every screen (see KeyCheck). */
  private readonly checks = new Map<string, KeyCheck>();

  constructor(
    private readonly repo: ProfileRepository,
    private readonly secrets: SecretStore,
    private readonly sandboxBaseUrl: () => string | null,
  ) {}

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

  registerEphemeral(record: Omit<ProfileRecord, 'createdAt' | 'updatedAt' | 'builtin'>, apiKey: string): void {
    const at = Date.now();
    this.ephemeral.set(record.id, { record: { ...record, builtin: false, createdAt: at, updatedAt: at }, apiKey });
  }

  record(id: string): ProfileRecord {
    const r = this.ephemeral.get(id)?.record ?? this.repo.get(id);
    if (!r) throw fail('not-found', { kind: 'profile', id });
    return r;
  }

  findByName(name: string): ProfileRecord | undefined {
    return this.repo.findByName(name);
  }

  async view(r: ProfileRecord): Promise<ProfileView> {
    const hasKey = this.ephemeral.has(r.id) || (await this.secrets.has(secretAccount(r.id)));
    return { ...r, baseUrl: r.builtin ? (this.sandboxBaseUrl() ?? r.baseUrl) : r.baseUrl, hasKey, keyCheck: hasKey ? (this.checks.get(r.id) ?? null) : null };
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

  async save(raw: ProfileInput): Promise<ProfileView> {
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
    if (existing && (existing.baseUrl !== parsed.baseUrl || existing.apiId !== parsed.apiId || existing.signing !== parsed.signing) && !existing.builtin) this.forgetKeyCheck(existing.id);
    const saved = this.repo.save({
      ...parsed,
      baseUrl: existing?.builtin ? existing.baseUrl : parsed.baseUrl,
      apiId: existing?.builtin ? existing.apiId : parsed.apiId,
      builtin: existing?.builtin ?? false,
    });
    return this.view(saved);
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
    this.forgetKeyCheck(id);
    return this.view(r);
  }

  async deleteKey(id: string): Promise<ProfileView> {
    const r = this.record(id);
    if (r.builtin) throw fail('builtin-profile', { kind: 'delete-key' });
    await this.secrets.delete(secretAccount(id));
    this.forgetKeyCheck(id);
    return this.view(r);
  }

  /** Main-only: the endpoint with its key, for the client. */
  async endpoint(id: string): Promise<ProviderEndpoint> {
    const r = this.record(id);
    const apiKey = this.ephemeral.get(id)?.apiKey ?? (await this.secrets.get(secretAccount(id)));
    if (!apiKey) throw fail('no-key', { profile: r.name });
    const baseUrl = r.builtin ? this.sandboxBaseUrl() : r.baseUrl;
    if (!baseUrl) throw fail('not-found', { kind: 'sandbox' });
    return {
      profile: r.id,
      baseUrl,
      apiId: r.apiId,
      apiKey,
      signing: r.signing === 'off' ? null : r.signing,
      connectTimeoutMs: r.connectTimeoutMs,
      totalTimeoutMs: r.totalTimeoutMs,
      format: r.format,
    };
  }
}
