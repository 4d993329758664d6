// Pure rules of the History screen: how a message, a state, an outcome, a time, a duration or a size
// reads, and which colour a state gets (the filter's rules: history-filter.ts). No React and no
// window.callout here.
import type { TFunction } from 'i18next';
import type { CallState, Outcome } from '../../../../common/domain/status';
import type { Language } from '../../i18n';
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

/** Bytes with binary units; the unit symbols are the same in both languages. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i += 1;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[i]}`;
}

export { formatCount } from '../../i18n/numbers';

/** Minutes east of UTC, as main wants them for days and CSV times. */
export function utcOffsetMinutes(): number {
  return -new Date().getTimezoneOffset();
}

/** "callout-history-20261124-140312" */
export function fileStamp(now: Date = new Date()): string {
  return `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
}
