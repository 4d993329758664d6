// `callout send --wait` and `callout dial` as a user runs them: each in its own Node process, which
// must stay up until the call ended, print its one value and exit with the README's status. (In
// process, the test runner keeps the event loop alive and hides a CLI that exits too early.)
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { tempHome } from '../../helpers/temp-home';

const ROOT = join(__dirname, '../../..');
const CLI = join(ROOT, 'main/cli/index.ts');
const KEY = 'cli-wait-key-9Zp';
const text = (code: string) => `您的验证码是${code}，5分钟内有效。`;
let sandbox: Sandbox;
let home: { dir: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;

/** The CLI in a child process (asynchronously: the sandbox answers from this process). */
function callout(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    // Real time: a hang guard for a child process (on its own system clock), not a wait.
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: 0.005, accounts: [{ apiId: 'cli-acct', apiKey: KEY, balance: 1000 }] });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  home = tempHome();
  // Real time: the CLI runs in a child process, on the system clock (no clock can be handed to it); it
  // follows its calls as it would a real provider's, its first look about 2 s after the send.
  env = { CALLOUT_HOME: home.dir, CALLOUT_BASE_URL: sandbox.baseUrl, CALLOUT_API_ID: 'cli-acct', CALLOUT_API_KEY: KEY, LANG: 'en_US.UTF-8' };
});
afterEach(() => home.cleanup());

// Real time: each child starts tsx and follows its call on the system clock; on a loaded machine two
// of them in a row pass 20 s, so each test may take up to two children's hang guards.
const CHILDREN_MS = 90_000;

describe('callout send --wait in its own process', { timeout: CHILDREN_MS }, () => {
  it('--json, answered: waits for the end, prints one JSON value with the final state, exit 0', async () => {
    const r = await callout(['--json', 'send', '--wait', '--to', '13800138008', '--content', text('11')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'accepted', state: 'answered' });
    expect(JSON.parse(r.stdout).endedAt).toMatch(/Z$/);
  });

  it('--json, nobody answered: one JSON value with how it ended, exit 1', async () => {
    const r = await callout(['--json', 'send', '--wait', '--to', '13800138000', '--content', text('12')]);
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'accepted', state: 'no_answer' });
  });

  it('in words: each state, then how it ended; exit 0 answered, 1 not', async () => {
    const answered = await callout(['send', '--wait', '--to', '13800138008', '--content', text('13')]);
    expect(answered.code).toBe(0);
    expect(answered.stdout.trim().split('\n').at(-1)).toMatch(/^Answered; the call lasted \d+ s \(message #\d+\)\.$/);
    const missed = await callout(['send', '--wait', '--to', '13800138000', '--content', text('14')]);
    expect(missed.code).toBe(1);
    expect(missed.stdout.trim().split('\n').at(-1)).toMatch(/^Ended: No answer \(message #\d+\)\.$/);
  });
});

describe('callout dial in its own process', { timeout: CHILDREN_MS }, () => {
  it('waits for the answer (exit 0) or for nobody answering (exit 1), one JSON value each', async () => {
    const answered = await callout(['--json', 'dial', '--override', '13800138008', '--content', text('15')]);
    expect(answered.code).toBe(0);
    expect(JSON.parse(answered.stdout)).toMatchObject({ status: 'answered' });
    const missed = await callout(['--json', 'dial', '--override', '13800138000', '--content', text('16')]);
    expect(missed.code).toBe(1);
    expect(JSON.parse(missed.stdout)).toMatchObject({ status: 'not-answered' });
  });
});
