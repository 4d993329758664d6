import type { Channel, InputOf, IpcError, OutputOf } from '../../common/contract';
import { dispatch } from '../dispatch';
import { createHandlers, type Handlers } from '../handlers';
import { openSecretStore, SessionSecretStore } from '../secrets';
import { createServices, type Services } from '../services';
import { dataDirectory } from '../store/paths';
import type { SignatureVariant } from '../signing';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_TOTAL_TIMEOUT_MS, type ReplyFormat } from '../voice/client';
import { CliFailure, EXIT } from './io';

/** The id of the in-memory profile built from --base-url/--api-id and CALLOUT_API_KEY. */
export const CLI_PROFILE_ID = 'cli';

export interface ProviderFlags {
  profile?: string;
  baseUrl?: string;
  apiId?: string;
  sign?: SignatureVariant;
  format?: ReplyFormat;
  timeout?: number;
  connectTimeout?: number;
}

const USAGE_CODES = new Set(['invalid-input', 'invalid-mobile', 'invalid-content', 'invalid-template', 'not-found', 'no-key', 'builtin-profile', 'database-too-new', 'keychain-unavailable', 'send-in-flight']);

export function failureFromIpc(error: IpcError): CliFailure {
  const exit = USAGE_CODES.has(error.code) ? EXIT.usage : 1;
  return new CliFailure(exit, error.code, error.message);
}

/**
 * One CLI invocation's view of Callout: the same services and the same handler table as the app.
 * Opened lazily, so that `--help` or a usage error touches nothing.
 */
export class CliSession {
  private services?: Services;
  private handlers?: Handlers;
  private profileId?: string;

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** Services for local work (history, templates, signing): no keychain, no sandbox. */
  private async open(withKeychain: boolean): Promise<Handlers> {
    if (!this.handlers) {
      const secrets = withKeychain ? await openSecretStore() : { store: new SessionSecretStore(), status: { kind: 'session' as const, keychainAvailable: false, reason: 'The CLI was given its key in CALLOUT_API_KEY.' } };
      this.services = await createServices({ home: dataDirectory(this.env), secrets, sandbox: false, tracking: false, calls: false });
      this.handlers = createHandlers(this.services);
    }
    return this.handlers;
  }

  async call<C extends Channel>(channel: C, input: InputOf<C>): Promise<OutputOf<C>> {
    const handlers = await this.open(false);
    return this.unwrap(await dispatch(handlers, channel, input));
  }

  private unwrap<T>(r: { ok: true; value: unknown } | { ok: false; error: IpcError }): T {
    if (!r.ok) throw failureFromIpc(r.error);
    return r.value as T;
  }

  /** The profile to call the provider with: --profile NAME (keychain), or --base-url/--api-id with CALLOUT_API_KEY. */
  async providerProfile(flags: ProviderFlags, timeoutOverride?: number): Promise<string> {
    if (this.profileId) return this.profileId;
    if (flags.profile !== undefined) {
      if (flags.baseUrl || flags.apiId) throw new CliFailure(EXIT.usage, 'usage', 'Use either --profile NAME or --base-url/--api-id, not both.');
      await this.open(true);
      const p = this.services!.profiles.findByName(flags.profile) ?? (await this.services!.profiles.list()).find((x) => x.id === flags.profile);
      if (!p) {
        const names = (await this.services!.profiles.list()).map((x) => x.name).join(', ');
        throw new CliFailure(EXIT.usage, 'not-found', `No profile named "${flags.profile}"${names ? ` (profiles: ${names})` : ''}.`);
      }
      const seconds = timeoutOverride ?? flags.timeout;
      if (seconds !== undefined || flags.connectTimeout !== undefined || flags.sign || flags.format) {
        // Flags override the stored profile for this invocation only.
        const record = this.services!.profiles.record(p.id);
        const { apiKey } = await this.services!.profiles.endpoint(p.id);
        this.services!.profiles.registerEphemeral(
          {
            ...record,
            totalTimeoutMs: seconds !== undefined ? seconds * 1000 : record.totalTimeoutMs,
            connectTimeoutMs: flags.connectTimeout !== undefined ? flags.connectTimeout * 1000 : Math.min(record.connectTimeoutMs, seconds !== undefined ? seconds * 1000 : Infinity),
            signing: flags.sign ?? record.signing,
            format: flags.format ?? record.format,
          },
          apiKey,
        );
      }
      return (this.profileId = p.id);
    }
    const baseUrl = flags.baseUrl ?? this.env.CALLOUT_BASE_URL;
    const apiId = flags.apiId ?? this.env.CALLOUT_API_ID;
    const apiKey = this.env.CALLOUT_API_KEY;
    if (!baseUrl) throw new CliFailure(EXIT.usage, 'usage', 'No provider address: pass --profile NAME, or --base-url URL (or set CALLOUT_BASE_URL).');
    let parsed: URL;
    try {
      parsed = new URL(baseUrl);
    } catch {
      throw new CliFailure(EXIT.usage, 'usage', `--base-url is not a valid URL: "${baseUrl}".`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new CliFailure(EXIT.usage, 'usage', `--base-url must start with http:// or https://, got "${baseUrl}".`);
    if (!apiId) throw new CliFailure(EXIT.usage, 'usage', 'No API ID: pass --api-id ID (or set CALLOUT_API_ID).');
    if (!apiKey) throw new CliFailure(EXIT.usage, 'usage', 'No API Key: set the environment variable CALLOUT_API_KEY (it is never taken from a flag).');
    await this.open(false);
    const total = (timeoutOverride ?? flags.timeout) !== undefined ? (timeoutOverride ?? flags.timeout)! * 1000 : DEFAULT_TOTAL_TIMEOUT_MS;
    const connect = flags.connectTimeout !== undefined ? flags.connectTimeout * 1000 : Math.min(DEFAULT_CONNECT_TIMEOUT_MS, total);
    this.services!.profiles.registerEphemeral(
      { id: CLI_PROFILE_ID, name: 'cli', baseUrl, apiId, signing: flags.sign ?? 'off', format: flags.format ?? 'json', connectTimeoutMs: connect, totalTimeoutMs: total, lowBalanceThreshold: null },
      apiKey,
    );
    return (this.profileId = CLI_PROFILE_ID);
  }

  async close(): Promise<void> {
    await this.services?.close();
  }
}
