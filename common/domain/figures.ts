/**
 * Figures a provider reports (units billed, remaining units, call duration, dial attempts) are
 * stored as facts only when they are plausible: a negative count, a duration of days (milliseconds
 * read as seconds) or a fraction of a unit is garbage, and garbage is kept as "not known" (null), never shown
 * as a figure. The raw reply stays in the exchange for a person to read.
 */

/** A text-to-speech notification of at most 500 characters, redials included, never lasts an hour. */
export const MAX_CALL_SECONDS = 3600;
/** More units than any account holds (the largest package is far below this). */
export const MAX_UNITS = 1_000_000_000;
/** The provider redials a few times, not hundreds. */
export const MAX_ATTEMPTS = 100;

/** A finite number from a number or a numeric text ("12", " 12.5 "), else null. */
export function numberOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && /^\s*-?\d{1,15}(\.\d{1,9})?\s*$/.test(v)) return Number(v);
  return null;
}

function whole(v: unknown, min: number, max: number): number | null {
  const n = numberOf(v);
  return n !== null && Number.isInteger(n) && n >= min && n <= max ? n : null;
}

/** Units (billed, or remaining): a whole number from 0, else null. */
export function plausibleUnits(v: unknown): number | null {
  return whole(v, 0, MAX_UNITS);
}

/** A call's duration in whole seconds (a fraction is cut), 0 to an hour, else null. */
export function plausibleDuration(v: unknown): number | null {
  const n = numberOf(v);
  return n !== null && n >= 0 && n <= MAX_CALL_SECONDS ? Math.floor(n) : null;
}

/** Dial attempts, redials included: 1 to 100, else null. */
export function plausibleAttempts(v: unknown): number | null {
  return whole(v, 1, MAX_ATTEMPTS);
}
