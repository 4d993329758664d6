import { parseHttpDate } from './http-date';

/** The Date header may differ from the gateway's clock by at most this many seconds, either way (inclusive). */
export const CLOCK_WINDOW_SECONDS = 300;

/**
 * Skew of a Date header value against `now`, in whole seconds: date - now, positive when the
 * requester's clock is ahead. Like the gateway (whose clock reads whole seconds), `now` is
 * truncated to the second; the Date header has no sub-second part. Null when `date` is not an
 * HTTP-date.
 */
export function clockSkewSeconds(date: string, now: Date): number | null {
  const d = parseHttpDate(date, now);
  if (d === null) return null;
  const nowMs = now.getTime();
  if (Number.isNaN(nowMs)) return null;
  return Math.floor(d.getTime() / 1000) - Math.floor(nowMs / 1000);
}

/** True when |skew| <= window (the window is inclusive: 300 passes, 301 does not). Null skew is never within. */
export function withinWindow(skew: number | null, window: number = CLOCK_WINDOW_SECONDS): boolean {
  return skew !== null && Number.isFinite(skew) && Math.abs(skew) <= window;
}
