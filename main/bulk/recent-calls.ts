// Before a list is called: which of its rows were called with the same text a short while ago
// (from History), so that a list sent twice by mistake is caught before anyone's phone rings again.

/** How far back a list's numbers are looked up: 30 minutes. */
export const RECENT_CALL_WINDOW_MS = 30 * 60_000;

/** A number called with a text (History), the last time it was. */
export interface RecentCall {
  mobile: string;
  content: string;
  at: number;
}

export interface RecentlyCalled {
  /** Rows of the list whose number was called with the very same text in the window. */
  rows: number;
  /** When the latest of those calls was placed (ms), null when none. */
  latestAt: number | null;
  /** A few of those numbers, in row order (at most `sample`). */
  mobiles: string[];
}

/** The rows (valid ones only) whose number and text match a recent call. */
export function recentlyCalled(rows: readonly { mobile: string; content: string; valid: boolean }[], calls: readonly RecentCall[], sample = 5): RecentlyCalled {
  const last = new Map<string, number>();
  for (const c of calls) {
    const k = `${c.mobile}\u0000${c.content}`;
    last.set(k, Math.max(last.get(k) ?? 0, c.at));
  }
  let count = 0;
  let latestAt: number | null = null;
  const mobiles: string[] = [];
  for (const r of rows) {
    if (!r.valid) continue;
    const at = last.get(`${r.mobile}\u0000${r.content}`);
    if (at === undefined) continue;
    count++;
    latestAt = Math.max(latestAt ?? 0, at);
    if (mobiles.length < sample && !mobiles.includes(r.mobile)) mobiles.push(r.mobile);
  }
  return { rows: count, latestAt, mobiles };
}
