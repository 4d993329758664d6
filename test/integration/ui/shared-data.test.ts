// The desktop app and `callout ui` at the same time on one data directory: each is its own process
// with its own services. A call is followed by the process that placed it; another one starting on
// the same data leaves it alone while that process runs (it could not even reach the profile it was
// placed with), and takes over the calls whose process is gone.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionSecretStore } from '../../../main/secrets';
import { processOwner } from '../../../main/store';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { createServices, type Services } from '../../../main/services';
import { ScaledClock } from '../../helpers/scaled-clock';
import { withStore } from '../../helpers/stored';
import { tempHome } from '../../helpers/temp-home';

const ROOT = resolve(__dirname, '../../..');
const RUNNER = join(__dirname, 'fixtures', 'follow-call.ts');
const SCALE = 0.05;
const home = tempHome('callout-shared-');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: SCALE });
});
afterAll(async () => {
  await sandbox.close();
  home.cleanup();
});

/** Starts another Callout process that places a call to `mobile`; resolves once the call is accepted. */
async function otherProcess(mobile: string): Promise<{ child: ChildProcess; id: number; lines: AsyncIterableIterator<string> }> {
  const env = {
    CALLOUT_HOME: home.dir,
    SANDBOX_URL: sandbox.baseUrl,
    API_ID: sandbox.demo.apiId,
    API_KEY: sandbox.demo.apiKey,
    MOBILE: mobile,
    TIME_SCALE: String(SCALE),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', RUNNER], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) throw new Error('the other process stopped before sending');
  const { sent } = JSON.parse(first.value) as { sent: number };
  return { child, id: sent, lines };
}

/** Callout in this process, its time as fast as the sandbox's calls. */
const open = (o: Parameters<typeof createServices>[0] = {}) =>
  createServices({
    home: home.dir,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 't' } },
    sandbox: false,
    clock: new ScaledClock(SCALE),
    ...o,
  });

describe('two processes on one data directory', () => {
  it('a process starting beside another leaves the other’s call alone; that one follows it to its end', async () => {
    const a = await otherProcess('13800138005'); // no answer, then answered on the redial
    let b: Services | undefined;
    try {
      // `callout ui` (or the desktop app) starts now, following the calls still going on.
      b = await open();
      expect(b.sent.detail(a.id).message).toMatchObject({ outcome: 'accepted', endedAt: null });
      expect(b.calls.following()).not.toContain(a.id);
      const ended = await a.lines.next();
      expect(JSON.parse(ended.value as string)).toEqual({ ended: 'answered' });
      const m = b.sent.detail(a.id).message;
      expect(m).toMatchObject({ state: 'answered', reason: null });
      expect(b.sent.detail(a.id).events.every((e) => e.reason === null)).toBe(true);
    } finally {
      a.child.kill();
      await b?.close();
    }
  }, 60_000);

  it('a call whose process is gone is taken over by the next one to start', async () => {
    const a = await otherProcess('13800138000'); // no answer, twice redialled: a long call
    const gone = new Promise((r) => a.child.once('exit', r));
    a.child.kill('SIGKILL');
    await gone;
    const c = await open();
    try {
      expect(c.calls.following()).toContain(a.id);
      // It follows it now: another process starting after it would leave it alone.
      expect(withStore(c.home, (s) => s.db.prepare('SELECT owner FROM messages WHERE id = ?').get(a.id))).toEqual({ owner: processOwner() });
    } finally {
      await c.close();
    }
  }, 60_000);
});
