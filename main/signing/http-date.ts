import { systemClock } from '../clock';
/**
 * HTTP-date (RFC 9110 section 5.6.7). We always produce IMF-fixdate
 * (`Sat, 21 Nov 2026 22:36:54 GMT`); we also read the two obsolete forms a recipient must
 * accept (RFC 850 and asctime). Anything else, including impossible calendar dates and a
 * weekday that does not match the date, is rejected.
 */

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const LONG_DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const DAY = 'Mon|Tue|Wed|Thu|Fri|Sat|Sun';
const LONG_DAY = 'Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday';
const MONTH = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

// Sun, 06 Nov 1994 08:49:37 GMT
const IMF_FIXDATE = new RegExp(`^(${DAY}), (\\d{2}) (${MONTH}) (\\d{4}) ${TIME} GMT$`);
// Sunday, 06-Nov-94 08:49:37 GMT
const RFC850_DATE = new RegExp(`^(${LONG_DAY}), (\\d{2})-(${MONTH})-(\\d{2}) ${TIME} GMT$`);
// Sun Nov  6 08:49:37 1994
const ASCTIME_DATE = new RegExp(`^(${DAY}) (${MONTH}) ((?:\\d| )\\d) ${TIME} (\\d{4})$`);

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** IMF-fixdate, e.g. `Sat, 21 Nov 2026 22:36:54 GMT`. Throws RangeError for an invalid Date or a year outside 0..9999. */
export function formatHttpDate(d: Date): string {
  if (Number.isNaN(d.getTime())) throw new RangeError('formatHttpDate: invalid Date');
  const year = d.getUTCFullYear();
  if (year < 0 || year > 9999) throw new RangeError(`formatHttpDate: year ${year} cannot be written as an HTTP-date`);
  return (
    DAY_NAMES[d.getUTCDay()] +
    ', ' +
    pad2(d.getUTCDate()) +
    ' ' +
    MONTH_NAMES[d.getUTCMonth()] +
    ' ' +
    String(year).padStart(4, '0') +
    ' ' +
    pad2(d.getUTCHours()) +
    ':' +
    pad2(d.getUTCMinutes()) +
    ':' +
    pad2(d.getUTCSeconds()) +
    ' GMT'
  );
}

function build(weekday: number, year: number, monthName: string, day: number, hour: number, minute: number, second: number): Date | null {
  const month = (MONTH_NAMES as readonly string[]).indexOf(monthName);
  if (month < 0 || hour > 23 || minute > 59 || second > 59 || day < 1) return null;
  const d = new Date(0);
  d.setUTCFullYear(year, month, day); // setUTCFullYear, not Date.UTC: years 0..99 stay as given
  d.setUTCHours(hour, minute, second, 0);
  // Reject dates that rolled over (31 Feb) and weekdays that do not match the date.
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month || d.getUTCDate() !== day) return null;
  if (d.getUTCDay() !== weekday) return null;
  return d;
}

/**
 * Parse an HTTP-date. Returns null for anything that is not one. Surrounding spaces/tabs
 * (header whitespace) are ignored; names are case-sensitive as the grammar says.
 * `now` only matters for RFC 850's two-digit year (a year more than 50 years ahead of `now`
 * means the previous century, RFC 9110).
 */
export function parseHttpDate(s: string, now: Date = systemClock.date()): Date | null {
  if (typeof s !== 'string') return null;
  const v = s.replace(/^[ \t]+|[ \t]+$/g, '');
  let m = IMF_FIXDATE.exec(v);
  if (m) {
    const [, wd, dd, mon, yyyy, hh, mi, ss] = m as unknown as [string, string, string, string, string, string, string, string];
    return build((DAY_NAMES as readonly string[]).indexOf(wd), Number(yyyy), mon, Number(dd), Number(hh), Number(mi), Number(ss));
  }
  m = RFC850_DATE.exec(v);
  if (m) {
    const [, wd, dd, mon, yy, hh, mi, ss] = m as unknown as [string, string, string, string, string, string, string, string];
    const nowYear = now.getUTCFullYear();
    let year = Math.floor(nowYear / 100) * 100 + Number(yy);
    if (year > nowYear + 50) year -= 100;
    return build((LONG_DAY_NAMES as readonly string[]).indexOf(wd), year, mon, Number(dd), Number(hh), Number(mi), Number(ss));
  }
  m = ASCTIME_DATE.exec(v);
  if (m) {
    const [, wd, mon, dd, hh, mi, ss, yyyy] = m as unknown as [string, string, string, string, string, string, string, string];
    return build((DAY_NAMES as readonly string[]).indexOf(wd), Number(yyyy), mon, Number(dd.trim()), Number(hh), Number(mi), Number(ss));
  }
  return null;
}
