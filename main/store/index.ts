import { statfsSync } from 'node:fs';
import type { Database, OpenDatabaseOptions } from './database';
import { fail, isDiskFull } from '../errors';
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
import { SettingsRepository } from './settings-repository';
import { IncidentRepository } from './incident-repository';
import { PagingConfigRepository } from './paging-config-repository';
import { openDatabaseSafely, type IntegrityOptions, type RecoveredDatabase } from './integrity';
import {
  applyRetention,
  exchangeUsage,
  fileBytes,
  getRetentionSettings,
  planRetention,
  setRetentionSettings,
  shrink,
  vacuum,
  type RetentionPreview,
  type RetentionResult,
  type RetentionSettings,
  type VacuumResult,
} from './retention';
import { systemClock, type Clock } from '../clock';
import { ArchiveShelf, Archiver, archiveFolder, planArchive } from './archive';
import type { ArchivePlan } from '../../common/history-types';
import { compactAdvised, packingProgress, startPacking, type PackingJob, type PackingProgress } from './exchange-packing';

// The store's public face: what the rest of main may import (a lint rule keeps the files above private).
export { dataDirectory, databasePath } from './paths';
export { pendingUpgrade, upgradeStore } from './upgrade';
export type { UpgradeProgress } from './database';
export { KeptAnswers } from './kept-answers';
export type { RecoveredDatabase } from './integrity';
export type { ExchangeRepository } from './exchange-repository';
export type { MessageRepository } from './message-repository';
export type { TemplateRecord, TemplateRepository } from './template-repository';
export type { ProfileRecord, ProfileRepository } from './profile-repository';
export type { BatchCounts, BatchItemRecord, BatchItemView, BatchRecord, BatchRepository, ItemStatus, StopReason } from './batch-repository';
export type { ContactGroupRecord, ContactRecord, ContactRepository } from './contact-repository';
export type { DialSettingsRecord, DialSettingsRepository } from './dial-settings-repository';
export type { HistoryRepository } from './history-repository';
export type { WorkbenchRepository } from './workbench-repository';
export type { IncidentRepository, EscalationCursor, PagingAction } from './incident-repository';
export type { PagingConfigRepository } from './paging-config-repository';
export type { SettingsRepository } from './settings-repository';
export { ownerAlive, processOwner } from './process-owner';
export type { PackingJob, PackingProgress } from './exchange-packing';
export type { ArchiveShelf, Archiver } from './archive';

/** Below this much free space an I/O error at open is taken for a full disk. */
const LOW_SPACE_BYTES = 256 * 1024;

function isIoError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_IOERR');
}

/** Free bytes for this user on the disk holding `dir` (Infinity when it cannot be told). */
export function freeBytes(dir: string): number {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return Infinity;
  }
}

/** Retention of exchanges and vacuum (retention.ts), bound to the store's database. */
export interface StoreRetention {
  settings(): RetentionSettings;
  setSettings(s: RetentionSettings): RetentionSettings;
  /** Applies the saved settings. */
  apply(now?: number): RetentionResult;
  /** What settings would delete and leave, deleting nothing. */
  preview(settings: RetentionSettings, now?: number): RetentionPreview;
  usage(): { bytes: number; exchanges: number };
  /** The database file and its WAL, in bytes. */
  fileBytes(): number;
  vacuum(): VacuumResult;
  /** How far packing the exchanges stored before the upgrade is (null: nothing left to pack). */
  packing(): PackingProgress | null;
  /** Packing is done and left space inside the file that only compacting (vacuum) gives back. */
  compactAdvised(): boolean;
  /** What archiving the months before `before` ("2026-03", on that wall clock) would move; nothing moves. */
  previewArchive(before: string, utcOffsetMinutes: number): ArchivePlan;
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
  /** Small key/value settings (the paging profile, the alert receiver, redial waits, retention). */
  settings: SettingsRepository;
  /** Paging's routes, policies, schedules, overrides and maintenance windows. */
  pagingConfig: PagingConfigRepository;
  /** Paging's incidents, their alerts, steps, calls and actions. */
  incidents: IncidentRepository;
  retention: StoreRetention;
  /**
   * Packs the exchanges stored before the upgrade that made them small (migration 0020,
   * exchange-packing.ts), a batch at a time on `clock`; then the pages freed whole go back to the disk.
   */
  startPacking(clock: Clock, log?: (error: unknown) => void): PackingJob;
  /** The archive files of old months (archive.ts), opened read-only as they are asked for. */
  archives: ArchiveShelf;
  /** Moves old months to archive files, one at a time, a batch at a time on `clock`. */
  archiver(clock: Clock, log?: (error: unknown) => void): Archiver;
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
  let opened: ReturnType<typeof openDatabaseSafely>;
  try {
    opened = openDatabaseSafely(databasePath(dir), options);
  } catch (error) {
    // Opening writes too (the WAL index, migrations): on a full disk SQLite says "disk I/O error".
    if (isDiskFull(error) || (isIoError(error) && freeBytes(dir) < LOW_SPACE_BYTES)) throw fail('disk-full', { dir });
    throw error;
  }
  const { db, recovered } = opened;
  const clock = options.clock ?? systemClock;
  const now = () => clock.now();
  const profiles = new ProfileRepository(db, now);
  const settings = new SettingsRepository(db);
  const archives = new ArchiveShelf(archiveFolder(dir));
  return {
    dir,
    db,
    messages: new MessageRepository(db, now),
    exchanges: new ExchangeRepository(db),
    templates: new TemplateRepository(db, now),
    profiles,
    batches: new BatchRepository(db, now),
    contacts: new ContactRepository(db, now),
    dialSettings: new DialSettingsRepository(db, now, profiles, settings),
    history: new HistoryRepository(db),
    workbench: new WorkbenchRepository(db, now),
    settings,
    pagingConfig: new PagingConfigRepository(db, now),
    incidents: new IncidentRepository(db, now),
    retention: {
      settings: () => getRetentionSettings(db),
      setSettings: (s) => setRetentionSettings(db, s),
      apply: (at) => applyRetention(db, getRetentionSettings(db), at ?? clock.now()),
      preview: (settings, at) => {
        const { byAge, bySize, remaining } = planRetention(db, settings, at ?? clock.now());
        return { byAge, bySize, remaining };
      },
      usage: () => exchangeUsage(db),
      fileBytes: () => fileBytes(db),
      vacuum: () => vacuum(db),
      packing: () => packingProgress(db),
      compactAdvised: () => compactAdvised(db),
      previewArchive: (before, off) => planArchive(db, before, off, clock.now()),
    },
    startPacking: (on, log) => startPacking(db, on, () => shrink(db), log),
    archives,
    archiver: (on, log) => new Archiver({ db, folder: archives.folder, clock: on, log, written: (name) => archives.forget(name) }),
    recovered,
    close: () => {
      archives.close();
      db.close();
    },
  };
}
