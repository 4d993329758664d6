import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  lstatSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { ArchiveInfo, ArchivePlan, ArchiveProgress, ArchiveResult, ArchiveState } from '../../common/history-types';
import type { ExchangeRecord } from '../../common/records';
import type { Clock } from '../clock';
import { CalloutError, fail, isBusy, isDiskFull, isUnwritable, toIpcError } from '../errors';
import { migrate, openDatabase, schemaVersion } from './database';
import { refreshDictionaries, registerExchangeFunctions } from './exchange-pack';
import { indexAlone, indexMessages } from './exchange-words';
import { EXCHANGE_ID_FLOOR_KEY, ExchangeRepository } from './exchange-repository';
import { HistoryRepository } from './history-repository';
import { MIGRATIONS } from './migrations';
import { ownerAlive, pidAlive, processOwner } from './process-owner';
import { exchangesBefore, fileBytes, shrink } from './retention';
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
// archive) and the live store untouched. One archive runs at a time across processes: the claim is
// a row in `settings`, naming its process and, once the archive is whole, the archive it removes;
// a removal cut short is finished by the app's next start or the next archive (`Claim`).
// An archive of an older schema is read through a copy brought up to date (`upgradedCopy`).

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

/**
 * Exchanges that stay in the live store whatever their month: those a saved request's run result
 * opens (run_results.exchange_id; the run keeps them, and deleting them would cut that link).
 */
const KEPT_WITH_A_RUN = 'EXISTS (SELECT 1 FROM run_results r WHERE r.exchange_id = e.id)';

/**
 * What archiving the months before `before` would move: read from the (started_at, id, size) index
 * (and the run results' index). A month not begun by `now` is refused: the current month is in use.
 */
export function planArchive(db: Database, before: string, utcOffsetMinutes: number, now?: number): ArchivePlan {
  const cutoff = monthStart(before, utcOffsetMinutes);
  if (now !== undefined && cutoff > now) throw fail('archive-failed', { kind: 'future', month: before });
  // Every exchange before the cut from the hours' sums (and the index for a part hour), less those a
  // run keeps (few); the first and last months from the ends of the time index. Counting row by row
  // took 99 s at ten million calls with a cold cache, on main's thread, as the Storage drawer opened.
  const all = exchangesBefore(db, cutoff);
  const kept = db
    .prepare(
      `SELECT count(*) AS n, coalesce(sum(size_bytes), 0) AS bytes FROM exchanges
       WHERE id IN (SELECT exchange_id FROM run_results WHERE exchange_id IS NOT NULL) AND started_at < ?`,
    )
    .get(cutoff) as { n: number; bytes: number };
  const end = (order: 'ASC' | 'DESC') =>
    (
      db
        .prepare(
          `SELECT started_at FROM exchanges e INDEXED BY exchanges_time_size WHERE started_at < ? AND NOT ${KEPT_WITH_A_RUN} ORDER BY started_at ${order}, id ${order} LIMIT 1`,
        )
        .get(cutoff) as { started_at: number } | undefined
    )?.started_at ?? null;
  const r = { n: all.exchanges - kept.n, bytes: all.bytes - kept.bytes, first: end('ASC'), last: end('DESC') };
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

/** An archive's partial file (or its journal) while it is written: `<name>.partial-<pid>`. */
const PARTIAL = new RegExp(`${NAME.source.slice(0, -1)}\\.partial-(\\d+)(?:-journal|-wal|-shm)?$`);

/** Partial files (and their journals) left by an archive whose process is gone. */
function removeStalePartials(folder: string): void {
  for (const f of readdirSync(folder)) {
    const m = PARTIAL.exec(f);
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

const count = z.number().int().nonnegative();
/** What an archive says about itself, checked: the file may have been made or changed by anyone. */
const archiveMeta = z.object({
  from: z.string().regex(MONTH),
  to: z.string().regex(MONTH),
  before: z.string().regex(MONTH),
  exchanges: count,
  bytes: count,
  createdAt: count,
});
type ArchiveMeta = z.infer<typeof archiveMeta>;

/** The archive's description, or null when it has none of the right shape. */
function readMeta(db: Database): ArchiveMeta | null {
  try {
    const meta = archiveMeta.safeParse(JSON.parse(getSetting(db, META_KEY) ?? 'null'));
    return meta.success ? meta.data : null;
  } catch {
    return null;
  }
}

/** Removes a partial file and its journals. */
function removePartial(path: string): void {
  for (const f of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) rmSync(f, { force: true });
}

/**
 * The schema (type, name, SQL of every table, index, view and trigger) a store has at `version`, as
 * the migrations make it: an archive must have exactly that one. A file made elsewhere could hold a
 * view or a trigger where Callout reads a table (a query that never ends).
 */
const schemas = new Map<number, Set<string>>();
function schemaOf(db: Database): string[] {
  return (
    db.prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").all() as Array<{
      type: string;
      name: string;
      sql: string | null;
    }>
  ).map((r) => `${r.type}\u0000${r.name}\u0000${r.sql ?? ''}`);
}
function expectedSchema(version: number): Set<string> {
  let known = schemas.get(version);
  if (!known) {
    const db = new BetterSqlite3(':memory:');
    try {
      registerExchangeFunctions(db);
      migrate(db, ':memory:', MIGRATIONS, version);
      known = new Set(schemaOf(db));
    } finally {
      db.close();
    }
    schemas.set(version, known);
  }
  return known;
}
function hasSchemaOf(db: Database, version: number): boolean {
  const expected = expectedSchema(version);
  const actual = schemaOf(db);
  return actual.length === expected.size && actual.every((x) => expected.has(x));
}

/** Where an archive written at an older schema is read from: a copy brought up to date, kept beside it. */
export const UPGRADED_FOLDER = '.upgraded';

/** The file's identity: a file replaced by another (even with the same time) is opened again. */
function identity(path: string): string {
  const st = statSync(path);
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
}

function openReadOnly(path: string, name: string): Database {
  try {
    const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    registerExchangeFunctions(db);
    return db;
  } catch {
    throw fail('archive-failed', { kind: existsSync(path) ? 'unreadable' : 'not-found', name });
  }
}

/**
 * An archive written at an older schema is never changed: a copy of it is brought up to this
 * version's schema by the same migrations as the live store (once, kept in `.upgraded/` while the
 * archive stays the same file), and read from there.
 */
function upgradedCopy(folder: string, path: string, name: string, id: string): string {
  const dir = join(folder, UPGRADED_FOLDER);
  const copy = join(dir, name);
  const stamp = join(dir, `${name}.source`);
  let partial: string | null = null;
  try {
    // The copy is of this file, brought to this version's schema (a later version upgrades it again).
    const made = `${id}@${MIGRATIONS.at(-1)!.version}`;
    if (existsSync(copy) && existsSync(stamp) && readFileSync(stamp, 'utf8') === made) return copy;
    mkdirSync(dir, { recursive: true });
    partial = `${copy}.partial-${process.pid}`;
    removePartial(partial);
    copyFileSync(path, partial);
    const db = openDatabase(partial);
    db.pragma('journal_mode = DELETE');
    db.close();
    renameSync(partial, copy);
    writeFileSync(stamp, made);
    return copy;
  } catch (error) {
    if (partial) removePartial(partial);
    if ((error as { code?: unknown }).code === 'database-too-new') throw fail('archive-failed', { kind: 'too-new', name });
    throw fail('archive-failed', { kind: 'unreadable', name });
  }
}

/** Opens an archive read-only (an older one through its upgraded copy), after checking it is one. */
function openArchiveFile(folder: string, name: string): { db: Database; meta: ArchiveMeta; id: string } {
  const path = join(folder, name);
  let id: string;
  try {
    id = identity(path);
  } catch {
    throw fail('archive-failed', { kind: 'not-found', name });
  }
  let db = openReadOnly(path, name);
  try {
    const version = schemaVersion(db);
    const latest = MIGRATIONS.at(-1)!.version;
    if (version > latest) throw fail('archive-failed', { kind: 'too-new', name });
    // Exactly the tables and indexes Callout made at that version (nothing else is read, or run).
    if (version < 1 || !hasSchemaOf(db, version)) throw fail('archive-failed', { kind: 'unreadable', name });
    if (getSetting(db, META_KEY) === null) throw fail('archive-failed', { kind: 'not-archive', name });
    if (version < latest) {
      // A file longer than its pages (a sparse one, say) is not copied to be read.
      const pages = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
      if (statSync(path).size > pages + 65_536) throw fail('archive-failed', { kind: 'unreadable', name });
      db.close();
      db = openReadOnly(upgradedCopy(folder, path, name, id), name);
    }
    const meta = readMeta(db);
    if (!meta) throw fail('archive-failed', { kind: 'unreadable', name });
    return { db, meta, id };
  } catch (error) {
    if (db.open) db.close();
    if ((error as { code?: unknown }).code === 'archive-failed') throw error;
    throw fail('archive-failed', { kind: 'unreadable', name });
  }
}

interface OpenArchive {
  db: Database;
  meta: ArchiveMeta;
  history: HistoryRepository;
  exchanges: ExchangeRepository;
  id: string;
}

/**
 * The archives in the folder. One is opened read-only when it is read, and kept open while it is
 * the same file (a file replaced is opened again); listing opens each just long enough to read
 * what it holds. Names only: a file outside the folder is never opened.
 */
export class ArchiveShelf {
  private readonly open = new Map<string, OpenArchive>();

  constructor(readonly folder: string) {}

  private check(name: string): void {
    if (!NAME.test(name)) throw fail('archive-failed', { kind: 'not-found', name });
  }

  get(name: string): OpenArchive {
    this.check(name);
    let id: string;
    try {
      id = identity(join(this.folder, name));
    } catch {
      this.forget(name);
      throw fail('archive-failed', { kind: 'not-found', name });
    }
    const had = this.open.get(name);
    if (had && had.id === id) return had;
    this.forget(name);
    const { db, meta } = openArchiveFile(this.folder, name);
    const opened = { db, meta, history: new HistoryRepository(db), exchanges: new ExchangeRepository(db), id };
    this.open.set(name, opened);
    return opened;
  }

  /** The names of the archives in the folder, in order (oldest months first); none without a folder. */
  private names(): string[] {
    try {
      return readdirSync(this.folder)
        .filter((f) => NAME.test(f))
        .sort();
    } catch {
      return [];
    }
  }

  /** Every archive in the folder, oldest months first; one that cannot be read says why. */
  list(): ArchiveInfo[] {
    const out: ArchiveInfo[] = [];
    for (const name of this.names()) {
      try {
        const bytes = statSync(join(this.folder, name)).size;
        try {
          const had = this.open.get(name);
          let meta: ArchiveMeta;
          if (had && had.id === identity(join(this.folder, name))) meta = had.meta;
          else {
            const opened = openArchiveFile(this.folder, name);
            opened.db.close();
            meta = opened.meta;
          }
          out.push({ name, bytes, from: meta.from, to: meta.to, exchanges: meta.exchanges, createdAt: meta.createdAt, problem: null });
        } catch (error) {
          const kind = (toIpcError(error).params as { kind?: string } | undefined)?.kind ?? 'unreadable';
          out.push({ name, bytes, from: null, to: null, exchanges: null, createdAt: null, problem: kind as ArchiveInfo['problem'] });
        }
      } catch {
        // Gone between the listing and its size: not listed.
      }
    }
    return out;
  }

  /**
   * Reads from the archive `name`: a failure of the file itself (a row it cannot give back, made
   * or changed elsewhere) is said as the archive being unreadable.
   */
  read<T>(name: string, fn: (archive: OpenArchive) => T): T {
    const archive = this.get(name);
    try {
      return fn(archive);
    } catch (error) {
      if (error instanceof CalloutError) throw error;
      throw fail('archive-failed', { kind: 'unreadable', name });
    }
  }

  /**
   * A message's exchanges kept in archives, per archive (names in order), each record naming its
   * archive. An archive that cannot be read is passed over (the Storage list says why).
   */
  forMessage(messageId: number): Array<{ archive: string; exchanges: ExchangeRecord[] }> {
    const out: Array<{ archive: string; exchanges: ExchangeRecord[] }> = [];
    for (const name of this.names()) {
      try {
        const found = this.read(name, (a) => a.exchanges.forMessage(messageId));
        if (found.length) out.push({ archive: name, exchanges: found.map((e) => ({ ...e, archive: name })) });
      } catch {
        // Unreadable or gone: not this message's concern.
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

/**
 * The claim of the archive under way, in `settings` (every process sees it): whose it is, and which
 * archive it removes once that one is whole (`removing`), so that a removal cut short (the app
 * closed, the process killed) is finished by the next process that archives or starts the app.
 */
interface Claim {
  owner: string;
  name: string | null;
  phase: 'copying' | 'removing';
  /** While removing: the archive file's identity (fileKey) when it was renamed into place. */
  file?: string;
}

/**
 * What the claim names an archive file by: its device, inode, size and time (an archive never changes
 * once in place; an inode freed is soon given again). Anything but a plain file (a link) is never it.
 */
function fileKey(path: string): string {
  return lstatSync(path).isFile() ? identity(path) : 'not a file';
}

function readClaim(db: Database): Claim | null {
  const raw = getSetting(db, CLAIM_KEY);
  if (raw === null) return null;
  try {
    const c = JSON.parse(raw) as Claim;
    return typeof c.owner === 'string' ? c : { owner: raw, name: null, phase: 'copying' };
  } catch {
    // A claim written as the bare owner.
    return { owner: raw, name: null, phase: 'copying' };
  }
}

const writeClaim = (db: Database, c: Claim) => db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(CLAIM_KEY, JSON.stringify(c));

/** Tries at taking the store's write lock to put the archive in place, each after a pause (a second). */
const RENAME_ATTEMPTS = 12;

/** A removal to finish: the archive's name, and its file's identity when it was put in place. */
interface Left {
  name: string;
  file: string | null;
}

/** Runs one archive at a time, in the background, and says how far it is. */
export class Archiver {
  private running: ArchiveProgress | null = null;
  private last: ArchiveResult | null = null;
  private error: ReturnType<typeof toIpcError> | null = null;
  private done: Promise<void> = Promise.resolve();
  private stopping = new AbortController();
  private readonly owner = processOwner();

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
   * Takes the claim (refused while a running process holds it); returns the removal a process that
   * is gone left unfinished, if any.
   */
  private claim(): Left | null {
    const { db } = this.d;
    return db
      .transaction(() => {
        const held = readClaim(db);
        if (held && held.owner !== this.owner && ownerAlive(held.owner)) throw fail('archive-failed', { kind: 'running-elsewhere' });
        writeClaim(db, { owner: this.owner, name: null, phase: 'copying' });
        return held?.phase === 'removing' && held.name && existsSync(join(this.d.folder, held.name)) ? { name: held.name, file: held.file ?? null } : null;
      })
      .immediate();
  }

  /** Gives the claim up, unless it names a removal left unfinished (then the next archive, or the app's next start, finishes it). */
  private release(): void {
    try {
      const { db } = this.d;
      const held = db.open ? readClaim(db) : null;
      if (held?.owner === this.owner && held.phase !== 'removing') deleteSetting(db, CLAIM_KEY);
    } catch (error) {
      this.d.log?.(error);
    }
  }

  private begin(work: () => Promise<void>): void {
    this.error = null;
    this.stopping = new AbortController();
    this.done = work()
      .catch((error: unknown) => {
        this.error = toIpcError(error);
        this.d.log?.(error);
      })
      .finally(() => {
        this.running = null;
        this.release();
      });
  }

  /**
   * Finishes the removal a process that is gone left unfinished (called when the app starts): the
   * exchanges its archive holds that are still in the live store go. Nothing to do: nothing runs.
   */
  resume(): void {
    if (this.running) return;
    const held = readClaim(this.d.db);
    if (!held || held.phase !== 'removing' || !held.name || (held.owner !== this.owner && ownerAlive(held.owner))) return;
    let left: Left | null;
    try {
      left = this.claim();
    } catch (error) {
      this.d.log?.(error);
      return;
    }
    if (!left) return this.release();
    const unfinished = left;
    this.running = { name: unfinished.name, phase: 'removing', done: 0, total: 0 };
    this.begin(async () => {
      await this.pause();
      await this.finishLeft(unfinished);
    });
  }

  /** Finishes the removal of an archive a process that is gone left unfinished; says so as the last archive. */
  private async finishLeft({ name, file }: Left): Promise<void> {
    const storeBytesBefore = fileBytes(this.d.db);
    const removed = await this.remove(name, file);
    const final = join(this.d.folder, name);
    const reader = openReadOnly(final, name);
    try {
      const meta = readMeta(reader);
      this.last = {
        name,
        exchanges: meta?.exchanges ?? 0,
        bytes: meta?.bytes ?? 0,
        removed,
        from: meta?.from ?? '',
        to: meta?.to ?? '',
        archiveBytes: statSync(final).size,
        storeBytesBefore,
        storeBytesAfter: fileBytes(this.d.db),
      };
    } finally {
      reader.close();
    }
  }

  /**
   * Starts moving the exchanges of the months before `before` to a new archive; returns its name
   * and how many exchanges it takes. `utcOffsetMinutes`: the wall clock's offset at the start of
   * that month (its first instant is the cut). Throws archive-failed (empty, busy,
   * running-elsewhere, month). A removal left unfinished by a process that is gone is finished first.
   */
  start(before: string, utcOffsetMinutes: number): { name: string; exchanges: number } {
    if (this.running) throw fail('archive-failed', { kind: 'busy' });
    const { db, folder } = this.d;
    const plan = planArchive(db, before, utcOffsetMinutes, this.d.clock.now());
    if (plan.exchanges === 0 || plan.from === null || plan.to === null) throw fail('archive-failed', { kind: 'empty', month: before });
    const left = this.claim();
    let name: string;
    try {
      mkdirSync(folder, { recursive: true });
      removeStalePartials(folder);
      name = left?.name ?? freeName(folder, plan.from, plan.to);
    } catch (error) {
      this.release();
      if ((error as { code?: unknown }).code === 'archive-failed') throw error;
      throw fail('archive-failed', { kind: 'unwritable', name: folder });
    }
    this.running = { name, phase: left ? 'removing' : 'copying', done: 0, total: plan.exchanges };
    this.begin(async () => {
      // The first batch after a pause: the request that started it is answered at once.
      await this.pause();
      if (!left) return this.run(name, plan, utcOffsetMinutes);
      // The archive a process that is gone left half removed is finished first (its exchanges are
      // in it already); what is left before the month then goes to a new one.
      await this.finishLeft(left);
      const rest = planArchive(db, before, utcOffsetMinutes);
      if (rest.exchanges === 0 || rest.from === null || rest.to === null) return;
      const next = freeName(folder, rest.from, rest.to);
      this.running = { name: next, phase: 'copying', done: 0, total: rest.exchanges };
      await this.run(next, rest, utcOffsetMinutes);
    });
    return { name, exchanges: plan.exchanges };
  }

  /** The pause between two batches; false when Callout is closing. */
  private async rest(): Promise<boolean> {
    const { signal } = this.stopping;
    await this.d.clock.sleep(ARCHIVE_PAUSE_MS, signal).catch(() => undefined);
    return !signal.aborted && this.d.db.open;
  }

  private async pause(kind: 'stopped' | 'stopped-removing' = 'stopped', name?: string): Promise<void> {
    if (!(await this.rest())) throw fail('archive-failed', { kind, ...(name ? { name } : {}) });
  }

  private async run(name: string, plan: ArchivePlan, utcOffsetMinutes: number): Promise<void> {
    const { db, folder, clock } = this.d;
    const progress = this.running!;
    const final = join(folder, name);
    const partial = `${final}.partial-${process.pid}`;
    const storeBytesBefore = fileBytes(db);
    let copied = { n: 0, bytes: 0 };
    let meta!: ArchiveMeta;
    let copier: Database | null = null;
    let renamed = false;
    let claimed = false;
    let file: string | null = null;
    try {
      // The archive's schema is the live store's: the same migrations, then no WAL (read-only opens need none).
      // Its word index's triggers are off while rows are copied (each would remake a call's entry for
      // every exchange of it): the entries are made once every row is in, and the triggers put back as they were.
      const made = openDatabase(partial);
      const wordTriggers = made
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'exchanges' AND name LIKE 'exchange^_words^_%' ESCAPE '^'")
        .all() as Array<{ name: string; sql: string }>;
      for (const t of wordTriggers) made.exec(`DROP TRIGGER ${t.name}`);
      made.close();
      copier = new BetterSqlite3(db.name);
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
      const kept = KEPT_WITH_A_RUN.replace('FROM run_results', 'FROM main.run_results');
      const batch = copier.prepare(
        `SELECT started_at, id, size_bytes FROM main.exchanges e INDEXED BY exchanges_time_size
         WHERE started_at < ? AND (started_at, id) > (?, ?) AND NOT ${kept} ORDER BY started_at, id LIMIT ${ARCHIVE_BATCH}`,
      );
      const copyRows = copier.prepare(
        `INSERT INTO arch.exchanges (${columns}) SELECT ${columns} FROM main.exchanges e
         WHERE started_at < ? AND (started_at, id) > (?, ?) AND (started_at, id) <= (?, ?) AND NOT ${kept}`,
      );
      const copyLinks = copier.prepare(
        `INSERT OR IGNORE INTO arch.exchange_messages (message_id, started_at, exchange_id)
         SELECT l.message_id, l.started_at, l.exchange_id FROM main.exchange_messages l
         WHERE l.exchange_id IN (SELECT id FROM arch.exchanges WHERE (started_at, id) > (?, ?) AND (started_at, id) <= (?, ?))`,
      );
      const newDicts = copier.prepare(
        'INSERT OR IGNORE INTO arch.exchange_dicts (id, after_exchange, kind, crc, rows, data) SELECT id, after_exchange, kind, crc, 0, data FROM main.exchange_dicts',
      );
      // The bases the rows' polls are packed against (migration 0026), each message's once.
      const copyBases = copier.prepare(
        `INSERT OR IGNORE INTO arch.exchange_bases (message_id, dict_id, packed)
         SELECT b.message_id, b.dict_id, b.packed FROM main.exchange_bases b
         WHERE b.message_id IN (SELECT message_id FROM arch.exchanges WHERE (started_at, id) > (?, ?) AND (started_at, id) <= (?, ?))`,
      );
      // The profiles' keys the rows may name (migration 0025), as the live store has them.
      const profileKeys = copier.prepare('INSERT OR IGNORE INTO arch.profile_keys (key, profile) SELECT key, profile FROM main.profile_keys');
      let at: [number, number] = [Number.MIN_SAFE_INTEGER, 0];
      for (;;) {
        const step = copier.transaction(() => {
          const rows = batch.all(plan.cutoff, ...at) as Array<{ started_at: number; id: number; size_bytes: number | null }>;
          if (!rows.length) return null;
          const last = rows.at(-1)!;
          // A dictionary made since the first batch (rows are packed while this runs), with the same
          // ids as the live store's (the word index is made after the copy, from the archive's rows).
          newDicts.run();
          profileKeys.run();
          refreshDictionaries(copier!);
          copyRows.run(plan.cutoff, ...at, last.started_at, last.id);
          copyLinks.run(...at, last.started_at, last.id);
          copyBases.run(...at, last.started_at, last.id);
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
      // The word index: a call's exchanges in one entry, a batch of calls at a time.
      let message = 0;
      for (let r; (r = copier.transaction(() => indexMessages(copier!, 'arch', message, ARCHIVE_BATCH))()); message = r.last) await this.pause();
      let alone = 0;
      for (let r; (r = copier.transaction(() => indexAlone(copier!, 'arch', alone, ARCHIVE_BATCH))()); alone = r.last) await this.pause();
      copier.exec('DETACH DATABASE arch');
      const restore = new BetterSqlite3(partial);
      try {
        for (const t of wordTriggers) restore.exec(t.sql);
      } finally {
        restore.close();
      }
      copier.prepare('ATTACH DATABASE ? AS arch').run(partial);
      const check = copier.prepare('SELECT count(*) AS n, coalesce(sum(size_bytes), 0) AS bytes FROM arch.exchanges').get() as { n: number; bytes: number };
      const quick = copier.pragma('arch.quick_check', { simple: true });
      // Every packed row's and base's dictionary is in the archive (else it could not be read from there).
      const orphans = (
        copier
          .prepare(
            `SELECT (SELECT count(*) FROM arch.exchanges e WHERE e.dict_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM arch.exchange_dicts d WHERE d.id = e.dict_id))
                  + (SELECT count(*) FROM arch.exchange_bases b WHERE NOT EXISTS (SELECT 1 FROM arch.exchange_dicts d WHERE d.id = b.dict_id)) AS n`,
          )
          .get() as { n: number }
      ).n;
      if (check.n !== copied.n || check.bytes !== copied.bytes || quick !== 'ok' || orphans > 0) throw fail('archive-failed', { kind: 'check' });
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
        copier!.exec('DELETE FROM arch.exchange_dicts WHERE rows <= 0');
        copier!.prepare('INSERT OR REPLACE INTO arch.settings (key, value) VALUES (?, ?)').run(META_KEY, JSON.stringify(meta));
      })();
      copier.exec('DETACH DATABASE arch');
      copier.close();
      copier = null;
      // Whole on the disk before a single live row goes; the claim says which archive to finish removing.
      syncFile(partial);
      const renameAndClaim = db.transaction(() => {
        if (existsSync(partial)) renameSync(partial, final);
        renamed = true;
        file = fileKey(final);
        writeClaim(db, { owner: this.owner, name, phase: 'removing', file });
        // The ids the archive keeps are never given again in the live store: none below the next one now.
        db.prepare(
          `INSERT INTO settings (key, value) SELECT ?, max(coalesce(max(id), 0) + 1, coalesce((SELECT CAST(value AS INTEGER) FROM settings WHERE key = ?), 0))
           FROM exchanges WHERE true ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        ).run(EXCHANGE_ID_FLOOR_KEY, EXCHANGE_ID_FLOOR_KEY);
      });
      // Another process holding the store's write lock is waited out, as the removal does.
      for (let attempt = 1; ; attempt++) {
        try {
          renameAndClaim.immediate();
          break;
        } catch (error) {
          if (!isBusy(error)) throw error;
          if (attempt >= RENAME_ATTEMPTS) throw fail('archive-failed', { kind: 'store-busy' });
          for (let i = 0; i < 100; i++) await this.pause();
        }
      }
      claimed = true;
      syncFolder(folder);
    } catch (error) {
      copier?.close();
      // With its journal: a connection that could not finish (a full disk) leaves its -wal and -shm.
      removePartial(partial);
      // Renamed, but the claim was not written: the live store keeps every exchange, so the archive goes.
      if (renamed && !claimed) rmSync(final, { force: true });
      // Nothing was removed from the live store yet: what a person must know is why, in words.
      if (isDiskFull(error)) throw fail('archive-failed', { kind: 'disk-full', name: folder });
      if (isUnwritable(error)) throw fail('archive-failed', { kind: 'unwritable', name: folder });
      throw error;
    }
    this.d.written?.(name);
    const removed = await this.remove(name, file);
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

  /**
   * Removes from the live store the exchanges the archive `name` holds (each only where its id and
   * time still match), a batch at a time; waits out another process's write lock; then merges the
   * search index and gives the pages back. How many went.
   */
  private async remove(name: string, file: string | null): Promise<number> {
    const { db, folder } = this.d;
    const progress = this.running!;
    progress.phase = 'removing';
    progress.done = 0;
    // Only the file renamed into place: one put there since (a copy of the live store, a link to it)
    // would take every exchange it matches. The claim goes: nothing more is removed for it.
    let same: boolean;
    try {
      same = file !== null && fileKey(join(folder, name)) === file;
    } catch {
      same = false;
    }
    if (!same) {
      db.transaction(() => writeClaim(db, { owner: this.owner, name: null, phase: 'copying' })).immediate();
      throw fail('archive-failed', { kind: 'changed', name });
    }
    const reader = openReadOnly(join(folder, name), name);
    const exchanges = new ExchangeRepository(db);
    let removed = 0;
    try {
      progress.total = (reader.prepare('SELECT count(*) AS n FROM exchanges').get() as { n: number }).n;
      const ids = reader.prepare(`SELECT id, started_at FROM exchanges WHERE id > ? ORDER BY id LIMIT ${ARCHIVE_BATCH}`);
      let after = Number.MIN_SAFE_INTEGER;
      for (;;) {
        const rows = ids.all(after) as Array<{ id: number; started_at: number }>;
        if (!rows.length) break;
        for (;;) {
          try {
            removed += exchanges.deleteArchived(rows.map((r) => [r.id, r.started_at]));
            break;
          } catch (error) {
            // The archive is whole and the claim names it: the next archive or start finishes this.
            if (isDiskFull(error)) throw fail('archive-failed', { kind: 'disk-full-removing', name });
            if (!isBusy(error)) throw error;
            // Another process holds the store's write lock: wait, then try this batch again.
            for (let i = 0; i < 100; i++) await this.pause('stopped-removing', name);
          }
        }
        after = rows.at(-1)!.id;
        progress.done += rows.length;
        await this.pause('stopped-removing', name);
      }
    } finally {
      reader.close();
    }
    // Done: no process needs to finish it.
    db.transaction(() => writeClaim(db, { owner: this.owner, name: null, phase: 'copying' })).immediate();
    // The index's markers of the rows removed are merged away a step at a time; then the pages go back.
    // Closing stops it: the next deletion's merges go on with it.
    for (let i = 0; i < 100_000 && exchanges.mergeSearchIndex(); i++) if (!(await this.rest())) break;
    if (db.open) shrink(db);
    return removed;
  }
}
