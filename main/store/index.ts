import type { Database, OpenDatabaseOptions } from './database';
import { ExchangeRepository } from './exchange-repository';
import { MessageRepository } from './message-repository';
import { databasePath, dataDirectory } from './paths';
import { TemplateRepository } from './template-repository';
import { ProfileRepository } from './profile-repository';
import { BatchRepository } from './batch-repository';
import { ContactRepository } from './contact-repository';
import { DialSettingsRepository } from './dial-settings-repository';
import { HistoryRepository } from './history-repository';
import { WorkbenchRepository } from './workbench-repository';
import { openDatabaseSafely, type IntegrityOptions, type RecoveredDatabase } from './integrity';
import {
  applyRetention,
  exchangeUsage,
  getRetentionSettings,
  setRetentionSettings,
  vacuum,
  type RetentionResult,
  type RetentionSettings,
  type VacuumResult,
} from './retention';

/** Retention of exchanges and vacuum (retention.ts), bound to the store's database. */
export interface StoreRetention {
  settings(): RetentionSettings;
  setSettings(s: RetentionSettings): RetentionSettings;
  /** Applies the saved settings. */
  apply(now?: number): RetentionResult;
  usage(): { bytes: number; exchanges: number };
  vacuum(): VacuumResult;
}

export interface Store {
  dir: string;
  db: Database;
  messages: MessageRepository;
  exchanges: ExchangeRepository;
  templates: TemplateRepository;
  profiles: ProfileRepository;
  batches: BatchRepository;
  contacts: ContactRepository;
  dialSettings: DialSettingsRepository;
  history: HistoryRepository;
  /** Collections, saved requests, environments and runs (the tester's workbench). */
  workbench: WorkbenchRepository;
  retention: StoreRetention;
  /**
   * Set when the database file was damaged at open: it was moved aside (never deleted) and this
   * store started empty. The UI tells the user where the old file is.
   */
  recovered: RecoveredDatabase | null;
  close(): void;
}

/**
 * Opens (creating and migrating as needed) the store in a data directory. A damaged database is
 * set aside and a fresh one started: see `recovered` and integrity.ts.
 */
export function openStore(dir: string = dataDirectory(), options: OpenDatabaseOptions & IntegrityOptions = {}): Store {
  const { db, recovered } = openDatabaseSafely(databasePath(dir), options);
  return {
    dir,
    db,
    messages: new MessageRepository(db),
    exchanges: new ExchangeRepository(db),
    templates: new TemplateRepository(db),
    profiles: new ProfileRepository(db),
    batches: new BatchRepository(db),
    contacts: new ContactRepository(db),
    dialSettings: new DialSettingsRepository(db),
    history: new HistoryRepository(db),
    workbench: new WorkbenchRepository(db),
    retention: {
      settings: () => getRetentionSettings(db),
      setSettings: (s) => setRetentionSettings(db, s),
      apply: (now) => applyRetention(db, getRetentionSettings(db), now),
      usage: () => exchangeUsage(db),
      vacuum: () => vacuum(db),
    },
    recovered,
    close: () => db.close(),
  };
}
