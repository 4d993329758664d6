// What the call card says while a call goes on, besides its state: a state value the profile's
// dialect does not map (never a silent "accepted"), and, for a call only the provider's receipts
// tell about, that it waits for one; and how much weight its "Call again…" gets. Pure: Send's model
// (send-model.ts) and card use it; tests run it in Node.
import type { TFunction } from 'i18next';
import type { MessageRecord } from '../../../../common/records';
import { unmappedValue } from '../../../../common/reasons';
import { describeReason } from '../../app/describe';

/** How the card's call is followed: only by the receipts the provider posts (followsByReceiptsOnly), or not. */
export interface FollowNote {
  receiptsOnly: boolean;
}

/** "State value "200002" not recognised — map it.", when that is why the call's state is unknown. */
export function unmappedNote(t: TFunction, m: Pick<MessageRecord, 'reason'>): string[] {
  return unmappedValue(m.reason) !== null && m.reason ? [describeReason(t, m.reason)] : [];
}

/** "Waiting for the provider's receipt…" for a call only receipts tell about. */
export function receiptNote(t: TFunction, follow: FollowNote): string[] {
  return follow.receiptsOnly ? [t('send.outcome.waitingReceipt')] : [];
}

/** The timeline's last line while the call goes on: the next status, or the provider's receipt. */
export function waitingNextText(t: TFunction, follow: FollowNote): string {
  return follow.receiptsOnly ? t('send.timeline.waitingReceipt') : t('send.timeline.waitingNext');
}

/**
 * Whether "Send again…" is the card's main (red) action: only when the send's outcome is unknown (it
 * may not have reached the provider, and a person must decide). For a call the provider accepted —
 * ended unanswered, or no longer followed — "Call again…" stays available, as a secondary action.
 */
export function sendAgainIsMain(m: Pick<MessageRecord, 'outcome'>): boolean {
  return m.outcome !== 'accepted';
}
