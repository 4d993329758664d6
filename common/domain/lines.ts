// A line bought from the provider (spec section 8): 20 concurrent calls and about 2,000 calls an hour.
// The governor, the Bulk screen and the CLI all count with these.

export const CALLS_PER_LINE = 20;
export const CALLS_PER_HOUR_PER_LINE = 2000;

/** The limits of this many lines (one when the number is not a whole number above zero). */
export function limitsForLines(lines: number): { concurrency: number; perHour: number } {
  const n = Number.isInteger(lines) && lines > 0 ? lines : 1;
  return { concurrency: CALLS_PER_LINE * n, perHour: CALLS_PER_HOUR_PER_LINE * n };
}
