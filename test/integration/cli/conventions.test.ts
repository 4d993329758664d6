// The CLI's conventions, as other tools expect them: `--version`, an exit status of its own for an
// internal error, `-` for standard input, progress only on a terminal's stderr, and run reports.
import { afterEach, describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox } from '../../../main/sandbox';
import { openStore } from '../../../main/store';
import { tempHome } from '../../helpers/temp-home';
import { TEMPLATE } from '../bulk/helpers';
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

/** A collection file (Postman v2.1 with Callout's fields): one request whose assertion passes, one whose assertion fails. */
const COLLECTION = JSON.stringify({
  info: { name: 'Piped <smoke> & "checks"', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
  item: [
    {
      name: 'Balance answers',
      request: { method: 'POST', url: '{{baseUrl}}/voice/balance' },
      callout: { request: { method: 'POST', path: '/voice/balance' }, assertions: [{ kind: 'code', equals: 2 }] },
    },
    {
      // A name with what XML must escape, and a control character XML 1.0 cannot carry at all.
      name: 'Balance <is> "3" & more\u0007',
      request: { method: 'POST', url: '{{baseUrl}}/voice/balance' },
      callout: { request: { method: 'POST', path: '/voice/balance' }, assertions: [{ kind: 'json-equals', path: 'code', equals: '3' }] },
    },
  ],
});

async function sandboxEnv(dir: string): Promise<{ env: NodeJS.ProcessEnv; requests: () => number }> {
  const KEY = 'conventions-key-7Qx';
  const sandbox = await startSandbox({ timeScale: 0.002, accounts: [{ apiId: 'conv-acct', apiKey: KEY, balance: 100 }] });
  cleanups.push(() => sandbox.close());
  return {
    env: { CALLOUT_HOME: dir, CALLOUT_BASE_URL: sandbox.baseUrl, CALLOUT_API_ID: 'conv-acct', CALLOUT_API_KEY: KEY },
    requests: () => sandbox.requests().length,
  };
}

describe('`-` reads standard input', () => {
  const CSV = ['手机,姓名,订单号', '13800138008,张三,SO-1', '13900139009,李四,SO-2', 'not-a-number,王五,SO-3'].join('\n');

  it.each([
    ['en_US.UTF-8', 'Rows: 3 · valid 2 · invalid 1'],
    ['zh_CN.UTF-8', '行数：3 · 有效 2 · 无效 1'],
  ])('callout bulk - reads the list piped into it (%s)', async (LANG, said) => {
    const dir = home();
    const env = { CALLOUT_HOME: dir, LANG };
    expect((await cli(['template', 'add', '--id', 'ship', '--approved', '--content', TEMPLATE], env)).code).toBe(0);
    const human = await callout(['bulk', '-', '--template', 'ship', '--dry-run'], env, { stdin: CSV });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(said);
    const json = await callout(['--json', 'bulk', '-', '--template', 'ship', '--dry-run'], env, { stdin: CSV });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ totals: { rows: 3, valid: 2, invalid: 1 } });
  });

  it.each([
    [
      'en_US.UTF-8',
      /^callout: Standard input holds more than 33,554,432 bytes; Callout imports files of at most 33,554,432 bytes \(32 MB\)\. Split it into several files\.\n$/,
    ],
    ['zh_CN.UTF-8', /^callout: 标准输入超过 33,554,432 字节；Callout 最多导入 33,554,432 字节（32 MB）的文件。请拆分为多个文件。\n$/],
  ])('a list over the import limit on standard input is refused, exit 2 (%s)', async (LANG, said) => {
    const dir = home();
    const env = { CALLOUT_HOME: dir, LANG };
    expect((await cli(['template', 'add', '--id', 'ship', '--approved', '--content', TEMPLATE], env)).code).toBe(0);
    const big = Buffer.alloc(32 * 1024 * 1024 + 10, 'a');
    const r = await callout(['bulk', '-', '--template', 'ship', '--dry-run'], env, { stdin: big });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(said);
  });

  it.each([
    ['en_US.UTF-8', 'callout: Requests that failed an assertion: 1.\n'],
    ['zh_CN.UTF-8', 'callout: 1 个请求的断言未通过。\n'],
  ])('callout run - runs the collection file piped into it (%s)', async (LANG, said) => {
    const dir = home();
    const env = { ...(await sandboxEnv(dir)).env, LANG };
    const r = await callout(['run', '-'], env, { stdin: COLLECTION });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^✓ Balance answers/m);
    expect(r.stdout).toContain('✗ Balance <is> "3" & more');
    expect(r.stderr).toBe(said);
  });
});

describe('progress lines only when standard error is a terminal', () => {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

  /**
   * The entry point on a pseudo-terminal (util-linux `script`), with one of its streams sent to a
   * file instead: what the terminal showed, and what the file got.
   */
  async function onTerminal(args: string[], env: NodeJS.ProcessEnv, toFile: 'stdout' | 'stderr', file: string) {
    const command = [process.execPath, '--import', 'tsx', ENTRY, ...args].map(quote).join(' ') + (toFile === 'stdout' ? ' >' : ' 2>') + quote(file);
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    cleanups.push(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let terminal = '';
    child.stdout.on('data', (d) => (terminal += String(d)));
    child.stderr.on('data', (d) => (terminal += String(d)));
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, terminal, file: readFileSync(file, 'utf8') };
  }

  // eslint-disable-next-line no-control-regex -- the line's own escape (CLEAR_LINE) is what the test looks for
  const PROGRESS = /\u001b\[2K\d\/2 Balance/;

  it('stderr on a terminal, stdout to a file: the progress line is shown on the terminal, the results go to the file', async () => {
    const dir = home();
    const env = { ...(await sandboxEnv(dir)).env, LANG: 'en_US.UTF-8' };
    const collection = join(dir, 'smoke.postman_collection.json');
    writeFileSync(collection, COLLECTION);
    const r = await onTerminal(['run', collection], env, 'stdout', join(dir, 'out.txt'));
    expect(r.code, r.terminal).toBe(1);
    expect(r.terminal).toMatch(PROGRESS);
    expect(r.terminal).toContain('callout: Requests that failed an assertion: 1.');
    expect(r.file).toMatch(/^✓ Balance answers/m);
    expect(r.file).not.toContain('\u001b');
  });

  it('stdout on a terminal, stderr to a file: no progress line anywhere, the file gets only the failure', async () => {
    const dir = home();
    const env = { ...(await sandboxEnv(dir)).env, LANG: 'en_US.UTF-8' };
    const collection = join(dir, 'smoke.postman_collection.json');
    writeFileSync(collection, COLLECTION);
    const r = await onTerminal(['run', collection], env, 'stderr', join(dir, 'err.txt'));
    expect(r.code, r.terminal).toBe(1);
    expect(r.file).toBe('callout: Requests that failed an assertion: 1.\n');
    expect(r.terminal).not.toMatch(PROGRESS);
    expect(r.terminal).toMatch(/✓ Balance answers/);
  });
});

describe('callout run --reporter junit|json FILE', () => {
  interface Case {
    name: string;
    classname: string;
    time: string;
    failure?: { message: string; type: string; '#text': string };
    error?: unknown;
  }

  it.each([
    ['en_US.UTF-8', 'expected code = 3, got 2'],
    ['zh_CN.UTF-8', '期望 code = 3，实际为 2'],
  ])('writes a JUnit XML and a JSON report of a run with a passing and a failing request, besides the normal output (%s)', async (LANG, said) => {
    const dir = home();
    const env = { ...(await sandboxEnv(dir)).env, LANG };
    const collection = join(dir, 'smoke.postman_collection.json');
    writeFileSync(collection, COLLECTION);
    const xmlFile = join(dir, 'report.xml');
    const jsonFile = join(dir, 'report.json');
    const r = await cli(['run', collection, '--reporter', 'junit', xmlFile, '--reporter', 'json', jsonFile], env);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^✓ Balance answers/m);

    const xml = readFileSync(xmlFile, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseAttributeValue: false, isArray: (n) => n === 'testcase' }).parse(xml);
    expect(doc.testsuites).toMatchObject({ tests: '2', failures: '1', errors: '0' });
    const suite = doc.testsuites.testsuite;
    expect(suite).toMatchObject({ name: 'Piped <smoke> & "checks"', tests: '2', failures: '1', errors: '0', skipped: '0' });
    const cases = suite.testcase as Case[];
    expect(cases.map((c) => c.name)).toEqual(['Balance answers', 'Balance <is> "3" & more\\u0007']);
    expect(cases[0]!.failure).toBeUndefined();
    expect(cases[1]!.failure).toMatchObject({ message: said, type: 'assertion', '#text': said });
    for (const c of cases) {
      expect(c.classname).toBe('Piped <smoke> & "checks"');
      expect(Number(c.time)).toBeGreaterThanOrEqual(0);
    }

    const report = JSON.parse(readFileSync(jsonFile, 'utf8'));
    expect(report).toMatchObject({
      collectionName: 'Piped <smoke> & "checks"',
      passed: 1,
      failed: 1,
      results: [
        { name: 'Balance answers', outcome: 'passed', providerCode: 2 },
        { name: 'Balance <is> "3" & more\u0007', outcome: 'failed', assertions: [{ passed: false, actual: '2', expected: '3' }] },
      ],
    });
    // The same value --json prints.
    const json = await cli(['--json', 'run', collection], env);
    expect(Object.keys(json.json as object).sort()).toEqual(Object.keys(report).sort());
  });

  it.each([
    ['en_US.UTF-8', ['--reporter', 'xml', 'r.xml'], /^callout: --reporter must be one of junit, json; got "xml"\.\n$/],
    ['zh_CN.UTF-8', ['--reporter', 'xml', 'r.xml'], /^callout: --reporter 只能是 junit, json 之一，收到的是“xml”。\n$/],
    ['en_US.UTF-8', ['--reporter', 'junit'], /^callout: --reporter takes a format and a file .* Got: junit\.\n$/],
    ['zh_CN.UTF-8', ['--reporter', 'junit'], /^callout: --reporter 需要一个格式和一个文件.*收到的是：junit。\n$/],
    ['en_US.UTF-8', ['--reporter', 'json', '-'], /^callout: --reporter writes its report to a file, not to standard output/],
    ['zh_CN.UTF-8', ['--reporter', 'json', '-'], /^callout: --reporter 把报告写入文件，而不是标准输出/],
  ])('a bad --reporter is refused before anything is sent, exit 2 (%s %j)', async (LANG, reporter, said) => {
    const dir = home();
    const sandbox = await sandboxEnv(dir);
    const collection = join(dir, 'smoke.postman_collection.json');
    writeFileSync(collection, COLLECTION);
    const r = await cli(['run', collection, ...reporter], { ...sandbox.env, LANG });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(said);
    expect(r.stdout).toBe('');
    expect(sandbox.requests()).toBe(0);
  });

  it.each([
    [
      'en_US.UTF-8',
      /^callout: --reporter takes a format and a file .*after the collection: callout run COLLECTION --reporter junit report\.xml\. Got: junit r\.xml \S+\.\n$/,
    ],
    ['zh_CN.UTF-8', /^callout: --reporter 需要一个格式和一个文件.*写在集合之后/],
  ])('--reporter written before the collection says where it goes (%s)', async (LANG, said) => {
    const dir = home();
    const r = await cli(['run', '--reporter', 'junit', 'r.xml', join(dir, 'smoke.json')], { ...(await sandboxEnv(dir)).env, LANG });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(said);
  });

  it.each([
    ['en_US.UTF-8', /^callout: Cannot write the report .*missing.*report\.xml \(ENOENT\); nothing was sent\.\n$/],
    ['zh_CN.UTF-8', /^callout: 无法写入报告 .*report\.xml（ENOENT）；未发送任何内容。\n$/],
  ])('a report that cannot be written is refused before the run (%s)', async (LANG, said) => {
    const dir = home();
    const sandbox = await sandboxEnv(dir);
    const collection = join(dir, 'smoke.postman_collection.json');
    writeFileSync(collection, COLLECTION);
    const r = await cli(['run', collection, '--reporter', 'junit', join(dir, 'missing', 'report.xml')], { ...sandbox.env, LANG });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(said);
    expect(sandbox.requests()).toBe(0);
  });
});
