// The one way Callout writes a table for a spreadsheet, whatever the table (History, a batch's
// results): a header and rows of plain values, written as CSV (papaparse) or XLSX (write-excel-file).
//
// CSV: UTF-8 with a byte-order mark (so Excel opens Chinese text correctly), CRLF line ends, and
// every cell that a spreadsheet would run as a formula (= + - @, a tab or carriage return, or their
// full-width forms, at the start) prefixed with ' so it shows as text. (papaparse's own
// `escapeFormulae: true` misses a value that spans several lines: its pattern does not cross a line
// break, so ours is anchored at the start only.)
// XLSX: every value is written as a string or a number cell, never a formula.
import Papa from 'papaparse';

export type TableValue = string | number | null;

export interface Table {
  header: string[];
  rows: TableValue[][];
}

const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
export const BOM = '\ufeff';

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Local time "YYYY-MM-DD HH:mm:ss" at `utcOffsetMinutes` east of UTC (default: this machine's offset at that time). */
export function localTime(ms: number, utcOffsetMinutes?: number): string {
  const offset = utcOffsetMinutes ?? -new Date(ms).getTimezoneOffset();
  const d = new Date(ms + offset * 60_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

export function tableCsv(table: Table): string {
  const data = table.rows.map((r) => r.map((v) => (v === null ? '' : v)));
  return BOM + Papa.unparse({ fields: table.header, data }, { escapeFormulae: FORMULA_START, newline: '\r\n' });
}

/** The table as an XLSX workbook of one sheet, header in bold. */
export async function tableXlsx(table: Table, sheetName: string): Promise<Buffer> {
  const { default: writeXlsxFile } = await import('write-excel-file/node');
  const header = table.header.map((value) => ({ value, type: String, fontWeight: 'bold' as const }));
  const rows = table.rows.map((r) => r.map((v) => (v === null ? null : typeof v === 'number' ? { value: v, type: Number } : { value: v, type: String })));
  // Excel refuses sheet names over 31 characters or with []:*?/\ in them.
  const sheet = sheetName.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1';
  return writeXlsxFile([header, ...rows], { sheet }).toBuffer();
}
