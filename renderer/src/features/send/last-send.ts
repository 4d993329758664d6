// How the Send form names a past send whose values it offers to reuse: by its number, its first value
// and when it went, so that a person sees whose values they would be putting in.
import type { Language } from '../../i18n/language';

/** When a past send happened, briefly: its time when it was today, else its date and time. */
export function formatWhen(lang: Language, at: number, now: number): string {
  const sameDay = new Date(at).toDateString() === new Date(now).toDateString();
  return new Intl.DateTimeFormat(lang, sameDay ? { timeStyle: 'short' } : { dateStyle: 'short', timeStyle: 'short' }).format(new Date(at));
}

/** The first non-blank value of a past send, shortened, so a person recognises whose values they were. */
export function firstValueOf(values: readonly string[], max = 12): string {
  const first = Array.from((values.find((v) => v.trim() !== '') ?? '').trim());
  return first.length > max ? `${first.slice(0, max - 1).join('')}…` : first.join('');
}
