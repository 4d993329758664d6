// Paging as the rest of main sees it: its configuration, its incidents and its engine, built once
// by the composition root (services.ts) on the store and the send path of quick dial.
import type { Clock } from '../clock';
import type { AwaitEnd, SendFn } from '../bulk/queue';
import type { ContactRepository, DialSettingsRepository, IncidentRepository, PagingConfigRepository, SettingsRepository, TemplateRepository } from '../store';
import type { IncidentRecord } from '../../common/paging/records';
import type { PagingRules } from './deps';
import { PagingEngine } from './engine';
import { pagingRules } from './rules';
import { AlertIntake } from './intake-service';
import type { SecretStoreStatus } from '../secrets';
import type { SecretStore } from '../secrets/secret-store';

/** The settings key of the profile paging calls with (default: the built-in Sandbox profile). */
export const PAGING_PROFILE_SETTING = 'paging.profile';

export interface PagingServiceOptions {
  /** Paging's own tables, and what it reads of the rest (the composition root gives them from the store). */
  config: PagingConfigRepository;
  incidents: IncidentRepository;
  settings: SettingsRepository;
  contacts: Pick<ContactRepository, 'get' | 'getGroup'>;
  limits: DialSettingsRepository;
  templates: TemplateRepository;
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
  /** Where the receiver's credentials are kept (the keychain, like API keys). */
  secrets: SecretStore;
  /** Whether the keychain is what keeps secrets (not a session store), and why not. */
  secretStatus: () => Promise<SecretStoreStatus>;
  log?: (error: unknown) => void;
}

export class PagingService {
  readonly config: PagingConfigRepository;
  readonly incidents: IncidentRepository;
  readonly engine: PagingEngine;
  /** The alert receiver (settings, start/stop), "paste an alert" and its preview. */
  readonly intake: AlertIntake;

  constructor(private readonly o: PagingServiceOptions) {
    this.config = o.config;
    this.incidents = o.incidents;
    this.engine = new PagingEngine({
      incidents: this.incidents,
      config: this.config,
      contacts: {
        get: (id) => o.contacts.get(id),
        group: (id) => o.contacts.getGroup(id),
      },
      limits: o.limits,
      send: o.send,
      awaitEnd: o.awaitEnd,
      profileId: () => this.profileId(),
      ...(o.rules ?? pagingRules(o.templates)),
      clock: o.clock,
      runsSteps: Boolean(o.escalate),
      onChange: o.onChange,
      log: o.log,
    });
    this.escalate = Boolean(o.escalate);
    this.intake = new AlertIntake({
      settings: o.settings,
      secrets: o.secrets,
      secretStatus: o.secretStatus,
      receive: (group) => this.engine.receive(group),
      routes: () => this.config.routes(),
      template: (id) => o.templates.get(id),
      openByKey: (key) => this.incidents.openByKey(key),
      clock: o.clock,
      log: o.log,
    });
  }

  /** The profile paging calls with. */
  profileId(): string {
    return this.o.settings.get(PAGING_PROFILE_SETTING) ?? this.o.defaultProfileId;
  }

  setProfile(id: string): void {
    this.o.settings.set(PAGING_PROFILE_SETTING, id);
  }

  private readonly escalate: boolean;

  /** Once calls left by a previous process are recovered: resume pending steps and claim due ones (when this process escalates). */
  start(): void {
    if (!this.escalate) return;
    this.engine.resume();
    // The receiver listens where paging runs (the app, `callout page serve`) when its settings say so.
    void this.intake.startIfEnabled().catch((error: unknown) => this.o.log?.(error));
  }

  async close(): Promise<void> {
    await this.intake.stop();
    await this.engine.close();
  }
}
