// The composition root: every long-lived object of Callout is built here, once — the store, the
// secrets, profiles, the embedded sandbox, the send-and-follow service, the bulk queue and import,
// contacts and the dialer — and the push events they emit. The handler table (handlers.ts), the
// Electron glue, `callout ui`, the CLI and the tests all take them from here. No Electron here.
import { randomBytes } from 'node:crypto';
import type { AppInfo, EventName, PayloadOf, StorageProblem } from '../common/contract';
import { EVENT_CHANNELS } from '../common/contract';
import type { Lang } from '../common/domain/i18n-text';
import type { BatchItemRecord, BatchRecord } from '../common/bulk-types';
import type { MessageRecord } from '../common/records';
import { BulkService } from './bulk/bulk-service';
import { GovernorRegistry } from './lines/governor';
import { BulkQueue, type BulkQueueOptions } from './bulk/queue';
import { CallService } from './calls/call-service';
import { ContactService } from './dial/contacts';
import { Dialer } from './dial/dialer';
import { ProfileService, SANDBOX_API_ID, SANDBOX_PROFILE_ID, secretAccount } from './profiles/profile-service';
import { startSandbox, type Sandbox, type SandboxOptions } from './sandbox';
import { SandboxControl } from './sandbox/control';
import { openSecretStore, type SecretStoreStatus } from './secrets';
import type { SecretStore } from './secrets/secret-store';
import { CachedSecretStore } from './secrets/cached-store';
import {
  databasePath,
  dataDirectory,
  KeptAnswers,
  upgradeStore,
  type UpgradeProgress,
  openStore,
  type DialSettingsRepository,
  type ExchangeRepository,
  type HistoryRepository,
  type RecoveredDatabase,
  type Store,
  type ArchiveShelf,
  type Archiver,
  type PackingJob,
  type StoreRetention,
  type TemplateRepository,
} from './store';
import { SentMessages } from './send/sent-messages';
import { ReceiptListeners } from './receipts/receipt-listeners';
import { CaptureService } from './capture/capture-service';
import { fail, isCalloutError, isDiskFull, isStorageError } from './errors';
import { WorkbenchService } from './workbench/workbench-service';
import { systemClock, type Clock } from './clock';
import { PagingService } from './paging/paging-service';
import type { PagingRules } from './paging/deps';

export type Locale = Lang;

export interface ServicesOptions {
  /** The time every part of main reads and waits on: systemClock by default, a ManualClock in tests. */
  clock?: Clock;
  /** Data directory; default CALLOUT_HOME or the OS app-data folder. */
  home?: string;
  /**
   * The secret store: an opened one (tests, the CLI with CALLOUT_API_KEY), or how to open the OS
   * keychain. `lazy` opens it only when a key is first needed (the CLI: local commands never touch it).
   */
  secrets?: { store: SecretStore; status: SecretStoreStatus } | { lazy: true };
  /** The embedded sandbox provider behind the built-in profile; false to run without it. */
  sandbox?: false | Omit<SandboxOptions, 'accounts'>;
  /**
   * Following calls to their end. `resume`: at start, follow again the calls still going on in the
   * database (the app: yes; the CLI follows only the calls it places itself).
   */
  follow?: { maxAgeMs?: number; budgetPerLine?: number; resume?: boolean };
  /**
   * Receipt listeners of profiles that follow by receipts: `all` starts every one at start (the
   * app), `on-demand` starts one when its profile places or follows a call (the CLI). Default all.
   */
  receipts?: 'all' | 'on-demand';
  /** How often messages someone waits for are re-read from the store. Default 1000 ms. */
  watcherPollMs?: number;
  queue?: Pick<BulkQueueOptions, 'unknownHoldMs' | 'maxHoldMs' | 'unknownStreakLimit' | 'progressIntervalMs'>;
  /** How a send's result is written again after a failed write (tests: short delays). */
  storeRetry?: { delaysMs?: readonly number[]; intervalMs?: number };
  /** Desktop notification when a call ends (the Electron glue shows it). */
  notify?: (message: MessageRecord, locale: Locale) => void;
  version?: string;
  log?: (error: unknown) => void;
  /** Where "copy as cURL with the key" writes, from main (Electron's clipboard; a recorder in tests). */
  clipboard?: { writeText(text: string): void };
  /** Paging: its pure rules, and whether this process runs escalations (the app, `callout page serve`; default: when the rules are given). */
  paging?: { rules?: PagingRules; escalate?: boolean };
  /**
   * Tests only (fault injection): called with the store as soon as it is opened, before anything is
   * built on it, so a test can replace a repository's method (a write that fails, a setting read
   * otherwise). The store never leaves this file otherwise; production never sets this.
   */
  testOnlyWrapStore?: (store: Store) => void;
  /** Pack exchanges stored before migration 0020 in the background (default true; false: a short-lived command). */
  packExchanges?: boolean;
  /**
   * Told as a store written by an earlier version is upgraded, before anything else opens it (in a
   * worker thread: store/upgrade.ts); the app shows a window, the CLI a line. Nothing for a store
   * that is up to date.
   */
  onUpgrade?: (p: UpgradeProgress) => void;
}

type Listener = (channel: string, payload: unknown) => void;

export interface Services {
  home: string;
  /** The one clock of this process (see main/clock.ts). */
  clock: Clock;
  secrets: SecretStore;
  profiles: ProfileService;
  calls: CallService;
  governors: GovernorRegistry;
  queue: BulkQueue;
  bulk: BulkService;
  contacts: ContactService;
  dialer: Dialer;
  /** The raw client, collections, environments and runs. */
  workbench: WorkbenchService;
  sandbox: Sandbox | null;
  /** The receipt listeners of profiles that follow their calls by receipts. */
  receipts: ReceiptListeners;
  /** The capture proxy: a backend's requests to the provider, passed through, checked and stored. */
  capture: CaptureService;
  /** Paging: routes, policies, schedules, maintenance, incidents and their escalations. */
  paging: PagingService;
  // The stored records the handler table reads and writes itself: narrow repositories handed out by
  // the composition root. The store, its database and its transactions stay in main/store/.
  templates: TemplateRepository;
  history: HistoryRepository;
  exchanges: ExchangeRepository;
  /** Dial limits and quiet hours, a profile's lines and lending, learned redial waits. */
  dialSettings: DialSettingsRepository;
  /** Retention of exchanges, and vacuum. */
  retention: StoreRetention;
  /** Packing the exchanges stored before the upgrade to small exchanges (its progress: retention.packing()). */
  packing: PackingJob;
  /** Archive files of old months: reading them (shelf) and making them (archiver). */
  archives: { shelf: ArchiveShelf; archiver: Archiver };
  /** A sent message's detail, and the recent numbers and template values. */
  sent: SentMessages;
  /** Set when the database was damaged at start: it was moved aside (never deleted) and this store started empty. */
  recovered: RecoveredDatabase | null;
  /** Where unexpected errors go (the app's log). */
  log: (error: unknown) => void;
  /** The sandbox behind a profile, as the Sandbox screen drives it (the built-in profile: the embedded sandbox). */
  sandboxControl(profileId: string): SandboxControl;
  /** What start-up found left over by a process that is gone: sends marked unknown, batches reopened paused, their in-flight items marked unknown. */
  recovery: { messages: MessageRecord[]; batches: BatchRecord[]; items: BatchItemRecord[] };
  version: string;
  readonly locale: Locale;
  clipboard: { writeText(text: string): void } | null;
  setLocale(locale: Locale): void;
  /** Set while Callout cannot write to its data directory (pushed as storageProblem). */
  readonly storageProblem: StorageProblem | null;
  /** A write failed (error) or succeeded (null): keeps storageProblem and its push up to date. */
  noteStoreHealth(error: unknown | null): void;
  /** The secret store's state (opening the keychain first if it is opened lazily). */
  secretStatus(): Promise<SecretStoreStatus>;
  emit<E extends EventName>(event: E, payload: PayloadOf<E>): void;
  /** Every push event, by channel; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void;
  info(): Promise<AppInfo>;
  close(): Promise<void>;
}

/**
 * How long the CLI waits for the keychain to answer its first question. Longer than the app's
 * start-up wait (DEFAULT_PROBE_TIMEOUT_MS): nothing else waits on it, a person at a terminal may be
 * answering an unlock prompt, and a slow keychain must not turn into "no key".
 */
export const LAZY_KEYCHAIN_PROBE_TIMEOUT_MS = 20_000;

/** A secret store that opens the OS keychain on first use (the CLI's). */
function lazyKeychain(): { store: SecretStore; status: () => Promise<SecretStoreStatus> } {
  let opened: Promise<{ store: SecretStore; status: SecretStoreStatus }> | null = null;
  const open = () => (opened ??= openSecretStore({ probeTimeoutMs: LAZY_KEYCHAIN_PROBE_TIMEOUT_MS }));
  const store: SecretStore = {
    get kind() {
      return 'keychain' as const;
    },
    get: async (account) => (await open()).store.get(account),
    set: async (account, secret) => (await open()).store.set(account, secret),
    delete: async (account) => (await open()).store.delete(account),
    has: async (account) => (await open()).store.has(account),
  };
  return { store, status: async () => (await open()).status };
}

export async function createServices(options: ServicesOptions = {}): Promise<Services> {
  const home = options.home ?? dataDirectory();
  const clock = options.clock ?? systemClock;
  // An older store is upgraded in a worker first, main's event loop free to show how far it is.
  const upgrade = await upgradeStore(databasePath(home), { onProgress: options.onUpgrade, log: (m) => options.log?.(new Error(m)) });
  let store: Store;
  try {
    store = openStore(home, { clock });
  } catch (error) {
    // No room to open the store, or to upgrade it (what the upgrade did is kept: it goes on at the next start).
    if (isCalloutError(error, 'disk-full')) throw fail('disk-full', { dir: home, kind: upgrade === 'failed' ? 'upgrade' : 'open' });
    throw error;
  }
  options.testOnlyWrapStore?.(store);
  let sandbox: Sandbox | null = null;
  try {
    let keychain: SecretStore;
    let secretStatus: () => Promise<SecretStoreStatus>;
    if (options.secrets && 'lazy' in options.secrets) {
      ({ store: keychain, status: secretStatus } = lazyKeychain());
    } else {
      const opened = options.secrets ?? (await openSecretStore());
      keychain = opened.store;
      secretStatus = async () => opened.status;
    }
    // Keys read once are kept in main's memory for a few seconds: following calls asks for them often.
    const secrets = new CachedSecretStore(keychain, { clock });

    const listeners = new Set<Listener>();
    const emit = <E extends EventName>(event: E, payload: PayloadOf<E>) => {
      for (const l of listeners) l(EVENT_CHANNELS[event], payload);
    };
    let locale: Locale = 'en';
    let storageProblem: StorageProblem | null = null;
    // Called only once the services below exist.
    const unstoredCount = () => calls.unstoredResults().length;
    const noteStoreHealth = (error: unknown | null) => {
      if (error === null) {
        if (!storageProblem || unstoredCount() > 0) return;
        storageProblem = null;
      } else {
        // Only the store's own troubles (full, read-only, I/O): a programming error is no banner.
        if (!isStorageError(error)) return;
        const kind = isDiskFull(error) ? 'disk-full' : 'write-failed';
        const unstored = unstoredCount();
        if (storageProblem && storageProblem.kind === kind && storageProblem.unstored === unstored) return;
        storageProblem = { kind, unstored, dataDirectory: home, at: clock.now() };
      }
      emit('storageProblem', storageProblem);
    };

    // A key the keychain holds but cannot give (locked, not answering) is said as that, not as "no key".
    const keychainProblem = async () => {
      const status = await secretStatus();
      return status.kind !== 'keychain' && status.reasonCode && status.reasonCode !== 'forced' ? status.reasonCode : null;
    };
    const profiles = new ProfileService(store.profiles, secrets, () => sandbox?.baseUrl ?? null, clock, keychainProblem);
    let receipts: ReceiptListeners | null = null;
    // One governor per profile, for batches and quick dial; a call waiting for its redial lends its line
    // (unless the profile is set not to, or a refusal kept with the profile stopped it).
    const governors = new GovernorRegistry((id) => store.dialSettings.profileLines(id), {
      clock,
      lendingOf: (id) => store.dialSettings.profileLending(id),
      refusals: { at: (id) => store.dialSettings.lendingRefusedAt(id), keep: (id, at) => store.dialSettings.setLendingRefusedAt(id, at) },
      log: options.log,
    });
    const calls = new CallService({
      messages: store.messages,
      exchanges: store.exchanges,
      endpoint: (id) => profiles.endpoint(id),
      onChange: (m) => emit('messageUpdated', m),
      onCallEnded: (m) => {
        options.notify?.(m, locale);
        emit('callEnded', m);
      },
      onKeyVerdict: (profileId, verdict) => {
        // Refused: the next request reads the key again (another process may have replaced it).
        if (verdict.result === 'rejected') secrets.forget(secretAccount(profileId));
        if (!profiles.noteKeyCheck(profileId, { ...verdict, at: clock.now() })) return;
        // Every screen shows the same verdict: the profile is pushed to every caller.
        const record = (() => {
          try {
            return profiles.record(profileId);
          } catch {
            return null;
          }
        })();
        if (record)
          void profiles.view(record).then(
            (v) => emit('profileUpdated', v),
            (error: unknown) => options.log?.(error),
          );
      },
      follow: options.follow,
      linesOf: (id) => store.dialSettings.profileLines(id),
      redialWaits: { load: (id) => store.dialSettings.learnedRedialWait(id), save: (id, wait) => store.dialSettings.saveRedialWait(id, wait) },
      onLineFree: (id, untilMs) => governors.lend(id, untilMs),
      watcherPollMs: options.watcherPollMs,
      ensureReceipts: (id) => receipts?.ensure(id) ?? Promise.resolve(),
      log: options.log,
      onStoreHealth: noteStoreHealth,
      storeRetry: options.storeRetry,
      clock,
      kept: new KeptAnswers({ home, now: () => clock.now() }),
      followKept: options.follow?.resume ?? true,
    });
    receipts = new ReceiptListeners({
      record: (id) => {
        try {
          return profiles.record(id);
        } catch {
          return undefined;
        }
      },
      calls,
      keepPort: (id, port) => store.profiles.keepReceiptPort(id, port),
      log: options.log,
      clock,
    });
    profiles.attachListeners((id) => receipts!.status(id));
    const send = calls.send.bind(calls);
    const awaitEnd = calls.awaitEnd.bind(calls);
    const queue = new BulkQueue({
      batches: store.batches,
      send,
      awaitEnd,
      governors,
      followLeft: (ids) => calls.followLeft(ids),
      onProgress: (p) => emit('bulkProgress', p),
      clock,
      log: options.log,
      ...options.queue,
    });
    const bulk = new BulkService({ queue, templates: store.templates, calledSince: (since) => store.messages.calledSince(since), clock });
    const contacts = new ContactService(store.contacts);
    const dialer = new Dialer({
      contacts,
      settings: store.dialSettings,
      templates: store.templates,
      send,
      awaitEnd,
      governors,
      onProgress: (p) => emit('dialProgress', p),
      clock,
      log: options.log,
    });

    const workbench = new WorkbenchService({
      saved: store.workbench,
      exchanges: store.exchanges,
      profiles,
      clipboard: () => options.clipboard ?? null,
      onRunProgress: (p) => emit('runProgress', p),
      clock,
    });
    const capture = new CaptureService({
      exchanges: store.exchanges,
      templates: () => store.templates.list(),
      checkKey: (id) => profiles.checkKey(id),
      onChange: (status, exchangeId) => emit('captureUpdated', { status, exchangeId }),
      onStoreHealth: noteStoreHealth,
      log: options.log,
      clock,
    });

    const paging = new PagingService({
      config: store.pagingConfig,
      incidents: store.incidents,
      settings: store.settings,
      contacts: store.contacts,
      limits: store.dialSettings,
      templates: store.templates,
      send,
      awaitEnd,
      clock,
      defaultProfileId: SANDBOX_PROFILE_ID,
      rules: options.paging?.rules,
      escalate: options.paging?.escalate ?? options.paging?.rules !== undefined,
      onChange: (incident) => emit('incidentUpdated', incident),
      secrets,
      secretStatus,
      log: options.log,
    });

    // Answers a process kept in files because the store could not take them are written first (a
    // full disk: their smsid reaches the history); then sends left in flight by a process that is
    // gone become unknown, and calls still going on are followed again.
    calls.replayKept();
    const interrupted = calls.recover({ resume: options.follow?.resume ?? true });
    profiles.ensureSandboxProfile();
    if (options.sandbox !== false) {
      // The sandbox account's key is generated once and kept like any other key.
      const account = secretAccount(SANDBOX_PROFILE_ID);
      let apiKey = await secrets.get(account);
      if (!apiKey) {
        apiKey = `sbx_${randomBytes(18).toString('base64url')}`;
        await secrets.set(account, apiKey);
      }
      sandbox = await startSandbox({ clock, ...options.sandbox, accounts: [{ apiId: SANDBOX_API_ID, apiKey }] });
    }
    // Batches that were running when Callout last stopped reopen paused; their in-flight items become unknown.
    const recovered = queue.recover();
    // Exchanges stored before they were kept small are packed in the background, where it stopped last time.
    const packing = options.packExchanges === false ? null : store.startPacking(clock, options.log);
    // Escalations waiting in the store resume (what fell due meanwhile runs once, late).
    paging.start();
    if ((options.receipts ?? 'all') === 'all') await receipts.startAll(store.profiles.list());

    const archiver = store.archiver(clock, options.log);
    // A removal of archived exchanges that a closed or killed process left unfinished goes on (the app's background work).
    if (options.packExchanges !== false) archiver.resume();

    const version = options.version ?? '0.1.0';
    const services: Services = {
      home,
      clock,
      secrets,
      profiles,
      calls,
      governors,
      queue,
      bulk,
      contacts,
      dialer,
      workbench,
      sandbox,
      receipts,
      capture,
      paging,
      templates: store.templates,
      history: store.history,
      exchanges: store.exchanges,
      dialSettings: store.dialSettings,
      retention: store.retention,
      packing: packing ?? { done: Promise.resolve(), stop: () => undefined },
      archives: { shelf: store.archives, archiver },
      sent: new SentMessages({
        messages: store.messages,
        templates: store.templates,
        exchanges: store.exchanges,
        incidents: store.incidents,
        archives: store.archives,
      }),
      recovered: store.recovered,
      log: options.log ?? (() => undefined),
      sandboxControl(profileId) {
        const record = profiles.record(profileId);
        if (!record.builtin || !sandbox) throw fail('not-found', { kind: 'sandbox' });
        return new SandboxControl(
          sandbox,
          record.apiId,
          record.id,
          () => store.templates.list(),
          (ids) => void store.templates.markApproved(ids),
        );
      },
      recovery: { messages: interrupted, ...recovered },
      version,
      get locale() {
        return locale;
      },
      setLocale(l) {
        locale = l;
      },
      get storageProblem() {
        return storageProblem;
      },
      noteStoreHealth,
      secretStatus,
      emit,
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      clipboard: options.clipboard ?? null,
      info: async () => ({
        version,
        dataDirectory: home,
        secretStore: await secretStatus(),
        sandboxBaseUrl: sandbox?.baseUrl ?? null,
        databaseRecovered: store.recovered,
        storageProblem,
      }),
      async close() {
        packing?.stop();
        archiver.stop();
        await archiver.finished();
        await dialer.close();
        await paging.close();
        await queue.close();
        await receipts!.close();
        await capture.close();
        calls.close();
        governors.close();
        listeners.clear();
        await sandbox?.close();
        store.close();
      },
    };
    return services;
  } catch (error) {
    await sandbox?.close();
    store.close();
    throw error;
  }
}
