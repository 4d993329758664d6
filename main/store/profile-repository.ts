import type { Database, Statement } from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import type { SigningMode } from '../../common/contract';
import { builtinDialect, checkDialect, DEFAULT_DIALECT_ID, SPEC_DIALECT, type Dialect } from '../../common/dialects';
import type { FollowMode } from '../../common/contract/profiles';
import { systemClock } from '../clock';

/** Where a profile's receipt listener listens, and the path secret a provider must post to. */
export interface ReceiptSettings {
  host: string;
  /** 0: any free port, chosen when the listener first starts (then kept). */
  port: number;
  /** The path secret (at least 128 random bits); null until receipts are first turned on. */
  secret: string | null;
}

export interface ProfileRecord {
  id: string;
  name: string;
  baseUrl: string;
  apiId: string;
  signing: SigningMode;
  format: 'json' | 'xml';
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  lowBalanceThreshold: number | null;
  /** A person consented to sending the key over plain http:// to a host that is not this machine. */
  sendKeyUnencrypted: boolean;
  /** The address the key was entered for (its origin is what counts); null when no key was set here. */
  keyOrigin: string | null;
  builtin: boolean;
  createdAt: number;
  updatedAt: number;
  /** The reply dialect this profile reads with. */
  dialect: Dialect;
  /** The built-in dialect's id when the profile uses one unchanged; null for a dialect of its own. */
  dialectId: string | null;
  follow: FollowMode;
  receipts: ReceiptSettings;
}

interface ProfileRow {
  id: string;
  name: string;
  base_url: string;
  api_id: string;
  signing: SigningMode;
  format: 'json' | 'xml';
  connect_timeout_ms: number;
  total_timeout_ms: number;
  low_balance_threshold: number | null;
  send_key_unencrypted: 0 | 1;
  key_origin: string | null;
  builtin: 0 | 1;
  created_at: number;
  updated_at: number;
  dialect: string;
  follow: FollowMode;
  receipts_host: string;
  receipts_port: number;
  receipts_secret: string | null;
}

/** A stored dialect: a built-in one's id, or a dialect of the profile's own as JSON. Unreadable → the spec's (never a crash). */
export function storedDialect(text: string): { dialect: Dialect; dialectId: string | null } {
  if (!text.startsWith('{')) {
    const b = builtinDialect(text);
    return b ? { dialect: b, dialectId: text } : { dialect: SPEC_DIALECT, dialectId: DEFAULT_DIALECT_ID };
  }
  try {
    const r = checkDialect(JSON.parse(text));
    if (r.ok) return { dialect: r.dialect, dialectId: null };
  } catch {
    // fall through
  }
  return { dialect: SPEC_DIALECT, dialectId: DEFAULT_DIALECT_ID };
}

const toRecord = (r: ProfileRow): ProfileRecord => ({
  id: r.id,
  name: r.name,
  baseUrl: r.base_url,
  apiId: r.api_id,
  signing: r.signing,
  format: r.format,
  connectTimeoutMs: r.connect_timeout_ms,
  totalTimeoutMs: r.total_timeout_ms,
  lowBalanceThreshold: r.low_balance_threshold,
  sendKeyUnencrypted: r.send_key_unencrypted === 1,
  keyOrigin: r.key_origin,
  builtin: r.builtin === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  ...storedDialect(r.dialect),
  follow: r.follow,
  receipts: { host: r.receipts_host, port: r.receipts_port, secret: r.receipts_secret },
});

/** What the profile form saves (the dialect and receipts are set on their own: setDialect, setFollow; the key's origin with setKeyOrigin). */
export type ProfileFields = Omit<
  ProfileRecord,
  'id' | 'builtin' | 'createdAt' | 'updatedAt' | 'keyOrigin' | 'sendKeyUnencrypted' | 'dialect' | 'dialectId' | 'follow' | 'receipts'
> & {
  id?: string;
  builtin?: boolean;
  sendKeyUnencrypted?: boolean;
};

export class ProfileRepository {
  // Read at every start (the governor) and every status query (the follower's budget): prepared once,
  // on first use (a repository may be built on an older schema, as the migration tests do).
  private linesStmt?: Statement;
  private lendingStmt?: Statement;
  private refusalStmt?: Statement;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = () => systemClock.now(),
  ) {}

  list(): ProfileRecord[] {
    return (this.db.prepare('SELECT * FROM profiles ORDER BY builtin DESC, name COLLATE NOCASE').all() as ProfileRow[]).map(toRecord);
  }

  get(id: string): ProfileRecord | undefined {
    const row = this.db.prepare('SELECT * FROM profiles WHERE id = ?').get(id) as ProfileRow | undefined;
    return row && toRecord(row);
  }

  findByName(name: string): ProfileRecord | undefined {
    const row = this.db.prepare('SELECT * FROM profiles WHERE name = ? COLLATE NOCASE').get(name) as ProfileRow | undefined;
    return row && toRecord(row);
  }

  save(p: ProfileFields): ProfileRecord {
    const id = p.id ?? randomUUID();
    const at = this.now();
    this.db
      .prepare(
        `INSERT INTO profiles (id, name, base_url, api_id, signing, format, connect_timeout_ms, total_timeout_ms, low_balance_threshold, send_key_unencrypted, builtin, created_at, updated_at)
         VALUES (@id, @name, @baseUrl, @apiId, @signing, @format, @connectTimeoutMs, @totalTimeoutMs, @lowBalanceThreshold, @sendKeyUnencrypted, @builtin, @at, @at)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, base_url = excluded.base_url, api_id = excluded.api_id,
           signing = excluded.signing, format = excluded.format, connect_timeout_ms = excluded.connect_timeout_ms,
           total_timeout_ms = excluded.total_timeout_ms, low_balance_threshold = excluded.low_balance_threshold,
           send_key_unencrypted = excluded.send_key_unencrypted, updated_at = excluded.updated_at`,
      )
      .run({ ...p, id, builtin: p.builtin ? 1 : 0, sendKeyUnencrypted: p.sendKeyUnencrypted ? 1 : 0, at });
    return this.get(id)!;
  }

  /** Records the address a key was entered for (null: no key). */
  setKeyOrigin(id: string, origin: string | null): void {
    this.db.prepare('UPDATE profiles SET key_origin = ? WHERE id = ?').run(origin, id);
  }

  /** Stores the dialect: a built-in one's id, or a dialect of the profile's own as JSON. */
  setDialect(id: string, stored: string): ProfileRecord | undefined {
    this.db.prepare('UPDATE profiles SET dialect = ?, updated_at = ? WHERE id = ?').run(stored, this.now(), id);
    return this.get(id);
  }

  setFollow(id: string, follow: FollowMode, receipts: ReceiptSettings): ProfileRecord | undefined {
    this.db
      .prepare('UPDATE profiles SET follow = ?, receipts_host = ?, receipts_port = ?, receipts_secret = ?, updated_at = ? WHERE id = ?')
      .run(follow, receipts.host, receipts.port, receipts.secret, this.now(), id);
    return this.get(id);
  }

  /** The port a listener on port 0 was given, kept so the address the provider posts to does not change. */
  keepReceiptPort(id: string, port: number): void {
    this.db.prepare('UPDATE profiles SET receipts_port = ? WHERE id = ? AND receipts_port = 0').run(port, id);
  }

  remove(id: string): boolean {
    return this.db.prepare('DELETE FROM profiles WHERE id = ? AND builtin = 0').run(id).changes > 0;
  }

  // ——— a profile's lines (DialSettingsRepository hands these out with the dial limits) ———

  /** Lines of a profile, or undefined when it has no row. */
  lines(id: string): number | undefined {
    return ((this.linesStmt ??= this.db.prepare('SELECT lines FROM profiles WHERE id = ?')).get(id) as { lines: number } | undefined)?.lines;
  }

  setLines(id: string, lines: number): boolean {
    return this.db.prepare('UPDATE profiles SET lines = ? WHERE id = ?').run(lines, id).changes > 0;
  }

  /** Whether the profile lends its lines, or undefined when it has no row. */
  lending(id: string): boolean | undefined {
    const r = (this.lendingStmt ??= this.db.prepare('SELECT lend_lines AS lend FROM profiles WHERE id = ?')).get(id) as { lend: number } | undefined;
    return r ? r.lend === 1 : undefined;
  }

  /** Sets the profile's lending; set on, it also forgets a refusal that had stopped it, in the same write. */
  setLending(id: string, lend: boolean): boolean {
    const sql = lend ? 'UPDATE profiles SET lend_lines = 1, lend_refused_at = NULL WHERE id = ?' : 'UPDATE profiles SET lend_lines = 0 WHERE id = ?';
    return this.db.prepare(sql).run(id).changes > 0;
  }

  lendingRefusedAt(id: string): number | null {
    return (
      ((this.refusalStmt ??= this.db.prepare('SELECT lend_refused_at AS at FROM profiles WHERE id = ?')).get(id) as { at: number | null } | undefined)?.at ??
      null
    );
  }

  /** Keeps (a time; a refusal already kept keeps its time) or clears (null) the refusal; false when the profile has no row. */
  setLendingRefusedAt(id: string, at: number | null): boolean {
    return (
      (at === null
        ? this.db.prepare('UPDATE profiles SET lend_refused_at = NULL WHERE id = ?').run(id)
        : this.db.prepare('UPDATE profiles SET lend_refused_at = COALESCE(lend_refused_at, ?) WHERE id = ?').run(at, id)
      ).changes > 0
    );
  }
}
