// Reading a spreadsheet in a worker thread (import-worker.ts): main's event loop only receives the
// rows, a slice per message; progress is reported as the worker goes; a cancel ends the worker at
// once. The worker's heap is capped (IMPORT_MEMORY.workerHeapMb): a file that gets past the limits
// and still needs more memory stops the worker, never the app.
import { Worker } from 'node:worker_threads';
import type { IpcError } from '../../common/contract/errors';
import { IMPORT_LIMITS, IMPORT_MEMORY } from '../../common/domain/import-limits';
import { CalloutError, fail } from '../errors';
import { workerEntry, type WorkerEntry } from '../worker-entry';
import type { ImportLimits, ReadProgress } from './import-bounded';
import type { Sheet } from './import';

export type { ReadProgress } from './import-bounded';

export interface WorkerRequest {
  name: string;
  bytes: Uint8Array;
  limits: ImportLimits;
}

export type WorkerReply =
  | { type: 'progress'; progress: ReadProgress }
  | { type: 'sheet'; columns: string[]; format: Sheet['format']; encoding: Sheet['encoding']; rows: number }
  | { type: 'rows'; rows: string[][]; rowNumbers: number[] }
  | { type: 'done' }
  | { type: 'error'; error: IpcError };

/** The import worker's entry (worker-entry.ts); a build without it is a reader failure. */
function importWorkerEntry(): WorkerEntry {
  const entry = workerEntry(import.meta.url, 'import-worker');
  if (!entry) throw fail('import-failed', { kind: 'reader-failed', detail: 'the import worker is missing from this build' });
  return entry;
}

export interface ReadInWorkerOptions {
  onProgress?: (p: ReadProgress) => void;
  signal?: AbortSignal;
  limits?: ImportLimits;
  /** The worker's heap cap; default IMPORT_MEMORY.workerHeapMb. */
  heapMb?: number;
}

/** Reads `bytes` (a CSV or an XLSX named `name`) in a worker, within the import limits. */
export function readInWorker(name: string, bytes: Uint8Array, o: ReadInWorkerOptions = {}): Promise<Sheet> {
  if (o.signal?.aborted) return Promise.reject(fail('import-cancelled'));
  const entry = importWorkerEntry();
  const heapMb = o.heapMb ?? IMPORT_MEMORY.workerHeapMb;
  const worker = new Worker(entry.code, { eval: entry.eval, resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 } });
  return new Promise<Sheet>((resolve, reject) => {
    let sheet: Sheet | null = null;
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      o.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (error) reject(error);
      else resolve(sheet!);
    };
    const onAbort = () => finish(fail('import-cancelled'));
    o.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: WorkerReply) => {
      if (m.type === 'progress') o.onProgress?.(m.progress);
      else if (m.type === 'sheet') sheet = { columns: m.columns, rows: [], rowNumbers: [], format: m.format, encoding: m.encoding };
      else if (m.type === 'rows' && sheet) {
        for (let i = 0; i < m.rows.length; i++) {
          sheet.rows.push(m.rows[i]!);
          sheet.rowNumbers.push(m.rowNumbers[i]!);
        }
      } else if (m.type === 'done') finish(null);
      else if (m.type === 'error') finish(new CalloutError(m.error.code, m.error.params as never, m.error.issues));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') finish(fail('import-too-large', { kind: 'memory', max: heapMb, found: heapMb, atLeast: true }));
      else finish(fail('import-failed', { kind: 'reader-failed', detail: error.message }));
    });
    worker.on('exit', () => finish(fail('import-failed', { kind: 'reader-failed', detail: 'the import worker stopped' })));
    // Copied, not transferred: the caller keeps its bytes (one memcpy, ~10 ms for the largest file).
    const request: WorkerRequest = { name, bytes, limits: o.limits ?? { ...IMPORT_LIMITS } };
    worker.postMessage(request);
  });
}
