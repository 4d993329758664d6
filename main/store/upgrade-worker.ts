// The upgrade worker (upgrade.ts): opens the store once, which runs its migrations (database.ts), and
// says each step as it goes. While another process holds the store's lock (upgrading it too), it
// says so and tries again: SQLite's busy timeout is the wait, so nothing here reads the time.
import { parentPort } from 'node:worker_threads';
import { openDatabase, type UpgradeProgress } from './database';
import type { UpgradeReply, UpgradeRequest } from './upgrade';

const port = parentPort!;
const post = (m: UpgradeReply) => port.postMessage(m);

port.once('message', (request: UpgradeRequest) => {
  let last: UpgradeProgress = { kind: 'waiting', from: request.from, to: request.to, step: 0, steps: 0, version: 0, name: '', share: null };
  // Counted from the first attempt's steps: after a wait, the next attempt counts only those left.
  let steps: number | null = null;
  const relay = (p: UpgradeProgress) => {
    steps ??= p.steps;
    last = { ...p, from: request.from, step: p.step + (steps - p.steps), steps };
    post({ type: 'progress', progress: last });
  };
  for (;;) {
    try {
      const db = openDatabase(request.file, { busyTimeoutMs: request.busyTimeoutMs, onUpgrade: relay });
      db.close();
      post({ type: 'done' });
      return;
    } catch (error) {
      // Another process's lock (SQLITE_BUSY, after SQLite's own wait): waited for. Anything else,
      // SQLITE_LOCKED included (this connection's own doing, it would recur), is openStore's to say.
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) {
        post({ type: 'progress', progress: { ...last, kind: 'waiting' } });
        continue;
      }
      post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
      return;
    }
  }
});
