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

export interface AppInfo {
  version: string;
  dataDirectory: string;
  secretStore: SecretStoreView;
  sandboxBaseUrl: string | null;
  /** Set when the database was found damaged at start: it was kept aside (never discarded) and a new one started. */
  databaseRecovered: { movedTo: string; reason: string } | null;
}

export const appOps = {
  'app.info': op<AppInfo>()(none),
  /** The UI language, for what main says on its own (desktop notifications). */
  'app.setLocale': op<{ locale: 'zh-CN' | 'en' }>()(z.object({ locale: lang }).strict()),
};

export const appEvents = {
  /** The OS-wide quick-dial shortcut was pressed: open the palette. */
  quickDial: event<Record<string, never>>()(EVENT_CHANNELS.quickDial),
};
