/**
 * What a spreadsheet for a bulk send may hold. Checked while the file is read (in a worker thread,
 * never on main's event loop): the first figure over a limit stops the reading, and the error says
 * the limit and the file's figure. The renderer and the CLI check the file's size before sending it.
 *
 * Why these numbers: 200,000 rows is 100 hours of calls on one line (2,000 an hour), far beyond a
 * batch a person checks; a text is at most 500 characters, so no useful cell is longer than 5,000;
 * 96 MiB of unpacked sheet XML holds 200,000 rows of a dozen columns. With them the import's worker
 * stays within IMPORT_MEMORY (measured: README, "Limits on imports").
 */
export const IMPORT_LIMITS = {
  /** The file as chosen: a CSV, or an XLSX (a ZIP, compressed). */
  fileBytes: 32 * 1024 * 1024,
  /** XLSX: every XML part of the workbook once inflated, together (a "ZIP bomb" stops here). */
  uncompressedBytes: 96 * 1024 * 1024,
  /** Data rows (the header row aside), or, in XLSX, the highest row number a cell names. */
  rows: 200_000,
  /** Columns, or the highest column a cell names (XFD is 16,384). */
  columns: 256,
  /** Characters in one cell. */
  cellChars: 5_000,
} as const;

export type ImportLimit = keyof typeof IMPORT_LIMITS | 'memory';

/**
 * The import's worker thread: its JavaScript heap is capped here (V8 stops it, not the app, if a
 * file gets past the limits above), and the whole process stays under IMPORT_MEMORY.rssMb while it
 * reads any file (the test measures it in a child process).
 */
export const IMPORT_MEMORY = { workerHeapMb: 512, rssMb: 1024 } as const;

/** Length of the base64 text of `bytes` bytes (what bulk.open carries). */
export const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;
