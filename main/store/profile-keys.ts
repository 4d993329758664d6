import type { Database } from 'better-sqlite3';

// What an exchange row keeps of its profile (migration 0025): ' #' and the profile's key in
// `profile_keys`, where the id (a UUID) took 36 bytes in the row and again in the profile index.
// Rows stored before, and stores older than the table (a migration test's), keep the id itself; both
// read back as the id. No profile id begins with a space (ids are trimmed), so the two never meet.

const PREFIX = ' #';

interface Keys {
  /** Whether the store has the table. */
  has: boolean;
  /** Keys read outside a transaction (so committed: a key is never changed or given again). */
  ids: Map<string, string>;
}

const perStore = new WeakMap<Database, Keys>();

function keysOf(db: Database): Keys {
  let k = perStore.get(db);
  if (!k) {
    const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'profile_keys'").get() !== undefined;
    // Not remembered until the table exists: a store being upgraded gets it later.
    k = { has, ids: new Map() };
    if (has) perStore.set(db, k);
  }
  return k;
}

/** What a new exchange row keeps for `profile` (inside the caller's write transaction). */
export function storedProfile(db: Database, profile: string | null): string | null {
  if (profile === null || !keysOf(db).has) return profile;
  db.prepare('INSERT INTO profile_keys (profile) VALUES (?) ON CONFLICT (profile) DO NOTHING').run(profile);
  const { key } = db.prepare('SELECT key FROM profile_keys WHERE profile = ?').get(profile) as { key: number };
  return `${PREFIX}${key}`;
}

/** The profile id a row's `profile` names (itself, or through its key). */
export function profileOfStored(db: Database, stored: string | null): string | null {
  if (stored === null || !stored.startsWith(PREFIX)) return stored;
  const k = keysOf(db);
  const known = k.ids.get(stored);
  if (known !== undefined) return known;
  if (!k.has) return stored;
  const row = db.prepare('SELECT profile FROM profile_keys WHERE key = ?').get(Number(stored.slice(PREFIX.length))) as { profile: string } | undefined;
  if (!row) return stored;
  if (!db.inTransaction) k.ids.set(stored, row.profile);
  return row.profile;
}

/** Every form rows may keep of these profiles: each id, and its key where it has one. */
export function storedForms(db: Database, profiles: readonly string[]): string[] {
  if (!profiles.length || !keysOf(db).has) return [...profiles];
  const keyed = db.prepare('SELECT key FROM profile_keys WHERE profile IN (SELECT value FROM json_each(?))').all(JSON.stringify(profiles)) as Array<{
    key: number;
  }>;
  return [...profiles, ...keyed.map((r) => `${PREFIX}${r.key}`)];
}
