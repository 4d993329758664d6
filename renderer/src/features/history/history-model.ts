// Pure rules of the History screen: how a message, a state, an outcome, a time, a duration or a size
// reads, which colour a state gets, and whether a message pushed by main belongs to the filtered list.
// No React and no window.callout here.
import type { TFunction } from 'i18next';
import type { HistoryFilter } from '../../../../common/history-types';
import type { MessageRecord } from '../../../../common/records';
import type { CallState, Outcome } from '../../../../common/domain/status';
import type { Language } from '../../i18n';

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
  const date = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
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
    date: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
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

/** Digits of a search typed as a phone number (like main's rule), else null. */
function searchDigits(raw: string): string | null {
  const s = raw.trim();
  if (!/^[\d\s\-().+]+$/.test(s)) return null;
  let digits = s.replace(/\D/g, '');
  if (/^\(?\+\s*8\s*6/.test(s)) digits = digits.slice(2);
  else if (/^0086/.test(s) && digits.length > 11) digits = digits.slice(4);
  else if (digits.length === 13 && digits.startsWith('86')) digits = digits.slice(2);
  if (!digits) return null;
  return /^\d+$/.test(s) || /^\(?\+/.test(s) || digits.length >= 7 ? digits : null;
}

/**
 * Whether a message pushed by main belongs to the list of `filter` (to put a new message at the top
 * without loading the page again). Mirrors main's rules; main stays the judge on the next load.
 */
export function matchesFilter(m: MessageRecord, f: HistoryFilter): boolean {
  if (f.states?.length && !f.states.includes(m.state)) return false;
  if (f.outcomes?.length && !f.outcomes.includes(m.outcome)) return false;
  if (f.profiles?.length && !f.profiles.includes(m.profile)) return false;
  if (f.templates?.length && (m.templateId === null || !f.templates.includes(m.templateId))) return false;
  if (f.from !== undefined && m.createdAt < f.from) return false;
  if (f.to !== undefined && m.createdAt >= f.to) return false;
  if (f.mobile?.trim()) {
    const d = f.mobile.replace(/\D/g, '');
    if (d && !m.mobile.includes(d)) return false;
  }
  const search = f.search?.trim();
  if (search) {
    const digits = searchDigits(search);
    if (digits !== null) return m.mobile.includes(digits) || m.content.includes(digits);
    const haystack = `${m.mobile}\n${m.content}`.toLowerCase();
    return search
      .toLowerCase()
      .split(/\s+/)
      .filter(Boolean)
      .every((word) => haystack.includes(word));
  }
  return true;
}

/** The filter with empty parts left out (so two equal filters have one key). */
export function cleanFilter(f: HistoryFilter): HistoryFilter {
  const out: HistoryFilter = {};
  if (f.states?.length) out.states = [...f.states];
  if (f.outcomes?.length) out.outcomes = [...f.outcomes];
  if (f.profiles?.length) out.profiles = [...f.profiles];
  if (f.templates?.length) out.templates = [...f.templates];
  if (f.from !== undefined) out.from = f.from;
  if (f.to !== undefined) out.to = f.to;
  if (f.search?.trim()) out.search = f.search.trim();
  if (f.mobile?.trim()) out.mobile = f.mobile.trim();
  return out;
}

export function isFiltered(f: HistoryFilter): boolean {
  return Object.keys(cleanFilter(f)).length > 0;
}

/** "callout-history-20261124-140312" */
export function fileStamp(now: Date = new Date()): string {
  return `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
}
