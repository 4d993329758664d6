import type { Lang } from '../../common/domain/i18n-text';
import { chargedUnits } from '../../common/domain/outcomes';
import type { MessageRecord } from '../../common/records';
import { translator } from '../i18n';
import { tableCsv, localTime, type Table } from './table';

export { BOM, localTime } from './table';

/**
 * Messages as CSV for a spreadsheet, in the conventions of every table Callout writes (table.ts):
 * UTF-8 with a BOM, CRLF, formula-safe cells, times as local "YYYY-MM-DD HH:mm:ss".
 */

export const CSV_COLUMNS = ['id', 'created', 'mobile', 'content', 'template', 'profile', 'units', 'outcome', 'code', 'state', 'duration', 'ended'] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

export interface CsvOptions {
  /** Minutes east of UTC for the times; default: this machine's offset at each time. */
  utcOffsetMinutes?: number;
  /** Names to show instead of template ids. */
  templateNames?: Readonly<Record<string, string>>;
  /** Names to show instead of profile ids. */
  profileNames?: Readonly<Record<string, string>>;
}

/** The messages as a table, headers in `lang`. Units are what a message cost (billing on answer only). */
export function historyTable(messages: readonly MessageRecord[], lang: Lang, options: CsvOptions = {}): Table {
  const t = translator(lang);
  return {
    header: CSV_COLUMNS.map((c) => t(`csv.column.${c}`)),
    rows: messages.map((m) => [
      m.id,
      localTime(m.createdAt, options.utcOffsetMinutes),
      m.mobile,
      m.content,
      m.templateId === null ? '' : (options.templateNames?.[m.templateId] ?? m.templateId),
      options.profileNames?.[m.profile] ?? m.profile,
      chargedUnits(m),
      t(`csv.outcome.${m.outcome}`),
      m.code,
      t(`state.${m.state}`),
      m.duration,
      m.endedAt === null ? '' : localTime(m.endedAt, options.utcOffsetMinutes),
    ]),
  };
}

/** The messages as CSV text, BOM first, headers in `lang`. */
export function toCsv(messages: readonly MessageRecord[], lang: Lang, options: CsvOptions = {}): string {
  return tableCsv(historyTable(messages, lang, options));
}
