import type { Database } from 'better-sqlite3';

export interface Migration {
  /** The PRAGMA user_version this migration brings the database to. */
  version: number;
  name: string;
  up(db: Database): void;
}
