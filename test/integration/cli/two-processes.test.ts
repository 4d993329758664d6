// Two `callout send` started together on one data directory, with the same number and text: the
// CLI as a user runs it (main/cli/index.ts under tsx, no build needed), two real processes. The
// provider holds the first request until the other process has given up, so the second one always
// arrives while the first is in flight: exactly one call reaches the provider, the other is refused
// with the `send-in-flight` text in its own language, and nothing of it is in the history.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { MESSAGES } from '../../../common/messages';
import { scriptedServer } from '../../helpers/scripted-server';
import { tempHome } from '../../helpers/temp-home';
import { cli } from './run-cli';

const ROOT = join(__dirname, '..', '..', '..');
const ENTRY = join(ROOT, 'main', 'cli', 'index.ts');
const KEY = 'two-processes-key-1';
const TEXT = '您的验证码是8642，5分钟内有效。';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function callout(args: string[], env: NodeJS.ProcessEnv): { exited: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => child.exitCode === null && child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  return { exited: new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr }))) };
}

describe('two processes, one send', () => {
  it('two `callout send` of the same text to the same number started together: one call, the other refused as in flight', async () => {
    const held: ServerResponse[] = [];
    let sends = 0;
    let onSend = () => undefined as void;
    const answer = (res: ServerResponse, n: number) => res.end(JSON.stringify({ code: 2, msg: '提交成功', smsid: `SMS-${n}`, count: 1 }));
    let holding = true;
    const server = await scriptedServer((req, _body, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.endsWith('/voice/vm')) {
        sends++;
        if (holding) held.push(res);
        else answer(res, sends);
        onSend();
      } else if (req.url?.endsWith('/voice/status')) res.end(JSON.stringify({ code: 2, msg: 'ok', state: 'calling' }));
      else res.end(JSON.stringify({ code: 2, msg: 'ok', num: 5 }));
    });
    cleanups.push(server.close);
    const home = tempHome();
    cleanups.push(home.cleanup);
    const env = { CALLOUT_HOME: home.dir, CALLOUT_BASE_URL: server.baseUrl, CALLOUT_API_ID: 'acct', CALLOUT_API_KEY: KEY };

    const runs = [
      { lang: 'en' as const, run: callout(['send', '--to', '13900000031', '--content', TEXT], { ...env, LANG: 'en_US.UTF-8' }) },
      { lang: 'zh-CN' as const, run: callout(['send', '--to', '139 0000 0031', '--content', TEXT], { ...env, LANG: 'zh_CN.UTF-8' }) },
    ];
    // Until one of them has finished (refused), or both requests reached the provider (the guard failed).
    const twoSends = new Promise<void>((resolve) => (onSend = () => (sends >= 2 ? resolve() : undefined)));
    await Promise.race([...runs.map((r) => r.run.exited), twoSends]);
    holding = false;
    held.splice(0).forEach((res, i) => answer(res, i + 1));
    const results = await Promise.all(runs.map(async (r) => ({ lang: r.lang, ...(await r.run.exited) })));

    expect(server.received.filter((r) => r.url?.endsWith('/voice/vm'))).toHaveLength(1);
    const placed = results.filter((r) => r.code === 0);
    const refused = results.filter((r) => r.code !== 0);
    expect(placed).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(placed[0]!.stdout).toContain('SMS-1');
    expect(refused[0]!.code, refused[0]!.stderr).toBe(2);
    expect(refused[0]!.stderr).toBe(`callout: ${MESSAGES[refused[0]!.lang].error['send-in-flight']}\n`);

    // One message for that number in the history, the call that was placed.
    const history = await cli(['--json', 'history'], { ...env, LANG: 'en_US.UTF-8' });
    expect((history.json as { mobile: string; outcome: string; smsid: string }[]).map((m) => [m.mobile, m.outcome, m.smsid])).toEqual([
      ['13900000031', 'accepted', 'SMS-1'],
    ]);
    for (const r of results) expect(r.stdout + r.stderr).not.toContain(KEY);
  }, 120_000);
});
