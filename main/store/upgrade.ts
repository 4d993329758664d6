// Bringing a store written by an earlier version up to this one's schema, before the app (or a
// command) opens it: in a worker thread (upgrade-worker.ts), so that main's event loop stays free to
// show how far it has gone (the desktop app's upgrade window, the CLI's progress line). Upgrading a
// million calls from an early schema rebuilds search indexes for minutes; the migrations' long parts
// are resumable (migrations/fill.ts): a store closed mid-way goes on from its last batch.
//
// A store another process is upgrading (the app while a command starts) is waited for, said as
// waiting. A failure here is not the caller's: openStore opens the store again on main's thread and
// reports it as it always does (damage set aside, a database too new, a full disk).
import BetterSqlite3 from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { UpgradeProgress } from './database';
import { MIGRATIONS, type Migration } from './migrations';
import { storedVersion } from './migrations/fill';
import { damagedBeforeOpen } from './integrity';
import { workerEntry } from '../worker-entry';

export type { UpgradeProgress } from './database';

export interface UpgradeRequest {
  file: string;
  from: number;
  to: number;
  busyTimeoutMs: number;
}

export type UpgradeReply = { type: 'progress'; progress: UpgradeProgress } | { type: 'done' } | { type: 'error'; message: string };

/**
 * Whether the store at `file` needs upgrading: its schema version is older than this build's, or an
 * upgrade was left unfinished. Null for a missing file (a new store is made in an instant), one at
 * this version, one from a newer version, and one that cannot be read or is damaged (openStore
 * says why, and sets a damaged one aside as found).
 */
export function pendingUpgrade(file: string, migrations: readonly Migration[] = MIGRATIONS): { from: number; to: number } | null {
  if (!existsSync(file)) return null;
  let pending: { from: number; to: number } | null = null;
  let db: BetterSqlite3.Database | null = null;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    const { version: from, filling } = storedVersion(db);
    const to = migrations.at(-1)?.version ?? 0;
    if (from < to || (from === to && filling)) pending = { from, to };
  } catch {
    return null;
  } finally {
    db?.close();
  }
  // A damaged file is openStore's: set aside exactly as found, never written to first. Checked only
  // when there is an upgrade to do (a store at this version is checked by openStore alone).
  return pending && !damagedBeforeOpen(file) ? pending : null;
}

export interface UpgradeOptions {
  onProgress?: (p: UpgradeProgress) => void;
  /** SQLite's wait for another process's lock before saying "waiting" again; default 5000 ms. */
  busyTimeoutMs?: number;
  /** Where a failure is noted (openStore reports it to the user). */
  log?: (message: string) => void;
}

/**
 * Upgrades the store at `file` in a worker thread when it needs it. Resolves 'current' when it did
 * not, 'upgraded' when the worker finished, 'failed' when it could not (the caller's openStore then
 * meets the same trouble on main's thread and reports it).
 */
export function upgradeStore(file: string, o: UpgradeOptions = {}): Promise<'current' | 'upgraded' | 'failed'> {
  const pending = pendingUpgrade(file);
  if (!pending) return Promise.resolve('current');
  const entry = workerEntry(import.meta.url, 'upgrade-worker');
  if (!entry) {
    o.log?.('the upgrade worker is missing from this build: the store is upgraded on the main thread');
    return Promise.resolve('failed');
  }
  const worker = new Worker(entry.code, { eval: entry.eval });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: 'upgraded' | 'failed', why?: string) => {
      if (settled) return;
      settled = true;
      if (why) o.log?.(`upgrading the store failed in its worker: ${why}`);
      void worker.terminate();
      resolve(result);
    };
    worker.on('message', (m: UpgradeReply) => {
      if (m.type === 'progress') o.onProgress?.(m.progress);
      else if (m.type === 'done') finish('upgraded');
      else finish('failed', m.message);
    });
    worker.on('error', (error: Error) => finish('failed', error.message));
    worker.on('exit', () => finish('failed', 'the worker stopped'));
    const request: UpgradeRequest = { file, ...pending, busyTimeoutMs: o.busyTimeoutMs ?? 5000 };
    worker.postMessage(request);
  });
}
