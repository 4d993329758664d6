import type { Database } from 'better-sqlite3';

// The settings table (migration 0005): small key/value pairs, values as text. Its one writer: every
// other part of the store (retention, redial waits) and of main (paging) reads and writes it here.

export function getSetting(db: Database, key: string): string | null {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export function setSetting(db: Database, key: string, value: string): void {
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** Writes the setting only when it has none (two processes making it at once keep the first's). */
export function setSettingOnce(db: Database, key: string, value: string): void {
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING').run(key, value);
}

export function deleteSetting(db: Database, key: string): void {
  db.prepare('DELETE FROM settings WHERE key = ?').run(key);
}

/** The settings table, bound to a database: what the rest of main is given instead of the database. */
export class SettingsRepository {
  constructor(private readonly db: Database) {}

  get(key: string): string | null {
    return getSetting(this.db, key);
  }

  set(key: string, value: string): void {
    setSetting(this.db, key, value);
  }

  /** Writes the setting only when it has none (two processes making it at once keep the first's). */
  setOnce(key: string, value: string): void {
    setSettingOnce(this.db, key, value);
  }

  delete(key: string): void {
    deleteSetting(this.db, key);
  }
}
