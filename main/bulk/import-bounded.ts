// Reading a spreadsheet within the import limits (common/domain/import-limits.ts), checked while
// the file is read so that a hostile file is refused early, with the limit and the file's figure.
// Runs in the import worker (import-worker.ts), never on main's event loop.
//
// CSV: papaparse row by row (its `step` mode); the reading stops at the first row, column or cell
// over a limit.
//
// XLSX: read-excel-file parses the workbook (dates, shared strings, styles...), but it unpacks every
// XML part into memory and fills the gaps a cell's address leaves (a single cell at XFD1048576 asks
// for 17 billion empty cells). So before it sees anything:
// 1. the ZIP is read entry by entry with fflate's streaming Unzip (16 KB pushed at a time), and
//    every XML part is inflated under one hard cap on the bytes produced, whatever the sizes the
//    archive declares;
// 2. the first sheet's rows and the row and column numbers its cells name are checked against the
//    limits;
// 3. read-excel-file is given a new ZIP (stored, uncompressed) holding only those checked parts,
//    so that it can never read anything the checks did not (no ZIP-parser differences).
// fflate was chosen because read-excel-file already depends on it (no new code in the bundle), it is
// typed, small and widely used, and its streaming Unzip lets us stop at the first byte over the cap.
import Papa from 'papaparse';
import { Unzip, UnzipInflate, zipSync, type UnzipFile } from 'fflate';
import { extname } from 'node:path';
import { IMPORT_LIMITS } from '../../common/domain/import-limits';
import { fail } from '../errors';
import { cellText, decodeText, toSheet, type Sheet } from './import';

export type ImportLimits = { [K in keyof typeof IMPORT_LIMITS]: number };

export interface ReadProgress {
  phase: 'reading' | 'unpacking' | 'parsing';
  /** Bytes of the file read so far, of `totalBytes`. */
  bytes: number;
  totalBytes: number;
  rows: number;
}

const tooLarge = (kind: keyof ImportLimits, max: number, found: number, extra: { atLeast?: boolean; row?: number } = {}) =>
  fail('import-too-large', { kind, max, found, ...extra });

/** Reads a spreadsheet (XLSX when it is a ZIP, else CSV) within `limits`; `name` only tells what was expected. */
export async function readBounded(
  name: string,
  bytes: Uint8Array,
  limits: ImportLimits = IMPORT_LIMITS,
  progress: (p: ReadProgress) => void = () => undefined,
): Promise<Sheet> {
  if (bytes.byteLength > limits.fileBytes) throw tooLarge('fileBytes', limits.fileBytes, bytes.byteLength);
  const ext = extname(name).toLowerCase();
  const zip = bytes[0] === 0x50 && bytes[1] === 0x4b;
  if (ext === '.xls') throw fail('import-failed', { kind: 'xls-unsupported', name });
  if (zip) {
    if (ext && ext !== '.xlsx') throw fail('import-failed', { kind: 'zip-not-spreadsheet', name });
    return readXlsxBounded(bytes, limits, progress);
  }
  if (ext === '.xlsx') throw fail('import-failed', { kind: 'not-xlsx', name });
  return readCsvBounded(bytes, limits, progress);
}

// ---------------------------------------------------------------- CSV

export function readCsvBounded(bytes: Uint8Array, limits: ImportLimits, progress: (p: ReadProgress) => void = () => undefined): Sheet {
  const { text, encoding } = decodeText(bytes);
  const records: string[][] = [];
  let over: Error | null = null;
  let quoteError: Papa.ParseError | null = null;
  let header = -1;
  Papa.parse<string[]>(text, {
    header: false,
    skipEmptyLines: false,
    delimitersToGuess: [',', '\t', ';', '|'],
    step(result, parser) {
      const row = result.data;
      const n = records.length + 1;
      if (header < 0 && row.some((c) => c.trim() !== '')) header = n;
      const dataRows = header < 0 ? 0 : n - header;
      if (dataRows > limits.rows) over = tooLarge('rows', limits.rows, n, { atLeast: true });
      else if (row.length > limits.columns) over = tooLarge('columns', limits.columns, row.length, { atLeast: true });
      else {
        const long = row.find((c) => c.length > limits.cellChars);
        if (long !== undefined) over = tooLarge('cellChars', limits.cellChars, long.length, { row: n });
      }
      if (over) return parser.abort();
      if (!quoteError) quoteError = result.errors.find((e) => e.type === 'Quotes' && e.code === 'MissingQuotes') ?? null;
      records.push(row);
      if (n % 20_000 === 0)
        progress({
          phase: 'reading',
          bytes: Math.round((result.meta.cursor / Math.max(1, text.length)) * bytes.byteLength),
          totalBytes: bytes.byteLength,
          rows: n,
        });
    },
  });
  if (over) throw over;
  const fatal = quoteError as Papa.ParseError | null;
  if (fatal && records.length <= 1) throw fail('import-failed', { kind: 'unreadable-csv', row: (fatal.row ?? 0) + 1, detail: fatal.message });
  progress({ phase: 'reading', bytes: bytes.byteLength, totalBytes: bytes.byteLength, rows: records.length });
  return toSheet(records, 'csv', encoding);
}

// ---------------------------------------------------------------- XLSX

/** The parts read-excel-file reads (it skips images, printer settings and the like). */
const isXmlPart = (path: string) => path.endsWith('.xml') || path.endsWith('.rels');

/** Inflates the XML parts of a ZIP under one cap on the bytes they produce together. */
export function unzipXmlParts(bytes: Uint8Array, limits: ImportLimits, progress: (p: ReadProgress) => void = () => undefined): Map<string, Uint8Array> {
  const parts = new Map<string, Uint8Array[]>();
  let produced = 0;
  let over: Error | null = null;
  let broken: unknown = null;
  const open: UnzipFile[] = [];
  const unzip = new Unzip((file) => {
    if (over || !isXmlPart(file.name)) return; // not started: skipped without inflating
    // What the archive declares is checked first (an honest bomb stops here), then what inflating produces.
    if (file.originalSize !== undefined && produced + file.originalSize > limits.uncompressedBytes) {
      over = tooLarge('uncompressedBytes', limits.uncompressedBytes, produced + file.originalSize, { atLeast: true });
      return;
    }
    const chunks: Uint8Array[] = [];
    parts.set(file.name, chunks);
    file.ondata = (error, chunk) => {
      if (error) {
        broken = error;
        return;
      }
      if (over) return;
      produced += chunk.byteLength;
      if (produced > limits.uncompressedBytes) {
        over = tooLarge('uncompressedBytes', limits.uncompressedBytes, produced, { atLeast: true });
        file.terminate();
        return;
      }
      chunks.push(chunk);
    };
    open.push(file);
    file.start();
  });
  unzip.register(UnzipInflate);
  const STEP = 16 * 1024;
  try {
    for (let at = 0; at < bytes.byteLength && !over && !broken; at += STEP) {
      const end = Math.min(bytes.byteLength, at + STEP);
      unzip.push(bytes.subarray(at, end), end === bytes.byteLength);
      if ((at / STEP) % 64 === 0) progress({ phase: 'unpacking', bytes: end, totalBytes: bytes.byteLength, rows: 0 });
    }
  } catch (error) {
    broken = error;
  }
  if (over) throw over;
  if (broken) throw fail('import-failed', { kind: 'unreadable-xlsx', detail: broken instanceof Error ? broken.message : String(broken) });
  const out = new Map<string, Uint8Array>();
  for (const [name, chunks] of parts) out.set(name, concat(chunks));
  return out;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

const decoder = new TextDecoder('utf-8');

/** An attribute of a tag's text (either quote, any namespace prefix). */
function attr(tag: string, name: string): string | null {
  const m = new RegExp(`\\s(?:[\\w-]+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(tag);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/** The path of the workbook's first sheet (what read-excel-file reads), from workbook.xml and its relationships. */
export function firstSheetPath(parts: Map<string, Uint8Array>): string | null {
  const workbook = parts.get('xl/workbook.xml');
  const rels = parts.get('xl/_rels/workbook.xml.rels');
  if (workbook && rels) {
    const sheetTag = /<(?:[\w-]+:)?sheet\b[^>]*>/.exec(decoder.decode(workbook))?.[0];
    const id = sheetTag ? attr(sheetTag, 'id') : null;
    for (const tag of decoder.decode(rels).match(/<(?:[\w-]+:)?Relationship\b[^>]*>/g) ?? []) {
      if (attr(tag, 'Id') !== id) continue;
      const target = attr(tag, 'Target');
      if (target) return target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
    }
  }
  return [...parts.keys()].filter((p) => /^xl\/worksheets\/[^/]+\.xml$/.test(p)).sort()[0] ?? null;
}

const columnNumber = (letters: string) => [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);

/**
 * Checks a sheet's XML against the row and column limits: the number of <row>s, and the highest row
 * and column any <row r> or <c r> names (read-excel-file fills the gaps up to them). Counting more
 * than there is (a tag in a comment) only makes the check stricter.
 */
export function checkSheetXml(xml: Uint8Array, limits: ImportLimits): void {
  const text = decoder.decode(xml);
  // One more row than the data rows: the header.
  const maxRow = limits.rows + 1;
  let rows = 0;
  const tags = /<(?:[\w-]+:)?(row|c)\b([^>]*)>/g;
  for (let m = tags.exec(text); m; m = tags.exec(text)) {
    const ref = attr(` ${m[2]}`, 'r');
    if (m[1] === 'row') {
      rows++;
      if (rows > maxRow) throw tooLarge('rows', limits.rows, rows, { atLeast: true });
      const n = ref === null ? 0 : Number(ref);
      if (n > maxRow || (ref !== null && !Number.isSafeInteger(n))) throw tooLarge('rows', limits.rows, Number.isFinite(n) ? n : maxRow + 1, { atLeast: true });
    } else if (ref !== null) {
      const cell = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref.trim());
      if (!cell) continue; // read-excel-file refuses it itself
      const col = columnNumber(cell[1]!);
      if (col > limits.columns) throw tooLarge('columns', limits.columns, col, { atLeast: true });
      const row = Number(cell[2]);
      if (row > maxRow) throw tooLarge('rows', limits.rows, row, { atLeast: true });
    }
  }
}

export async function readXlsxBounded(bytes: Uint8Array, limits: ImportLimits, progress: (p: ReadProgress) => void = () => undefined): Promise<Sheet> {
  let parts: Map<string, Uint8Array> | null = unzipXmlParts(bytes, limits, progress);
  const sheet = firstSheetPath(parts);
  if (!sheet || !parts.has(sheet)) throw fail('import-failed', { kind: 'unreadable-xlsx', detail: 'no worksheet' });
  checkSheetXml(parts.get(sheet)!, limits);
  progress({ phase: 'parsing', bytes: bytes.byteLength, totalBytes: bytes.byteLength, rows: 0 });
  // Only what was checked, stored (not compressed): read-excel-file cannot read anything else.
  let checked: Uint8Array | null = zipSync(Object.fromEntries([...parts].map(([name, data]) => [name, [data, { level: 0 }]])));
  // Released before the sheet is parsed, so that the inflated parts and the parsed rows are never held at once.
  // eslint-disable-next-line no-useless-assignment
  parts = null;
  const { readSheet } = await import('read-excel-file/node');
  let data: unknown[][];
  try {
    data = (await readSheet(Buffer.from(checked.buffer, checked.byteOffset, checked.byteLength), {
      parseNumber: (s: string) => s,
      trim: false,
    })) as unknown[][];
  } catch (error) {
    throw fail('import-failed', { kind: 'unreadable-xlsx', detail: error instanceof Error ? error.message : String(error) });
  } finally {
    // Released before the rows are built, for the same reason.
    // eslint-disable-next-line no-useless-assignment
    checked = null;
  }
  const records: string[][] = new Array(data.length);
  for (let r = 0; r < data.length; r++) {
    const row = data[r]!.map(cellText);
    for (const c of row) if (c.length > limits.cellChars) throw tooLarge('cellChars', limits.cellChars, c.length, { row: r + 1 });
    records[r] = row;
  }
  progress({ phase: 'parsing', bytes: bytes.byteLength, totalBytes: bytes.byteLength, rows: records.length });
  return toSheet(records, 'xlsx', null);
}
