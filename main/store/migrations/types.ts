import type { Database } from 'better-sqlite3';

/** How far a migration's long part has gone: `done` of `total` (any unit; the runner shows the share). */
export type MigrationProgress = (done: number, total: number) => void;

/**
 * The part of a migration that reads every row of a table (an index filled from the rows already
 * stored): run after the migration's schema is committed, a batch of ids per transaction, its place
 * kept in `settings` (fill.ts). A store closed mid-way goes on from the last batch at its next open,
 * before any later migration runs; until then earlier builds refuse it (fill.ts, FILLING). Its triggers (created by `up`) keep new rows; nothing else writes
 * while a store is upgraded.
 */
export interface MigrationFill {
  /** The table whose ids are walked. */
  table: 'messages' | 'exchanges';
  /** Does the work for the rows with `from <= id <= to` (64-bit ids: bind them as they are). */
  batch(db: Database, from: bigint, to: bigint): void;
}

export interface Migration {
  /** The PRAGMA user_version this migration brings the database to. */
  version: number;
  name: string;
  /** The schema change, in one transaction with the version; a long read says how far it has gone. */
  up(db: Database, progress: MigrationProgress): void;
  /** Parts run after `up`, in this order, resumable (see MigrationFill). */
  fills?: readonly MigrationFill[];
}
