// The import worker: reads one spreadsheet within the limits (import-bounded.ts) off main's event
// loop, and sends it back a slice of rows at a time, so that main never spends long taking in one
// message. Started by import-runner.ts with a capped heap; one file per worker, then it exits.
import { parentPort } from 'node:worker_threads';
import { toIpcError } from '../errors';
import { readBounded, type ImportLimits } from './import-bounded';
import type { WorkerReply, WorkerRequest } from './import-runner';

const SLICE = 5_000;
const port = parentPort!;
const post = (m: WorkerReply) => port.postMessage(m);

port.once('message', (request: WorkerRequest) => {
  void (async () => {
    try {
      const sheet = await readBounded(request.name, request.bytes, request.limits as ImportLimits, (p) => post({ type: 'progress', progress: p }));
      post({ type: 'sheet', columns: sheet.columns, format: sheet.format, encoding: sheet.encoding, rows: sheet.rows.length });
      for (let at = 0; at < sheet.rows.length; at += SLICE) {
        post({ type: 'rows', rows: sheet.rows.slice(at, at + SLICE), rowNumbers: sheet.rowNumbers.slice(at, at + SLICE) });
      }
      post({ type: 'done' });
    } catch (error) {
      post({ type: 'error', error: toIpcError(error) });
    }
  })();
});
