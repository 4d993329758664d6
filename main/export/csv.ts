import Papa from 'papaparse';
import type { Lang } from '../../common/domain/i18n-text';
import { CALL_STATE_LABELS, type Outcome } from '../../common/domain/status';
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

export const CSV_HEADERS: Record<Lang, Record<CsvColumn, string>> = {
  'zh-CN': {
    id: '编号',
    created: '发送时间',
    mobile: '手机号码',
    content: '内容',
    template: '模板',
    profile: '配置',
    units: '计费条数',
    outcome: '发送结果',
    code: '结果码',
    state: '呼叫状态',
    duration: '通话时长（秒）',
    ended: '结束时间',
  },
  en: {
    id: 'ID',
    created: 'Created',
    mobile: 'Mobile',
    content: 'Content',
    template: 'Template',
    profile: 'Profile',
    units: 'Units',
    outcome: 'Outcome',
    code: 'Code',
    state: 'State',
    duration: 'Duration (s)',
    ended: 'Ended',
  },
};

export const CSV_OUTCOMES: Record<Lang, Record<Outcome, string>> = {
  'zh-CN': { pending: '发送中', accepted: '已受理', rejected: '已拒绝', unknown: '结果未知' },
  en: { pending: 'Sending', accepted: 'Accepted', rejected: 'Rejected', unknown: 'Unknown' },
};

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
  const headers = CSV_HEADERS[lang];
  const rows = messages.map((m) => [
    m.id,
    localTime(m.createdAt, options.utcOffsetMinutes),
    m.mobile,
    m.content,
    m.templateId === null ? '' : (options.templateNames?.[m.templateId] ?? m.templateId),
    options.profileNames?.[m.profile] ?? m.profile,
    m.units,
    CSV_OUTCOMES[lang][m.outcome],
    m.code ?? '',
    CALL_STATE_LABELS[m.state][lang],
    m.duration ?? '',
    m.endedAt === null ? '' : localTime(m.endedAt, options.utcOffsetMinutes),
  ]);
  return BOM + Papa.unparse({ fields: CSV_COLUMNS.map((c) => headers[c]), data: rows }, { escapeFormulae: FORMULA_START, newline: '\r\n' });
}
