/**
 * Call states and send outcomes.
 *
 * The spec does not show the provider's states (section 3), so the client normalises whatever the
 * status reply carries to one set (architecture: "Decisions where the spec says not shown").
 * A send's outcome is separate from the call state: it says what became of the send request itself.
 */

export const CALL_STATES = [
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
] as const;
export type CallState = (typeof CALL_STATES)[number];

/** States after which the call will not change any more (polling can stop). */
export const FINAL_STATES: ReadonlySet<CallState> = new Set<CallState>([
  'answered',
  'no_answer',
  'busy',
  'rejected',
  'powered_off',
  'unreachable',
  'invalid_number',
  'failed',
]);

export function isFinalState(s: CallState): boolean {
  return FINAL_STATES.has(s);
}

export function isCallState(x: unknown): x is CallState {
  return typeof x === 'string' && (CALL_STATES as readonly string[]).includes(x);
}

export const OUTCOMES = ['pending', 'accepted', 'rejected', 'unknown'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export function isOutcome(x: unknown): x is Outcome {
  return typeof x === 'string' && (OUTCOMES as readonly string[]).includes(x);
}

/** Case, spaces, dashes and underscores are ignored: 'No-Answer', 'no answer', 'NO_ANSWER' are one key. */
export function callStateKey(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

/** The words {@link normalizeCallState} recognises, per state (compared ignoring case, spaces, - and _). */
export const CALL_STATE_SYNONYMS: Record<Exclude<CallState, 'unknown'>, readonly string[]> = {
  pending: ['pending', 'queued', 'queue', 'submitted', 'sending', 'accepted', 'waiting', '等待', '等待中', '排队', '排队中', '已提交', '待呼叫'],
  calling: [
    'calling',
    'dialing',
    'dialling',
    'ringing',
    'redial',
    'redialing',
    'redialling',
    'in_progress',
    'in progress',
    'initiated',
    '呼叫中',
    '正在呼叫',
    '振铃',
    '振铃中',
    '重呼',
    '重呼中',
    '拨号中',
  ],
  answered: [
    'answered',
    'answer',
    'success',
    'succeeded',
    'successful',
    'delivrd',
    'delivered',
    'connected',
    '已接听',
    '接听',
    '接通',
    '已接通',
    '成功',
    '呼叫成功',
  ],
  no_answer: ['no_answer', 'noanswer', 'not answered', 'unanswered', 'timeout', 'timed out', '未接听', '无人接听', '无应答', '未接'],
  busy: ['busy', 'user busy', 'line busy', '忙', '用户忙', '占线', '忙线'],
  rejected: ['rejected', 'reject', 'refused', 'refuse', 'declined', 'decline', '拒接', '用户拒接', '拒绝接听'],
  powered_off: ['powered_off', 'poweroff', 'power off', 'powered off', 'switched off', 'shutdown', 'shut down', '关机'],
  unreachable: ['unreachable', 'not reachable', 'out of service', 'out of coverage', 'suspended', '停机', '不在服务区', '无法接通', '暂时无法接通'],
  invalid_number: ['invalid_number', 'invalid', 'invalid number', 'empty number', 'vacant', 'vacant number', 'not exist', '空号', '号码不存在'],
  failed: ['failed', 'fail', 'failure', 'error', 'canceled', 'cancelled', '失败', '呼叫失败'],
};

const STATE_BY_KEY: ReadonlyMap<string, CallState> = (() => {
  const map = new Map<string, CallState>();
  for (const [state, words] of Object.entries(CALL_STATE_SYNONYMS) as Array<[CallState, readonly string[]]>) {
    for (const w of words) map.set(callStateKey(w), state);
  }
  return map;
})();

/**
 * Maps whatever a provider might send as a call state to our set. English words in any case (with
 * spaces, dashes or underscores in any form) and common Chinese terms are recognised; anything else,
 * including numbers, null and objects, is 'unknown' (never a guess).
 */
export function normalizeCallState(raw: unknown): CallState {
  if (typeof raw !== 'string') return 'unknown';
  return STATE_BY_KEY.get(callStateKey(raw)) ?? 'unknown';
}

/** The parts of a message the rules below read. */
type MessageFacts = { outcome: Outcome; endedAt: number | null };

/**
 * True when nothing more will happen to a message: its call ended (answered, failed, or Callout
 * stopped following it), or its send placed no call to follow (rejected) or may have and cannot
 * be followed (unknown).
 */
export function isSettled(m: MessageFacts): boolean {
  return m.endedAt !== null || m.outcome === 'rejected' || m.outcome === 'unknown';
}

/**
 * May a call's state move from `from` to `to`? A call never moves backwards: nothing changes after a
 * final state, and a call that rings is never waiting again — whatever order replies and receipts
 * arrive in, and however often one is repeated. `unknown` (a value nobody mapped yet) may be left
 * for any state, and entered from any state that is not final.
 */
export function mayMove(from: CallState, to: CallState): boolean {
  if (from === to || FINAL_STATES.has(from)) return false;
  if (to === 'unknown' || from === 'unknown') return true;
  return stageOf(to) >= stageOf(from);
}

function stageOf(s: CallState): number {
  if (s === 'pending') return 0;
  if (s === 'calling') return 1;
  return 2;
}

/**
 * How a settled message's call ended, for whoever decides what to do next (the dialer, the bulk
 * counts): answered; not answered (a final state other than answered); or unknown — the outcome of
 * the send is unknown, following it stopped before a final state, or the call could never be
 * followed (no message ID). An unknown call may have been placed and answered: never call again
 * automatically.
 */
export function callEnd(m: { outcome: Outcome; state: CallState; endedAt: number | null }): 'answered' | 'not-answered' | 'unknown' {
  if (m.state === 'answered') return 'answered';
  if (m.outcome === 'rejected') return 'not-answered';
  if (m.outcome === 'accepted' && FINAL_STATES.has(m.state)) return 'not-answered';
  return 'unknown';
}

/**
 * May a person send this message again (a deliberate new call, after confirming)? Not while its
 * send is in flight, nor while its call may still be ringing; any settled message, yes.
 */
export function maySendAgain(m: MessageFacts): boolean {
  return isSettled(m);
}

/**
 * Whether a profile's calls can only be followed by the receipts the provider posts: it follows by
 * receipts alone, or its dialect has no status query. Such a call waits for the provider's receipt.
 */
export function followsByReceiptsOnly(p: { follow?: 'poll' | 'receipts' | 'both'; dialect: { status?: unknown } }): boolean {
  return p.follow === 'receipts' || !p.dialect.status;
}
