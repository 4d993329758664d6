// One CLI invocation's view of Callout: the same services (createServices) and the same handler
// table as the app, opened once and only when a command needs them (so `--help` or a usage error
// touches nothing). The OS keychain is opened only when a profile's key is first needed, whatever
// ran before. The CLI goes through the handler table and the push events, like the app's window.
import { readFileSync, statSync } from 'node:fs';
import type { Channel, EventName, InputOf, OutputOf, PayloadOf } from '../../common/contract';
import type { Dialect } from '../../common/dialects';
import type { MessageRecord } from '../../common/records';
import { EVENT_CHANNELS } from '../../common/contract';
import { dispatch } from '../dispatch';
import { createHandlers, type Handlers } from '../handlers';
import { createLocalHandlers, type LocalHandlers } from './local-handlers';
import { CalloutError } from '../errors';
import { requireValidApiKey } from '../secrets/api-key';
import { createServices, type Services } from '../services';
import type { SignatureVariant } from '../signing';
import { dataDirectory, type RecoveredDatabase } from '../store';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_TOTAL_TIMEOUT_MS, type ReplyFormat } from '../voice/client';
import { failureFromIpc, usage } from './io';
import { systemClock, type Clock } from '../clock';
import { reportingUpgrade, type UpgradeReport } from './upgrade-report';

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
  /** --send-key-unencrypted: consent to sending CALLOUT_API_KEY over plain http:// to a host that is not this machine. */
  sendKeyUnencrypted?: boolean;
  /** A one-off reading: a built-in dialect's id, or a dialect file. */
  dialect?: string;
}

/**
 * CALLOUT_API_KEY, checked like every key Callout takes (main/secrets/api-key.ts: trimmed, 8 to 256
 * characters, no control characters). Its value never appears in what is said.
 */
export function envApiKey(env: NodeJS.ProcessEnv): string {
  const raw = env.CALLOUT_API_KEY;
  if (!raw) throw usage('noApiKey');
  try {
    return requireValidApiKey(raw);
  } catch (error) {
    throw asFailure(error);
  }
}

/**
 * CALLOUT_API_KEY for `callout sign` / `verify`, a signature debugger: any non-empty key (trimmed),
 * even one Callout would not store (RFC 4231's "Jefe"); the answer's keyNote says so.
 */
export function envSigningKey(env: NodeJS.ProcessEnv): string {
  const key = env.CALLOUT_API_KEY?.trim();
  if (!key) throw usage('noApiKey');
  return key;
}

/** A coded error of main's as the CLI's failure (exit status from the one table). */
function asFailure(error: unknown): unknown {
  return error instanceof CalloutError ? failureFromIpc(error.toIpc()) : error;
}

type Opened = { services: Services; handlers: Handlers; local: LocalHandlers };

export class CliSession {
  private opened?: Promise<Opened>;
  private profileId?: string;
  /** The damaged database set aside when the store opened (said on stderr and in --json). */
  recovered: RecoveredDatabase | null = null;
  /** The last error the handler table turned into `internal` (its details go to the crash log). */
  lastInternalError: unknown = undefined;
  /**
   * `callout page serve`: this process runs paging like the app (escalations, the embedded Sandbox,
   * every receipt listener, following every open call). Set before the first call.
   */
  serving = false;
  /** How long a command waits for a call's end (--wait-timeout): calls are followed at least that long. Set before the first call. */
  waitMs = 0;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    /** The time of the commands and of the services they open. */
    readonly clock: Clock = systemClock,
  ) {}

  /** Where a serving process says what went wrong in the background (stderr). */
  log?: (error: unknown) => void;

  /** Told while a store written by an earlier version is upgraded, before the first command opens it (upgrade-report.ts). */
  upgrade?: UpgradeReport;

  private open(): Promise<Opened> {
    this.opened ??= (async () => {
      const services = await reportingUpgrade(this.upgrade, () =>
        createServices({
          home: dataDirectory(this.env),
          clock: this.clock,
          secrets: { lazy: true },
          onUpgrade: (p) => this.upgrade?.progress(p),
          ...(this.serving
            ? { paging: { escalate: true }, log: this.log }
            : {
                sandbox: false,
                // A receipt listener starts when a profile that follows by receipts places a call (another Callout may already listen).
                receipts: 'on-demand',
                // The CLI follows the calls it places itself (not every open call of the app), at least as long as it waits for one.
                follow: { maxAgeMs: Math.max(30 * 60_000, this.waitMs), resume: false },
                // Packing the exchanges of an upgraded store is left to the app and to serving processes.
                packExchanges: false,
              }),
        }),
      );
      const local = createLocalHandlers(services);
      this.recovered = await local['app.recovered']();
      return { services, handlers: createHandlers(services), local };
    })();
    return this.opened;
  }

  /** Calls one operation of the handler table; a failure becomes a CliFailure with its exit status. */
  async call<C extends Channel>(channel: C, input: InputOf<C>): Promise<OutputOf<C>> {
    const { handlers } = await this.open();
    const r = await dispatch(handlers, channel, input, (error) => (this.lastInternalError = error));
    if (!r.ok) throw failureFromIpc(r.error);
    return r.value as OutputOf<C>;
  }

  /** Listens to one push event (as the app's window does); returns the unsubscribe function. */
  async on<E extends EventName>(event: E, listener: (payload: PayloadOf<E>) => void): Promise<() => void> {
    const { services } = await this.open();
    const channel: string = EVENT_CHANNELS[event];
    return services.subscribe((c, payload) => {
      if (c === channel) listener(payload as PayloadOf<E>);
    });
  }

  /**
   * Resolves with the message once nothing more will happen to it (the call service's end watcher,
   * which also reads the store now and then). Its timer keeps a plain Node process up while it
   * waits: push events alone do not, and the CLI would exit before the call ends.
   */
  async awaitEnd(id: number, signal?: AbortSignal): Promise<MessageRecord> {
    return this.local('messages.awaitEnd', { id, signal });
  }

  /** Whether the profile's calls can only be followed by the receipts the provider posts (no status to ask). */
  async followsByReceiptsOnly(profileId: string): Promise<boolean> {
    return this.local('profiles.followsByReceiptsOnly', { id: profileId });
  }

  /** A dialect named on the command line: a built-in one's id, or a file checked by main (dialects.check). */
  async dialect(value: string): Promise<Dialect> {
    const builtins = await this.call('dialects.list', undefined);
    const builtin = builtins.find((d) => d.id === value);
    if (builtin) return builtin;
    let size: number;
    try {
      size = statSync(value).size;
    } catch {
      throw usage('dialectNotFound', { value, ids: builtins.map((d) => d.id).join(', ') });
    }
    if (size > 1024 * 1024) throw usage('dialectTooLarge', { value });
    return this.call('dialects.check', { text: readFileSync(value, 'utf8') });
  }

  /** The profile to call the provider with: --profile NAME (keychain), or --base-url/--api-id with CALLOUT_API_KEY. */
  async providerProfile(flags: ProviderFlags, timeoutOverride?: number): Promise<string> {
    if (this.profileId) return this.profileId;
    const dialect = flags.dialect !== undefined ? await this.dialect(flags.dialect) : undefined;
    const reading = dialect ? { dialect, dialectId: dialect.id ?? null, ...(dialect.status ? {} : { follow: 'receipts' as const }) } : {};
    if (flags.profile !== undefined) {
      if (flags.baseUrl || flags.apiId) throw usage('profileAndUrl');
      const list = await this.call('profiles.list', undefined);
      const p = list.find((x) => x.name === flags.profile) ?? list.find((x) => x.id === flags.profile);
      if (!p) throw usage('noProfile', { name: flags.profile, names: list.map((x) => x.name).join(', ') || '—' }, 'not-found');
      const seconds = timeoutOverride ?? flags.timeout;
      if (seconds !== undefined || flags.connectTimeout !== undefined || flags.sign || flags.format || dialect) {
        // Flags override the stored profile for this invocation only.
        await this.local('profiles.overrideForProcess', {
          id: p.id,
          totalTimeoutMs: seconds !== undefined ? seconds * 1000 : undefined,
          connectTimeoutMs: flags.connectTimeout !== undefined ? flags.connectTimeout * 1000 : undefined,
          signing: flags.sign,
          format: flags.format,
          reading,
        });
      }
      return (this.profileId = p.id);
    }
    const baseUrl = flags.baseUrl ?? this.env.CALLOUT_BASE_URL;
    const apiId = flags.apiId ?? this.env.CALLOUT_API_ID;
    if (!baseUrl) throw usage('noBaseUrl');
    let parsed: URL;
    try {
      parsed = new URL(baseUrl);
    } catch {
      throw usage('badBaseUrl', { value: baseUrl });
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw usage('badBaseUrl', { value: baseUrl });
    if (!apiId) throw usage('noApiId');
    const apiKey = envApiKey(this.env);
    const total = (timeoutOverride ?? flags.timeout) !== undefined ? (timeoutOverride ?? flags.timeout)! * 1000 : DEFAULT_TOTAL_TIMEOUT_MS;
    const connect = flags.connectTimeout !== undefined ? flags.connectTimeout * 1000 : Math.min(DEFAULT_CONNECT_TIMEOUT_MS, total);
    await this.local('profiles.registerForProcess', {
      record: {
        id: CLI_PROFILE_ID,
        name: 'cli',
        baseUrl,
        apiId,
        signing: flags.sign ?? 'off',
        format: flags.format ?? 'json',
        connectTimeoutMs: connect,
        totalTimeoutMs: total,
        lowBalanceThreshold: null,
        sendKeyUnencrypted: flags.sendKeyUnencrypted ?? false,
        ...reading,
      },
      apiKey,
    });
    return (this.profileId = CLI_PROFILE_ID);
  }

  /**
   * Calls one of the operations only this process has (handlers.ts: createLocalHandlers). The
   * profile service's rules for keys (length, where they may go) apply to the CLI's profiles too.
   */
  private async local<K extends keyof LocalHandlers>(name: K, input: Parameters<LocalHandlers[K]>[0]): Promise<Awaited<ReturnType<LocalHandlers[K]>>> {
    const { local } = await this.open();
    try {
      return (await (local[name] as (i: typeof input) => Promise<unknown>)(input)) as Awaited<ReturnType<LocalHandlers[K]>>;
    } catch (error) {
      throw asFailure(error);
    }
  }

  /** Closes what was opened; a session that failed to open has nothing to close (its error was already reported). */
  async close(): Promise<void> {
    if (!this.opened) return;
    const opened = await this.opened.catch(() => null);
    await opened?.services.close();
  }
}
