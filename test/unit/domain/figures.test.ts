import { describe, expect, it } from 'vitest';
import { callEnd, mayMove, plausibleAttempts, plausibleDuration, plausibleUnits, CALL_STATES, FINAL_STATES } from '../../../common/domain';

describe('a call never moves backwards', () => {
  it('nothing changes a final state, whatever arrives after it', () => {
    for (const from of FINAL_STATES) for (const to of CALL_STATES) expect(mayMove(from, to), `${from} → ${to}`).toBe(false);
  });
  it('a ringing call is never waiting again; it may end; the same state is no move', () => {
    expect(mayMove('calling', 'pending')).toBe(false);
    expect(mayMove('pending', 'calling')).toBe(true);
    expect(mayMove('calling', 'answered')).toBe(true);
    expect(mayMove('pending', 'no_answer')).toBe(true);
    expect(mayMove('calling', 'calling')).toBe(false);
  });
  it('a value nobody mapped yet (unknown) may be left for any state', () => {
    expect(mayMove('calling', 'unknown')).toBe(true);
    expect(mayMove('unknown', 'pending')).toBe(true);
    expect(mayMove('unknown', 'answered')).toBe(true);
  });
});

describe('how a settled call ended', () => {
  it('answered, not answered, or unknown (cannot be followed, following stopped, outcome unknown)', () => {
    expect(callEnd({ outcome: 'accepted', state: 'answered', endedAt: 1 })).toBe('answered');
    expect(callEnd({ outcome: 'accepted', state: 'busy', endedAt: 1 })).toBe('not-answered');
    expect(callEnd({ outcome: 'rejected', state: 'failed', endedAt: 1 })).toBe('not-answered');
    expect(callEnd({ outcome: 'accepted', state: 'unknown', endedAt: 1 })).toBe('unknown');
    expect(callEnd({ outcome: 'accepted', state: 'calling', endedAt: 1 })).toBe('unknown');
    expect(callEnd({ outcome: 'unknown', state: 'unknown', endedAt: null })).toBe('unknown');
  });
});

describe('plausible figures', () => {
  it('keeps whole, non-negative units; a duration of at most an hour; 1 to 100 attempts', () => {
    expect([0, 7, '7', ' 12 '].map(plausibleUnits)).toEqual([0, 7, 7, 12]);
    expect([-1, 1.5, '1e3', 'abc', null, {}, Number.NaN, 2e9].map(plausibleUnits)).toEqual([null, null, null, null, null, null, null, null]);
    expect([0, 59.9, '3600', 3601, -1, '1h'].map(plausibleDuration)).toEqual([0, 59, 3600, null, null, null]);
    expect([0, 1, 3, 101].map(plausibleAttempts)).toEqual([null, 1, 3, null]);
  });
});
