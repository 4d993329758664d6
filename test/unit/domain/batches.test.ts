// A batch is "done" for a person only once its calls have ended: while calls still ring it is
// "all sent, N calls in progress", its bar is short of 100 %, and those rows are in progress.
import { describe, expect, it } from 'vitest';
import { batchStanding, finishedPercent, rowInProgress } from '../../../common/domain/batches';

describe('how a batch stands', () => {
  it('nothing left to send but 16 calls still ringing: not done, and not 100 %', () => {
    const p = { status: 'done' as const, total: 60, remaining: 0, calling: 16 };
    expect(batchStanding(p)).toBe('calling');
    expect(finishedPercent(p)).toBe(73.3);
  });

  it('done, with 100 %, once every call has ended', () => {
    const p = { status: 'done' as const, total: 60, remaining: 0, calling: 0 };
    expect(batchStanding(p)).toBe('done');
    expect(finishedPercent(p)).toBe(100);
  });

  it('a running or paused batch keeps its status; rows still to send are not finished', () => {
    expect(batchStanding({ status: 'running', calling: 5 })).toBe('running');
    expect(batchStanding({ status: 'paused', calling: 5 })).toBe('paused');
    expect(finishedPercent({ total: 10, remaining: 4, calling: 2 })).toBe(40);
    expect(finishedPercent({ total: 0, remaining: 0, calling: 0 })).toBe(0);
  });

  it('a row is in progress while it is being sent or its accepted call has not ended', () => {
    expect(rowInProgress({ status: 'accepted', endedAt: null })).toBe(true);
    expect(rowInProgress({ status: 'in_flight', endedAt: null })).toBe(true);
    expect(rowInProgress({ status: 'accepted', endedAt: 1 })).toBe(false);
    expect(rowInProgress({ status: 'rejected', endedAt: null })).toBe(false);
    expect(rowInProgress({ status: 'unknown', endedAt: null })).toBe(false);
  });
});
