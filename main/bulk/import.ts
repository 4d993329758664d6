// Spreadsheet import for bulk sends: read a CSV or XLSX file, map its columns to the mobile number and
// the template's 【变量】 markers, fill every row's text, and report what is wrong before anything is sent.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import Papa from 'papaparse';
import { normalizeMobile } from '../../common/domain/mobile';
import { reason, type Reason } from '../../common/reasons';
import { fail } from '../errors';
import { parseTemplate } from '../../common/domain/templates';
import { CONTENT_MAX, textLength, CHARS_PER_UNIT } from '../../common/domain/units';
import type { MappingSpec, ColumnMapping, IssueKind, RowIssue, DuplicatePolicy, ValidationTotals, ValidationReport } from '../../common/bulk-types';
export type { MappingSpec, ColumnMapping, IssueKind, RowIssue, DuplicatePolicy, ValidationTotals, ValidationReport } from '../../common/bulk-types';
import { ISSUE_KINDS } from '../../common/bulk-types';
export { ISSUE_KINDS } from '../../common/bulk-types';

/** A spreadsheet as rows of text: the header row's names, then one array per data row. */
export interface Sheet {
  columns: string[];
  /** Data rows (header excluded). `rowNumbers[i]` is the row's number in the file (the header is row 1). */
  rows: string[][];
  rowNumbers: number[];
  format: 'csv' | 'xlsx';
  /** How a CSV was decoded; null for XLSX. */
  encoding: TextEncodingName | null;
}

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030';

/** What a template brings to an import: its markers and their optional labels. */
export interface ImportTemplate {
  id: string;
  content: string;
  markerNames?: readonly string[];
}

// ---------------------------------------------------------------- reading

/**
 * Decodes a CSV file's bytes: a UTF-8 or UTF-16 byte-order mark wins; otherwise UTF-8 when the bytes
 * are valid UTF-8, else GB18030 (a superset of GBK/GB2312: what Excel on a Chinese Windows saves as "CSV").
 */
export function decodeText(bytes: Uint8Array): { text: string; encoding: TextEncodingName } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('gb18030').decode(bytes), encoding: 'gb18030' };
  }
}

function headerNames(raw: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return raw.map((h, i) => {
    let name = h.replace(/^\ufeff/, '').trim() || `Column ${i + 1}`;
    const n = seen.get(name) ?? 0;
    seen.set(name, n + 1);
    if (n > 0) name = `${name} (${n + 1})`;
    return name;
  });
}

export function toSheet(records: readonly (readonly string[])[], format: Sheet['format'], encoding: TextEncodingName | null): Sheet {
  const headerAt = records.findIndex((r) => r.some((c) => c.trim() !== ''));
  if (headerAt < 0) throw fail('import-failed', { kind: 'no-rows' });
  const header = records[headerAt]!;
  const columns = headerNames(header);
  const rows: string[][] = [];
  const rowNumbers: number[] = [];
  for (let i = headerAt + 1; i < records.length; i++) {
    const r = records[i]!;
    let blank = true;
    for (const c of r) {
      if (c.trim() !== '') {
        blank = false;
        break;
      }
    }
    if (blank) continue;
    rows.push(r as string[]);
    rowNumbers.push(i + 1);
  }
  if (rows.length === 0) throw fail('import-failed', { kind: 'no-data-rows' });
  // Columns beyond the header (ragged rows) get a name too, so nothing is silently dropped.
  const widest = rows.reduce((w, r) => Math.max(w, r.length), columns.length);
  for (let i = columns.length; i < widest; i++) columns.push(`Column ${i + 1}`);
  return { columns, rows, rowNumbers, format, encoding };
}

/** Parses CSV (or tab-/semicolon-separated) text or bytes with a header row. Quoting as Excel writes it. */
export function parseCsv(input: string | Uint8Array): Sheet {
  const { text, encoding } = typeof input === 'string' ? { text: input.replace(/^\ufeff/, ''), encoding: 'utf-8' as const } : decodeText(input);
  const result = Papa.parse<string[]>(text, { header: false, skipEmptyLines: false, delimitersToGuess: [',', '\t', ';', '|'] });
  const fatal = result.errors.find((e) => e.type === 'Quotes' && e.code === 'MissingQuotes');
  if (fatal && result.data.length <= 1) throw fail('import-failed', { kind: 'unreadable-csv', row: (fatal.row ?? 0) + 1, detail: fatal.message });
  return toSheet(result.data, 'csv', encoding);
}

export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) {
    const iso = v.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('T', ' ').replace(/\.\d{3}Z$/, '');
  }
  return String(v);
}

/** Reads the first sheet of an XLSX workbook. Numbers are kept exactly as written (a mobile stays 11 digits). */
export async function parseXlsx(input: Uint8Array | string): Promise<Sheet> {
  const { readSheet } = await import('read-excel-file/node');
  let data: unknown[][];
  try {
    data = (await readSheet(typeof input === 'string' ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength), {
      parseNumber: (s: string) => s,
      trim: false,
    })) as unknown[][];
  } catch (error) {
    throw fail('import-failed', { kind: 'unreadable-xlsx', detail: error instanceof Error ? error.message : String(error) });
  }
  return toSheet(
    data.map((r) => r.map(cellText)),
    'xlsx',
    null,
  );
}

/** Reads a spreadsheet from bytes: XLSX (a ZIP, "PK") or CSV; `name` only helps to say what was expected. */
export async function readSpreadsheetBytes(name: string, bytes: Uint8Array): Promise<Sheet> {
  const ext = extname(name).toLowerCase();
  const zip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  if (ext === '.xls') throw fail('import-failed', { kind: 'xls-unsupported', name });
  if (zip) {
    if (ext && ext !== '.xlsx') throw fail('import-failed', { kind: 'zip-not-spreadsheet', name });
    return parseXlsx(bytes);
  }
  if (ext === '.xlsx') throw fail('import-failed', { kind: 'not-xlsx', name });
  return parseCsv(bytes);
}

export async function readSpreadsheet(path: string): Promise<Sheet> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw fail('import-failed', { kind: 'cannot-read', name: path, detail: (error as NodeJS.ErrnoException).code ?? String(error) });
  }
  return readSpreadsheetBytes(path, bytes);
}

// ---------------------------------------------------------------- mapping

const MOBILE_HEADER = /^(mobile|phone|cell|tel|telephone|number|手机|手机号|手机号码|电话|电话号码|号码|联系电话|联系方式)$/i;

function markerLabel(t: ImportTemplate, i: number): string {
  return t.markerNames?.[i]?.trim() || String(i + 1);
}

function findColumn(columns: readonly string[], ref: string): number {
  const key = ref.trim();
  let i = columns.indexOf(key);
  if (i < 0) i = columns.findIndex((c) => c.toLowerCase() === key.toLowerCase());
  if (i < 0 && /^#?\d+$/.test(key)) {
    const n = Number(key.replace('#', '')) - 1;
    if (n >= 0 && n < columns.length) i = n;
  }
  return i;
}

function findMarker(t: ImportTemplate, count: number, ref: string): number {
  const key = ref.trim().toLowerCase();
  const byLabel = (t.markerNames ?? []).findIndex((n) => n.trim().toLowerCase() === key && key !== '');
  if (byLabel >= 0 && byLabel < count) return byLabel;
  const m = /^(?:#|变量|var|marker)?\s*(\d+)$/i.exec(ref.trim());
  if (m) {
    const n = Number(m[1]) - 1;
    if (n >= 0 && n < count) return n;
  }
  return -1;
}

/**
 * A mapping to start from: a column whose header names a phone number (else the column whose values
 * look most like mobiles) for the number; a column named like a marker's label or position for each
 * marker; the remaining columns, left to right, for markers still without one.
 */
export function suggestMapping(sheet: Pick<Sheet, 'columns' | 'rows'>, template: ImportTemplate): MappingSpec {
  const { columns } = sheet;
  const count = parseTemplate(template.content).markerCount;
  let mobile = columns.findIndex((c) => MOBILE_HEADER.test(c.trim()));
  if (mobile < 0) {
    const sample = sheet.rows.slice(0, 50);
    let best = -1;
    let bestScore = 0;
    for (let c = 0; c < columns.length; c++) {
      const score = sample.filter((r) => normalizeMobile(r[c] ?? '').ok).length;
      if (score > bestScore) {
        best = c;
        bestScore = score;
      }
    }
    mobile = best;
  }
  const spec: MappingSpec = {};
  const used = new Set<number>();
  if (mobile >= 0) {
    spec[columns[mobile]!] = 'mobile';
    used.add(mobile);
  }
  const assigned: (number | undefined)[] = new Array(count).fill(undefined);
  for (let m = 0; m < count; m++) {
    const label = template.markerNames?.[m]?.trim();
    const candidates = [label, `变量${m + 1}`, `var${m + 1}`, `marker${m + 1}`].filter((x): x is string => !!x);
    const c = columns.findIndex((col, i) => !used.has(i) && candidates.some((k) => col.trim().toLowerCase() === k.toLowerCase()));
    if (c >= 0) {
      assigned[m] = c;
      used.add(c);
    }
  }
  const rest = columns.map((_, i) => i).filter((i) => !used.has(i));
  for (let m = 0; m < count; m++) {
    if (assigned[m] !== undefined) continue;
    const c = rest.shift();
    if (c === undefined) break;
    assigned[m] = c;
  }
  assigned.forEach((c, m) => {
    if (c !== undefined) spec[columns[c]!] = markerLabel(template, m);
  });
  return spec;
}

/** Turns a mapping spec into column indexes. Throws bad-mapping with an issue per problem (path: the column, `mobile`, or `marker:N`). */
export function resolveMapping(columns: readonly string[], template: ImportTemplate, spec: MappingSpec): ColumnMapping {
  const count = parseTemplate(template.content).markerCount;
  const issues: { path: string; message: string }[] = [];
  let mobile = -1;
  const markers: number[] = new Array<number>(count).fill(-1);
  for (const [columnRef, target] of Object.entries(spec)) {
    const c = findColumn(columns, columnRef);
    if (c < 0) {
      issues.push({ path: columnRef, message: 'mapping-column' });
      continue;
    }
    if (target.trim().toLowerCase() === 'mobile') {
      if (mobile >= 0 && mobile !== c) issues.push({ path: columnRef, message: 'mapping-mobile-twice' });
      mobile = c;
      continue;
    }
    const m = findMarker(template, count, target);
    if (m < 0) {
      issues.push({ path: columnRef, message: 'mapping-target' });
      continue;
    }
    if (markers[m]! >= 0 && markers[m] !== c) issues.push({ path: columnRef, message: 'mapping-marker-twice' });
    markers[m] = c;
  }
  if (mobile < 0) issues.push({ path: 'mobile', message: 'mapping-mobile' });
  markers.forEach((c, m) => {
    if (c < 0) issues.push({ path: `marker:${m + 1}`, message: 'mapping-marker' });
  });
  if (issues.length) throw fail('bad-mapping', {}, issues);
  return { mobile, markers };
}

// ---------------------------------------------------------------- validation

/** Kinds that make a row unsendable (duplicates are sendable: the person chooses). */
const BLOCKING: ReadonlySet<IssueKind> = new Set(['missing-mobile', 'bad-mobile', 'missing-value', 'empty-text', 'too-long']);

export interface PreparedRow {
  row: number;
  /** Normalised 11 digits when valid, else the cell as written. */
  mobile: string;
  /** The filled text ('' when a value is missing). */
  content: string;
  length: number;
  units: number;
  valid: boolean;
  issues: IssueKind[];
  /** Earlier valid row with the same number and the same text. */
  duplicateOf: number | null;
  /** Earlier valid row with the same number (any text). */
  sameMobileAs: number | null;
  /** The row's own cells, as read (kept with the batch: the results export gives them back). */
  cells?: readonly string[];
}

export interface PrepareOptions {
  previewCount?: number;
  maxIssues?: number;
  balance?: number | null;
}

export interface PreparedImport {
  rows: PreparedRow[];
  report: ValidationReport;
}

/** Maps, fills and validates every row. Linear in the number of rows (100,000 rows: well under a second). */
export function prepareRows(sheet: Sheet, template: ImportTemplate, mapping: ColumnMapping, options: PrepareOptions = {}): PreparedImport {
  const job = preparing(sheet, template, mapping, options);
  job.step(sheet.rows.length);
  return job.result();
}

/**
 * The same, a slice of rows at a time, letting the event loop run between slices: main stays
 * responsive while 200,000 rows are checked (each slice takes a few milliseconds).
 */
export async function prepareRowsAsync(
  sheet: Sheet,
  template: ImportTemplate,
  mapping: ColumnMapping,
  options: PrepareOptions = {},
  slice = 1_000,
): Promise<PreparedImport> {
  const job = preparing(sheet, template, mapping, options);
  while (!job.step(slice)) await new Promise<void>((resolve) => setImmediate(resolve));
  return job.result();
}

function preparing(
  sheet: Sheet,
  template: ImportTemplate,
  mapping: ColumnMapping,
  options: PrepareOptions,
): { step(rows: number): boolean; result(): PreparedImport } {
  const { literals, markerCount } = parseTemplate(template.content);
  const maxIssues = options.maxIssues ?? 1000;
  const previewCount = options.previewCount ?? 5;
  const issues: RowIssue[] = [];
  let issuesOmitted = 0;
  const issueCounts = Object.fromEntries(ISSUE_KINDS.map((k) => [k, 0])) as Record<IssueKind, number>;
  const addIssue = (i: RowIssue) => {
    issueCounts[i.kind]++;
    if (issues.length < maxIssues) issues.push(i);
    else issuesOmitted++;
  };
  const firstByText = new Map<string, number>();
  const firstByMobile = new Map<string, number>();
  const rows: PreparedRow[] = new Array(sheet.rows.length);
  const preview: ValidationReport['preview'] = [];
  const totals: ValidationTotals = {
    rows: sheet.rows.length,
    valid: 0,
    invalid: 0,
    duplicates: 0,
    sameMobile: 0,
    toSend: { none: 0, 'same-text': 0, 'same-mobile': 0 },
    units: { none: 0, 'same-text': 0, 'same-mobile': 0 },
  };
  const mobileColumn = sheet.columns[mapping.mobile]!;
  let next = 0;

  const step = (count: number): boolean => {
    const end = Math.min(sheet.rows.length, next + count);
    for (let r = next; r < end; r++) {
      const cells = sheet.rows[r]!;
      const row = sheet.rowNumbers[r]!;
      const kinds: IssueKind[] = [];
      const rawMobile = (cells[mapping.mobile] ?? '').trim();
      let mobile = rawMobile;
      if (rawMobile === '') {
        kinds.push('missing-mobile');
        addIssue({ row, kind: 'missing-mobile', column: mobileColumn });
      } else {
        const n = normalizeMobile(rawMobile);
        if (n.ok) mobile = n.mobile;
        else {
          kinds.push('bad-mobile');
          addIssue({ row, kind: 'bad-mobile', column: mobileColumn, value: rawMobile, detail: n.error });
        }
      }
      let content = literals[0] ?? '';
      let missing = false;
      for (let m = 0; m < markerCount; m++) {
        const column = mapping.markers[m]!;
        const value = cells[column] ?? '';
        if (value.trim() === '') {
          missing = true;
          addIssue({ row, kind: 'missing-value', column: sheet.columns[column], value: markerLabel(template, m) });
        }
        content += value + (literals[m + 1] ?? '');
      }
      if (missing) {
        kinds.push('missing-value');
        content = '';
      }
      const length = missing ? 0 : textLength(content);
      if (!missing) {
        if (content.trim() === '') {
          kinds.push('empty-text');
          addIssue({ row, kind: 'empty-text' });
        } else if (length > CONTENT_MAX) {
          kinds.push('too-long');
          addIssue({ row, kind: 'too-long', detail: length });
        }
      }
      const units = Math.ceil(length / CHARS_PER_UNIT);
      const valid = !kinds.some((k) => BLOCKING.has(k));
      let duplicateOf: number | null = null;
      let sameMobileAs: number | null = null;
      if (valid) {
        totals.valid++;
        const textKey = `${mobile}\n${content}`;
        duplicateOf = firstByText.get(textKey) ?? null;
        sameMobileAs = firstByMobile.get(mobile) ?? null;
        if (duplicateOf === null) firstByText.set(textKey, row);
        if (sameMobileAs === null) firstByMobile.set(mobile, row);
        totals.toSend.none++;
        totals.units.none += units;
        if (duplicateOf !== null) {
          kinds.push('duplicate');
          totals.duplicates++;
          addIssue({ row, kind: 'duplicate', detail: duplicateOf });
        } else {
          totals.toSend['same-text']++;
          totals.units['same-text'] += units;
        }
        if (sameMobileAs !== null) {
          totals.sameMobile++;
          if (duplicateOf === null) {
            kinds.push('same-mobile');
            addIssue({ row, kind: 'same-mobile', detail: sameMobileAs });
          }
        } else {
          totals.toSend['same-mobile']++;
          totals.units['same-mobile'] += units;
        }
        if (preview.length < previewCount) preview.push({ row, mobile, content, length, units });
      } else totals.invalid++;
      rows[r] = { row, mobile, content, length, units, valid, issues: kinds, duplicateOf, sameMobileAs, cells };
    }
    next = end;
    return next >= sheet.rows.length;
  };

  const result = (): PreparedImport => {
    const report: ValidationReport = {
      templateId: template.id,
      columns: [...sheet.columns],
      mapping: { mobile: mobileColumn, markers: mapping.markers.map((c) => sheet.columns[c]!) },
      totals,
      issueCounts,
      issues,
      issuesOmitted,
      preview,
    };
    if (options.balance !== undefined && options.balance !== null) {
      const b = options.balance;
      report.balance = {
        units: b,
        enough: { none: totals.units.none <= b, 'same-text': totals.units['same-text'] <= b, 'same-mobile': totals.units['same-mobile'] <= b },
      };
    }
    return { rows, report };
  };
  return { step, result };
}

/** Whether a prepared row is left out under a duplicate policy (the first occurrence is always kept). */
export function skippedAsDuplicate(row: PreparedRow, policy: DuplicatePolicy): boolean {
  if (policy === 'same-text') return row.duplicateOf !== null;
  if (policy === 'same-mobile') return row.sameMobileAs !== null;
  return false;
}

/** A one-line reason for an invalid row, from its issues. */
export function invalidReason(row: PreparedRow): Reason {
  return reason('invalid-row', { kind: row.issues[0] ?? 'empty-text' });
}
