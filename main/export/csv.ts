import Papa from 'papaparse';
import type { Lang } from '../../common/domain/i18n-text';
import { translator } from '../i18n';
import type { MessageRecord } from '../../common/records';

/**
 * Messages as CSV for a spreadsheet (papaparse). UTF-8 with a byte-order mark, so Excel opens
 * Chinese text correctly; CRLF line ends; times as local "YYYY-MM-DD HH:mm:ss".
 *
 * Formula injection: a cell that starts with = + - @ (or a tab or carriage return, or their
 * full-width forms) gets a leading ' so that a spreadsheet shows it as text instead of running it.
 * (papaparse's own `escapeFormulae: true` misses a value that spans several lines: its pattern
 * does not cross a line break, so ours is anchored at the start only.)
 */

export const CSV_COLUMNS = ['id', 'created', 'mobile', 'content', 'template', 'profile', 'units', 'outcome', 'code', 'state', 'duration', 'ended'] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];


const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
export const BOM = '\ufeff';

export interface CsvOptions {
  /** Minutes east of UTC for the times; default: this machine's offset at each time. */
  utcOffsetMinutes?: number;
  /** Names to show instead of template ids. */
  templateNames?: Readonly<Record<string, string>>;
  /** Names to show instead of profile ids. */
  profileNames?: Readonly<Record<string, string>>;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

export function localTime(ms: number, utcOffsetMinutes?: number): string {
  const offset = utcOffsetMinutes ?? -new Date(ms).getTimezoneOffset();
  const d = new Date(ms + offset * 60_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** The messages as CSV text, BOM first, headers in `lang`. */
export function toCsv(messages: readonly MessageRecord[], lang: Lang, options: CsvOptions = {}): string {
  const t = translator(lang);
  const rows = messages.map((m) => [
    m.id,
    localTime(m.createdAt, options.utcOffsetMinutes),
    m.mobile,
    m.content,
    m.templateId === null ? '' : (options.templateNames?.[m.templateId] ?? m.templateId),
    options.profileNames?.[m.profile] ?? m.profile,
    m.units,
    t(`csv.outcome.${m.outcome}`),
    m.code ?? '',
    t(`state.${m.state}`),
    m.duration ?? '',
    m.endedAt === null ? '' : localTime(m.endedAt, options.utcOffsetMinutes),
  ]);
  return BOM + Papa.unparse({ fields: CSV_COLUMNS.map((c) => t(`csv.column.${c}`)), data: rows }, { escapeFormulae: FORMULA_START, newline: '\r\n' });
}
