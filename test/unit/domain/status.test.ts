import { describe, expect, it } from 'vitest';
import { catalogSection } from '../../helpers/catalog';
import {
  CALL_STATES,
  CALL_STATE_SYNONYMS,
  type CallState,
  FINAL_STATES,
  OUTCOMES,
  callStateKey,
  isCallState,
  isFinalState,
  isOutcome,
  normalizeCallState,
} from '../../../common/domain/status';

const CALL_STATE_LABELS = catalogSection('state');
const OUTCOME_LABELS = catalogSection('outcome');

const CJK = /[\u4e00-\u9fff]/;

describe('call states', () => {
  it('are the architecture set, in order', () => {
    expect([...CALL_STATES]).toEqual([
      'pending',
      'calling',
      'answered',
      'no_answer',
      'busy',
      'rejected',
      'powered_off',
      'unreachable',
      'invalid_number',
      'failed',
      'unknown',
    ]);
  });

  it.each<[CallState, boolean]>([
    ['pending', false],
    ['calling', false],
    ['unknown', false],
    ['answered', true],
    ['no_answer', true],
    ['busy', true],
    ['rejected', true],
    ['powered_off', true],
    ['unreachable', true],
    ['invalid_number', true],
    ['failed', true],
  ])('%s final: %s', (state, final) => {
    expect(isFinalState(state)).toBe(final);
    expect(FINAL_STATES.has(state)).toBe(final);
  });

  it('FINAL_STATES holds exactly the 8 final states', () => {
    expect(FINAL_STATES.size).toBe(8);
  });

  it('isCallState recognises only our names', () => {
    for (const s of CALL_STATES) expect(isCallState(s)).toBe(true);
    for (const x of ['ANSWERED', 'no-answer', '', null, 1]) expect(isCallState(x)).toBe(false);
  });
});

describe('outcomes', () => {
  it('are pending, accepted, rejected, unknown', () => {
    expect([...OUTCOMES]).toEqual(['pending', 'accepted', 'rejected', 'unknown']);
    for (const o of OUTCOMES) expect(isOutcome(o)).toBe(true);
    expect(isOutcome('answered')).toBe(false);
  });
});

describe('labels', () => {
  it.each([...CALL_STATES])('call state %s has both labels', (s) => {
    expect(CALL_STATE_LABELS[s]!['zh-CN']).toMatch(CJK);
    expect(CALL_STATE_LABELS[s]!.en).toMatch(/^[A-Z]/);
  });

  it.each([...OUTCOMES])('outcome %s has both labels', (o) => {
    expect(OUTCOME_LABELS[o]!['zh-CN']).toMatch(CJK);
    expect(OUTCOME_LABELS[o]!.en).toMatch(/^[A-Z]/);
  });

  it('labels have no extra keys and are distinct', () => {
    expect(Object.keys(CALL_STATE_LABELS).sort()).toEqual([...CALL_STATES].sort());
    expect(Object.keys(OUTCOME_LABELS).sort()).toEqual([...OUTCOMES].sort());
    expect(new Set(Object.values(CALL_STATE_LABELS).map((l) => l.en)).size).toBe(CALL_STATES.length);
    expect(new Set(Object.values(CALL_STATE_LABELS).map((l) => l['zh-CN'])).size).toBe(CALL_STATES.length);
  });

  it('the unknown outcome warns before sending again', () => {
    expect(OUTCOME_LABELS.unknown!.en).toBe('Unknown — the request may have reached the provider; check before sending again');
    expect(OUTCOME_LABELS.unknown!['zh-CN']).toMatch(/可能已到达服务商/);
  });
});

describe('normalizeCallState', () => {
  it.each([...CALL_STATES])('keeps our own name %s', (s) => {
    expect(normalizeCallState(s)).toBe(s);
  });

  it.each<[string, CallState]>([
    // answered
    ['ANSWERED', 'answered'],
    ['Answered', 'answered'],
    ['answer', 'answered'],
    ['success', 'answered'],
    ['SUCCESS', 'answered'],
    ['DELIVRD', 'answered'],
    ['已接听', 'answered'],
    ['接通', 'answered'],
    ['成功', 'answered'],
    // no answer
    ['no-answer', 'no_answer'],
    ['no_answer', 'no_answer'],
    ['NO_ANSWER', 'no_answer'],
    ['no answer', 'no_answer'],
    ['noanswer', 'no_answer'],
    ['NOANSWER', 'no_answer'],
    ['timeout', 'no_answer'],
    ['TIMEOUT', 'no_answer'],
    ['未接听', 'no_answer'],
    ['无人接听', 'no_answer'],
    // busy
    ['busy', 'busy'],
    ['BUSY', 'busy'],
    ['忙', 'busy'],
    ['用户忙', 'busy'],
    ['占线', 'busy'],
    // rejected
    ['reject', 'rejected'],
    ['REJECTED', 'rejected'],
    ['refused', 'rejected'],
    ['declined', 'rejected'],
    ['拒接', 'rejected'],
    // powered off
    ['poweroff', 'powered_off'],
    ['POWER_OFF', 'powered_off'],
    ['powered off', 'powered_off'],
    ['powered-off', 'powered_off'],
    ['shutdown', 'powered_off'],
    ['关机', 'powered_off'],
    // unreachable
    ['unreachable', 'unreachable'],
    ['out of service', 'unreachable'],
    ['OUT_OF_SERVICE', 'unreachable'],
    ['not reachable', 'unreachable'],
    ['停机', 'unreachable'],
    ['不在服务区', 'unreachable'],
    ['无法接通', 'unreachable'],
    // invalid number
    ['invalid', 'invalid_number'],
    ['INVALID_NUMBER', 'invalid_number'],
    ['empty number', 'invalid_number'],
    ['vacant', 'invalid_number'],
    ['空号', 'invalid_number'],
    // failed
    ['fail', 'failed'],
    ['FAILED', 'failed'],
    ['error', 'failed'],
    ['失败', 'failed'],
    // pending
    ['queued', 'pending'],
    ['submitted', 'pending'],
    ['sending', 'pending'],
    ['accepted', 'pending'],
    ['PENDING', 'pending'],
    ['等待', 'pending'],
    ['排队', 'pending'],
    ['已提交', 'pending'],
    // calling
    ['calling', 'calling'],
    ['dialing', 'calling'],
    ['ringing', 'calling'],
    ['RINGING', 'calling'],
    ['in_progress', 'calling'],
    ['in-progress', 'calling'],
    ['redial', 'calling'],
    ['redialing', 'calling'],
    ['呼叫中', 'calling'],
    ['正在呼叫', 'calling'],
    ['振铃', 'calling'],
    ['重呼', 'calling'],
    // surrounding whitespace
    ['  answered\n', 'answered'],
    [' 关机 ', 'powered_off'],
  ])('%j → %s', (raw, state) => {
    expect(normalizeCallState(raw)).toBe(state);
  });

  it.each<[unknown]>([
    [null],
    [undefined],
    [0],
    [1],
    [2],
    [200],
    [true],
    [{}],
    [{ state: 'answered' }],
    [['answered']],
    [''],
    ['   '],
    ['0'],
    ['1'],
    ['something else'],
    ['answered!'],
    ['未知'],
    ['不是状态'],
  ])('%j → unknown', (raw) => {
    expect(normalizeCallState(raw)).toBe('unknown');
  });

  it('no synonym is claimed by two states', () => {
    const owner = new Map<string, string>();
    for (const [state, words] of Object.entries(CALL_STATE_SYNONYMS)) {
      for (const w of words) {
        const key = callStateKey(w);
        expect(owner.get(key) ?? state, `${w} is listed under ${owner.get(key)} and ${state}`).toBe(state);
        owner.set(key, state);
      }
    }
  });

  it('every synonym maps to its own state', () => {
    for (const [state, words] of Object.entries(CALL_STATE_SYNONYMS)) {
      for (const w of words) expect(normalizeCallState(w)).toBe(state);
    }
  });
});
