// `callout bulk` killed with SIGKILL while its calls ring, then `callout bulk --resume`: the resume
// follows the calls the dead process left (so their lines free as they end), finishes the batch,
// accounts for every item and calls no number twice. Both are real child processes, as a user runs them.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { openStore } from '../../../main/store';
import { DATABASE_FILE } from '../../../main/store/paths';
import { tempHome } from '../../helpers/temp-home';
import { receivedPerItem, TEMPLATE } from '../bulk/helpers';
import { cli } from './run-cli';

const ROOT = join(__dirname, '../../..');
const CLI = join(ROOT, 'main/cli/index.ts');
const KEY = 'bulk-crash-key-4Tz';
const COUNT = 60;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function callout(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += String(d)));
  child.stderr!.on('data', (d) => (stderr += String(d)));
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

async function until(what: string, pred: () => boolean, ms: number): Promise<void> {
  for (let waited = 0; !pred(); waited += 50) {
    if (waited > ms) throw new Error(`timed out waiting for ${what}`);
    // Real time: polls what a child process (the CLI) and the sandbox over HTTP did; bounded by `ms`.
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('callout bulk --resume after kill -9', () => {
  it('follows the calls the dead process left, frees their lines, finishes: every item accounted for, no number called twice', async () => {
    // Calls that ring and talk for a few seconds, so that the dead process leaves all its lines taken.
    const sandbox: Sandbox = await startSandbox({ timeScale: 0.1, accounts: [{ apiId: 'crash-cli', apiKey: KEY, balance: 100_000 }] });
    const home = tempHome();
    cleanups.push(home.cleanup, () => sandbox.close());
    // Real time: the CLI runs in a child process, on the system clock (no clock can be handed to it); it
    // follows its calls as it would a real provider's, its first look about 2 s after the send.
    const env = { CALLOUT_HOME: home.dir, CALLOUT_BASE_URL: sandbox.baseUrl, CALLOUT_API_ID: 'crash-cli', CALLOUT_API_KEY: KEY, LANG: 'en_US.UTF-8' };
    expect((await cli(['template', 'add', '--id', 'ship', '--approved', '--content', TEMPLATE, '--marker', '姓名', '--marker', '订单号'], env)).code).toBe(0);
    const file = join(home.dir, 'list.csv');
    writeFileSync(file, ['手机,姓名,订单号', ...Array.from({ length: COUNT }, (_, i) => `1390000${String(i).padStart(3, '0')}8,客户${i},SO-${i}`)].join('\n'));

    const first = callout(['--json', 'bulk', file, '--template', 'ship', '--name', 'crash'], env);
    // Every line taken (20 calls ringing on one line), and more rows still to send.
    // …and at least one of those calls recorded as accepted (on a busy machine the requests reach the provider before the answers are written).
    const acceptedOpen = (): number => {
      if (!existsSync(join(home.dir, DATABASE_FILE))) return 0;
      const db = new Database(join(home.dir, DATABASE_FILE), { readonly: true, fileMustExist: true });
      try {
        return (db.prepare("SELECT count(*) AS n FROM messages WHERE outcome = 'accepted' AND ended_at IS NULL").get() as { n: number }).n;
      } catch {
        return 0; // not migrated yet
      } finally {
        db.close();
      }
    };
    await until('the first run to take every line', () => receivedPerItem(sandbox).size >= 20 && acceptedOpen() > 0, 30_000);
    first.child.kill('SIGKILL');
    await first.done;
    const sentBeforeKill = receivedPerItem(sandbox).size;
    expect(sentBeforeKill).toBeLessThan(COUNT);

    const store = openStore(home.dir);
    const batchId = (store.db.prepare("SELECT id FROM batches WHERE name = 'crash'").get() as { id: number }).id;
    const leftOpen = (store.db.prepare("SELECT count(*) AS n FROM messages WHERE outcome = 'accepted' AND ended_at IS NULL").get() as { n: number }).n;
    store.close();
    expect(leftOpen).toBeGreaterThan(0);

    const resumed = callout(['--json', 'bulk', '--resume', String(batchId)], env);
    // Without following the left calls, their lines stay taken for 10 min (and their calls stay open after).
    // Real time: a hang guard for a child process (on its own system clock), not a wait.
    const timer = setTimeout(() => resumed.child.kill('SIGKILL'), 45_000);
    const r = await resumed.done;
    clearTimeout(timer);
    expect(r.stdout, r.stderr).not.toBe('');
    const value = JSON.parse(r.stdout) as { status: string; total: number; calling: number; remaining: number; accepted: number; unknown: number };
    expect(value).toMatchObject({ status: 'done', total: COUNT, remaining: 0, calling: 0 });

    // No number was called twice; every row reached the provider once, or is unknown (cut off by the kill).
    const received = receivedPerItem(sandbox);
    expect(Math.max(...received.values())).toBe(1);
    const after = openStore(home.dir);
    cleanups.push(() => after.close());
    const items = after.batches.items(batchId, { limit: 1000 });
    expect(items).toHaveLength(COUNT);
    expect(items.filter((i) => i.status !== 'accepted' && i.status !== 'unknown')).toEqual([]);
    for (const i of items) {
      const n = received.get(`${i.mobile}\n${i.content}`) ?? 0;
      if (i.status === 'accepted') expect(n).toBe(1);
      else expect(n).toBeLessThanOrEqual(1);
    }
    // The calls the dead process left were followed to their end: none is still open in history.
    const stillOpen = after.db
      .prepare(
        "SELECT m.id, m.state, m.smsid, m.created_at, (SELECT status FROM batch_items WHERE message_id = m.id) AS item FROM messages m WHERE outcome = 'accepted' AND ended_at IS NULL",
      )
      .all();
    expect(stillOpen, JSON.stringify(value)).toEqual([]);
  }, 120_000);
});
