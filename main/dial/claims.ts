// The per-number limits checked and the call's place in them taken at once (a dial claim, kept in
// SQLite: DialSettingsRepository.claimDial), for every dialer that places calls one at a time: quick
// dial and paging. Another dialer, in this process or another, then sees the call while it still
// waits for a line, and cannot take the same last place.
import type { DialRefusal } from './limits';

export interface DialClaims {
  claimDial<R>(mobile: string, now: number, check: (callTimes: number[]) => R[]): { refusals: R[]; claim: number | null };
  releaseClaim(claim: number): void;
  callTimes(mobile: string, since: number): number[];
}

export interface DialClaim {
  /** Empty when the call may go (its place is then held until `release`). */
  refusals: DialRefusal[];
  /** Lets the place go: call it once the send has returned (its message row counts from then) or placed nothing. */
  release(): void;
}

/**
 * Checks `mobile`'s limits at `now` and claims the call's place. When the claim cannot be written (a
 * full disk, a lock held too long), the limits are checked as read and the call goes unclaimed: a
 * page is never lost to the bookkeeping that guards it (the failure is logged).
 */
export function claimDial(
  store: DialClaims,
  mobile: string,
  now: number,
  check: (callTimes: number[]) => DialRefusal[],
  log?: (error: unknown) => void,
): DialClaim {
  let held: number | null;
  let refusals: DialRefusal[];
  try {
    ({ refusals, claim: held } = store.claimDial(mobile, now, check));
  } catch (error) {
    log?.(error);
    return { refusals: check(store.callTimes(mobile, now - 86_400_000)), release: () => undefined };
  }
  return {
    refusals,
    release() {
      if (held === null) return;
      const claim = held;
      held = null;
      try {
        store.releaseClaim(claim);
      } catch (error) {
        // Left to expire (DIAL_CLAIM_MS): until then it counts as the call it was.
        log?.(error);
      }
    },
  };
}
