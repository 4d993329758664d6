// Pure rules of the History screen: how a message, a state, an outcome, a time, a duration or a size
// reads, and which colour a state gets (the filter's rules: history-filter.ts). No React and no
// window.callout here.
import type { TFunction } from 'i18next';
import type { MessageRecord } from '../../../../common/records';
import { billingOf } from '../../../../common/domain/outcomes';
import type { CallState, Outcome } from '../../../../common/domain/status';
import type { Language } from '../../i18n/language';
import { isoDate } from '../../i18n/dates';

/** antd Tag colours per call state: answered green, still going blue, no answer / busy orange, failures red. */
export const STATE_COLORS: Record<CallState, string> = {
  pending: 'processing',
  calling: 'processing',
  answered: 'success',
  no_answer: 'warning',
  busy: 'orange',
  rejected: 'error',
  powered_off: 'error',
  unreachable: 'error',
  invalid_number: 'error',
  failed: 'error',
  unknown: 'default',
};

export const OUTCOME_COLORS: Record<Outcome, string> = {
  pending: 'processing',
  accepted: 'green',
  rejected: 'red',
  unknown: 'gold',
};

export function stateLabel(t: TFunction, state: CallState): string {
  return t(`state.${state}`, { ns: 'msg' });
}

/** The outcome in one or two words (the tag); {@link outcomeExplanation} is the full sentence. */
export function outcomeLabel(t: TFunction, outcome: Outcome): string {
  return t(`history.outcome.${outcome}`);
}

export function outcomeExplanation(t: TFunction, outcome: Outcome): string {
  return t(`outcome.${outcome}`, { ns: 'msg' });
}

const pad = (n: number) => String(n).padStart(2, '0');

function weekday(lang: Language, date: Date): string {
  return new Intl.DateTimeFormat(lang === 'zh-CN' ? 'zh-CN' : 'en-GB', { weekday: 'short' }).format(date);
}

/** "2026-11-24 Tue 14:03" / "2026-11-24 周二 14:03": the date, its weekday (staff ask "on Tuesday?") and the time. */
export function formatTime(lang: Language, ms: number, withSeconds = false): string {
  const d = new Date(ms);
  const date = isoDate(d);
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}${withSeconds ? `:${pad(d.getSeconds())}` : ''}`;
  return `${date} ${weekday(lang, d)} ${time}`;
}

/**
 * The same moment in parts, so that a narrow list can put the date above the time: "2026-11-24",
 * "Tue", "14:03:05" (the full text is formatTime's, and stays in the cell's title).
 */
export function timeParts(lang: Language, ms: number, withSeconds = false): { date: string; weekday: string; time: string } {
  const d = new Date(ms);
  return {
    date: isoDate(d),
    weekday: weekday(lang, d),
    time: `${pad(d.getHours())}:${pad(d.getMinutes())}${withSeconds ? `:${pad(d.getSeconds())}` : ''}`,
  };
}

/** Time of day with milliseconds, for exchanges. */
export function formatClock(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** Whole seconds as "42 s", "1 min 5 s" (in the user's language). */
export function formatDuration(t: TFunction, seconds: number | null): string {
  if (seconds === null) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t('history.duration.seconds', { s });
  return t('history.duration.minutes', { m: Math.floor(s / 60), s: s % 60 });
}

export { formatBytes } from '../../../../common/domain/bytes';
export { formatCount } from '../../i18n/numbers';

/** Minutes east of UTC, as main wants them for days and CSV times. */
export function utcOffsetMinutes(): number {
  return -new Date().getTimezoneOffset();
}

/** "callout-history-20261124-140312" */
export function fileStamp(now: Date = new Date()): string {
  return `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
}

/**
 * What a message cost, in words, for its row and its detail alike (common/domain's billingOf): the
 * figure ("0", "1", "—" while not known) and why ("Not charged: the provider refused the send…").
 */
export function billingWords(t: TFunction, m: MessageRecord): { value: string; units: number | null; why: string } {
  const b = billingOf(m);
  const why =
    b.kind === 'open'
      ? t('history.units.open', { units: m.units })
      : b.kind === 'charged'
        ? t('history.units.charged', { units: b.units })
        : t(b.kind === 'refused' ? 'history.units.refused' : 'history.units.unanswered');
  return { value: b.units === null ? '—' : String(b.units), units: b.units, why };
}

/**
 * A later send of the same text to the same number, in words: when it went (its time of day when it
 * was the same day as `since`, else its date too) and what became of it (its call's state once the
 * provider took it, else its outcome).
 */
export function laterSendWords(t: TFunction, lang: Language, later: MessageRecord, since: number): string {
  const sameDay = new Date(later.createdAt).toDateString() === new Date(since).toDateString();
  const time = sameDay ? timeParts(lang, later.createdAt).time : formatTime(lang, later.createdAt);
  const result = later.outcome === 'accepted' ? stateLabel(t, later.state) : outcomeLabel(t, later.outcome);
  return t('history.later.said', { time, result });
}

/** "2026-03" as the user reads it: "Mar 2026", "2026年3月". */
export function monthLabel(lang: Language, month: string | null): string {
  if (!month) return '—';
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(lang, { year: 'numeric', month: 'short', timeZone: 'UTC' }).format(Date.UTC(y, m - 1, 1));
}

/** The months an archive holds, as the user reads them: "Jul 2026", or "Jun 2026 – Jul 2026". */
export function monthRange(lang: Language, from: string | null, to: string | null): string {
  return from === to ? monthLabel(lang, from) : `${monthLabel(lang, from)} – ${monthLabel(lang, to)}`;
}
