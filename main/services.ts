// Builds the plain-Node services of Callout and the one handler table that IPC, the browser test
// bridge and the CLI all call. No Electron here.
import { randomBytes } from 'node:crypto';
import type { AppInfo, EventName, PayloadOf } from '../common/contract';
import { EVENT_CHANNELS } from '../common/contract';
import { openSecretStore, type SecretStoreStatus } from './secrets';
import type { SecretStore } from './secrets/secret-store';
import { startSandbox, type Sandbox, type SandboxOptions } from './sandbox';
import { openStore, type Store } from './store';
import { dataDirectory } from './store/paths';
import { ProfileService, SANDBOX_API_ID, SANDBOX_PROFILE_ID, secretAccount } from './profiles/profile-service';
import { MessageService } from './voice/message-service';
import { CallTracker } from './tracking/call-tracker';
import type { MessageRecord } from '../common/records';
import { ProfileError } from './profiles/profile-service';
import { runtimeForServices, type CallRuntime } from './bulk/runtime';

export type Locale = 'zh-CN' | 'en';

export interface ServicesOptions {
  /** Data directory; default CALLOUT_HOME or the OS app-data folder. */
  home?: string;
  /** An already opened secret store (tests, or the CLI's session-only mode). */
  secrets?: { store: SecretStore; status: SecretStoreStatus };
  keytarModulePath?: string;
  /** better-sqlite3 build for this runtime (Electron); see main/native-modules.ts. */
  nativeBinding?: string;
  /** The embedded sandbox provider behind the built-in profile; false to run without it. */
  sandbox?: false | Omit<SandboxOptions, 'accounts'>;
  /** Following calls to their end; false for one-shot use (the CLI). */
  tracking?: false | { delayScale?: number; backoffMs?: readonly number[] };
  /** Desktop notification when a call ends (the Electron glue shows it). */
  notify?: (message: MessageRecord, locale: Locale) => void;
  version?: string;
  log?: (error: unknown) => void;
  /** Where "copy as cURL with the key" writes, from main (Electron's clipboard; a recorder in tests). */
  clipboard?: { writeText(text: string): void };
  /** Bulk queue, contacts and quick dial; false for one-shot use (the CLI builds its own). */
  calls?: false | { timeScale?: number };
}

type Listener = (channel: string, payload: unknown) => void;

export interface Services {
  store: Store;
  secrets: SecretStore;
  secretStatus: SecretStoreStatus;
  profiles: ProfileService;
  messages: MessageService;
  sandbox: Sandbox | null;
  tracker: CallTracker | null;
  version: string;
  locale: Locale;
  clipboard: { writeText(text: string): void } | null;
  /** Bulk queue, contacts and quick dial (null when created with calls: false). */
  calls: CallRuntime | null;
  setLocale(locale: Locale): void;
  emit<E extends EventName>(event: E, payload: PayloadOf<E>): void;
  /** Every push event, by IPC channel; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void;
  info(): AppInfo;
  close(): Promise<void>;
}

export async function createServices(options: ServicesOptions = {}): Promise<Services> {
  const home = options.home ?? dataDirectory();
  const store = openStore(home, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  let sandbox: Sandbox | null = null;
  try {
    const { store: secrets, status: secretStatus } = options.secrets ?? (await openSecretStore({ modulePath: options.keytarModulePath }));
    const profiles = new ProfileService(store.profiles, secrets, () => sandbox?.baseUrl ?? null);
    const listeners = new Set<Listener>();
    const emit = <E extends EventName>(event: E, payload: PayloadOf<E>) => {
      for (const l of listeners) l(EVENT_CHANNELS[event], payload);
    };
    const messages = new MessageService({ ...store, onChange: (m) => emit('messageUpdated', m) });

    let locale: Locale = 'en';
    const tracker =
      options.tracking === false
        ? null
        : new CallTracker({
            repo: store.messages,
            ...options.tracking,
            log: options.log,
            poll: async (m) => {
              let endpoint;
              try {
                endpoint = await profiles.endpoint(m.profile);
              } catch (error) {
                if (!(error instanceof ProfileError)) throw error;
                emit('messageUpdated', store.messages.endTracking(m.id, `Stopped following this call: ${error.message}`));
                return 'stop';
              }
              const r = await messages.status(endpoint, m.smsid!);
              if (r.reply && (r.reply.code === 400 || r.reply.code === 401)) {
                // Permanent: the provider does not know this smsid (any more), or refuses these credentials.
                const why = r.reply.code === 400 ? 'the provider does not know this message' : 'the provider refused the credentials';
                emit('messageUpdated', store.messages.endTracking(m.id, `Stopped following this call: ${why} (code ${r.reply.code}${r.reply.msg ? `, ${r.reply.msg}` : ''}).`));
                return 'stop';
              }
              return r.message?.endedAt != null ? 'final' : 'open';
            },
            onFinal: (m) => {
              emit('messageUpdated', m);
              options.notify?.(m, locale);
            },
          });

    for (const m of store.messages.recoverInterrupted()) emit('messageUpdated', m);
    profiles.ensureSandboxProfile();
    if (options.sandbox !== false) {
      // The sandbox account's key is generated once and kept like any other key.
      const account = secretAccount(SANDBOX_PROFILE_ID);
      let apiKey = await secrets.get(account);
      if (!apiKey) {
        apiKey = `sbx_${randomBytes(18).toString('base64url')}`;
        await secrets.set(account, apiKey);
      }
      sandbox = await startSandbox({ ...options.sandbox, accounts: [{ apiId: SANDBOX_API_ID, apiKey }] });
    }
    // Calls still ringing when Callout last stopped are followed again.
    tracker?.resumeOpen();

    const services: Services = {
      store,
      secrets,
      secretStatus,
      profiles,
      messages,
      sandbox,
      tracker,
      version: options.version ?? '0.1.0',
      get locale() {
        return locale;
      },
      setLocale(l) {
        locale = l;
      },
      emit,
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      clipboard: options.clipboard ?? null,
      info: () => ({
        version: options.version ?? '0.1.0',
        dataDirectory: home,
        secretStore: secretStatus,
        sandboxBaseUrl: sandbox?.baseUrl ?? null,
        databaseRecovered: store.recovered,
      }),
      calls: null,
      async close() {
        await services.calls?.close();
        tracker?.stop();
        listeners.clear();
        await sandbox?.close();
        store.close();
      },
    };
    if (options.calls !== false) {
      services.calls = runtimeForServices(services, {
        timeScale: options.calls?.timeScale,
        onBulkProgress: (p) => emit('bulkProgress', p),
        onDialProgress: (p) => emit('dialProgress', p),
        log: options.log,
      });
      // Batches that were running when Callout last stopped reopen paused; their in-flight items become unknown.
      services.calls.queue.recover();
    }
    return services;
  } catch (error) {
    await sandbox?.close();
    store.close();
    throw error;
  }
}
