// Wall-clock time in an IANA time zone, from the platform's ICU (Intl.DateTimeFormat with timeZone):
// an instant (epoch ms) to the local date and time there, and back. Pure: no clock is read; every
// instant is a parameter. Schedules hand over at a local 'HH:MM' (common/paging/schedule.ts); quiet
// hours and maintenance windows in a time zone can use the same two functions.
//
// The way back is ambiguous twice a year where the zone has daylight saving time. As Temporal's
// 'compatible' disambiguation (and RFC 5545 for a DTSTART in a zone): a local time that happens twice
// (the clocks go back) is its earlier instant; a local time that never happens (the clocks go forward)
// is moved forward by the gap (02:30 on the day Berlin goes from 02:00 to 03:00 is 03:30 CEST).

export interface LocalDate {
  year: number;
  /** 1–12 */
  month: number;
  /** 1–31 */
  day: number;
}

export interface LocalDateTime extends LocalDate {
  hour: number;
  minute: number;
  second?: number;
  millisecond?: number;
}

export interface ZonedParts extends Required<LocalDateTime> {
  /** 0 = Sunday … 6 = Saturday (as Date.getDay). */
  weekday: number;
}

export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Whether the platform knows this IANA time zone (e.g. 'Europe/Berlin'; not '', not 'Mars/Base'). */
export function isTimeZone(timeZone: unknown): timeZone is string {
  if (typeof timeZone !== 'string' || timeZone.trim() === '') return false;
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Epoch ms of a date and time read as UTC (years below 100 are not moved to the 1900s). */
function utc(t: LocalDateTime): number {
  const d = new Date(Date.UTC(2000, t.month - 1, t.day, t.hour, t.minute, t.second ?? 0, t.millisecond ?? 0));
  d.setUTCFullYear(t.year + (d.getUTCFullYear() - 2000));
  return d.getTime();
}

/** The local date and time at instant `t` in `timeZone`. Throws RangeError for an unknown zone. */
export function epochToLocal(t: number, timeZone: string): ZonedParts {
  const parts = formatter(timeZone).formatToParts(new Date(t));
  const n = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const millisecond = ((t % 1000) + 1000) % 1000;
  const local = { year: n('year'), month: n('month'), day: n('day'), hour: n('hour') % 24, minute: n('minute'), second: n('second'), millisecond };
  return { ...local, weekday: new Date(utc({ ...local, hour: 0, minute: 0, second: 0, millisecond: 0 })).getUTCDay() };
}

/** The zone's offset from UTC at instant `t`, in ms (Asia/Shanghai: +8 h; New York in winter: −5 h). */
export function offsetAt(t: number, timeZone: string): number {
  return utc(epochToLocal(t, timeZone)) - t;
}

function sameLocal(a: ZonedParts, b: LocalDateTime): boolean {
  return a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute && a.second === (b.second ?? 0);
}

/**
 * The instant a local date and time in `timeZone` happens. Twice (clocks go back): the earlier one.
 * Never (clocks go forward): moved forward by the gap. Throws RangeError for an unknown zone.
 */
export function localToEpoch(local: LocalDateTime, timeZone: string): number {
  const asUtc = utc(local);
  // The offsets a day before and after hold on either side of any one transition between them.
  const before = offsetAt(asUtc - DAY_MS, timeZone);
  const after = offsetAt(asUtc + DAY_MS, timeZone);
  const candidates = [...new Set([asUtc - before, asUtc - after, asUtc - offsetAt(asUtc, timeZone)])]
    .filter((c) => sameLocal(epochToLocal(c, timeZone), local))
    .sort((a, b) => a - b);
  if (candidates.length > 0) return candidates[0]!;
  // In the gap: with the offset from before the change, the wall time lands past it by the gap's length.
  return asUtc - before;
}

/** The calendar date `days` after (or before) `date`. */
export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(utc({ ...date, hour: 12, minute: 0 }) + days * DAY_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Whole calendar days from `a` to `b` (negative when b is before a). */
export function daysBetween(a: LocalDate, b: LocalDate): number {
  return Math.round((utc({ ...b, hour: 12, minute: 0 }) - utc({ ...a, hour: 12, minute: 0 })) / DAY_MS);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** 'YYYY-MM-DD' */
export function formatDate(d: LocalDate): string {
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

/** 'HH:MM' */
export function formatTime(t: { hour: number; minute: number }): string {
  return `${pad(t.hour)}:${pad(t.minute)}`;
}
