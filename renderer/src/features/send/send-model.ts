// Pure rules of the Send screen: what the text will be, how long it is and what it costs, and what
// became of a message, in words. No React, no window.callout: everything here is derived from the
// contract's records, the shared domain modules and the message catalog.
import type { TFunction } from 'i18next';
import type { ProfileView, TemplateView } from '../../../../common/contract';
import type { MessageEventRecord, MessageRecord } from '../../../../common/records';
import { authRefusal } from '../../../../common/domain/outcomes';
import { FINAL_STATES, maySendAgain, type CallState } from '../../../../common/domain/status';
import { findMatchingTemplates, parseTemplate } from '../../../../common/domain/templates';
import { CHARS_PER_UNIT, CONTENT_MAX, textLength } from '../../../../common/domain/units';
import { describeProviderCode, describeReason } from '../../app/api';
import type { Language } from '../../i18n';
import { receiptNote, unmappedNote, type FollowNote } from './call-notes';

/** A piece of the preview: literal template text, or a value typed for a marker. */
export type PreviewPart = { kind: 'literal'; text: string } | { kind: 'value'; index: number; text: string; filled: boolean };

/** The label of the i-th marker: the template's own name for it, else "Variable N" in the user's language. */
export function markerLabel(t: TFunction, template: Pick<TemplateView, 'markerNames'>, index: number): string {
  const name = template.markerNames[index]?.trim();
  return name ? name : t('send.field.variable', { n: index + 1 });
}

/** The template with each marker replaced by its value as typed (blank values stay blank). */
export function composeText(content: string, values: readonly (string | undefined)[]): string {
  const { literals, markerCount } = parseTemplate(content);
  let out = literals[0] ?? '';
  for (let i = 0; i < markerCount; i++) out += (values[i] ?? '') + (literals[i + 1] ?? '');
  return out;
}

/** The preview's parts, in order: literals and the values that fill the markers. */
export function previewParts(content: string, values: readonly (string | undefined)[]): PreviewPart[] {
  const { literals, markerCount } = parseTemplate(content);
  const parts: PreviewPart[] = [];
  for (let i = 0; i <= markerCount; i++) {
    const literal = literals[i] ?? '';
    if (literal) parts.push({ kind: 'literal', text: literal });
    if (i < markerCount) {
      const value = values[i] ?? '';
      parts.push({ kind: 'value', index: i, text: value, filled: value.trim() !== '' });
    }
  }
  return parts;
}

export interface Measure {
  length: number;
  units: number;
  tooLong: boolean;
}

/** Length in characters (code points) and billing units: ceil(length / 70). */
export function measure(text: string): Measure {
  const length = textLength(text);
  return { length, units: Math.ceil(length / CHARS_PER_UNIT), tooLong: length > CONTENT_MAX };
}

export type FreeTextMatch =
  { kind: 'empty' } | { kind: 'approved'; template: TemplateView; others: number } | { kind: 'pending'; template: TemplateView } | { kind: 'none' };

/** Whether a free text is consistent with an approved template of the library (and which), or only with a pending one. */
export function matchFreeText(text: string, templates: readonly TemplateView[]): FreeTextMatch {
  if (text.trim() === '') return { kind: 'empty' };
  const approved = findMatchingTemplates(
    text,
    templates.filter((t) => t.approved),
  );
  if (approved[0]) return { kind: 'approved', template: approved[0].template, others: approved.length - 1 };
  const pending = findMatchingTemplates(
    text,
    templates.filter((t) => !t.approved),
  );
  if (pending[0]) return { kind: 'pending', template: pending[0].template };
  return { kind: 'none' };
}

/** Whole seconds as "1 min 5 s" / "1 分 5 秒". */
export function formatDuration(t: TFunction, seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(s / 60);
  const rest = s % 60;
  if (minutes === 0) return t('send.duration.seconds', { count: rest });
  if (rest === 0) return t('send.duration.minutes', { count: minutes });
  return t('send.duration.minutesSeconds', { minutes, seconds: rest });
}

export function formatTime(lang: Language, at: number): string {
  return new Intl.DateTimeFormat(lang, { timeStyle: 'medium' }).format(new Date(at));
}

/** Where a message stands, for its card and its row in the recent list. */
export type Phase = 'sending' | 'waiting' | 'calling' | 'answered' | 'ended' | 'rejected' | 'unknown' | 'untracked';

export function phaseOf(m: MessageRecord): Phase {
  switch (m.outcome) {
    case 'pending':
      return 'sending';
    case 'rejected':
      return 'rejected';
    case 'unknown':
      return 'unknown';
    case 'accepted':
      if (m.state === 'answered') return 'answered';
      if (FINAL_STATES.has(m.state)) return 'ended';
      if (m.endedAt !== null) return 'untracked';
      return m.state === 'calling' ? 'calling' : 'waiting';
  }
}

/**
 * Whether the card offers a deliberate new call: main allows one for any settled message; it is
 * offered when this one may not have reached the person (its outcome is unknown, or its call ended
 * unanswered). A rejected send placed no call: once its problem is fixed, the form sends it again.
 */
export function offersSendAgain(m: MessageRecord): boolean {
  return maySendAgain(m) && m.outcome !== 'rejected' && m.state !== 'answered';
}

const stateLabel = (t: TFunction, state: CallState) => t(`state.${state}`, { ns: 'msg' });

/** Why, when main said (null for a message written before reasons were codes). */
const why = (t: TFunction, m: Pick<MessageRecord, 'reason'>): string[] => (m.reason ? [describeReason(t, m.reason)] : []);

const ENDED_STATES = ['no_answer', 'busy', 'rejected', 'powered_off', 'unreachable', 'invalid_number', 'failed'] as const;
type EndedState = (typeof ENDED_STATES)[number];
const isEndedState = (s: CallState): s is EndedState => (ENDED_STATES as readonly string[]).includes(s);

export interface OutcomeText {
  type: 'info' | 'success' | 'warning' | 'error';
  title: string;
  body: string[];
}

/** What became of a message, in words: what happened, and what to do next. */
export function describeOutcome(
  t: TFunction,
  m: MessageRecord,
  where?: 'sandbox',
  signing?: ProfileView['signing'],
  follow: FollowNote = { receiptsOnly: false },
): OutcomeText {
  const phase = phaseOf(m);
  // While the call goes on: a state value the dialect does not map is shown (never guessed), and a
  // call only receipts tell about says it waits for one.
  const unmapped = unmappedNote(t, m);
  const receipt = receiptNote(t, follow);
  switch (phase) {
    case 'sending':
      return { type: 'info', title: t('send.outcome.sendingTitle'), body: [t('send.outcome.sendingBody')] };
    case 'waiting':
      return {
        type: unmapped.length ? 'warning' : 'info',
        title: t('send.outcome.acceptedTitle'),
        // "The phone will ring in a moment" only while nothing unrecognised has come in.
        body: [...unmapped, ...receipt, ...(unmapped.length || receipt.length ? [] : [t('send.outcome.acceptedBody')])],
      };
    case 'calling':
      return {
        type: unmapped.length ? 'warning' : 'info',
        title: t('send.outcome.callingTitle', { mobile: m.mobile }),
        body: [
          ...unmapped,
          m.attempts && m.attempts > 1 ? t('send.outcome.callingRedialBody', { attempt: m.attempts }) : t('send.outcome.callingBody'),
          ...receipt,
        ],
      };
    case 'answered': {
      const duration = m.duration !== null ? formatDuration(t, m.duration) : null;
      const charged = t('send.units', { count: m.billedUnits ?? m.units });
      return {
        type: 'success',
        title: duration ? t('send.outcome.answeredTitle', { duration }) : t('send.outcome.answeredNoDurationTitle'),
        body: [t('send.outcome.answeredBody', { units: charged })],
      };
    }
    case 'ended': {
      const ended = isEndedState(m.state) ? t(`send.ended.${m.state}`) : t('send.ended.failed');
      return { type: 'warning', title: t('send.outcome.endedTitle', { state: stateLabel(t, m.state) }), body: [ended, t('send.outcome.notCharged')] };
    }
    case 'untracked':
      return { type: 'warning', title: t('send.outcome.untrackedTitle'), body: [t('send.outcome.untrackedBody')] };
    case 'rejected': {
      if (m.code !== null) {
        const code = describeProviderCode(t, m.code, where);
        return { type: 'error', title: code.meaning, body: [code.action, t('send.outcome.rejectedNothingPlaced')] };
      }
      if (m.errorKind === 'signature-rejected') {
        // A profile that does not sign had no signature to refuse: its account or key was refused.
        const context = authRefusal('signature', signing) === 'unsigned' ? 'unsigned' : undefined;
        return {
          type: 'error',
          title: t('provider.signature.meaning', { ns: 'msg', context }),
          body: [t('provider.signature.action', { ns: 'msg', context }), t('send.outcome.rejectedNothingPlaced')],
        };
      }
      return { type: 'error', title: t('send.outcome.notSentTitle'), body: [...why(t, m), t('send.outcome.notSentBody')] };
    }
    case 'unknown': {
      if (m.code !== null) {
        const code = describeProviderCode(t, m.code);
        return { type: 'warning', title: code.meaning, body: [code.action, t('send.outcome.unknownNext')] };
      }
      return { type: 'warning', title: t('send.outcome.unknownTitle'), body: [...why(t, m), t('send.outcome.unknownBody'), t('send.outcome.unknownNext')] };
    }
  }
}

/** A short label for a message's phase (tags, the recent list). */
export function phaseLabel(t: TFunction, m: MessageRecord): string {
  const phase = phaseOf(m);
  if (phase === 'answered' && m.duration !== null) return t('send.phase.answeredFor', { duration: formatDuration(t, m.duration) });
  if (phase === 'ended') return stateLabel(t, m.state);
  return t(`send.phase.${phase}`);
}

export const PHASE_COLORS: Record<Phase, string> = {
  sending: 'processing',
  waiting: 'processing',
  calling: 'processing',
  answered: 'success',
  ended: 'warning',
  untracked: 'default',
  rejected: 'error',
  unknown: 'warning',
};

export interface TimelineEntry {
  key: string;
  at: number;
  color: 'blue' | 'green' | 'red' | 'gray' | 'orange';
  title: string;
  detail: string | null;
}

/** The message's events as timeline entries, in words. */
export function timelineEntries(t: TFunction, m: MessageRecord, events: readonly MessageEventRecord[]): TimelineEntry[] {
  return events.map((e): TimelineEntry => {
    const base = { key: String(e.id), at: e.at };
    switch (e.kind) {
      case 'created':
        return { ...base, color: 'gray', title: t('send.timeline.created'), detail: null };
      case 'submitted':
        return { ...base, color: 'blue', title: t('send.timeline.submitted'), detail: m.smsid ? t('send.timeline.smsid', { smsid: m.smsid }) : null };
      case 'redial': {
        // The event carries the attempt's number.
        const attempt = Number(e.detail ?? NaN);
        return {
          ...base,
          color: 'orange',
          title: Number.isFinite(attempt) ? t('send.timeline.redial', { attempt }) : t('send.timeline.redialPlain'),
          detail: null,
        };
      }
      case 'state': {
        const state = e.state ?? 'unknown';
        if (state === 'answered') {
          const duration = m.state === 'answered' && m.duration !== null ? formatDuration(t, m.duration) : null;
          return { ...base, color: 'green', title: duration ? t('send.timeline.answered', { duration }) : stateLabel(t, 'answered'), detail: null };
        }
        if (state === 'calling') return { ...base, color: 'blue', title: t('send.timeline.calling'), detail: null };
        if (state === 'pending') return { ...base, color: 'gray', title: t('send.timeline.waiting'), detail: null };
        return {
          ...base,
          color: FINAL_STATES.has(state) ? 'red' : 'gray',
          title: stateLabel(t, state),
          // A value the dialect does not map: which one ("not recognised — map it").
          detail: isEndedState(state) ? t(`send.ended.${state}`) : (why(t, e)[0] ?? null),
        };
      }
      case 'rejected':
        return {
          ...base,
          color: 'red',
          title: t('send.timeline.rejected'),
          detail: m.code !== null ? describeProviderCode(t, m.code).meaning : (why(t, e)[0] ?? null),
        };
      case 'unknown':
        return { ...base, color: 'orange', title: t('send.timeline.unknown'), detail: why(t, e)[0] ?? null };
      case 'error':
        return { ...base, color: 'gray', title: t('send.timeline.stopped'), detail: why(t, e)[0] ?? null };
    }
  });
}

/** The three steps of a placed call: submitted, calling, and how it ended (none for a send that was rejected or is unknown). */
export function stepsOf(
  t: TFunction,
  m: MessageRecord,
): { current: number; status: 'wait' | 'process' | 'finish' | 'error'; items: { title: string; content?: string }[] } | null {
  const phase = phaseOf(m);
  if (phase === 'rejected' || phase === 'unknown') return null;
  const end = (() => {
    if (phase === 'answered') return { title: stateLabel(t, 'answered'), content: m.duration !== null ? formatDuration(t, m.duration) : undefined };
    if (phase === 'ended') return { title: stateLabel(t, m.state) };
    return { title: t('send.steps.result') };
  })();
  const items = [{ title: t('send.steps.submitted') }, { title: t('send.steps.calling') }, end];
  switch (phase) {
    case 'sending':
      return { current: 0, status: 'process', items };
    case 'waiting':
    case 'untracked':
      return { current: 1, status: 'wait', items };
    case 'calling':
      return { current: 1, status: 'process', items };
    case 'answered':
      return { current: 2, status: 'finish', items };
    case 'ended':
      return { current: 2, status: 'error', items };
  }
}
