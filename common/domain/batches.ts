// How a batch stands for a person, from its figures: "done" only once every call it placed has
// ended; while some still ring it is "all sent, N calls in progress", and its bar is not full.
import type { BatchStatus, ItemStatus } from '../bulk-types';

/** A batch's status as shown: 'calling' is a finished batch (nothing left to send) whose calls still ring. */
export type BatchStanding = BatchStatus | 'calling';

export function batchStanding(p: { status: BatchStatus; calling: number }): BatchStanding {
  return p.status === 'done' && p.calling > 0 ? 'calling' : p.status;
}

/**
 * Rows finished, as a share of the batch (one decimal, rounded down): sent with a final outcome
 * (refused, unknown, a call that ended), skipped or cancelled. A row still to send or whose call
 * still rings is not finished, so 100 % means nothing is going on any more.
 */
export function finishedPercent(p: { total: number; remaining: number; calling: number }): number {
  if (p.total === 0) return 0;
  return Math.floor(((p.total - p.remaining - p.calling) / p.total) * 1000) / 10;
}

/** A row whose call is still going on: being sent, or accepted and not ended. */
export function rowInProgress(i: { status: ItemStatus; endedAt: number | null }): boolean {
  return i.status === 'in_flight' || (i.status === 'accepted' && i.endedAt === null);
}
