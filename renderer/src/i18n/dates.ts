// How dates read on every screen, in both languages: year-month-day ("2026-11-27"), as History
// writes them — never "27/11/2026" or "11/27/2026", which readers of the other convention misread.
// Pure functions (no DOM), unit-tested in Node.

const pad = (n: number) => String(n).padStart(2, '0');

/** "2026-11-27" in local time. */
export function isoDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** "2026-11-27 09:05" in local time. */
export function isoDateTime(ms: number): string {
  const d = new Date(ms);
  return `${isoDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "11-27": month before day, for a date in the current year beside a time. */
export function monthDay(d: Date): string {
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
