// Pure helpers of the Quick dial screens: refusal texts from the message catalog, times for people,
// and the colours of call states and results.
import type { TFunction } from 'i18next';
import type { TemplateView } from '../../../../common/contract';
import type { ContactRecord, DialRefusal, DialStatus } from '../../../../common/bulk-types';
import type { CallState } from '../../../../common/domain/status';
import type { Language } from '../../i18n/language';
import { monthDay } from '../../i18n/dates';
import { withAside } from '../../i18n/punctuation';
import { fillTemplate, missingValues } from '../../../../common/domain/templates';

/** Local wall-clock time, with the date when it is not today. */
export function formatClock(lang: Language, ms: number, now = Date.now()): string {
  const locale = lang === 'zh-CN' ? 'zh-CN' : 'en-GB';
  const d = new Date(ms);
  const today = new Date(now);
  const sameDay = d.getFullYear() === today.getFullYear() && d.getMonth() === today.getMonth() && d.getDate() === today.getDate();
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false }).format(d);
  if (sameDay) return time;
  return `${monthDay(d)} ${time}`; // month before day ("11-27 10:32:05"), as every date reads
}

/** "in 45 s", "in 12 min", "in 3 h 5 min". */
export function formatIn(t: TFunction, ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 90) return t('dial.time.inSeconds', { count: s });
  const m = Math.round(s / 60);
  if (m < 60) return t('dial.time.inMinutes', { count: m });
  return t('dial.time.inHours', { h: Math.floor(m / 60), m: m % 60 });
}

/**
 * One refusal in the user's language: which limit and how many calls (for "call until answered",
 * which call of the run would break it), and when it frees up.
 */
export function refusalText(
  t: TFunction,
  lang: Language,
  r: DialRefusal,
  now = Date.now(),
  name: string | null = null,
): { title: string; plan: string | null; frees: string } {
  const when = Number.isFinite(r.freesAt) ? formatClock(lang, r.freesAt, now) : null;
  const frees = when ? t('refusal.frees', { ns: 'msg', time: when, in: formatIn(t, r.freesAt - now) }) : t('refusal.never', { ns: 'msg' });
  // Who was refused: the contact's name with the number where it is known.
  const mobile = name?.trim() ? withAside(lang, name.trim(), r.mobile) : r.mobile;
  const title =
    r.limit === 'quiet-hours'
      ? t('refusal.quiet', { ns: 'msg', mobile })
      : t(`refusal.${r.limit}`, { ns: 'msg', mobile, count: r.count ?? 0, max: r.max ?? 0 });
  const plan = r.plan ? t('refusal.plan', { ns: 'msg', mobile, attempts: r.plan.attempts, call: r.plan.call }) : null;
  return { title, plan, frees };
}

export const STATE_COLORS: Record<CallState, string> = {
  pending: 'processing',
  calling: 'processing',
  answered: 'success',
  no_answer: 'warning',
  busy: 'warning',
  rejected: 'warning',
  powered_off: 'warning',
  unreachable: 'warning',
  invalid_number: 'error',
  failed: 'error',
  unknown: 'default',
};

export const RESULT_TYPES: Record<DialStatus, 'success' | 'warning' | 'error' | 'info'> = {
  answered: 'success',
  'not-answered': 'warning',
  refused: 'warning',
  unknown: 'warning',
  failed: 'error',
  cancelled: 'info',
};

/** Of these contacts, the one called last with a template (the list's last call, for a list's members). */
export function lastCalledWithTemplate(contacts: readonly ContactRecord[]): ContactRecord | null {
  let best: ContactRecord | null = null;
  for (const c of contacts) {
    if (!c.lastTemplateId) continue;
    if (!best || (c.lastCalledAt ?? 0) > (best.lastCalledAt ?? 0)) best = c;
  }
  return best;
}

/**
 * The template a person or a list should be called with, if it is still approved: the one last
 * used with them (the list's last call), else the one last used in quick dial (`remembered` this
 * session, else the last any contact was called with), else the only approved template. Else none:
 * the person chooses, never simply the first of several (a shipping notice for an on-call page).
 */
export function defaultTemplate(
  templates: readonly TemplateView[],
  members: readonly ContactRecord[],
  remembered: string | null,
  everyone: readonly ContactRecord[] = [],
): TemplateView | null {
  const approved = templates.filter((x) => x.approved);
  const byId = (id: string | null | undefined) => (id ? (approved.find((x) => x.id === id) ?? null) : null);
  const only = approved.length === 1 ? approved[0]! : null;
  return byId(lastCalledWithTemplate(members)?.lastTemplateId) ?? byId(remembered) ?? byId(lastCalledWithTemplate(everyone)?.lastTemplateId) ?? only;
}

/** Values a quick dial used, with whom they were for and when (kept for this session only). */
export interface RememberedValues {
  values: string[];
  who: string;
  at: number;
}

/**
 * The values a quick dial starts with: the contact's own last values with this template (the same
 * person, the same call again); else the values of the last quick dial with this template to someone
 * else, said with whom and when (`from`), so that nobody passes one person's details to another
 * unseen; else empty.
 */
export function prefillFor(
  template: TemplateView | null,
  contact: ContactRecord | null,
  remembered: Readonly<Record<string, RememberedValues>>,
): { values: string[]; from: RememberedValues | null } {
  if (!template) return { values: [], from: null };
  const sized = (vs: readonly string[]) => Array.from({ length: template.markerCount }, (_, i) => vs[i] ?? '');
  if (contact?.lastTemplateId === template.id && contact.lastValues) return { values: sized(contact.lastValues), from: null };
  const last = remembered[template.id];
  if (!last || last.values.every((v) => !v.trim())) return { values: sized([]), from: null };
  const own = contact && last.who === contact.name;
  return { values: sized(last.values), from: own ? null : last };
}

export function markerLabel(t: TFunction, template: Pick<TemplateView, 'markerNames'>, index: number): string {
  return template.markerNames[index]?.trim() || t('dial.palette.variable', { n: index + 1 });
}

/** The text as it will be read out, markers filled (an empty value shows its label in brackets). */
export function fillPreview(t: TFunction, template: TemplateView, values: readonly string[]): string {
  let i = 0;
  return template.content.replace(/【变量】/g, () => {
    const v = values[i]?.trim();
    const label = markerLabel(t, template, i);
    i++;
    return v ? v : `［${label}］`;
  });
}

/**
 * The run card's title for one person: "Calling …" only while the run goes on; once it is over, what
 * became of it (called, stopped, or not called at all).
 */
export function runTitleKey(done: boolean, status: DialStatus | null | undefined): 'title' | 'titleCalled' | 'titleStopped' | 'titleNotCalled' {
  if (!done) return 'title';
  if (status === 'cancelled') return 'titleStopped';
  if (status === 'refused') return 'titleNotCalled';
  return 'titleCalled';
}

/**
 * The exact text a quick dial would have read (the values trimmed, as they are sent), or null
 * while a marker is still empty: what "Hear it first" plays.
 */
export function spokenText(template: TemplateView, values: readonly string[]): string | null {
  const trimmed = values.map((v) => v.trim());
  return missingValues(template.content, trimmed).length ? null : fillTemplate(template.content, trimmed);
}
