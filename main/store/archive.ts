import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ArchiveInfo, ArchivePlan, ArchiveProgress, ArchiveResult, ArchiveState } from '../../common/history-types';
import type { Clock } from '../clock';
import { fail, toIpcError } from '../errors';
import { openDatabase, schemaVersion } from './database';
import { refreshDictionaries, registerExchangeFunctions } from './exchange-pack';
import { ExchangeRepository } from './exchange-repository';
import { HistoryRepository } from './history-repository';
import { MIGRATIONS } from './migrations';
import { ownerAlive, processOwner } from './process-owner';
import { fileBytes, shrink } from './retention';
import { deleteSetting, getSetting } from './settings-repository';

// Archives of old months (issue 27): the exchanges of the months before a chosen one are moved to a
// file of their own in the data directory's `archives` folder, which Callout opens read-only and
// searches as it does the live store (the same schema, dictionaries and search index). Messages and
// their timelines stay in the live store: they are small, and retention never deletes them either.
//
// Nothing is lost on the way. The rows are copied to `<name>.partial-<pid>` a batch per transaction,
// counted, checked (quick_check), synced to the disk and renamed into place; only then are they
// deleted from the live store, a batch at a time, each row only where its id and time still match
// the archived copy. A process killed while copying leaves a partial file (removed by the next
// archive) and the live store untouched; killed while deleting, it leaves rows in both places.
// One archive runs at a time across processes: the claim is a row in `settings`, naming its process.

export const ARCHIVE_FOLDER = 'archives';
const CLAIM_KEY = 'exchanges.archiving';
/** What an archive says about itself (its own `settings`). */
const META_KEY = 'archive';
/** Rows per transaction, copying and deleting, and the pause between two (other writers go on). */
export const ARCHIVE_BATCH = 1_000;
export const ARCHIVE_PAUSE_MS = 10;
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const NAME = /^callout-exchanges-\d{4}-\d{2}(?:-to-\d{4}-\d{2})?(?:-\d{1,3})?\.sqlite$/;

export function archiveFolder(dir: string): string {
  return join(dir, ARCHIVE_FOLDER);
}

/** The first instant of a month ("2026-03") on a wall clock `utcOffsetMinutes` east of UTC. */
export function monthStart(month: string, utcOffsetMinutes: number): number {
  const m = MONTH.exec(month);
  if (!m) throw fail('archive-failed', { kind: 'month', month });
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, 1) - utcOffsetMinutes * 60_000;
}

/** The month ("2026-03") of an instant on that wall clock. */
export function monthOf(at: number, utcOffsetMinutes: number): string {
  return new Date(at + utcOffsetMinutes * 60_000).toISOString().slice(0, 7);
}

/** What archiving the months before `before` would move: read from the (started_at, id, size) index only. */
export function planArchive(db: Database, before: string, utcOffsetMinutes: number): ArchivePlan {
  const cutoff = monthStart(before, utcOffsetMinutes);
  const r = db
    .prepare(
      `SELECT count(*) AS n, coalesce(sum(size_bytes), 0) AS bytes, min(started_at) AS first, max(started_at) AS last
       FROM exchanges INDEXED BY exchanges_time_size WHERE started_at < ?`,
    )
    .get(cutoff) as { n: number; bytes: number; first: number | null; last: number | null };
  return {
    before,
    cutoff,
    exchanges: r.n,
    bytes: r.bytes,
    from: r.first === null ? null : monthOf(r.first, utcOffsetMinutes),
    to: r.last === null ? null : monthOf(r.last, utcOffsetMinutes),
  };
}

/** An archive's name in the folder: its months, and a number when that name is taken. */
function freeName(folder: string, from: string, to: string): string {
  const base = from === to ? `callout-exchanges-${from}` : `callout-exchanges-${from}-to-${to}`;
  for (let i = 1; i < 1000; i++) {
    const name = i === 1 ? `${base}.sqlite` : `${base}-${i}.sqlite`;
    if (!existsSync(join(folder, name))) return name;
  }
  throw fail('archive-failed', { kind: 'name-taken', name: `${base}.sqlite` });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Partial files left by an archive whose process is gone. */
function removeStalePartials(folder: string): void {
  for (const f of readdirSync(folder)) {
    const m = /\.partial-(\d+)$/.exec(f);
    if (m && !pidAlive(Number(m[1]))) rmSync(join(folder, f), { force: true });
  }
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function syncFolder(path: string): void {
  try {
    syncFile(path);
  } catch {
    // Windows cannot open a folder to sync it; its rename is durable on its own.
  }
}

interface ArchiveMeta {
  from: string;
  to: string;
  before: string;
  exchanges: number;
  bytes: number;
  createdAt: number;
}

/** Opens an archive read-only, after checking it is one this version reads. */
function openArchiveFile(path: string, name: string): { db: Database; meta: ArchiveMeta } {
  let db: Database;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  } catch {
    throw fail('archive-failed', { kind: existsSync(path) ? 'unreadable' : 'not-found', name });
  }
  try {
    db.pragma('busy_timeout = 5000');
    registerExchangeFunctions(db);
    const version = schemaVersion(db);
    const latest = MIGRATIONS.at(-1)!.version;
    if (version > latest) throw fail('archive-failed', { kind: 'too-new', name });
    if (version < latest) throw fail('archive-failed', { kind: 'old', name });
    const raw = getSetting(db, META_KEY);
    if (raw === null) throw fail('archive-failed', { kind: 'not-archive', name });
    return { db, meta: JSON.parse(raw) as ArchiveMeta };
  } catch (error) {
    db.close();
    if ((error as { code?: unknown }).code === 'archive-failed') throw error;
    throw fail('archive-failed', { kind: 'unreadable', name });
  }
}

interface OpenArchive {
  db: Database;
  meta: ArchiveMeta;
  history: HistoryRepository;
  exchanges: ExchangeRepository;
  mtimeMs: number;
}

/**
 * The archives in the folder, and each one opened read-only on first use (kept open; opened again
 * when the file was replaced). Names only: a file outside the folder is never opened.
 */
export class ArchiveShelf {
  private readonly open = new Map<string, OpenArchive>();

  constructor(readonly folder: string) {}

  private path(name: string): string {
    if (!NAME.test(name)) throw fail('archive-failed', { kind: 'not-found', name });
    return join(this.folder, name);
  }

  get(name: string): OpenArchive {
    const path = this.path(name);
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      this.forget(name);
      throw fail('archive-failed', { kind: 'not-found', name });
    }
    const had = this.open.get(name);
    if (had && had.mtimeMs === mtimeMs) return had;
    this.forget(name);
    const { db, meta } = openArchiveFile(path, name);
    const opened = { db, meta, history: new HistoryRepository(db), exchanges: new ExchangeRepository(db), mtimeMs };
    this.open.set(name, opened);
    return opened;
  }

  /** Every archive in the folder, oldest months first; one that cannot be read says why. */
  list(): ArchiveInfo[] {
    let files: string[];
    try {
      files = readdirSync(this.folder).filter((f) => NAME.test(f));
    } catch {
      return [];
    }
    const out: ArchiveInfo[] = [];
    for (const name of files.sort()) {
      const bytes = statSync(join(this.folder, name)).size;
      try {
        const { meta } = this.get(name);
        out.push({ name, bytes, from: meta.from, to: meta.to, exchanges: meta.exchanges, createdAt: meta.createdAt, problem: null });
      } catch (error) {
        const kind = (toIpcError(error).params as { kind?: string } | undefined)?.kind ?? 'unreadable';
        out.push({ name, bytes, from: null, to: null, exchanges: null, createdAt: null, problem: kind as ArchiveInfo['problem'] });
      }
    }
    return out;
  }

  forget(name: string): void {
    this.open.get(name)?.db.close();
    this.open.delete(name);
  }

  close(): void {
    for (const name of [...this.open.keys()]) this.forget(name);
  }
}

export interface ArchiverDeps {
  /** The live store's connection (its exchanges' one writer deletes the archived rows). */
  db: Database;
  folder: string;
  clock: Clock;
  log?: (error: unknown) => void;
  /** Told when an archive was written (the shelf reads the folder again). */
  written?: (name: string) => void;
}

/** Runs one archive at a time, in the background, and says how far it is. */
export class Archiver {
  private running: ArchiveProgress | null = null;
  private last: ArchiveResult | null = null;
  private error: ReturnType<typeof toIpcError> | null = null;
  private done: Promise<void> = Promise.resolve();
  private stopping = new AbortController();

  constructor(private readonly d: ArchiverDeps) {}

  state(): ArchiveState {
    return { running: this.running && { ...this.running }, last: this.last, error: this.error };
  }

  /** The archive started last, until it ends. */
  finished(): Promise<void> {
    return this.done;
  }

  /** Stops the archive running at its next pause (closing): the live store keeps what the archive does not hold whole. */
  stop(): void {
    this.stopping.abort();
  }

  /**
   * Starts moving the exchanges of the months before `before` to a new archive; returns its name
   * and how many exchanges it takes. Throws archive-failed (empty, busy, running-elsewhere, month).
   */
  start(before: string, utcOffsetMinutes: number): { name: string; exchanges: number } {
    if (this.running) throw fail('archive-failed', { kind: 'busy' });
    const { db, folder } = this.d;
    const plan = planArchive(db, before, utcOffsetMinutes);
    if (plan.exchanges === 0 || plan.from === null || plan.to === null) throw fail('archive-failed', { kind: 'empty', month: before });
    // The claim, kept where every process sees it.
    const owner = processOwner();
    db.transaction(() => {
      const held = getSetting(db, CLAIM_KEY);
      if (held !== null && held !== owner && ownerAlive(held)) throw fail('archive-failed', { kind: 'running-elsewhere' });
      db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(CLAIM_KEY, owner);
    }).immediate();
    try {
      mkdirSync(folder, { recursive: true });
      removeStalePartials(folder);
    } catch (error) {
      deleteSetting(db, CLAIM_KEY);
      throw error;
    }
    const name = freeName(folder, plan.from, plan.to);
    this.running = { name, phase: 'copying', done: 0, total: plan.exchanges };
    this.error = null;
    this.stopping = new AbortController();
    this.done = this.run(name, plan, utcOffsetMinutes)
      .catch((error: unknown) => {
        this.error = toIpcError(error);
        this.d.log?.(error);
      })
      .finally(() => {
        this.running = null;
        try {
          if (db.open) deleteSetting(db, CLAIM_KEY);
        } catch (error) {
          this.d.log?.(error);
        }
      });
    return { name, exchanges: plan.exchanges };
  }

  /** The pause between two batches; false when Callout is closing. */
  private async rest(): Promise<boolean> {
    const { signal } = this.stopping;
    await this.d.clock.sleep(ARCHIVE_PAUSE_MS, signal).catch(() => undefined);
    return !signal.aborted && this.d.db.open;
  }

  private async pause(): Promise<void> {
    if (!(await this.rest())) throw fail('archive-failed', { kind: 'stopped' });
  }

  private async run(name: string, plan: ArchivePlan, utcOffsetMinutes: number): Promise<void> {
    const { db, folder, clock } = this.d;
    const progress = this.running!;
    const final = join(folder, name);
    const partial = `${final}.partial-${process.pid}`;
    // The first batch after a pause: the request that started it is answered at once.
    await this.pause();
    const storeBytesBefore = fileBytes(db);
    // The archive's schema is the live store's: the same migrations, then no WAL (read-only opens need none).
    openDatabase(partial).close();
    const copier = new BetterSqlite3(db.name);
    let copied = { n: 0, bytes: 0 };
    let meta!: ArchiveMeta;
    try {
      copier.pragma('busy_timeout = 5000');
      // An archive holds exchanges without their messages (those stay in the live store).
      copier.pragma('foreign_keys = OFF');
      registerExchangeFunctions(copier);
      copier.prepare('ATTACH DATABASE ? AS arch').run(partial);
      copier.pragma('arch.journal_mode = DELETE');
      copier.pragma('arch.synchronous = OFF');
      const columns = (copier.prepare('SELECT name FROM pragma_table_info(?)').all('exchanges') as Array<{ name: string }>).map((c) => c.name).join(', ');
      // Every dictionary (a row names its own); the unused ones go at the end.
      copier.exec(
        'DELETE FROM arch.exchange_dicts; INSERT INTO arch.exchange_dicts (id, after_exchange, kind, crc, rows, data) SELECT id, after_exchange, kind, crc, 0, data FROM main.exchange_dicts',
      );
      const batch = copier.prepare(
        `SELECT started_at, id, size_bytes FROM main.exchanges INDEXED BY exchanges_time_size
         WHERE started_at < ? AND (started_at, id) > (?, ?) ORDER BY started_at, id LIMIT ${ARCHIVE_BATCH}`,
      );
      const copyRows = copier.prepare(
        `INSERT INTO arch.exchanges (${columns}) SELECT ${columns} FROM main.exchanges
         WHERE started_at < ? AND (started_at, id) > (?, ?) AND (started_at, id) <= (?, ?)`,
      );
      const copyLinks = copier.prepare(
        `INSERT OR IGNORE INTO arch.exchange_messages (message_id, started_at, exchange_id)
         SELECT l.message_id, l.started_at, l.exchange_id FROM main.exchange_messages l
         WHERE l.exchange_id IN (SELECT id FROM arch.exchanges WHERE (started_at, id) > (?, ?) AND (started_at, id) <= (?, ?))`,
      );
      const newDicts = copier.prepare(
        'INSERT OR IGNORE INTO arch.exchange_dicts (id, after_exchange, kind, crc, rows, data) SELECT id, after_exchange, kind, crc, 0, data FROM main.exchange_dicts',
      );
      let at: [number, number] = [Number.MIN_SAFE_INTEGER, 0];
      for (;;) {
        const step = copier.transaction(() => {
          const rows = batch.all(plan.cutoff, ...at) as Array<{ started_at: number; id: number; size_bytes: number | null }>;
          if (!rows.length) return null;
          const last = rows.at(-1)!;
          // A dictionary made since the first batch (rows are packed while this runs); the search
          // index's trigger reads each row's text with the live store's dictionaries (the same ids).
          newDicts.run();
          refreshDictionaries(copier);
          copyRows.run(plan.cutoff, ...at, last.started_at, last.id);
          copyLinks.run(...at, last.started_at, last.id);
          return { rows: rows.length, bytes: rows.reduce((s, r) => s + (r.size_bytes ?? 0), 0), last: [last.started_at, last.id] as [number, number] };
        });
        const r = step();
        if (!r) break;
        at = r.last;
        copied = { n: copied.n + r.rows, bytes: copied.bytes + r.bytes };
        progress.done = copied.n;
        progress.total = Math.max(progress.total, copied.n);
        await this.pause();
      }
      progress.total = copied.n;
      if (!copied.n) throw fail('archive-failed', { kind: 'empty', month: plan.before });
      const check = copier.prepare('SELECT count(*) AS n, coalesce(sum(size_bytes), 0) AS bytes FROM arch.exchanges').get() as { n: number; bytes: number };
      const quick = copier.pragma('arch.quick_check', { simple: true });
      if (check.n !== copied.n || check.bytes !== copied.bytes || quick !== 'ok') throw fail('archive-failed', { kind: 'check' });
      const archived = copier.prepare('SELECT min(started_at) AS first, max(started_at) AS last FROM arch.exchanges').get() as { first: number; last: number };
      meta = {
        from: monthOf(archived.first, utcOffsetMinutes),
        to: monthOf(archived.last, utcOffsetMinutes),
        before: plan.before,
        exchanges: copied.n,
        bytes: copied.bytes,
        createdAt: clock.now(),
      };
      copier.transaction(() => {
        copier.exec('DELETE FROM arch.exchange_dicts WHERE rows <= 0');
        copier.prepare('INSERT OR REPLACE INTO arch.settings (key, value) VALUES (?, ?)').run(META_KEY, JSON.stringify(meta));
      })();
      copier.exec('DETACH DATABASE arch');
    } catch (error) {
      copier.close();
      rmSync(partial, { force: true });
      throw error;
    }
    copier.close();
    // Whole on the disk before a single live row goes.
    syncFile(partial);
    renameSync(partial, final);
    syncFolder(folder);
    this.d.written?.(name);

    progress.phase = 'removing';
    progress.done = 0;
    const reader = new BetterSqlite3(final, { readonly: true, fileMustExist: true });
    const exchanges = new ExchangeRepository(db);
    let removed = 0;
    try {
      const ids = reader.prepare(`SELECT id, started_at FROM exchanges WHERE id > ? ORDER BY id LIMIT ${ARCHIVE_BATCH}`);
      let after = Number.MIN_SAFE_INTEGER;
      for (;;) {
        const rows = ids.all(after) as Array<{ id: number; started_at: number }>;
        if (!rows.length) break;
        removed += exchanges.deleteArchived(rows.map((r) => [r.id, r.started_at]));
        after = rows.at(-1)!.id;
        progress.done += rows.length;
        await this.pause();
      }
    } finally {
      reader.close();
    }
    // The index's markers of the rows removed are merged away a step at a time; then the pages go back.
    // Closing stops it: the next deletion's merges go on with it.
    for (let i = 0; i < 100_000 && exchanges.mergeSearchIndex(); i++) if (!(await this.rest())) break;
    if (!db.open) return;
    shrink(db);
    this.last = {
      name,
      exchanges: copied.n,
      bytes: copied.bytes,
      removed,
      from: meta.from,
      to: meta.to,
      archiveBytes: statSync(final).size,
      storeBytesBefore,
      storeBytesAfter: fileBytes(db),
    };
  }
}
