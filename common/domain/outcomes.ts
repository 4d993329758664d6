/**
 * What a send's outcome means for the next call: one rule for the bulk queue and the dialer.
 *
 * - `accepted`: the call is placed; follow it to its end.
 * - `not-sent`: the request provably never left (nothing was placed): the same call may be tried
 *   again later, but the provider is unreachable now.
 * - `account`: the provider refused it for a reason that concerns the account, not this number
 *   (no balance 402, content not approved 403, credentials 401, a rejected signature): no other
 *   call can succeed either. `retryLater` when it can succeed after a person acts (402, 403).
 * - `number`: the provider refused this call only (a malformed number, a parameter error):
 *   the next one may go ahead.
 * - `unknown`: the call may have been placed: never placed again automatically.
 */
import type { Outcome } from './status';

export type NextCall =
  | { kind: 'accepted' }
  | { kind: 'not-sent' }
  | { kind: 'account'; cause: 'insufficient-balance' | 'content-not-approved' | 'credentials' | 'signature'; retryLater: boolean }
  | { kind: 'number' }
  | { kind: 'unknown' };

/** The facts of a send that decide it: its outcome, the provider's code, and how it failed. */
export interface SendFacts {
  outcome: Outcome;
  code: number | null;
  failure: { kind: string; outcome: 'not-sent' | 'unknown' | 'rejected' } | null;
}

export function nextCall(s: SendFacts): NextCall {
  if (s.outcome === 'accepted') return { kind: 'accepted' };
  if (s.outcome !== 'rejected') return { kind: 'unknown' };
  if (s.failure?.outcome === 'not-sent') return { kind: 'not-sent' };
  if (s.failure?.kind === 'signature-rejected') return { kind: 'account', cause: 'signature', retryLater: false };
  if (s.code === 401) return { kind: 'account', cause: 'credentials', retryLater: false };
  if (s.code === 402) return { kind: 'account', cause: 'insufficient-balance', retryLater: true };
  if (s.code === 403) return { kind: 'account', cause: 'content-not-approved', retryLater: true };
  return { kind: 'number' };
}

/** Provider codes on a status query that mean the call can no longer be followed (400: unknown message; 401: credentials). */
export function stopsFollowing(code: number | null): 'tracking-unknown-message' | 'tracking-credentials' | null {
  if (code === 400) return 'tracking-unknown-message';
  if (code === 401) return 'tracking-credentials';
  return null;
}

/**
 * What a reply says about the key that signed it in: `ok` (the provider answered code 2),
 * `rejected` (code 401, or the gateway rejected the signature), or nothing (any other answer says
 * nothing about the key: a 402 comes from an account the key opened).
 */
export function keyVerdict(code: number | null, failureKind: string | null): { result: 'ok' | 'rejected'; kind: 'credentials' | 'signature' | null } | null {
  if (failureKind === 'signature-rejected') return { result: 'rejected', kind: 'signature' };
  if (code === 401) return { result: 'rejected', kind: 'credentials' };
  if (code === 2) return { result: 'ok', kind: null };
  return null;
}

/**
 * What a refusal at the door says, given how the profile authenticates (one rule for the call card,
 * the key's label and the advice):
 * - `signature`: the gateway refused a signing profile's signature (clock, host, key, variant): the
 *   signature workbench shows which step differs; the key itself may be right.
 * - `unsigned`: the gateway refused a request of a profile that does not sign (its API ID and key
 *   travel in the request): no signature was checked, so the account or the key was refused, or the
 *   gateway takes signed requests only: both are fixed in the profile.
 * - `credentials`: the provider refused the API ID or the key (code 401): fixed in the profile.
 */
export type AuthRefusal = 'credentials' | 'signature' | 'unsigned';

export function authRefusal(kind: 'credentials' | 'signature' | null, signing: 'off' | 'spec' | 'apisix' | null | undefined): AuthRefusal {
  if (kind !== 'signature') return 'credentials';
  return signing === 'off' ? 'unsigned' : 'signature';
}

/** Where a refusal is fixed: the signature workbench for a signature, the profile otherwise. */
export function authFixPlace(refusal: AuthRefusal): 'signature' | 'profiles' {
  return refusal === 'signature' ? 'signature' : 'profiles';
}

/**
 * Units a message cost: billing is on answer only (spec section 1). An answered call costs its units
 * (as the provider counted them, else the text's); a call that ended unanswered, or a send the
 * provider refused, cost nothing; a call still going on, or an unknown outcome, is not known yet (null).
 */
export function chargedUnits(m: { outcome: Outcome; state: string; endedAt: number | null; units: number; billedUnits: number | null }): number | null {
  if (m.outcome === 'rejected') return 0;
  if (m.outcome !== 'accepted') return null;
  if (m.state === 'answered') return m.billedUnits ?? m.units;
  return m.endedAt !== null ? 0 : null;
}

/** Why a message cost what it did: charged on answer; refused or unanswered cost nothing; open is not known yet. */
export type BillingKind = 'charged' | 'refused' | 'unanswered' | 'open';

/**
 * What a message cost and why, by chargedUnits' rule: the one reading of "billed" for the History
 * list, its detail and the exports (a refused send is 0 whatever units its text would have cost).
 */
export function billingOf(m: Parameters<typeof chargedUnits>[0]): { kind: BillingKind; units: number | null } {
  const units = chargedUnits(m);
  if (units === null) return { kind: 'open', units: null };
  if (m.outcome === 'accepted' && m.state === 'answered') return { kind: 'charged', units };
  return { kind: m.outcome === 'rejected' ? 'refused' : 'unanswered', units: 0 };
}
