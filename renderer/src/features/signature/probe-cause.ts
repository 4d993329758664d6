// Why a gateway accepted neither signature variant, when the clock reading says: a Date outside the
// gateway's window fails every variant alike, so the clock is the likely cause (not the variant).
// Pure: the Clock tab's probe answer and its test use it.

/** The gateway's window: a Date more than this many seconds from its clock is refused (inclusive: 300 passes). */
export const CLOCK_WINDOW_SECONDS = 300;

/** True when a clock skew (seconds, server minus this computer) is outside the window. */
export function outsideWindow(skewSeconds: number | null, windowSeconds = CLOCK_WINDOW_SECONDS): boolean {
  return skewSeconds !== null && Math.abs(skewSeconds) > windowSeconds;
}

/** The likely cause of a probe's answer: 'clock' when no variant was accepted and the skew is outside the window; else null. */
export function probeLikelyCause(accepted: readonly string[], skewSeconds: number | null, windowSeconds = CLOCK_WINDOW_SECONDS): 'clock' | null {
  return accepted.length === 0 && outsideWindow(skewSeconds, windowSeconds) ? 'clock' : null;
}
