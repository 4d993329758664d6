// The CLI's conventions, as other tools expect them: `--version`, an exit status of its own for an
// internal error, `-` for standard input, progress only on a terminal's stderr, and run reports.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../../main/store';
import { tempHome } from '../../helpers/temp-home';
import { cli } from './run-cli';

const ROOT = join(__dirname, '../../..');
const ENTRY = join(ROOT, 'main/cli/index.ts');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function home(): string {
  const h = tempHome();
  cleanups.push(h.cleanup);
  return h.dir;
}

interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The `callout` entry point in a process of its own, as a user runs it: `stdin` is piped into it
 * (else it is closed), `preload` modules load first (`node --import`).
 */
function callout(args: string[], env: NodeJS.ProcessEnv, o: { stdin?: string | Buffer; preload?: string[] } = {}): Promise<Spawned> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...(o.preload ?? []).flatMap((p) => ['--import', p]), ENTRY, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  child.stdin.on('error', () => undefined);
  child.stdin.end(o.stdin ?? '');
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const INTERNAL = {
  en: /^callout: Callout stopped on an internal error .* The details are in (\S+)\n$/,
  zh: /^callout: Callout 因内部错误而停止.*详细信息见 (\S+)\n$/,
};

describe('callout --version', () => {
  it.each([['--version'], ['-V']])('%s prints the version of package.json and exits 0', async (flag) => {
    const home = tempHome();
    try {
      const r = await cli([flag], { CALLOUT_HOME: home.dir, LANG: 'en_US.UTF-8' });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${VERSION}\n`);
      expect(r.stderr).toBe('');
    } finally {
      home.cleanup();
    }
  });

  it.each([
    ['en_US.UTF-8', "print Callout's version and exit"],
    ['zh_CN.UTF-8', '输出 Callout 的版本号并退出'],
  ])('--help names it (%s)', async (LANG, said) => {
    const home = tempHome();
    try {
      const r = await cli(['--help'], { CALLOUT_HOME: home.dir, LANG });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/-V, --version/);
      expect(r.stdout).toContain(said);
    } finally {
      home.cleanup();
    }
  });
});

describe('an internal error exits 70, not 1 (which is a negative result)', () => {
  it.each([
    ['en_US.UTF-8', INTERNAL.en],
    ['zh_CN.UTF-8', INTERNAL.zh],
  ])('a command that fails inside Callout (%s): exit 70, one line naming the log', async (LANG, said) => {
    const dir = home();
    // A store whose messages lost a column the history reads: the history query fails inside Callout.
    const s = openStore(dir);
    s.db.exec('ALTER TABLE messages RENAME COLUMN content TO content_gone');
    s.close();
    const r = await callout(['history'], { CALLOUT_HOME: dir, LANG });
    expect(r.code).toBe(70);
    const log = said.exec(r.stderr)?.[1];
    expect(log, r.stderr).toBeTruthy();
    expect(readFileSync(log!, 'utf8')).toMatch(/no such column/);
  });

  it.each([
    ['en_US.UTF-8', INTERNAL.en],
    ['zh_CN.UTF-8', INTERNAL.zh],
  ])('an exception thrown from a timer, outside any command (%s): exit 70, one line, the details in the log', async (LANG, said) => {
    const dir = home();
    const r = await callout(['--json', 'sandbox'], { CALLOUT_HOME: dir, LANG }, { preload: [join(ROOT, 'test/fixtures/cli/throw-from-timer.mjs')] });
    expect(r.code).toBe(70);
    const log = said.exec(r.stderr)?.[1];
    expect(log, r.stderr).toBeTruthy();
    expect(existsSync(log!)).toBe(true);
    expect(readFileSync(log!, 'utf8')).toContain('injected failure from a timer');
  });

  it.each([
    ['en_US.UTF-8', /^Exit status:$/m, /^ {2}70 {2}internal error/m, /^ {2}1 {3}a negative result/m],
    ['zh_CN.UTF-8', /^退出码：$/m, /^ {2}70 {2}内部错误/m, /^ {2}1 {3}否定的结果/m],
  ])('--help lists every exit status (%s)', async (LANG, ...lines) => {
    const r = await cli(['--help'], { CALLOUT_HOME: home(), LANG });
    for (const line of lines) expect(r.stdout).toMatch(line);
    for (const code of [0, 1, 2, 3, 4, 70]) expect(r.stdout).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
  });
});
