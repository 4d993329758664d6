// The alert receiver as the app and `callout page serve` run it (issue 25, items 1 and 8): its
// settings kept in SQLite (address, port, the secret path — made once and kept, so the address given
// to Alertmanager does not change), its credentials (a bearer token, basic auth) in the keychain like
// API keys (never in SQLite or a log), and the receiver started and stopped with `receive` handing
// each group to the engine. Also "paste an alert" and its preview.
import type { AlertPreview, ReceiverStatus } from '../../common/contract/paging';
import { parseAlertPost } from '../../common/paging/intake';
import { routeFor } from '../../common/paging/matchers';
import type { IncidentRecord } from '../../common/paging/records';
import { sayText } from '../../common/paging/say';
import type { AlertGroup } from '../../common/paging/types';
import type { Clock } from '../clock';
import { fail } from '../errors';
import { newPathSecret } from '../net/inbound';
import type { SecretStoreStatus } from '../secrets';
import type { SecretStore } from '../secrets/secret-store';
import type { SettingsRepository } from '../store';
import { receiverWarning, startAlertReceiver, type AlertReceiver, type ReceiverAuth } from './receiver';
import { standInFor } from './rules';

/** The settings key of the receiver's record (JSON: no secret in it but the path, which is the address). */
export const RECEIVER_SETTING = 'paging.receiver';
/** Keychain accounts of the receiver's credentials. */
export const RECEIVER_BEARER_ACCOUNT = 'paging.receiver.bearer';
export const RECEIVER_BASIC_ACCOUNT = 'paging.receiver.basic';
/** Alertmanager itself uses 9093 (web) and 9094 (cluster). */
export const DEFAULT_RECEIVER_PORT = 9095;

interface KeptReceiver {
  enabled: boolean;
  host: string;
  port: number;
  secret: string;
  bearer: boolean;
  basicUser: string | null;
}

export interface ReceiverSave {
  enabled: boolean;
  host: string;
  port: number;
  bearer?: string | null;
  basic?: { username: string; password: string } | null;
  newSecret?: boolean;
}

export interface AlertIntakeOptions {
  settings: SettingsRepository;
  secrets: SecretStore;
  /** Whether the keychain is what keeps secrets (not a session store), and why not. */
  secretStatus: () => Promise<SecretStoreStatus>;
  receive: (group: AlertGroup) => IncidentRecord | null;
  /** What a preview reads: the routes, the templates, and the open incident of a key. */
  routes: () => Parameters<typeof routeFor>[1];
  template: (id: string) => { content: string; markerNames: string[] } | undefined;
  openByKey: (key: string) => IncidentRecord | undefined;
  clock: Clock;
  log?: (error: unknown) => void;
}

function listenKind(error: unknown): 'in-use' | 'address' | 'denied' | 'other' {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EADDRINUSE'
    ? 'in-use'
    : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
      ? 'address'
      : code === 'EACCES' || code === 'EPERM'
        ? 'denied'
        : 'other';
}

export class AlertIntake {
  private receiver: AlertReceiver | null = null;
  private starting: Promise<AlertReceiver | null> | null = null;
  private lastError: ReceiverStatus['error'] = null;

  constructor(private readonly o: AlertIntakeOptions) {}

  /** The kept record; the secret path is made the first time and kept. */
  private kept(): KeptReceiver {
    const made = (): KeptReceiver => ({
      enabled: false,
      host: '127.0.0.1',
      port: DEFAULT_RECEIVER_PORT,
      secret: newPathSecret(),
      bearer: false,
      basicUser: null,
    });
    let raw = this.o.settings.get(RECEIVER_SETTING);
    if (raw === null) {
      // Made once: another process making it at the same moment keeps its own, and both read that one.
      this.o.settings.setOnce(RECEIVER_SETTING, JSON.stringify(made()));
      raw = this.o.settings.get(RECEIVER_SETTING)!;
    }
    try {
      return JSON.parse(raw) as KeptReceiver;
    } catch {
      // A damaged record: a new one (a new address).
      const fresh = made();
      this.o.settings.set(RECEIVER_SETTING, JSON.stringify(fresh));
      return fresh;
    }
  }

  status(): ReceiverStatus {
    const k = this.kept();
    const r = this.receiver;
    return {
      enabled: k.enabled,
      listening: r !== null,
      host: k.host,
      port: k.port,
      url: r?.url ?? null,
      healthUrl: r?.healthUrl ?? null,
      warning: receiverWarning(k.host),
      auth: { bearer: k.bearer, basic: k.basicUser ? { username: k.basicUser } : null },
      error: r ? null : this.lastError,
    };
  }

  private async auth(k: KeptReceiver): Promise<ReceiverAuth> {
    const auth: ReceiverAuth = {};
    if (k.bearer) auth.bearer = await this.o.secrets.get(RECEIVER_BEARER_ACCOUNT);
    if (k.basicUser) {
      const stored = await this.o.secrets.get(RECEIVER_BASIC_ACCOUNT);
      if (stored) auth.basic = JSON.parse(stored) as { username: string; password: string };
    }
    // Credentials kept but gone from the keychain: refuse every post rather than take unauthenticated ones.
    if ((k.bearer && !auth.bearer) || (k.basicUser && !auth.basic)) auth.bearer = newPathSecret();
    return auth;
  }

  /** Starts the receiver with the kept settings (once; a second call gets the same one). Null when it could not listen (see status().error). */
  start(): Promise<AlertReceiver | null> {
    if (this.receiver) return Promise.resolve(this.receiver);
    this.starting ??= (async () => {
      const k = this.kept();
      try {
        const receiver = await startAlertReceiver({
          host: k.host,
          port: k.port,
          secret: k.secret,
          auth: await this.auth(k),
          clock: this.o.clock,
          log: this.o.log,
          receive: (group) => ({ incidentId: this.o.receive(group)?.id ?? null }),
        });
        this.receiver = receiver;
        this.lastError = null;
        return receiver;
      } catch (error) {
        this.lastError = { kind: listenKind(error) };
        this.o.log?.(error);
        return null;
      } finally {
        this.starting = null;
      }
    })();
    return this.starting;
  }

  /** Starts it when the kept settings say so (the app at start). */
  async startIfEnabled(): Promise<void> {
    if (this.kept().enabled) await this.start();
  }

  async stop(): Promise<void> {
    await this.starting;
    const r = this.receiver;
    this.receiver = null;
    await r?.close();
  }

  async save(s: ReceiverSave): Promise<ReceiverStatus> {
    const k = this.kept();
    const next: KeptReceiver = { ...k, enabled: s.enabled, host: s.host, port: s.port };
    if (s.newSecret) next.secret = newPathSecret();
    // Credentials live in the keychain only: without one they would be gone at the next start while
    // the setting still asked for them (every post refused). Refused, and nothing is kept.
    if (typeof s.bearer === 'string' || (s.basic !== undefined && s.basic !== null)) {
      const status = await this.o.secretStatus();
      if (status.kind !== 'keychain') throw fail('receiver-keychain-unavailable', { kind: status.reasonCode ?? 'unavailable' });
    }
    // The keychain first: a keychain that refuses leaves the record as it was.
    if (s.bearer === null) {
      await this.o.secrets.delete(RECEIVER_BEARER_ACCOUNT);
      next.bearer = false;
    } else if (s.bearer !== undefined) {
      await this.o.secrets.set(RECEIVER_BEARER_ACCOUNT, s.bearer);
      next.bearer = true;
    }
    if (s.basic === null) {
      await this.o.secrets.delete(RECEIVER_BASIC_ACCOUNT);
      next.basicUser = null;
    } else if (s.basic !== undefined) {
      await this.o.secrets.set(RECEIVER_BASIC_ACCOUNT, JSON.stringify(s.basic));
      next.basicUser = s.basic.username;
    }
    this.o.settings.set(RECEIVER_SETTING, JSON.stringify(next));
    await this.stop();
    if (next.enabled) await this.start();
    return this.status();
  }

  /** Reads a pasted alert as the receiver would (its source 'paste', or 'test'), or fails with the intake's field and problem. */
  parse(text: string, source: 'paste' | 'test' = 'paste'): AlertGroup {
    const parsed = parseAlertPost(text, undefined, { source });
    if (!parsed.ok) {
      const { field, problem, limit } = parsed.error.params;
      throw fail('paging', limit === undefined ? { kind: 'alert-invalid', field, problem } : { kind: 'alert-invalid', field, problem, limit });
    }
    return parsed.group;
  }

  /** "Paste an alert": received like a post. */
  paste(text: string): IncidentRecord | null {
    return this.o.receive(this.parse(text));
  }

  /** Which route it would take and why, and what the call would say: nobody is called, nothing changes. */
  preview(text: string): AlertPreview {
    const group = this.parse(text);
    const choice = routeFor(group, this.o.routes());
    const route = choice.route;
    const template = route ? this.o.template(route.templateId) : undefined;
    const said = route && template ? sayText(template, route.variables, group, { missing: standInFor(template.content) }) : null;
    return {
      group: { source: group.source, key: group.key, status: group.status, title: group.title, severity: group.severity, alertCount: group.alerts.length },
      route: route ? { id: route.id, name: route.name, policyId: route.policyId } : null,
      why: choice.why,
      text: said?.text ?? null,
      errors: said?.errors ?? [],
      warnings: said?.warnings ?? [],
      joins: this.o.openByKey(group.key)?.id ?? null,
    };
  }
}
