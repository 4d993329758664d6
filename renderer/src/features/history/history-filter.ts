// The History filter's rules: whether a message belongs to a filtered list (mirroring main's, for the
// messages main pushes), and a filter without its empty parts. A module of its own: the shell applies
// pushed messages to the cached lists from the first screen on (history-push.ts), without the screen.
import type { HistoryFilter } from '../../../../common/history-types';
import type { MessageRecord } from '../../../../common/records';

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
