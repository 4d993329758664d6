import type { Database, Statement } from 'better-sqlite3';
import { storedVersion } from './migrations/fill';

// What an exchange row (migration 0025) and a message row (0029) keep of its profile: ' #' and the
// profile's key in `profile_keys`, where the id (a UUID) took 36 bytes in the row and again in the
// profile index. Stores older than the table (a migration test's) keep the id itself, as do the
// rows an upgrade has not reached yet; both read back as the id. No profile id begins with a space
// (ids are trimmed), so the two never meet.

const PREFIX = ' #';

interface Keys {
  /** Whether the store has the table (remembered once it does: a store being upgraded gets it later). */
  has: boolean;
  /** Each key's profile, as read (committed), and the other way round. */
  ids: Map<string, string>;
  keys: Map<string, string>;
  /**
   * Keys this connection gave and has not read back outside a transaction since: not remembered
   * until then, since the transaction that gave one may still be rolled back (and the key then
   * given to another profile).
   */
  given: Set<string>;
  all?: Statement;
  insert?: Statement;
  key?: Statement;
  /** Whether a table's rows still keep a profile by its id (an upgrade not done yet), per table. */
  used: Partial<Record<KeyedTable, Statement>>;
}

/** The tables whose rows name their profile by its key. */
export type KeyedTable = 'exchanges' | 'messages';

/** The schema from which a table's new rows are given keys (its migration). */
const KEYED_FROM: Record<KeyedTable, number> = { exchanges: 25, messages: 29 };

const perStore = new WeakMap<Database, Keys>();

function keysOf(db: Database): Keys {
  let k = perStore.get(db);
  if (!k) {
    const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'profile_keys'").get() !== undefined;
    k = { has, ids: new Map(), keys: new Map(), given: new Set(), used: {} };
    if (has) perStore.set(db, k);
  }
  return k;
}

/** Whether `table`'s new rows are given keys in this store (remembered once they are). */
function keyed(db: Database, table: KeyedTable): boolean {
  let tables = keyedTables.get(db);
  if (tables?.has(table)) return true;
  if (storedVersion(db).version < KEYED_FROM[table]) return false;
  if (!tables) keyedTables.set(db, (tables = new Set()));
  tables.add(table);
  return true;
}
const keyedTables = new WeakMap<Database, Set<KeyedTable>>();

/** What a new row of `table` keeps for `profile` (inside the caller's write transaction). */
export function storedProfile<P extends string | null>(db: Database, profile: P, table: KeyedTable = 'exchanges'): P | string {
  const k = keysOf(db);
  if (profile === null || !k.has || !keyed(db, table)) return profile;
  // A committed key is never changed: once it is known, a profile's exchanges need no statement.
  const known = k.keys.get(profile);
  if (known !== undefined) return known;
  k.insert ??= db.prepare('INSERT INTO profile_keys (profile) VALUES (?) ON CONFLICT (profile) DO NOTHING');
  k.key ??= db.prepare('SELECT key FROM profile_keys WHERE profile = ?');
  const made = k.insert.run(profile).changes > 0;
  const stored = `${PREFIX}${(k.key.get(profile) as { key: number }).key}`;
  if (made) {
    k.given.add(stored);
    k.ids.delete(stored);
  } else if (!k.given.has(stored)) k.keys.set(profile, stored); // there before: committed (another connection's uncommitted keys are not seen)
  return stored;
}

/** The profile id a row's `profile` names (itself, or through its key). */
export function profileOfStored(db: Database, stored: string | null): string | null {
  if (stored === null || !stored.startsWith(PREFIX)) return stored;
  const k = keysOf(db);
  if (!k.has) return stored;
  let id = k.ids.get(stored);
  if (id === undefined) {
    // The table is small (a row a profile): read whole, each time a key is not known yet.
    k.all ??= db.prepare('SELECT key, profile FROM profile_keys');
    let found: string | undefined;
    for (const r of k.all.all() as Array<{ key: number; profile: string }>) {
      const s = `${PREFIX}${r.key}`;
      if (s === stored) found = r.profile;
      // Outside a transaction what is read is committed.
      if (!db.inTransaction) k.given.delete(s);
      if (!k.given.has(s)) {
        k.ids.set(s, r.profile);
        k.keys.set(r.profile, s);
      }
    }
    id = found;
  }
  return id ?? stored;
}

/**
 * The forms rows keep of these profiles: each one's key where it has one, and its id where rows
 * stored before the keys still keep it (one index probe each), so that a filter walks no more
 * ranges than it must.
 */
export function storedForms(db: Database, profiles: readonly string[], table: KeyedTable = 'exchanges'): string[] {
  const k = keysOf(db);
  if (!profiles.length || !k.has) return [...profiles];
  k.key ??= db.prepare('SELECT key FROM profile_keys WHERE profile = ?');
  const used = (k.used[table] ??= db.prepare(`SELECT 1 FROM ${table} WHERE profile = ? LIMIT 1`));
  const forms: string[] = [];
  for (const p of profiles) {
    const key = k.key.get(p) as { key: number } | undefined;
    if (key) forms.push(`${PREFIX}${key.key}`);
    if (!key || used.get(p) !== undefined) forms.push(p);
  }
  return forms;
}
