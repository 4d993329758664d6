/**
 * How a sandbox call behaves: scripted by the LAST DIGIT of the mobile number, so that testers can
 * choose the outcome, and timed in simulated seconds (multiplied by timeScale at run time).
 */

import { textLength } from '../../common/domain/units';
import type { CallScriptName } from './types';

/** Simulated timings, in seconds. */
export const SIMULATION = Object.freeze({
  /** From acceptance to the moment the call may take a line. */
  dispatchSeconds: 1,
  /** Ringing before the callee answers, declines or lets it ring out (plus up to `ringJitterSeconds`). */
  ringSeconds: 5,
  ringJitterSeconds: 2,
  /** Busy, powered off, unreachable and vacant numbers are known from the network almost at once. */
  networkFailureSeconds: 2,
  /** Wait between a no-answer and the automatic redial. */
  redialDelaySeconds: 10,
  /** Automatic redials after a no-answer (so at most 1 + 2 attempts). */
  maxRedials: 2,
  /** Speech rate: about 70 characters per 20 seconds. */
  charsPerSecond: 3.5,
  minTalkSeconds: 3,
  /** Concurrent calls per line (spec section 8). */
  callsPerLine: 20,
});

/** What one dial attempt ends with. */
export type AttemptOutcome = 'answered' | 'no_answer' | 'busy' | 'powered_off' | 'unreachable' | 'rejected' | 'invalid_number';

export interface CallScript {
  name: CallScriptName;
  /** Outcome of each attempt in order; a no_answer that is not the last entry is followed by a redial. */
  attempts: readonly AttemptOutcome[];
}

const NO_ANSWER_EVERY_TIME: readonly AttemptOutcome[] = Array.from({ length: 1 + SIMULATION.maxRedials }, () => 'no_answer');

/**
 * Last digit → outcome:
 * 0 no answer on every attempt (two automatic redials) → no_answer; 1 busy; 2 powered off;
 * 3 unreachable; 4 declined (rejected); 5 no answer, then answered on the first redial;
 * 6 vacant number (invalid_number); 7, 8, 9 answered.
 */
export function scriptFor(mobile: string): CallScript {
  switch (mobile.slice(-1)) {
    case '0':
      return { name: 'no_answer', attempts: NO_ANSWER_EVERY_TIME };
    case '1':
      return { name: 'busy', attempts: ['busy'] };
    case '2':
      return { name: 'powered_off', attempts: ['powered_off'] };
    case '3':
      return { name: 'unreachable', attempts: ['unreachable'] };
    case '4':
      return { name: 'rejected', attempts: ['rejected'] };
    case '5':
      return { name: 'answered_on_redial', attempts: ['no_answer', 'answered'] };
    case '6':
      return { name: 'invalid_number', attempts: ['invalid_number'] };
    default:
      return { name: 'answered', attempts: ['answered'] };
  }
}

/** Simulated seconds from the first ring to the attempt's outcome. */
export function ringSecondsFor(outcome: AttemptOutcome, random: () => number): number {
  switch (outcome) {
    case 'answered':
    case 'no_answer':
    case 'rejected':
      return SIMULATION.ringSeconds + clamp01(random()) * SIMULATION.ringJitterSeconds;
    default:
      return SIMULATION.networkFailureSeconds;
  }
}

/** Whole seconds an answered call lasts: about textLength / 3.5 (70 characters ≈ 20 s), at least 3 s. */
export function talkSecondsFor(content: string): number {
  return Math.max(SIMULATION.minTalkSeconds, Math.ceil(textLength(content) / SIMULATION.charsPerSecond));
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0.5;
}
