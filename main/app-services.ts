// The Electron side of the services: IPC registration, push events to the window, and desktop
// notifications. Electron objects come in as parameters, so this is tested with fakes.
import type { MessageRecord } from '../common/records';
import type { IncidentRecord } from '../common/paging/records';
import { EVENT_CHANNELS } from '../common/contract/channels';
import { callEndedNotice as noticeOfCallEnd } from '../common/messages';
import { translator } from './i18n';
import { createHandlers } from './handlers';
import { registerIpcHandlers, trustedSender, type IpcMainLike } from './ipc';
import { createServices, type Locale, type Services } from './services';
import type { UpgradeProgress } from './store';

export interface NotificationCtorLike {
  new (options: { title: string; body: string; silent?: boolean }): { show(): void; on(event: 'click', listener: () => void): unknown };
  isSupported(): boolean;
}

export interface WindowLike {
  isDestroyed(): boolean;
  webContents: { send(channel: string, payload: unknown): void };
  show(): void;
  focus(): void;
}

/** What a desktop notification says when a call ends, in the UI's language. */
export function callEndedNotice(m: MessageRecord, locale: Locale): { title: string; body: string } {
  const t = translator(locale);
  return noticeOfCallEnd((key, params) => t(key, params ?? {}) as string, m);
}

/** What a desktop notification says when an incident opens, in the UI's language. */
export function incidentOpenedNotice(incident: IncidentRecord, locale: Locale): { title: string; body: string } {
  const t = translator(locale);
  return { title: t('notice.incident.title', { title: incident.title }), body: t('notice.incident.body', { severity: incident.severity ?? '—' }) };
}

/** An incident worth a notice when this process first hears of it: open and paging (not held, acknowledged or resolved). */
export function isIncidentOpening(incident: IncidentRecord): boolean {
  return incident.state === 'triggered';
}

/** The OS-wide shortcut that brings Callout forward on its quick-dial palette. */
export const QUICK_DIAL_ACCELERATOR = 'CommandOrControl+Shift+K';

export interface GlobalShortcutLike {
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

export interface AppServicesOptions {
  ipcMain: IpcMainLike;
  globalShortcut?: GlobalShortcutLike;
  Notification: NotificationCtorLike;
  dataDir: string;
  isAppUrl: (url: string) => boolean;
  window: () => WindowLike | undefined;
  version: string;
  log: (message: string) => void;
  /** Where "copy as cURL with the key" writes (Electron's clipboard). */
  clipboard?: { writeText(text: string): void };
  /** Told while a store written by an earlier version is upgraded (the app's upgrade window). */
  onUpgrade?: (p: UpgradeProgress) => void;
  /** Test seam: defaults to the real services. */
  create?: typeof createServices;
}

export interface AppServices {
  services: Services;
  close(): Promise<void>;
}

export async function startAppServices(o: AppServicesOptions): Promise<AppServices> {
  const notify = (notice: { title: string; body: string }) => {
    if (!o.Notification.isSupported()) return;
    const n = new o.Notification({ ...notice, silent: false });
    n.on('click', () => {
      const w = o.window();
      if (w && !w.isDestroyed()) {
        w.show();
        w.focus();
      }
    });
    n.show();
  };
  const logError = (error: unknown) => o.log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  const services = await (o.create ?? createServices)({
    home: o.dataDir,
    version: o.version,
    onUpgrade: o.onUpgrade,
    log: logError,
    // The app runs escalations: pending steps resume at start (the claim keeps `callout page serve` from paging them too).
    paging: { escalate: true },
    clipboard: o.clipboard,
    notify: (m, locale) => notify(callEndedNotice(m, locale)),
  });
  const unregister = registerIpcHandlers(o.ipcMain, createHandlers(services), trustedSender(o.isAppUrl), logError);
  const noticed = new Set<number>();
  const unsubscribe = services.subscribe((channel, payload) => {
    // A new incident: a desktop notification (once per incident and process), as for a call's end.
    if (channel === EVENT_CHANNELS.incidentUpdated) {
      const incident = payload as IncidentRecord;
      if (isIncidentOpening(incident) && !noticed.has(incident.id)) {
        noticed.add(incident.id);
        notify(incidentOpenedNotice(incident, services.locale));
      }
    }
    const w = o.window();
    if (w && !w.isDestroyed()) w.webContents.send(channel, payload);
  });
  // Another app may hold the shortcut: then the in-app Ctrl+K still works, and we say so in the log.
  const shortcut = o.globalShortcut?.register(QUICK_DIAL_ACCELERATOR, () => {
    const w = o.window();
    if (w && !w.isDestroyed()) {
      w.show();
      w.focus();
    }
    services.emit('quickDial', {});
  });
  if (o.globalShortcut && !shortcut) o.log(`the quick-dial shortcut ${QUICK_DIAL_ACCELERATOR} is taken by another application`);
  return {
    services,
    async close() {
      if (shortcut) o.globalShortcut?.unregister(QUICK_DIAL_ACCELERATOR);
      unsubscribe();
      unregister();
      await services.close();
    },
  };
}
