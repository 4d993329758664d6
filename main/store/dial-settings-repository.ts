import type { Database } from 'better-sqlite3';
import type { DialSettingsRecord } from '../../common/bulk-types';
import { deleteSetting, getSetting, setSetting } from './retention';
import { systemClock } from '../clock';
export type { DialSettingsRecord } from '../../common/bulk-types';

/** The scope of the settings every profile uses unless it has its own. */
export const GLOBAL_SCOPE = '*';

interface Row {
  scope: string;
  per_minute: number | null;
  per_hour: number | null;
  per_day: number | null;
  quiet_start: string | null;
  quiet_end: string | null;
  updated_at: number;
}

const toRecord = (r: Row): DialSettingsRecord => ({
  scope: r.scope,
  perMinute: r.per_minute,
  perHour: r.per_hour,
  perDay: r.per_day,
  quietStart: r.quiet_start,
  quietEnd: r.quiet_end,
  updatedAt: r.updated_at,
});

/**
 * Per-number dial limits and quiet hours (global, or per profile), the calls already placed to a
 * number (from messages), and the number of lines of each profile.
 */
export class DialSettingsRepository {
  private readonly callTimesStmt;
  private readonly linesStmt;
  private readonly lendingStmt;
  private readonly refusalStmt;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = () => systemClock.now(),
  ) {
    // Served by messages_mobile (mobile, created_at). Sends the provider provably refused placed no call.
    this.callTimesStmt = db.prepare(
      "SELECT created_at AS at FROM messages WHERE mobile = ? AND created_at > ? AND outcome IN ('pending', 'accepted', 'unknown') ORDER BY created_at",
    );
    // Read at every start (the governor) and every status query (the follower's budget): prepared once.
    this.linesStmt = db.prepare('SELECT lines FROM profiles WHERE id = ?');
    this.lendingStmt = db.prepare('SELECT lend_lines AS lend FROM profiles WHERE id = ?');
    this.refusalStmt = db.prepare('SELECT lend_refused_at AS at FROM profiles WHERE id = ?');
  }

  /** The settings for a profile: its own row, else the global one. */
  effective(profileId?: string | null): DialSettingsRecord {
    const own = profileId ? (this.db.prepare('SELECT * FROM dial_settings WHERE scope = ?').get(profileId) as Row | undefined) : undefined;
    const global = this.db.prepare('SELECT * FROM dial_settings WHERE scope = ?').get(GLOBAL_SCOPE) as Row | undefined;
    const r = own ?? global;
    if (!r) return { scope: GLOBAL_SCOPE, perMinute: null, perHour: null, perDay: null, quietStart: null, quietEnd: null, updatedAt: 0 };
    return toRecord(r);
  }

  list(): DialSettingsRecord[] {
    return (this.db.prepare('SELECT * FROM dial_settings ORDER BY scope').all() as Row[]).map(toRecord);
  }

  save(s: Omit<DialSettingsRecord, 'updatedAt'>): DialSettingsRecord {
    this.db
      .prepare(
        `INSERT INTO dial_settings (scope, per_minute, per_hour, per_day, quiet_start, quiet_end, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (scope) DO UPDATE SET per_minute = excluded.per_minute, per_hour = excluded.per_hour, per_day = excluded.per_day,
           quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end, updated_at = excluded.updated_at`,
      )
      .run(s.scope, s.perMinute, s.perHour, s.perDay, s.quietStart, s.quietEnd, this.now());
    return this.effective(s.scope === GLOBAL_SCOPE ? null : s.scope);
  }

  /** Removes a profile's own settings (it falls back to the global ones). The global row stays. */
  removeScope(scope: string): boolean {
    if (scope === GLOBAL_SCOPE) return false;
    return this.db.prepare('DELETE FROM dial_settings WHERE scope = ?').run(scope).changes > 0;
  }

  /** When calls to this number were sent since `since` (ms), oldest first. */
  callTimes(mobile: string, since: number): number[] {
    return (this.callTimesStmt.all(mobile, since) as { at: number }[]).map((r) => r.at);
  }

  /** Lines of a profile (1 when the profile is unknown, e.g. one that lives only in the CLI's memory). */
  profileLines(profileId: string): number {
    const r = this.linesStmt.get(profileId) as { lines: number } | undefined;
    return r?.lines ?? 1;
  }

  /** Whether the profile's lines are lent while its calls wait for a redial (yes when the profile is unknown). */
  profileLending(profileId: string): boolean {
    const r = this.lendingStmt.get(profileId) as { lend: number } | undefined;
    return r ? r.lend === 1 : true;
  }

  /** Sets the profile's lending; set on (a person's choice), it also forgets a refusal that had stopped it, in the same write. */
  setProfileLending(profileId: string, lend: boolean): boolean {
    const sql = lend ? 'UPDATE profiles SET lend_lines = 1, lend_refused_at = NULL WHERE id = ?' : 'UPDATE profiles SET lend_lines = 0 WHERE id = ?';
    return this.db.prepare(sql).run(profileId).changes > 0;
  }

  /**
   * When lending stopped on the profile because the provider refused a send that started on a lent
   * line (epoch ms), or null: not stopped, or the profile is unknown.
   */
  lendingRefusedAt(profileId: string): number | null {
    const r = this.refusalStmt.get(profileId) as { at: number | null } | undefined;
    return r?.at ?? null;
  }

  /**
   * Keeps (a time) or clears (null) the refusal that stopped lending; false when the profile has no
   * row. A refusal already kept keeps its time (the first one stopped lending).
   */
  setLendingRefusedAt(profileId: string, at: number | null): boolean {
    const sql =
      at === null
        ? 'UPDATE profiles SET lend_refused_at = NULL WHERE id = ?'
        : 'UPDATE profiles SET lend_refused_at = COALESCE(lend_refused_at, ?) WHERE id = ?';
    return (at === null ? this.db.prepare(sql).run(profileId) : this.db.prepare(sql).run(at, profileId)).changes > 0;
  }

  /** The provider's redial wait as learned on this profile (kept in the settings table as JSON; the clock checks it). */
  learnedRedialWait(profileId: string): unknown {
    const text = getSetting(this.db, `redial-wait:${profileId}`);
    return text === null ? null : (JSON.parse(text) as unknown);
  }

  saveRedialWait(profileId: string, wait: { at: number; spread: number; samples: number }): void {
    setSetting(this.db, `redial-wait:${profileId}`, JSON.stringify(wait));
  }

  forgetRedialWait(profileId: string): void {
    deleteSetting(this.db, `redial-wait:${profileId}`);
  }

  setProfileLines(profileId: string, lines: number): boolean {
    if (!Number.isInteger(lines) || lines < 1 || lines > 1000) throw new RangeError('lines must be a whole number from 1 to 1000');
    return this.db.prepare('UPDATE profiles SET lines = ? WHERE id = ?').run(lines, profileId).changes > 0;
  }
}
