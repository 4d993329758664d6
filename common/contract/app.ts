// The app itself: what it is and where its data lives, and the UI language for what main says on its own.
import { z } from 'zod';
import { event, lang, none, op } from './define';
import { EVENT_CHANNELS } from './channels';
import type { KeychainReason } from './errors';

export interface SecretStoreView {
  kind: 'keychain' | 'session';
  keychainAvailable: boolean;
  /** Plain English, for logs only: the UI says `reasonCode` in the user's language. */
  reason: string | null;
  /** Why the keychain is unavailable. */
  reasonCode?: KeychainReason | null;
}

/**
 * Callout cannot write to its data directory (a full disk, an I/O error). `unstored`: sends whose
 * result is kept in memory until it can be written (their number and text are refused meanwhile).
 */
export interface StorageProblem {
  kind: 'disk-full' | 'write-failed';
  unstored: number;
  dataDirectory: string;
  at: number;
}

export interface AppInfo {
  version: string;
  dataDirectory: string;
  secretStore: SecretStoreView;
  sandboxBaseUrl: string | null;
  /** Set when the database was found damaged at start: it was kept aside (never discarded) and a new one started. */
  databaseRecovered: { movedTo: string; reason: string; kind?: 'database' | 'wal' } | null;
  /** Set while Callout cannot write its data (cleared, and pushed as null, once it can again). */
  storageProblem: StorageProblem | null;
}

export const appOps = {
  'app.info': op<AppInfo>()(none),
  /** The UI language, for what main says on its own (desktop notifications). */
  'app.setLocale': op<{ locale: 'zh-CN' | 'en' }>()(z.object({ locale: lang }).strict()),
};

export const appEvents = {
  /** The OS-wide quick-dial shortcut was pressed: open the palette. */
  quickDial: event<Record<string, never>>()(EVENT_CHANNELS.quickDial),
  /** Writing to the data directory failed (a full disk...), or works again (null). */
  storageProblem: event<StorageProblem | null>()(EVENT_CHANNELS.storageProblem),
};
