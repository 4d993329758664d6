// The resumable part of a migration (MigrationFill in types.ts): a batch of ids per transaction.
//
// While a migration's fills are unfinished the store's user_version is FILLING + its version: every
// earlier build of Callout refuses such a store as one from a newer version and leaves it alone (an
// older build would otherwise run the later migrations over a half-made index, for good), and this
// one knows to finish the fills first. The place is kept in `settings` under
// 'upgrade.fill.<version>', written in the migration's own transaction (with its schema); the last
// batch takes it away and sets the plain version, in one transaction. Ids are read and bound as
// 64-bit integers (BigInt): any id SQLite can hold is reached.
import type { Database } from 'better-sqlite3';
import type { Migration, MigrationProgress } from './types';

/** Rows a fill's transaction covers: a few tenths of a second of indexing each. */
export const FILL_BATCH = 4096;

/** Added to the user_version of a store whose migration's fills are unfinished. */
export const FILLING = 1 << 20;

interface FillPlace {
  /** Which of the migration's fills. */
  part: number;
  /** This part's ids run from `start` to `through` (inclusive); the next batch starts at `next`. Null until its first batch. */
  start: string | null;
  next: string | null;
  through: string | null;
}

const placeKey = (version: number) => `upgrade.fill.${version}`;

/** The schema version a store is at, and whether that migration's fills are still to finish. */
export function storedVersion(db: Database): { version: number; filling: boolean } {
  const raw = db.pragma('user_version', { simple: true }) as number;
  return raw >= FILLING ? { version: raw - FILLING, filling: true } : { version: raw, filling: false };
}

/**
 * Called inside migration `m`'s transaction, in place of setting its version: with fills, the store
 * is marked as filling and the place is written; without, its version is set.
 */
export function commitVersion(db: Database, m: Migration): void {
  if (!m.fills?.length) {
    db.pragma(`user_version = ${m.version}`);
    return;
  }
  const place: FillPlace = { part: 0, start: null, next: null, through: null };
  db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(placeKey(m.version), JSON.stringify(place));
  db.pragma(`user_version = ${FILLING + m.version}`);
}

/**
 * One batch of `m`'s fills, in its own IMMEDIATE transaction (two processes upgrading one store at
 * once take turns, each batch once). Returns the share of the fills done, or null when none is left.
 */
export function fillBatch(db: Database, m: Migration, batch = FILL_BATCH): number | null {
  return db
    .transaction((): number | null => {
      const now = storedVersion(db);
      if (!now.filling || now.version !== m.version) return null;
      const key = placeKey(m.version);
      const fills = m.fills ?? [];
      const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
      const place: FillPlace = row ? (JSON.parse(row.value) as FillPlace) : { part: fills.length, start: null, next: null, through: null };
      const fill = fills[place.part];
      if (!fill) {
        db.prepare('DELETE FROM settings WHERE key = ?').run(key);
        db.pragma(`user_version = ${m.version}`);
        return null;
      }
      const save = (p: FillPlace) => db.prepare('UPDATE settings SET value = ? WHERE key = ?').run(JSON.stringify(p), key);
      const nextPart: FillPlace = { part: place.part + 1, start: null, next: null, through: null };
      const big = (sql: string) => db.prepare(sql).safeIntegers(true);
      if (place.through === null) {
        const ends = big(`SELECT min(id) AS lo, max(id) AS hi FROM ${fill.table}`).get() as { lo: bigint | null; hi: bigint | null };
        if (ends.lo === null || ends.hi === null) {
          save(nextPart);
          return (place.part + 1) / fills.length;
        }
        place.start = place.next = String(ends.lo);
        place.through = String(ends.hi);
      }
      const from = BigInt(place.next!);
      const through = BigInt(place.through);
      const start = BigInt(place.start!);
      const end = big(`SELECT id FROM ${fill.table} WHERE id >= ? ORDER BY id LIMIT 1 OFFSET ?`)
        .pluck()
        .get(from, batch - 1) as bigint | undefined;
      const to = end === undefined || end > through ? through : end;
      fill.batch(db, from, to);
      const after = to < through ? (big(`SELECT min(id) FROM ${fill.table} WHERE id > ?`).pluck().get(to) as bigint | null) : null;
      const partDone = after === null || after > through;
      save(partDone ? nextPart : { ...place, next: String(after) });
      const within = partDone ? 1 : Number(to - start) / Math.max(1, Number(through - start));
      return (place.part + within) / fills.length;
    })
    .immediate();
}

/** Runs `m`'s fills to their end, saying how far they are. */
export function runFills(db: Database, m: Migration, progress: MigrationProgress, batch = FILL_BATCH): void {
  for (let share = fillBatch(db, m, batch); share !== null; share = fillBatch(db, m, batch)) progress(Math.round(share * 1000), 1000);
}
