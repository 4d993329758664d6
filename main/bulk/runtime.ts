// Builds the bulk queue, the import service, contacts and the dialer on top of the app's services,
// so that wiring them into IPC is a few lines: see runtimeForServices.
import { EVENT_CHANNELS } from '../../common/contract';
import type { MessageRecord } from '../../common/records';
import { ContactService } from '../dial/contacts';
import { Dialer, type DialProgress } from '../dial/dialer';
import type { Services } from '../services';
import type { Store } from '../store';
import { CallTracker } from '../tracking/call-tracker';
import { BulkService } from './bulk-service';
import { FinalWatcher } from './final-watcher';
import { GovernorRegistry } from './governor';
import { BulkQueue, type BatchProgress, type BulkQueueOptions, type SendFn } from './queue';

export interface CallRuntimeOptions {
  store: Pick<Store, 'batches' | 'contacts' | 'dialSettings' | 'templates' | 'messages'>;
  /** Sends one message; must start following an accepted call (as the messages.send handler does). */
  send: SendFn;
  /** Every message change (the main:message-updated pushes); returns the unsubscribe function. */
  subscribeMessages?: (listener: (m: MessageRecord) => void) => () => void;
  /** Speeds up the governor's hour, hold times and dial pauses (tests, benchmarks). Default 1. */
  timeScale?: number;
  /** How often watched messages are re-read from the store (safety net for a missed push). Default 1000 ms. */
  watcherPollMs?: number;
  onBulkProgress?: (p: BatchProgress) => void;
  onDialProgress?: (p: DialProgress) => void;
  queue?: Pick<BulkQueueOptions, 'unknownHoldMs' | 'maxHoldMs' | 'unknownStreakLimit' | 'progressIntervalMs'>;
  log?: (error: unknown) => void;
}

export interface CallRuntime {
  governors: GovernorRegistry;
  watcher: FinalWatcher;
  queue: BulkQueue;
  bulk: BulkService;
  contacts: ContactService;
  dialer: Dialer;
  close(): Promise<void>;
}

export function createCallRuntime(o: CallRuntimeOptions): CallRuntime {
  const timeScale = o.timeScale ?? 1;
  const governors = new GovernorRegistry((id) => o.store.dialSettings.profileLines(id), { timeScale });
  const watcher = new FinalWatcher({ get: (id) => o.store.messages.get(id), pollMs: o.watcherPollMs ?? 1000 });
  const unsubscribe = o.subscribeMessages?.((m) => watcher.notify(m));
  const awaitFinal = (id: number, signal?: AbortSignal) => watcher.awaitFinal(id, signal);
  const queue = new BulkQueue({
    batches: o.store.batches,
    send: o.send,
    awaitFinal,
    governors,
    onProgress: o.onBulkProgress,
    timeScale,
    log: o.log,
    ...o.queue,
  });
  const bulk = new BulkService({ queue, templates: o.store.templates });
  const contacts = new ContactService(o.store.contacts);
  const dialer = new Dialer({
    contacts,
    settings: o.store.dialSettings,
    templates: o.store.templates,
    send: o.send,
    awaitFinal,
    governors,
    onProgress: o.onDialProgress,
    timeScale,
    log: o.log,
  });
  return {
    governors,
    watcher,
    queue,
    bulk,
    contacts,
    dialer,
    async close() {
      await dialer.close();
      await queue.close();
      unsubscribe?.();
      watcher.close();
      governors.close();
    },
  };
}

/** The messages.send handler's send, as a SendFn: validate, send, record, and follow an accepted call. */
export function sendThroughServices(services: Pick<Services, 'profiles' | 'messages' | 'tracker'>, extraTracker?: CallTracker | null): SendFn {
  return async (profileId, input) => {
    const endpoint = await services.profiles.endpoint(profileId);
    const r = await services.messages.send(endpoint, { mobile: input.mobile, content: input.content, templateId: input.templateId, resendOf: input.resendOf ?? null });
    if (r.message.outcome === 'accepted') (services.tracker ?? extraTracker)?.track(r.message.id);
    const f = r.failure;
    return { message: r.message, failure: f && { kind: f.kind === 'transport' ? f.transportKind : f.kind, outcome: f.outcome, message: f.message } };
  };
}

/**
 * The runtime on the app's services (what the lead wires into IPC). Calls are followed by the
 * services' tracker; without one (tracking: false) a tracker of its own follows the bulk and dial calls.
 */
export function runtimeForServices(
  services: Services,
  o: Omit<CallRuntimeOptions, 'store' | 'send' | 'subscribeMessages'> & { trackerDelayScale?: number } = {},
): CallRuntime & { tracker: CallTracker | null } {
  let own: CallTracker | null = null;
  let runtime: CallRuntime | null = null;
  if (!services.tracker) {
    own = new CallTracker({
      repo: services.store.messages,
      delayScale: o.trackerDelayScale ?? o.timeScale,
      poll: async (m) => {
        const r = await services.messages.status(await services.profiles.endpoint(m.profile), m.smsid!);
        if (r.reply && (r.reply.code === 400 || r.reply.code === 401)) {
          services.store.messages.endTracking(m.id, `Stopped following this call: the provider answered code ${r.reply.code}.`);
          return 'final';
        }
        return r.message?.endedAt != null ? 'final' : 'open';
      },
      onFinal: (m) => {
        services.emit('messageUpdated', m);
        runtime?.watcher.notify(m);
      },
      log: o.log,
    });
  }
  const messageChannel: string = EVENT_CHANNELS.messageUpdated;
  runtime = createCallRuntime({
    ...o,
    store: services.store,
    send: sendThroughServices(services, own),
    subscribeMessages: (listener) => services.subscribe((channel, payload) => channel === messageChannel && listener(payload as MessageRecord)),
  });
  const base = runtime;
  return {
    ...base,
    tracker: own,
    async close() {
      own?.stop();
      await base.close();
    },
  };
}
