import type { Database } from 'better-sqlite3';
import type { DialSettingsRecord } from '../../common/bulk-types';
import { ProfileRepository } from './profile-repository';
import { SettingsRepository } from './settings-repository';
import { systemClock } from '../clock';
export type { DialSettingsRecord } from '../../common/bulk-types';

const DAY_MS = 86_400_000;

/**
 * How long a dial claim holds its place at most: the wait for a line and the send that writes the
 * call's message row. One a process left behind when it died counts until then (its call may have
 * been placed), as a call at its time: the per-minute window frees a minute after it, as for a call.
 */
export const DIAL_CLAIM_MS = 30 * 60_000;

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

  /** The profiles' line columns are written by ProfileRepository, the redial waits by SettingsRepository (one writer per table). */
  constructor(
    private readonly db: Database,
    private readonly now: () => number = () => systemClock.now(),
    private readonly profiles: ProfileRepository = new ProfileRepository(db, now),
    private readonly settings: SettingsRepository = new SettingsRepository(db),
  ) {
    // Served by messages_mobile (mobile, created_at). Sends the provider provably refused placed no call.
    // A claim not yet let go counts as a call at its time (migrations/0019-dial-claims.ts).
    this.callTimesStmt = db.prepare(
      `SELECT created_at AS at FROM messages WHERE mobile = ? AND created_at > ? AND outcome IN ('pending', 'accepted', 'unknown')
       UNION ALL SELECT at FROM dial_claims WHERE mobile = ? AND at > ? AND expires_at > ?
       ORDER BY at`,
    );
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

  /** When calls to this number were sent (or claimed, see claimDial) since `since` (ms), oldest first. */
  callTimes(mobile: string, since: number, now: number = this.now()): number[] {
    return (this.callTimesStmt.all(mobile, since, mobile, since, now) as { at: number }[]).map((r) => r.at);
  }

  /**
   * Checks the limits for a call to `mobile` at `now` and, when it may go, takes its place in them at
   * once: one write transaction, so that another dialer (in this process or another) checking next
   * sees this call even while it still waits for a line. Returns the refusals (nothing claimed), or
   * the claim to let go once the send has its message row, or has placed nothing.
   */
  claimDial<R>(mobile: string, now: number, check: (callTimes: number[]) => R[]): { refusals: R[]; claim: number | null } {
    return this.db
      .transaction(() => {
        this.db.prepare('DELETE FROM dial_claims WHERE expires_at <= ?').run(now);
        const refusals = check(this.callTimes(mobile, now - DAY_MS, now));
        if (refusals.length > 0) return { refusals, claim: null };
        const row = this.db.prepare('INSERT INTO dial_claims (mobile, at, expires_at) VALUES (?, ?, ?)').run(mobile, now, now + DIAL_CLAIM_MS);
        return { refusals, claim: Number(row.lastInsertRowid) };
      })
      .immediate();
  }

  /** Lets a claim go: its send has its message row (which counts from now), or placed nothing. */
  releaseClaim(claim: number): void {
    this.db.prepare('DELETE FROM dial_claims WHERE id = ?').run(claim);
  }

  /** Lines of a profile (1 when the profile is unknown, e.g. one that lives only in the CLI's memory). */
  profileLines(profileId: string): number {
    return this.profiles.lines(profileId) ?? 1;
  }

  /** Whether the profile's lines are lent while its calls wait for a redial (yes when the profile is unknown). */
  profileLending(profileId: string): boolean {
    return this.profiles.lending(profileId) ?? true;
  }

  /** Sets the profile's lending; set on (a person's choice), it also forgets a refusal that had stopped it, in the same write. */
  setProfileLending(profileId: string, lend: boolean): boolean {
    return this.profiles.setLending(profileId, lend);
  }

  /**
   * When lending stopped on the profile because the provider refused a send that started on a lent
   * line (epoch ms), or null: not stopped, or the profile is unknown.
   */
  lendingRefusedAt(profileId: string): number | null {
    return this.profiles.lendingRefusedAt(profileId);
  }

  /**
   * Keeps (a time) or clears (null) the refusal that stopped lending; false when the profile has no
   * row. A refusal already kept keeps its time (the first one stopped lending).
   */
  setLendingRefusedAt(profileId: string, at: number | null): boolean {
    return this.profiles.setLendingRefusedAt(profileId, at);
  }

  /** The provider's redial wait as learned on this profile (kept in the settings table as JSON; the clock checks it). */
  learnedRedialWait(profileId: string): unknown {
    const text = this.settings.get(`redial-wait:${profileId}`);
    return text === null ? null : (JSON.parse(text) as unknown);
  }

  saveRedialWait(profileId: string, wait: { at: number; spread: number; samples: number }): void {
    this.settings.set(`redial-wait:${profileId}`, JSON.stringify(wait));
  }

  forgetRedialWait(profileId: string): void {
    this.settings.delete(`redial-wait:${profileId}`);
  }

  setProfileLines(profileId: string, lines: number): boolean {
    if (!Number.isInteger(lines) || lines < 1 || lines > 1000) throw new RangeError('lines must be a whole number from 1 to 1000');
    return this.profiles.setLines(profileId, lines);
  }
}
