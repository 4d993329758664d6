// Paging as the rest of main sees it: its configuration, its incidents and its engine, built once
// by the composition root (services.ts) on the store and the send path of quick dial.
import type { Store } from '../store';
import type { Clock } from '../clock';
import type { AwaitEnd, SendFn } from '../bulk/queue';
import { getSetting, IncidentRepository, PagingConfigRepository } from '../store';
import type { IncidentRecord } from '../../common/paging/records';
import type { PagingRules } from './deps';
import { PagingEngine } from './engine';
import { pagingRules } from './rules';

/** The settings key of the profile paging calls with (default: the built-in Sandbox profile). */
export const PAGING_PROFILE_SETTING = 'paging.profile';


export interface PagingServiceOptions {
  store: Store;
  send: SendFn;
  awaitEnd: AwaitEnd;
  clock: Clock;
  /** The profile used when none is set. */
  defaultProfileId: string;
  /** The pure rules (default: common/paging's, rules.ts); tests may give their own. */
  rules?: PagingRules;
  /** Run escalations in this process: resume pending steps at start and claim due ones (the app, `callout page serve`). */
  escalate?: boolean;
  onChange?: (incident: IncidentRecord) => void;
  log?: (error: unknown) => void;
}

export class PagingService {
  readonly config: PagingConfigRepository;
  readonly incidents: IncidentRepository;
  readonly engine: PagingEngine;

  constructor(o: PagingServiceOptions) {
    const now = () => o.clock.now();
    const { store } = o;
    this.config = new PagingConfigRepository(store.db, now);
    this.incidents = new IncidentRepository(store.db, now);
    this.engine = new PagingEngine({
      incidents: this.incidents,
      config: this.config,
      contacts: {
        get: (id) => store.contacts.get(id),
        group: (id) => store.contacts.getGroup(id),
      },
      limits: store.dialSettings,
      send: o.send,
      awaitEnd: o.awaitEnd,
      profileId: () => getSetting(store.db, PAGING_PROFILE_SETTING) ?? o.defaultProfileId,
      ...(o.rules ?? pagingRules(store.templates)),
      clock: o.clock,
      onChange: o.onChange,
      log: o.log,
    });
    this.escalate = Boolean(o.escalate);
  }

  private readonly escalate: boolean;

  /** Once calls left by a previous process are recovered: resume pending steps and claim due ones (when this process escalates). */
  start(): void {
    if (this.escalate) this.engine.resume();
  }

  close(): Promise<void> {
    return this.engine.close();
  }
}
