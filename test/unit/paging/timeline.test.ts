import { describe, expect, it } from 'vitest';
import { afterCall, callEndState, formatOffset, MAX_TIMELINE_CALLS, policyIssues, policyTimeline } from '../../../common/paging/timeline';
import type { EscalationPolicy, PolicyStep } from '../../../common/paging/types';

const step = (over: Partial<PolicyStep> = {}): PolicyStep => ({
  target: { kind: 'contact', contactId: 1 },
  attempts: 2,
  retrySeconds: 60,
  pauseSeconds: 30,
  ...over,
});

describe('afterCall: one rule for what follows a call', () => {
  const s = step({ attempts: 3 });

  it('an answer stops the escalation', () => {
    expect(afterCall(s, 1, 'answered')).toBe('stop');
  });

  it.each(['busy', 'rejected', 'powered_off', 'unreachable', 'invalid_number', 'failed'] as const)(
    '%s moves to the next person at once, attempts left or not',
    (end) => {
      expect(afterCall(s, 1, end)).toBe('next-person');
    },
  );

  it('no answer retries while attempts remain, then moves on', () => {
    expect(afterCall(s, 1, 'no_answer')).toBe('retry');
    expect(afterCall(s, 2, 'no_answer')).toBe('retry');
    expect(afterCall(s, 3, 'no_answer')).toBe('next-person');
    expect(afterCall(step({ attempts: 1 }), 1, 'no_answer')).toBe('next-person');
  });

  it('an answer shorter than minAnsweredSeconds (a voicemail pickup) counts as no answer', () => {
    expect(afterCall(s, 1, 'answered', { answeredSeconds: 4, minAnsweredSeconds: 10 })).toBe('retry');
    expect(afterCall(s, 3, 'answered', { answeredSeconds: 4, minAnsweredSeconds: 10 })).toBe('next-person');
    expect(afterCall(s, 1, 'answered', { answeredSeconds: null, minAnsweredSeconds: 10 })).toBe('retry');
    expect(afterCall(s, 1, 'answered', { answeredSeconds: 10, minAnsweredSeconds: 10 })).toBe('stop');
  });

  it('an unknown end (may have been answered) stops: nobody is called again automatically', () => {
    expect(afterCall(s, 1, 'unknown')).toBe('stop');
  });
});

describe('callEndState: a message as the rule reads it', () => {
  it('a final state is itself; an unknown outcome or an unfollowed call is unknown; a refused send failed', () => {
    expect(callEndState({ outcome: 'accepted', state: 'busy', endedAt: 1 })).toBe('busy');
    expect(callEndState({ outcome: 'accepted', state: 'answered', endedAt: 1 })).toBe('answered');
    expect(callEndState({ outcome: 'unknown', state: 'pending', endedAt: null })).toBe('unknown');
    expect(callEndState({ outcome: 'accepted', state: 'calling', endedAt: 5 })).toBe('unknown');
    expect(callEndState({ outcome: 'rejected', state: 'pending', endedAt: null })).toBe('failed');
    expect(afterCall(step(), 1, callEndState({ outcome: 'rejected', state: 'pending', endedAt: null }))).toBe('next-person');
  });
});

const policy = (steps: PolicyStep[], repeat = 0): EscalationPolicy => ({ id: 1, name: 'p', steps, repeat, minAnsweredSeconds: 0 });

describe('policyTimeline: the calls when nobody answers', () => {
  it('calls one person with retries, then the next step after the pause', () => {
    const t = policyTimeline(
      policy([step({ attempts: 2, retrySeconds: 60, pauseSeconds: 30 }), step({ attempts: 1 })]),
      [{ names: ['王工'] }, { names: ['李雷'] }],
      30,
    );
    expect(t.calls).toEqual([
      { at: 0, step: 1, round: 1, who: '王工', attempt: 1, attempts: 2 },
      { at: 90, step: 1, round: 1, who: '王工', attempt: 2, attempts: 2 },
      { at: 150, step: 2, round: 1, who: '李雷', attempt: 1, attempts: 1 },
    ]);
    expect(t.endsAt).toBe(180);
    expect(t.truncated).toBe(false);
  });

  it('a group one by one: each member in turn, each with its attempts; all at once: everyone together', () => {
    const one = policyTimeline(policy([step({ attempts: 1, pauseSeconds: 0 })]), [{ names: ['甲', '乙', '丙'] }], 30);
    expect(one.calls.map((c) => [c.at, c.who])).toEqual([
      [0, '甲'],
      [30, '乙'],
      [60, '丙'],
    ]);
    // the issue's example: the defaults reach the third person in under 3 minutes
    expect(one.calls[2]!.at).toBeLessThan(180);
    const all = policyTimeline(policy([step({ attempts: 2, retrySeconds: 60 })]), [{ names: ['甲', '乙'], together: true }], 30);
    expect(all.calls.map((c) => [c.at, c.who, c.attempt])).toEqual([
      [0, '甲', 1],
      [0, '乙', 1],
      [90, '甲', 2],
      [90, '乙', 2],
    ]);
  });

  it('repeats the whole policy, after the last step’s pause', () => {
    const t = policyTimeline(policy([step({ attempts: 1, pauseSeconds: 120 })], 2), [{ names: ['王工'] }], 30);
    expect(t.calls.map((c) => [c.at, c.round])).toEqual([
      [0, 1],
      [150, 2],
      [300, 3],
    ]);
    expect(t.endsAt).toBe(330);
  });

  it('a step that calls nobody is passed at once and listed', () => {
    const t = policyTimeline(policy([step({ attempts: 1, pauseSeconds: 60 }), step({ attempts: 1 })]), [{ names: [] }, { names: ['李雷'] }], 30);
    expect(t.emptySteps).toEqual([1]);
    expect(t.calls).toEqual([{ at: 0, step: 2, round: 1, who: '李雷', attempt: 1, attempts: 1 }]);
  });

  it('stops listing at MAX_TIMELINE_CALLS and says so', () => {
    const names = Array.from({ length: 200 }, (_, i) => `p${i}`);
    const t = policyTimeline(policy([step({ attempts: 5 })], 10), [{ names }], 30);
    expect(t.calls).toHaveLength(MAX_TIMELINE_CALLS);
    expect(t.truncated).toBe(true);
  });

  it('formats offsets as m:ss and h:mm:ss', () => {
    expect(formatOffset(0)).toBe('0:00');
    expect(formatOffset(90)).toBe('1:30');
    expect(formatOffset(3725)).toBe('1:02:05');
  });
});

describe('policyIssues', () => {
  it('accepts a sound policy', () => {
    expect(policyIssues(policy([step()]))).toEqual([]);
  });
  it('reports no steps and out-of-range fields with the step', () => {
    expect(policyIssues({ steps: [], repeat: 0, minAnsweredSeconds: 0 })).toEqual([{ code: 'no-steps', params: {} }]);
    expect(policyIssues({ steps: [step({ attempts: 6 }), step({ retrySeconds: -1 })], repeat: 11, minAnsweredSeconds: 0 })).toEqual([
      { code: 'attempts-range', params: { step: 1, min: 1, max: 5 } },
      { code: 'retrySeconds-range', params: { step: 2, min: 0, max: 3600 } },
      { code: 'repeat-range', params: { step: 0, min: 0, max: 10 } },
    ]);
  });
});
