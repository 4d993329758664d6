// History as a CSV file: the messages a filter finds (up to a limit), with profile and template names.
import type { Lang } from '../../common/domain/i18n-text';
import type { HistoryFilter } from '../../common/history-types';
import { toCsv } from '../export';
import type { HistoryRepository } from '../store';

export interface HistoryCsvDeps {
  history: Pick<HistoryRepository, 'upTo'>;
  profileNames(): { id: string; name: string }[];
  templateNames(): { id: string; name: string }[];
}

export function historyCsv(
  d: HistoryCsvDeps,
  o: { filter: HistoryFilter; lang: Lang; utcOffsetMinutes: number; limit: number },
): { csv: string; rows: number; capped: boolean } {
  const { rows, capped } = d.history.upTo(o.filter, o.limit);
  const profileNames = Object.fromEntries(d.profileNames().map((p) => [p.id, p.name]));
  const templateNames = Object.fromEntries(d.templateNames().map((t) => [t.id, t.name]));
  return { csv: toCsv(rows, o.lang, { utcOffsetMinutes: o.utcOffsetMinutes, profileNames, templateNames }), rows: rows.length, capped };
}
