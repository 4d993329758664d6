// Escalation: the rule after each call, and a policy's timeline shown before it is saved
// (issue 25, items 3 and 9). Pure: times are offsets in seconds from the incident's start.
//
// The rule, one place for the paging engine and the quick dial's escalation:
// - answered (for at least the policy's minAnsweredSeconds, when it sets one): stop, someone has it;
// - busy, declined, powered off, unreachable, an invalid number, a failed call: the next person at
//   once (calling again would not help);
// - no answer (or an answer shorter than minAnsweredSeconds: a voicemail pickup): the same person
//   again after the step's retrySeconds while attempts remain, then the next person;
// - unknown (the call could not be followed to its end: it may have been answered): stop, and never
//   call again automatically (the incident ends 'unknown-call' and says so).

import { callEnd, type CallState, type Outcome } from '../domain/status';
import type { EscalationPolicy, PolicyStep } from './types';

/** How a call ended, as the paging rule reads it: a final call state, or 'unknown'. */
export type CallEndState = Exclude<CallState, 'pending' | 'calling'>;

export type AfterCall = 'retry' | 'next-person' | 'stop';

/**
 * How a settled message's call ended, for afterCall: its final state, or 'unknown' whenever status.ts's
 * callEnd says nobody knows (the send's outcome is unknown, or following stopped before a final state).
 */
export function callEndState(m: { outcome: Outcome; state: CallState; endedAt: number | null }): CallEndState {
  const end = callEnd(m);
  if (end === 'unknown') return 'unknown';
  if (end === 'answered') return 'answered';
  // A send the provider refused placed no call: nobody was reached, the next person may be. (A refusal
  // that concerns the account, e.g. no balance, stops every call: the engine reads outcomes.ts nextCall first.)
  if (m.state === 'pending' || m.state === 'calling' || m.state === 'unknown') return 'failed';
  return m.state;
}

export const MOVE_ON_AT_ONCE: ReadonlySet<CallEndState> = new Set<CallEndState>(['busy', 'rejected', 'powered_off', 'unreachable', 'invalid_number', 'failed']);

/**
 * What to do after attempt `attempt` (1-based) of `step` to one person ended as `end`.
 * `answeredSeconds`: how long the answered call lasted (its talk time); with `minAnsweredSeconds` > 0, a
 * shorter answer (or one of unknown length) counts as no answer.
 */
export function afterCall(
  step: Pick<PolicyStep, 'attempts'>,
  attempt: number,
  end: CallEndState,
  answer: { answeredSeconds?: number | null; minAnsweredSeconds?: number } = {},
): AfterCall {
  const min = answer.minAnsweredSeconds ?? 0;
  if (end === 'answered') {
    if (min <= 0 || (answer.answeredSeconds ?? -1) >= min) return 'stop';
    return attempt < step.attempts ? 'retry' : 'next-person';
  }
  if (end === 'unknown') return 'stop';
  if (end === 'no_answer') return attempt < step.attempts ? 'retry' : 'next-person';
  return 'next-person';
}

/** Bounds a policy is saved within (`paging.policy.<code>` in the catalog names them). */
export const POLICY_LIMITS = {
  steps: 20,
  attempts: { min: 1, max: 5 },
  retrySeconds: { min: 0, max: 3_600 },
  pauseSeconds: { min: 0, max: 86_400 },
  repeat: { min: 0, max: 10 },
  minAnsweredSeconds: { min: 0, max: 120 },
} as const;

export type PolicyIssue =
  | { code: 'no-steps'; params: Record<string, never> }
  | { code: 'too-many-steps'; params: { max: number } }
  /** A field out of its range: `<field>-range` (attempts-range ...); `step` 1-based, or 0 for the policy's own fields. */
  | { code: `${RangeField}-range`; params: { step: number; min: number; max: number } };

type RangeField = 'attempts' | 'retrySeconds' | 'pauseSeconds' | 'repeat' | 'minAnsweredSeconds';
export const POLICY_ISSUE_CODES = [
  'no-steps',
  'too-many-steps',
  'attempts-range',
  'retrySeconds-range',
  'pauseSeconds-range',
  'repeat-range',
  'minAnsweredSeconds-range',
] as const;

/** A policy's problems before it is saved (`step`: 1-based, 0 for the policy's own fields). */
export function policyIssues(p: Pick<EscalationPolicy, 'steps' | 'repeat' | 'minAnsweredSeconds'>): PolicyIssue[] {
  const out: PolicyIssue[] = [];
  const range = (field: RangeField, value: number, step: number) => {
    const { min, max } = POLICY_LIMITS[field];
    if (!Number.isInteger(value) || value < min || value > max) out.push({ code: `${field}-range`, params: { step, min, max } });
  };
  if (p.steps.length === 0) out.push({ code: 'no-steps', params: {} });
  if (p.steps.length > POLICY_LIMITS.steps) out.push({ code: 'too-many-steps', params: { max: POLICY_LIMITS.steps } });
  p.steps.forEach((s, i) => {
    range('attempts', s.attempts, i + 1);
    range('retrySeconds', s.retrySeconds, i + 1);
    range('pauseSeconds', s.pauseSeconds, i + 1);
  });
  range('repeat', p.repeat, 0);
  range('minAnsweredSeconds', p.minAnsweredSeconds, 0);
  return out;
}

/** Who a step calls, as resolved for the timeline: names in calling order; `together` for a group called all at once. */
export interface ResolvedStep {
  names: string[];
  together?: boolean;
}

export interface TimelineCall {
  /** Seconds from the incident's start. */
  at: number;
  /** 1-based step of the policy, and the round (1 = first run; more when the policy repeats). */
  step: number;
  round: number;
  who: string;
  /** 1-based attempt to this person in this step, of `attempts`. */
  attempt: number;
  attempts: number;
}

export interface PolicyTimeline {
  calls: TimelineCall[];
  /** Steps (1-based) that call nobody (an empty group, nobody on call): they are passed at once. */
  emptySteps: number[];
  /** When the last call ends and the policy is exhausted (seconds), with nobody answering. */
  endsAt: number;
  /** More calls than MAX_TIMELINE_CALLS: the list stops there. */
  truncated: boolean;
}

export const MAX_TIMELINE_CALLS = 500;
/** What the timeline assumes an unanswered call lasts, ringing to its end (seconds). */
export const DEFAULT_RING_SECONDS = 30;

/**
 * The calls a policy places when nobody answers: who, when (seconds from the start), which attempt.
 * `steps[i]` resolves the policy's step i (the same length as policy.steps). `ringSeconds`: how long an
 * unanswered call is assumed to take to end. Busy and the like move on sooner; the timeline shows the
 * worst case a person waits through: every call rings out.
 */
export function policyTimeline(
  policy: Pick<EscalationPolicy, 'steps' | 'repeat'>,
  steps: readonly ResolvedStep[],
  ringSeconds: number = DEFAULT_RING_SECONDS,
): PolicyTimeline {
  const calls: TimelineCall[] = [];
  const emptySteps: number[] = [];
  let t = 0;
  let truncated = false;
  const rounds = Math.max(0, Math.floor(policy.repeat)) + 1;
  const push = (c: TimelineCall) => {
    if (calls.length >= MAX_TIMELINE_CALLS) truncated = true;
    else calls.push(c);
  };
  let lastEnd = 0;
  outer: for (let round = 1; round <= rounds; round++) {
    for (let i = 0; i < policy.steps.length; i++) {
      const step = policy.steps[i]!;
      const resolved = steps[i] ?? { names: [] };
      const attempts = Math.max(1, Math.floor(step.attempts));
      if (resolved.names.length === 0) {
        if (round === 1) emptySteps.push(i + 1);
        continue;
      }
      // One by one: each person gets all attempts before the next; all at once: each attempt calls everyone.
      const waves = resolved.together ? [resolved.names] : resolved.names.map((n) => [n]);
      for (const wave of waves) {
        for (let attempt = 1; attempt <= attempts; attempt++) {
          for (const who of wave) push({ at: t, step: i + 1, round, who, attempt, attempts });
          t += ringSeconds;
          lastEnd = t;
          if (attempt < attempts) t += step.retrySeconds;
          if (truncated) break outer;
        }
      }
      t = lastEnd + step.pauseSeconds;
    }
  }
  return { calls, emptySteps, endsAt: lastEnd, truncated };
}

/** Seconds as the timeline shows them: m:ss, or h:mm:ss from an hour. */
export function formatOffset(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
