// The resumable part of a migration (MigrationFill in types.ts): a batch of ids per transaction, its
// place kept in `settings` under 'upgrade.fill.<version>'. The place is written in the migration's
// own transaction (with its schema and version) and taken away with the last batch: a store closed
// mid-way finds it at its next open and goes on from there.
import type { Database } from 'better-sqlite3';
import type { Migration, MigrationProgress } from './types';

/** Rows a fill's transaction covers: a few tenths of a second of indexing each. */
export const FILL_BATCH = 4096;

interface FillPlace {
  /** Which of the migration's fills. */
  part: number;
  /** The ids of this part run from `start` (exclusive) to `through`; done up to `after`. Null until its first batch. */
  start: number | null;
  after: number | null;
  through: number | null;
}

const placeKey = (version: number) => `upgrade.fill.${version}`;

/** Called inside the migration's transaction: its fills are due. */
export function markFillsDue(db: Database, m: Migration): void {
  if (!m.fills?.length) return;
  const place: FillPlace = { part: 0, start: null, after: null, through: null };
  db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(placeKey(m.version), JSON.stringify(place));
}

/** The versions whose fills were left unfinished (a store closed while it was upgraded). */
export function unfinishedFills(db: Database): number[] {
  const hasSettings = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'settings'").get();
  if (!hasSettings) return [];
  const rows = db.prepare("SELECT key FROM settings WHERE key LIKE 'upgrade.fill.%'").all() as Array<{ key: string }>;
  return rows.map((r) => Number(r.key.slice('upgrade.fill.'.length))).filter((v) => Number.isInteger(v) && v > 0);
}

/**
 * One batch of `m`'s fills, in its own IMMEDIATE transaction (two processes upgrading one store at
 * once take turns, each batch once). Returns the share of the fills done, or null when none is left.
 */
export function fillBatch(db: Database, m: Migration, batch = FILL_BATCH): number | null {
  return db
    .transaction((): number | null => {
      const key = placeKey(m.version);
      const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
      if (!row) return null;
      const fills = m.fills ?? [];
      const place = JSON.parse(row.value) as FillPlace;
      const fill = fills[place.part];
      if (!fill) {
        db.prepare('DELETE FROM settings WHERE key = ?').run(key);
        return null;
      }
      const next = (p: FillPlace) => db.prepare('UPDATE settings SET value = ? WHERE key = ?').run(JSON.stringify(p), key);
      if (place.through === null) {
        const ends = db.prepare(`SELECT min(id) AS lo, max(id) AS hi FROM ${fill.table}`).get() as { lo: number | null; hi: number | null };
        if (ends.lo === null || ends.hi === null) {
          next({ part: place.part + 1, start: null, after: null, through: null });
          return (place.part + 1) / fills.length;
        }
        place.start = place.after = ends.lo - 1;
        place.through = ends.hi;
      }
      const after = place.after!;
      const end = db
        .prepare(`SELECT id FROM ${fill.table} WHERE id > ? ORDER BY id LIMIT 1 OFFSET ?`)
        .pluck()
        .get(after, batch - 1) as number | undefined;
      const hi = end === undefined ? place.through : Math.min(end, place.through);
      fill.batch(db, after, hi);
      const partDone = hi >= place.through;
      next(partDone ? { part: place.part + 1, start: null, after: null, through: null } : { ...place, after: hi });
      const within = partDone ? 1 : (hi - place.start!) / Math.max(1, place.through - place.start!);
      return (place.part + within) / fills.length;
    })
    .immediate();
}

/** Runs `m`'s fills to their end, saying how far they are. */
export function runFills(db: Database, m: Migration, progress: MigrationProgress, batch = FILL_BATCH): void {
  if (!m.fills?.length) return;
  for (let share = fillBatch(db, m, batch); share !== null; share = fillBatch(db, m, batch)) progress(Math.round(share * 1000), 1000);
}
