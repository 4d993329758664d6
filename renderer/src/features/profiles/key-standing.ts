// Where a profile's key stands, for every screen that shows it (the profiles' table, the key dialog,
// the Send form's profile list). Its own small module: the Send screen needs the rule, not the table.
import type { ProfileView } from '../../../../common/contract';
import { authRefusal, type AuthRefusal } from '../../../../common/domain/outcomes';

/** Where a profile's key stands: none, rejected by the provider, working, or set but not checked yet. */
export type KeyStanding = 'missing' | 'rejected' | 'works' | 'unchecked';

/** One rule for every screen, from main's one record of the provider's last word (ProfileView.keyCheck). */
export function keyStanding(p: Pick<ProfileView, 'hasKey' | 'keyCheck'>): KeyStanding {
  if (!p.hasKey) return 'missing';
  if (p.keyCheck?.result === 'rejected') return 'rejected';
  return p.keyCheck?.result === 'ok' ? 'works' : 'unchecked';
}

/** What the provider's refusal of a profile says, given how the profile authenticates (null while it is not refused). */
export function keyRefusal(p: Pick<ProfileView, 'hasKey' | 'keyCheck' | 'signing'>): AuthRefusal | null {
  if (keyStanding(p) !== 'rejected') return null;
  return authRefusal(p.keyCheck?.kind ?? null, p.signing);
}

/** The word for a key's standing (profiles.keyStatus.<word>): a refusal is named by what was refused. */
export function keyStatusWord(p: Pick<ProfileView, 'hasKey' | 'keyCheck' | 'signing'>): KeyStanding | 'signatureRejected' | 'unsignedRejected' {
  const refusal = keyRefusal(p);
  return refusal === 'signature' ? 'signatureRejected' : refusal === 'unsigned' ? 'unsignedRejected' : keyStanding(p);
}
