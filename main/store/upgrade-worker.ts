// The upgrade worker (upgrade.ts): opens the store once, which runs its migrations (database.ts), and
// says each step as it goes. While another process holds the store's lock (upgrading it too), it
// says so and tries again: SQLite's busy timeout is the wait, so nothing here reads the time.
import { parentPort } from 'node:worker_threads';
import { isBusy } from '../errors';
import { openDatabase, type UpgradeProgress } from './database';
import type { UpgradeReply, UpgradeRequest } from './upgrade';

const port = parentPort!;
const post = (m: UpgradeReply) => port.postMessage(m);

port.once('message', (request: UpgradeRequest) => {
  let last: UpgradeProgress = { kind: 'waiting', from: request.from, to: request.to, step: 0, steps: 0, version: 0, name: '', share: null };
  for (;;) {
    try {
      const db = openDatabase(request.file, {
        busyTimeoutMs: request.busyTimeoutMs,
        onUpgrade: (p) => {
          last = p;
          post({ type: 'progress', progress: p });
        },
      });
      db.close();
      post({ type: 'done' });
      return;
    } catch (error) {
      if (isBusy(error)) {
        post({ type: 'progress', progress: { ...last, kind: 'waiting' } });
        continue;
      }
      post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
      return;
    }
  }
});
