// Kills the queue process (SIGKILL) in the middle of a batch, starts another that recovers and
// resumes, and checks that nothing was sent twice and every item is accounted for.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { openStore } from '../../../main/store';
import { tempHome } from '../../helpers/temp-home';
import { receivedPerItem } from './helpers';

const RUNNER = join(__dirname, 'fixtures', 'run-batch.ts');
const ROOT = join(__dirname, '..', '..', '..');

type Line = { event: string } & Record<string, unknown>;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function runner(env: NodeJS.ProcessEnv): {
  child: ChildProcess;
  lines: Line[];
  waitFor: (pred: (l: Line) => boolean, ms?: number) => Promise<Line>;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', RUNNER], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Line[] = [];
  const waiters: { pred: (l: Line) => boolean; resolve: (l: Line) => void }[] = [];
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      return;
    }
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.pred(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const waitFor = (pred: (l: Line) => boolean, ms = 30_000) =>
    new Promise<Line>((resolve, reject) => {
      const found = lines.find(pred);
      if (found) return resolve(found);
      // Real time: a hang guard (fails, never waits) for a child process's output.
      const t = setTimeout(() => reject(new Error(`runner: timed out; stderr: ${stderr.slice(-2000)}; last: ${JSON.stringify(lines.at(-1))}`)), ms);
      waiters.push({ pred, resolve: (l) => (clearTimeout(t), resolve(l)) });
      // Real time: once the child has exited, its last lines still get 50 ms to be read from the pipe.
      void exited.then(() => setTimeout(() => reject(new Error(`runner exited; stderr: ${stderr.slice(-2000)}; last: ${JSON.stringify(lines.at(-1))}`)), 50));
    });
  return { child, lines, waitFor, exited };
}

describe('crash safety of the bulk queue', () => {
  it('after a SIGKILL mid-batch, a restart sends nothing twice and accounts for every item; the interrupted ones are unknown', async () => {
    const COUNT = 300;
    const sandbox: Sandbox = await startSandbox({ timeScale: 0.01, accounts: [{ apiId: 'crash', apiKey: 'crash-key', balance: 100_000 }] });
    const home = tempHome();
    cleanups.push(home.cleanup, () => sandbox.close());
    // Slow replies, so that sends are in flight when the process dies.
    sandbox.setFault({ kind: 'delay', delayMs: 120, op: 'send' });
    const env = { CALLOUT_HOME: home.dir, SANDBOX_URL: sandbox.baseUrl, API_ID: 'crash', API_KEY: 'crash-key', TIME_SCALE: '0.01' };

    const first = runner({ ...env, PHASE: 'start', COUNT: String(COUNT) });
    const { batchId } = (await first.waitFor((l) => l.event === 'created')) as unknown as { batchId: number };
    await first.waitFor((l) => l.event === 'progress' && (l.accepted as number) >= 60 && (l.inFlight as number) > 0);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(first.lines.some((l) => l.event === 'finished-before-kill')).toBe(false);

    // What the dead process left: some items in flight, the batch still marked running.
    const before = openStore(home.dir);
    const left = before.db.prepare('SELECT status, count(*) AS n FROM batch_items WHERE batch_id = ? GROUP BY status').all(batchId) as {
      status: string;
      n: number;
    }[];
    const inFlightAtKill = (before.db.prepare("SELECT id FROM batch_items WHERE batch_id = ? AND status = 'in_flight'").all(batchId) as { id: number }[]).map(
      (r) => r.id,
    );
    expect(before.batches.get(batchId)?.status).toBe('running');
    before.close();
    expect(inFlightAtKill.length).toBeGreaterThan(0);
    expect(left.find((r) => r.status === 'queued')?.n ?? 0).toBeGreaterThan(0);
    // Let the requests the dead process had sent reach the provider (or not): they must not be repeated.
    // Real time: requests of a killed child process are still on their way over sockets.
    await new Promise((r) => setTimeout(r, 300));

    const second = runner({ ...env, PHASE: 'resume', BATCH_ID: String(batchId) });
    const recovered = (await second.waitFor((l) => l.event === 'recovered')) as unknown as {
      batches: { id: number; status: string; pausedReason: string }[];
      items: { id: number; status: string; errorKind: string }[];
      unknown: number[];
    };
    expect(recovered.batches).toEqual([expect.objectContaining({ id: batchId, status: 'paused', pausedReason: 'interrupted' })]);
    expect(recovered.items.map((i) => i.id).sort((a, b) => a - b)).toEqual([...inFlightAtKill].sort((a, b) => a - b));
    // Interrupted: unknown, unless the provider's answer was written before the kill (then accepted: a call to follow).
    expect(recovered.items.filter((i) => !((i.status === 'unknown' && i.errorKind === 'interrupted') || i.status === 'accepted'))).toEqual([]);
    expect(recovered.unknown).toEqual(expect.arrayContaining(recovered.items.filter((i) => i.status === 'unknown').map((i) => i.id)));
    const done = await second.waitFor((l) => l.event === 'done', 60_000);
    expect(await second.exited).toBe(0);
    expect(done.progress).toMatchObject({ status: 'done', remaining: 0, total: COUNT });

    // The provider received each item's number and text at most once.
    const received = receivedPerItem(sandbox);
    expect(Math.max(...received.values())).toBe(1);

    // Every item is accounted for, none lost, none still in flight; the interrupted ones stayed unknown.
    const store = openStore(home.dir);
    cleanups.push(() => store.close());
    const items = store.batches.items(batchId, { limit: 1000 });
    expect(items).toHaveLength(COUNT);
    expect(items.filter((i) => !['accepted', 'rejected', 'unknown', 'skipped'].includes(i.status))).toEqual([]);
    const acceptedAtRecovery = new Set(recovered.items.filter((i) => i.status === 'accepted').map((i) => i.id));
    for (const id of inFlightAtKill) {
      if (acceptedAtRecovery.has(id)) expect(items.find((i) => i.id === id)).toMatchObject({ status: 'accepted' });
      else expect(items.find((i) => i.id === id)).toMatchObject({ status: 'unknown', errorKind: 'interrupted' });
    }
    // Items that are not unknown reached the provider exactly once; unknown ones at most once.
    for (const i of items) {
      const n = received.get(`${i.mobile}\n${i.content}`) ?? 0;
      if (i.status === 'unknown') expect(n).toBeLessThanOrEqual(1);
      else expect(n).toBe(1);
    }
    // Every item either went before the kill (accepted) or was in flight at it, never both counted: an
    // item in flight whose accepted reply was written before the kill is accepted at recovery.
    expect(items.filter((i) => i.status === 'accepted' && !inFlightAtKill.includes(i.id)).length + inFlightAtKill.length).toBe(COUNT);
    // The messages the interrupted sends had written are unknown too, never pending.
    expect(store.history.page({ outcomes: ['pending'] }, { limit: 1000 }).rows).toEqual([]);
  }, 120_000);
});
