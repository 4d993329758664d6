// The built `callout` binary as a user runs it: `callout sandbox` in one process, the other
// commands from others. Needs `npm run build` (npm test builds first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { tempHome } from '../../helpers/temp-home';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'bin/callout.cjs');
let sandboxProcess: ChildProcess;
let demo: { baseUrl: string; apiId: string; apiKey: string; templates: { content: string; approved: boolean }[] };
const home = tempHome();

function callout(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, CALLOUT_HOME: home.dir, ...env }, encoding: 'utf8', timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'out/main/cli.js'))) throw new Error('The CLI is not built: run `npm run build` first (npm test does).');
  sandboxProcess = spawn(process.execPath, [BIN, 'sandbox', '--json', '--time-scale', '0.005'], {
    env: { PATH: process.env.PATH, CALLOUT_HOME: home.dir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const firstLine = await new Promise<string>((resolveLine, reject) => {
    const rl = createInterface({ input: sandboxProcess.stdout! });
    rl.once('line', resolveLine);
    sandboxProcess.once('exit', (code) => reject(new Error(`callout sandbox exited with ${code}`)));
  });
  demo = JSON.parse(firstLine);
});

afterAll(async () => {
  if (sandboxProcess && sandboxProcess.exitCode === null) {
    const exited = new Promise((r) => sandboxProcess.once('exit', r));
    sandboxProcess.kill('SIGINT');
    await exited;
  }
  home.cleanup();
});

describe('the callout binary', () => {
  it('prints its base URL and demo credentials, on 127.0.0.1', () => {
    expect(demo.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(demo.apiId).toBeTruthy();
    expect(demo.templates.some((t) => t.approved)).toBe(true);
  });

  it('send → status → history across separate processes', async () => {
    const env = { CALLOUT_BASE_URL: demo.baseUrl, CALLOUT_API_ID: demo.apiId, CALLOUT_API_KEY: demo.apiKey };
    const template = demo.templates.find((t) => t.approved)!.content;
    const content = template.replace(/【变量】/g, '李雷');
    const sent = callout(['send', '--json', '--to', '13800138008', '--content', content], env);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    const { smsid, messageId } = JSON.parse(sent.stdout);
    let status = { state: 'pending', duration: 0 };
    for (let i = 0; i < 60 && status.state !== 'answered'; i++) {
      // Real time: a poll interval for I/O (sockets, a child process), not a wait for time to pass.
      await new Promise((r) => setTimeout(r, 100));
      const r = callout(['status', '--json', smsid], env);
      expect(r.code).toBe(0);
      status = JSON.parse(r.stdout);
    }
    expect(status.state).toBe('answered');
    expect(status.duration).toBeGreaterThan(0);
    const history = JSON.parse(callout(['history', '--json'], env).stdout);
    expect(history[0]).toMatchObject({ id: messageId, smsid, outcome: 'accepted', state: 'answered' });
    for (const r of [sent, callout(['history'], env)]) expect(r.stdout + r.stderr).not.toContain(demo.apiKey);
  });

  it('a usage error is one line on stderr and exit 2, never a stack trace', () => {
    const r = callout(['send', '--to', 'abc', '--content', 'x'], { CALLOUT_BASE_URL: demo.baseUrl, CALLOUT_API_ID: 'x', CALLOUT_API_KEY: 'y' });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^callout: /);
  });

  it('--help lists the commands', () => {
    const r = callout(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['send', 'status', 'balance', 'history', 'sign', 'verify', 'sandbox', 'template']) expect(r.stdout).toContain(c);
  });
});
