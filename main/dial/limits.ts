// Per-number dial limits and quiet hours: how often one person may be called, and when not at all.
// Counted from the messages in SQLite (every send that may have placed a call: pending, accepted,
// unknown), over rolling windows: the last minute, the last hour, the last 24 hours. Quiet hours
// are local wall-clock time. Each refusal says which limit, and when it frees up.
import type { DialSettingsRecord } from '../store';
import type { LimitKind, DialPolicy, DialRefusal } from '../../common/bulk-types';
export type { LimitKind, DialPolicy, DialRefusal } from '../../common/bulk-types';

export const DEFAULT_DIAL_POLICY: DialPolicy = { perMinute: 1, perHour: 5, perDay: 20, quietHours: { start: '22:00', end: '08:00' } };

const WINDOWS: { limit: Exclude<LimitKind, 'quiet-hours'>; ms: number; key: 'perMinute' | 'perHour' | 'perDay' }[] = [
  { limit: 'per-minute', ms: 60_000, key: 'perMinute' },
  { limit: 'per-hour', ms: 3_600_000, key: 'perHour' },
  { limit: 'per-day', ms: 86_400_000, key: 'perDay' },
];

export function policyFrom(r: DialSettingsRecord): DialPolicy {
  return {
    perMinute: r.perMinute,
    perHour: r.perHour,
    perDay: r.perDay,
    quietHours: r.quietStart && r.quietEnd && r.quietStart !== r.quietEnd ? { start: r.quietStart, end: r.quietEnd } : null,
  };
}

export function parseClock(hhmm: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** If `now` is inside quiet hours, the time they end (epoch ms); else null. */
export function quietUntil(q: DialPolicy['quietHours'], now: number): number | null {
  if (!q) return null;
  const start = parseClock(q.start);
  const end = parseClock(q.end);
  if (start === null || end === null || start === end) return null;
  const d = new Date(now);
  const minute = d.getHours() * 60 + d.getMinutes();
  const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  if (!inside) return null;
  const until = new Date(d.getFullYear(), d.getMonth(), d.getDate(), Math.floor(end / 60), end % 60, 0, 0);
  if (until.getTime() <= now) until.setDate(until.getDate() + 1);
  return until.getTime();
}

export function formatClock(ms: number, now: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  const today = new Date(now);
  const sameDay = d.getFullYear() === today.getFullYear() && d.getMonth() === today.getMonth() && d.getDate() === today.getDate();
  return sameDay ? time : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

/**
 * Which limits forbid calling `mobile` at `now`, given when it was called before (`callTimes`, any
 * order). Empty when the call may go. Every refusal says when it frees up.
 */
export function checkDial(policy: DialPolicy, mobile: string, callTimes: readonly number[], now: number): DialRefusal[] {
  const refusals: DialRefusal[] = [];
  const quiet = quietUntil(policy.quietHours, now);
  if (quiet !== null) {
    refusals.push({
      limit: 'quiet-hours',
      mobile,
      count: null,
      max: null,
      freesAt: quiet,
    });
  }
  const sorted = [...callTimes].sort((a, b) => a - b);
  for (const w of WINDOWS) {
    const max = policy[w.key];
    if (max === null) continue;
    const inWindow = sorted.filter((t) => t > now - w.ms);
    if (inWindow.length < max) continue;
    // Frees when enough of the calls in the window have left it for one more to fit.
    const freesAt = max === 0 ? Number.POSITIVE_INFINITY : inWindow[inWindow.length - max]! + w.ms;
    refusals.push({
      limit: w.limit,
      mobile,
      count: inWindow.length,
      max,
      freesAt,
    });
  }
  return refusals;
}

/**
 * Checks a "call until answered" plan up front: the first call now, then up to `attempts - 1`
 * more, at least `pauseMs` apart. A later attempt that only has to wait out the per-minute limit is
 * fine (the run waits); one that would break the hourly or daily limit is refused now, so that the
 * run does not stop half way.
 */
export function checkPlan(policy: DialPolicy, mobile: string, callTimes: readonly number[], now: number, attempts: number, pauseMs: number): DialRefusal[] {
  const first = checkDial(policy, mobile, callTimes, now);
  if (first.length || attempts <= 1) return first;
  const times = [...callTimes, now];
  let t = now;
  for (let k = 1; k < attempts; k++) {
    t += Math.max(0, pauseMs);
    const noQuiet = { ...policy, quietHours: null };
    let refusals = checkDial(noQuiet, mobile, times, t);
    const minute = refusals.find((r) => r.limit === 'per-minute');
    if (minute && refusals.length === 1 && minute.freesAt - t <= 60_000) {
      t = minute.freesAt;
      refusals = checkDial(noQuiet, mobile, times, t);
    }
    const hard = refusals.filter((r) => r.limit !== 'per-minute');
    if (hard.length) {
      return hard.map((r) => ({ ...r, plan: { attempts, call: k + 1 } }));
    }
    times.push(t);
  }
  return [];
}
