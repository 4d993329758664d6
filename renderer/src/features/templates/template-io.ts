// Templates in and out of files: reading JSON, CSV (papaparse) and pasted text into rows, each
// with its own problems, planning what an import would do to the library, and writing the JSON
// and CSV exports. Pure (no React, no DOM beyond TextDecoder), so it is easy to reason about.
import Papa from 'papaparse';
import type { TemplateView } from '../../../../common/contract';
import { parseTemplate } from '../../../../common/domain/templates';
import { contentProblem, ID_MAX, IMPORT_MAX, LABEL_MAX, labelProblem, nameProblem, sameText, type Problem } from './template-rules';

/** Where a row came from, as the user can find it: a spreadsheet row (the header is row 1), a JSON item, a pasted line. */
export interface Where {
  kind: 'row' | 'item' | 'line';
  n: number;
}

export interface ImportRow {
  where: Where;
  id?: string;
  name?: string;
  /** '' when the row has none. */
  content: string;
  /** undefined: the row does not say (new templates are then pending; existing ones keep theirs). */
  approved?: boolean;
  markerNames?: string[];
  problems: Problem[];
}

export type FileProblemCode = 'empty-file' | 'not-json' | 'json-shape' | 'csv-no-content-column' | 'too-many' | 'too-large' | 'unknown-type';

export interface FileProblem {
  code: FileProblemCode;
  vars?: Record<string, string | number>;
}

export type ParseFormat = 'json' | 'csv' | 'lines';

/** `blank`: rows or lines of the source that hold nothing (reported as skipped, so every row is accounted for). */
export type Parsed = { ok: true; format: ParseFormat; rows: ImportRow[]; blank?: Where[] } | { ok: false; problem: FileProblem };

/** The largest file read (a full library of 5000 templates of 500 characters is about 8 MB in UTF-8). */
export const FILE_MAX_BYTES = 10 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Values

const YES = ['true', 'yes', 'y', '1', 'approved', 'ok', '是', '已审核', '审核通过', '已通过', '通过', '√', '✓', '✔'];
const NO = ['false', 'no', 'n', '0', 'pending', '否', '待审核', '未审核', '审核中', '未通过', '不通过', '×', '✗'];

/** true / false, undefined when empty, 'invalid' when the value says neither. */
export function parseApproved(value: unknown): boolean | undefined | 'invalid' {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : 'invalid';
  if (typeof value !== 'string') return 'invalid';
  const v = value.trim().toLowerCase();
  if (v === '') return undefined;
  if (YES.includes(v)) return true;
  if (NO.includes(v)) return false;
  return 'invalid';
}

/** Spreadsheets escape cells that look like formulas with a leading apostrophe (so do our exports): undo that. */
function unescapeFormula(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

const LABEL_SEPARATOR = '|';

interface RawFields {
  id?: unknown;
  name?: unknown;
  content?: unknown;
  approved?: unknown;
  markerNames?: unknown;
}

/** One row from whatever the source gave, with every problem found (an empty list: it can be saved). */
export function rowFrom(where: Where, raw: RawFields): ImportRow {
  const problems: Problem[] = [];
  const row: ImportRow = { where, content: '', problems };

  if (typeof raw.content === 'string') row.content = raw.content.trim();
  else if (typeof raw.content === 'number') row.content = String(raw.content);
  else if (raw.content !== undefined && raw.content !== null) problems.push({ code: 'content-not-text' });
  if (!problems.length) {
    const p = contentProblem(row.content);
    if (p) problems.push(p);
  }

  if (typeof raw.name === 'string' || typeof raw.name === 'number') {
    const name = String(raw.name).trim();
    if (name) {
      row.name = name;
      const p = nameProblem(name);
      if (p) problems.push(p);
    }
  }

  if (typeof raw.id === 'string' || typeof raw.id === 'number') {
    const id = String(raw.id).trim();
    if (id) {
      row.id = id;
      if (id.length > ID_MAX) problems.push({ code: 'id-too-long', vars: { max: ID_MAX } });
    }
  }

  const approved = parseApproved(raw.approved);
  if (approved === 'invalid') problems.push({ code: 'approved-invalid', vars: { value: String(raw.approved).slice(0, 40) } });
  else if (approved !== undefined) row.approved = approved;

  let labels: string[] | undefined;
  if (Array.isArray(raw.markerNames)) labels = raw.markerNames.map((l) => (l === null || l === undefined ? '' : String(l).trim()));
  else if (typeof raw.markerNames === 'string' && raw.markerNames.trim()) labels = raw.markerNames.split(LABEL_SEPARATOR).map((l) => l.trim());
  if (labels) {
    while (labels.length && labels[labels.length - 1] === '') labels.pop();
    const markers = parseTemplate(row.content).markerCount;
    if (labels.length > markers) problems.push({ code: 'too-many-labels', vars: { labels: labels.length, markers } });
    const long = labels.map(labelProblem).find((p) => p !== null);
    if (long) problems.push({ ...long, vars: { ...long.vars, max: LABEL_MAX } });
    if (labels.length) row.markerNames = labels;
  }
  return row;
}

// ---------------------------------------------------------------------------------------------
// Reading

/** UTF-8 (with or without BOM); a file that is not UTF-8 is read as GB18030 (what Excel writes on Chinese Windows). */
export function decodeBytes(bytes: ArrayBuffer | Uint8Array): { text: string; encoding: 'utf-8' | 'gb18030' } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('gb18030').decode(bytes), encoding: 'gb18030' };
  }
}

function tooMany(count: number): Parsed | null {
  return count > IMPORT_MAX ? { ok: false, problem: { code: 'too-many', vars: { count, max: IMPORT_MAX } } } : null;
}

/** A JSON list of templates ({name?, content, approved?} or plain strings), or a Callout export. */
export function parseJsonText(text: string): Parsed {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { ok: false, problem: { code: 'not-json' } };
  }
  const items = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.templates) ? (data.templates as unknown[]) : null;
  if (!items) return { ok: false, problem: { code: 'json-shape' } };
  if (!items.length) return { ok: false, problem: { code: 'empty-file' } };
  const many = tooMany(items.length);
  if (many) return many;
  const rows = items.map((item, i) => {
    const where: Where = { kind: 'item', n: i + 1 };
    if (typeof item === 'string') return rowFrom(where, { content: item });
    if (!isRecord(item)) return { where, content: '', problems: [{ code: 'not-template' }] } satisfies ImportRow;
    return rowFrom(where, { id: item.id, name: item.name, content: item.content, approved: item.approved, markerNames: item.markerNames ?? item.labels });
  });
  return { ok: true, format: 'json', rows };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Column = 'id' | 'name' | 'content' | 'approved' | 'markerNames';

/** Header names each column is recognised by (compared without case, spaces, '_' or '-'). */
const HEADERS: Record<Column, readonly string[]> = {
  id: ['id', '编号', '模板id', '模板编号'],
  name: ['name', 'title', '名称', '模板名称', '标题'],
  content: ['content', 'text', 'template', '内容', '模板内容', '文本', '模板'],
  approved: ['approved', 'approval', 'status', '已审核', '审核', '审核状态', '状态'],
  markerNames: ['labels', 'markernames', 'variables', '标签', '变量名', '变量标签'],
};

/** The header names a CSV file must use, for the help text and the "no content column" problem. */
export const CSV_HEADERS = { name: 'name', content: 'content', approved: 'approved', nameZh: '名称', contentZh: '内容', approvedZh: '已审核' } as const;

const normalizeHeader = (h: string) =>
  h
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');

function columnsOf(header: readonly string[]): Partial<Record<Column, number>> {
  const found: Partial<Record<Column, number>> = {};
  header.forEach((cell, index) => {
    const h = normalizeHeader(cell);
    for (const column of Object.keys(HEADERS) as Column[]) {
      if (found[column] === undefined && HEADERS[column].includes(h)) found[column] = index;
    }
  });
  return found;
}

/** A CSV (or tab-separated) table whose first row names the columns. */
export function parseCsvText(text: string): Parsed {
  const result = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { header: false, skipEmptyLines: false });
  const records = result.data;
  const header = records[0];
  if (!header || header.every((c) => c.trim() === '')) return { ok: false, problem: { code: 'empty-file' } };
  const columns = columnsOf(header);
  if (columns.content === undefined) {
    return {
      ok: false,
      problem: {
        code: 'csv-no-content-column',
        vars: {
          found:
            header
              .map((h) => h.trim())
              .filter(Boolean)
              .slice(0, 8)
              .join(', ') || '—',
          expected: `${CSV_HEADERS.content} / ${CSV_HEADERS.contentZh}`,
        },
      },
    };
  }
  const malformed = new Set(result.errors.filter((e) => e.type === 'Quotes' && typeof e.row === 'number').map((e) => e.row as number));
  const rows: ImportRow[] = [];
  const blank: Where[] = [];
  // The file's last line ends with a line break: the empty "row" after it is not a row of the file.
  const last = records.length > 1 && (records.at(-1) ?? []).every((c) => c === '') ? records.length - 1 : records.length;
  for (let i = 1; i < last; i++) {
    const cells = records[i] ?? [];
    if (cells.every((c) => c.trim() === '')) {
      blank.push({ kind: 'row', n: i + 1 });
      continue;
    }
    const cell = (column: Column) => {
      const index = columns[column];
      return index === undefined ? undefined : unescapeFormula(cells[index] ?? '');
    };
    const row = rowFrom(
      { kind: 'row', n: i + 1 },
      { id: cell('id'), name: cell('name'), content: cell('content') ?? '', approved: cell('approved'), markerNames: cell('markerNames') },
    );
    if (malformed.has(i)) row.problems.push({ code: 'malformed-row' });
    rows.push(row);
  }
  if (!rows.length) return { ok: false, problem: { code: 'empty-file' } };
  return tooMany(rows.length) ?? { ok: true, format: 'csv', rows, blank };
}

/**
 * One template per line. A line with a tab is a name and a text (two cells copied from a
 * spreadsheet without their header): a name with an empty text is a row with a problem, never a
 * template whose text is its name. Blank lines between templates are reported, not silently dropped.
 */
export function parseLines(text: string): Parsed {
  const rows: ImportRow[] = [];
  const blank: Where[] = [];
  const lines = text.replace(/[\r\n]+$/, '').split(/\r\n|\n|\r/);
  lines.forEach((line, i) => {
    const where: Where = { kind: 'line', n: i + 1 };
    if (!line.trim()) {
      if (rows.length) blank.push(where); // leading blank lines are the paste's, not the user's
      return;
    }
    const tab = line.indexOf('\t');
    rows.push(tab >= 0 ? rowFrom(where, { name: line.slice(0, tab), content: line.slice(tab + 1) }) : rowFrom(where, { content: line }));
  });
  if (!rows.length) return { ok: false, problem: { code: 'empty-file' } };
  return tooMany(rows.length) ?? { ok: true, format: 'lines', rows, blank };
}

/**
 * Pasted text: JSON when it looks like JSON; a table when its first line names a content column
 * (cells copied from a spreadsheet arrive tab-separated); otherwise one template per line.
 */
export function parsePastedText(text: string): Parsed {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, problem: { code: 'empty-file' } };
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) return parseJsonText(trimmed);
  const firstLine = trimmed.split(/\r\n|\n|\r/, 1)[0] ?? '';
  const header = Papa.parse<string[]>(firstLine, { header: false }).data[0] ?? [];
  if (header.length > 1 && columnsOf(header).content !== undefined) return parseCsvText(trimmed);
  return parseLines(text);
}

/** A chosen file, by its extension (or, without one, by its first character). */
export function parseFile(fileName: string, bytes: ArrayBuffer | Uint8Array): Parsed & { encoding?: 'utf-8' | 'gb18030' } {
  if (bytes.byteLength > FILE_MAX_BYTES) return { ok: false, problem: { code: 'too-large', vars: { max: FILE_MAX_BYTES / 1024 / 1024 } } };
  const { text, encoding } = decodeBytes(bytes);
  const ext = /\.([^.]+)$/.exec(fileName.toLowerCase())?.[1] ?? '';
  if (!text.trim()) return { ok: false, problem: { code: 'empty-file' } };
  if (ext === 'json') return { ...parseJsonText(text), encoding };
  if (ext === 'csv' || ext === 'tsv' || ext === 'txt') return { ...parseCsvText(text), encoding };
  if (ext === '') return { ...(/^\s*[[{]/.test(text) ? parseJsonText(text) : parseCsvText(text)), encoding };
  return { ok: false, problem: { code: 'unknown-type', vars: { ext } } };
}

// ---------------------------------------------------------------------------------------------
// Planning

export type RowAction = 'new' | 'update' | 'duplicate' | 'error';

export interface PlannedRow extends ImportRow {
  action: RowAction;
  /** For a duplicate: the library template, or the earlier row, with the same text. */
  duplicateOf?: { name: string } | { where: Where };
}

/**
 * What importing `rows` would do: rows with problems are skipped; a row whose id is in the library
 * updates that template; a row with the text of a template already in the library (or of an earlier
 * row) is skipped as a duplicate; the others are added. `defaultApproved` applies to rows that do
 * not say. An update without labels keeps the template's labels when they still fit.
 */
export function planImport(rows: readonly ImportRow[], existing: readonly TemplateView[], defaultApproved?: boolean): PlannedRow[] {
  const byId = new Map(existing.map((t) => [t.id, t]));
  const byText = new Map(existing.map((t) => [sameText(t.content), t]));
  const seenText = new Map<string, Where>();
  const seenId = new Map<string, Where>();
  return rows.map((row): PlannedRow => {
    const planned: PlannedRow = { ...row, action: 'error' };
    if (planned.approved === undefined && defaultApproved !== undefined) planned.approved = defaultApproved;
    if (row.problems.length) return planned;
    const text = sameText(row.content);
    const earlier = seenText.get(text) ?? (row.id ? seenId.get(row.id) : undefined);
    if (earlier) return { ...planned, action: 'duplicate', duplicateOf: { where: earlier } };
    seenText.set(text, row.where);
    if (row.id) seenId.set(row.id, row.where);
    const target = row.id ? byId.get(row.id) : undefined;
    if (target) {
      const markers = parseTemplate(row.content).markerCount;
      if (planned.markerNames === undefined && target.markerNames.some(Boolean) && target.markerNames.length <= markers) {
        planned.markerNames = [...target.markerNames];
      }
      return { ...planned, action: 'update' };
    }
    const same = byText.get(text);
    if (same) return { ...planned, action: 'duplicate', duplicateOf: { name: same.name } };
    return { ...planned, action: 'new' };
  });
}

export function planSummary(rows: readonly PlannedRow[]): Record<RowAction, number> {
  const out: Record<RowAction, number> = { new: 0, update: 0, duplicate: 0, error: 0 };
  for (const r of rows) out[r.action]++;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Writing

export const EXPORT_FORMAT = 'callout.templates';
export const EXPORT_VERSION = 1;

export interface ExportFile {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  exportedAt: string;
  templates: { id: string; name: string; content: string; approved: boolean; markerNames: string[] }[];
}

/** The export format (an object with `templates`, which the import reads back, ids and labels included). */
export function exportJson(templates: readonly TemplateView[], now: Date = new Date()): string {
  const file: ExportFile = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: now.toISOString(),
    templates: templates.map((t) => ({ id: t.id, name: t.name, content: t.content, approved: t.approved, markerNames: t.markerNames })),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/**
 * CSV for spreadsheets: a BOM (so Excel reads UTF-8), CRLF line ends, columns name, content,
 * approved (yes/no), labels (separated by "|") and id; cells that look like formulas are escaped.
 */
export function exportCsv(templates: readonly TemplateView[]): string {
  const csv = Papa.unparse(
    {
      fields: ['name', 'content', 'approved', 'labels', 'id'],
      data: templates.map((t) => [t.name, t.content, t.approved ? 'yes' : 'no', t.markerNames.join(LABEL_SEPARATOR), t.id]),
    },
    { newline: '\r\n', escapeFormulae: true },
  );
  return `\uFEFF${csv}\r\n`;
}

/** callout-templates-2026-11-21.json */
export function exportFileName(ext: 'json' | 'csv', now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `callout-templates-${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}.${ext}`;
}
