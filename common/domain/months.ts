/**
 * The wall clock's offset from UTC (minutes east) at the first instant of a month ("2026-03") on
 * this machine: where an archive's month starts, in summer time or not, whatever today's offset is.
 * 0 for a text that is not a month (main refuses it in words).
 */
export function monthStartOffsetMinutes(month: string): number {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return 0;
  // Before standard time zones a place kept its local mean time (Manila in 1800: 16 hours off, the
  // date line moved since): within the ±14 hours any offset is taken to be.
  return Math.max(-840, Math.min(840, -new Date(Number(m[1]), Number(m[2]) - 1, 1).getTimezoneOffset()));
}
