import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../main/cli/program';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { tempHome } from '../../helpers/temp-home';
import { cliOn } from '../cli/run-cli';
import { FASTEST_SCALE, ScaledClock } from '../../helpers/scaled-clock';
import { receivedPerItem, TEMPLATE } from './helpers';

// The commands run on a clock twenty times faster, so that a followed call's looks come as fast as the sandbox's calls end.
const cli = cliOn(new ScaledClock(FASTEST_SCALE));

const KEY = 'bulk-cli-key';
let sandbox: Sandbox;
let home: { dir: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: 0.002, accounts: [{ apiId: 'bulk-cli', apiKey: KEY, balance: 100_000 }] });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  home = tempHome();
  sandbox.clearFaults();
  sandbox.setBalance('bulk-cli', 100_000);
  env = { CALLOUT_HOME: home.dir, CALLOUT_BASE_URL: sandbox.baseUrl, CALLOUT_API_ID: 'bulk-cli', CALLOUT_API_KEY: KEY };
  const t = await cli(['template', 'add', '--id', 'ship', '--approved', '--content', TEMPLATE, '--marker', '姓名', '--marker', '订单号'], env);
  expect(t.code).toBe(0);
});
afterEach(() => home.cleanup());

function csv(name: string, lines: string[]): string {
  const path = join(home.dir, name);
  writeFileSync(path, `\ufeff${lines.join('\r\n')}\r\n`);
  return path;
}

const unique = () => Math.random().toString(36).slice(2, 8);

describe('callout bulk', () => {
  it('--dry-run --json prints exactly the validation report, sends nothing and shows no progress', async () => {
    const tag = unique();
    const file = csv('list.csv', ['手机,姓名,订单号', `13800138008,张三,${tag}1`, `13800138008,张三,${tag}1`, `12345,李四,${tag}2`, `13900139009,,${tag}3`]);
    const before = sandbox.requests().length;
    const r = await cli(['--json', 'bulk', file, '--template', 'ship', '--dry-run'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.json).toMatchObject({
      templateId: 'ship',
      mapping: { mobile: '手机', markers: ['姓名', '订单号'] },
      totals: { rows: 4, valid: 2, invalid: 2, duplicates: 1, toSend: { none: 2, 'same-text': 1, 'same-mobile': 1 } },
      issueCounts: { duplicate: 1, 'bad-mobile': 1, 'missing-value': 1 },
      preview: [expect.objectContaining({ row: 2, content: `您好，张三，您的订单${tag}1已发货，请注意查收。` }), expect.objectContaining({ row: 3 })],
    });
    expect(sandbox.requests().length).toBe(before);
    const human = await cli(['bulk', file, '--template', 'ship', '--dry-run', '--skip-duplicates'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/To send \(duplicates skipped\): 1 rows/);
    expect(human.stdout).toMatch(/row 4: “12345”: Wrong number of digits/);
  });

  it('sends a file with --map and --skip-duplicates; --json prints exactly the batch result', async () => {
    const tag = unique();
    const file = csv('list.csv', ['who,phone,order', `张三,13800138008,${tag}1`, `张三,13800138008,${tag}1`, `李四,13900139000,${tag}2`, `王五,bad,${tag}3`]);
    const r = await cli(
      ['--json', 'bulk', file, '--template', 'ship', '--map', 'phone=mobile', '--map', 'who=姓名', '--map', 'order=2', '--skip-duplicates'],
      env,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      status: 'done',
      total: 4,
      sent: 2,
      accepted: 2,
      answered: 1,
      notAnswered: 1,
      skipped: 2,
      unknown: 0,
      rejected: 0,
      problems: [],
    });
    expect(receivedPerItem(sandbox).get(`13800138008\n您好，张三，您的订单${tag}1已发货，请注意查收。`)).toBe(1);
  });

  it('pauses on insufficient balance with exit code 3 and the result on stdout; --resume finishes it', async () => {
    sandbox.setBalance('bulk-cli', 2);
    const tag = unique();
    const file = csv('list.csv', ['手机,姓名,订单号', ...Array.from({ length: 8 }, (_, i) => `138001380${i}${7 + (i % 3)},客户${i},${tag}${i}`)]);
    const r = await cli(['--json', 'bulk', file, '--template', 'ship'], env);
    expect(r.code).toBe(3);
    expect(r.json).toMatchObject({ status: 'paused', pausedReason: 'insufficient-balance' });
    expect((r.json as { message: string }).message).toMatch(/recharge/i);
    expect(r.stderr).toMatch(/^callout: Batch #\d+ paused: .*insufficient balance/i);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const { batchId } = r.json as { batchId: number };
    sandbox.setBalance('bulk-cli', 1000);
    const resumed = await cli(['--json', 'bulk', '--resume', String(batchId)], env);
    expect(resumed.code).toBe(0);
    expect(resumed.json).toMatchObject({ batchId, status: 'done', accepted: 8, remaining: 0 });
  });

  it('says there is no such batch when --resume names none, in the words of the app (exit 2, nothing sent)', async () => {
    const en = await cli(['bulk', '--resume', '99999', '--lang', 'en'], env);
    expect(en.code).toBe(2);
    expect(en.stderr).toContain('There is no batch #99999.');
    const zh = await cli(['bulk', '--resume', '99999', '--lang', 'zh-CN'], env);
    expect(zh.stderr).toContain('没有编号为 #99999 的批次。');
    expect(await cli(['--json', 'bulk', '--resume', '99999'], env)).toMatchObject({ code: 2, json: { error: expect.objectContaining({ kind: 'not-found' }) } });
  });

  it('exits 4 and lists the items whose outcome is unknown, without resending them', async () => {
    sandbox.setFault({ kind: 'http500', op: 'send', times: 1 });
    const tag = unique();
    const file = csv('list.csv', ['手机,姓名,订单号', `13800138007,A,${tag}1`, `13800138008,B,${tag}2`]);
    const r = await cli(['--json', 'bulk', file, '--template', 'ship'], env);
    expect(r.code).toBe(4);
    expect(r.json).toMatchObject({ status: 'done', unknown: 1, accepted: 1, problems: [expect.objectContaining({ status: 'unknown', code: 500 })] });
    expect([...receivedPerItem(sandbox).entries()].filter(([k]) => k.includes(tag)).map(([, n]) => n)).toEqual([1, 1]);
  });

  it('shows a progress line on a terminal only (carriage returns on stderr), not with --json or when piped', async () => {
    const tag = unique();
    const file = csv('list.csv', ['手机,姓名,订单号', ...Array.from({ length: 30 }, (_, i) => `138${String(i).padStart(7, '0')}8,客户${i},${tag}${i}`)]);
    let stderr = '';
    let stdout = '';
    const code = await runCli(['bulk', file, '--template', 'ship'], {
      stdout: (s) => (stdout += s),
      stderr: (s) => (stderr += s),
      env,
      stderrIsTTY: true,
      clock: new ScaledClock(FASTEST_SCALE),
    });
    expect(code).toBe(0);
    expect(stderr).toContain('\r\u001b[2Ksent ');
    expect(stderr).toMatch(/sent \d+\/30 · accepted \d+/);
    expect(stdout).toMatch(/^Batch #\d+: done/);
    const piped = await cli(['bulk', csv('b.csv', ['手机,姓名,订单号', `13800138008,x,${tag}-p`]), '--template', 'ship'], env);
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
  });

  it('refuses what it cannot do with exit code 2 and one JSON error', async () => {
    const file = csv('list.csv', ['手机,姓名,订单号', '13800138008,x,1']);
    const noTemplate = await cli(['--json', 'bulk', file], env);
    expect(noTemplate.code).toBe(2);
    expect(noTemplate.json).toEqual({ error: expect.objectContaining({ kind: 'usage' }) });
    const badMap = await cli(['--json', 'bulk', file, '--template', 'ship', '--map', 'nope=mobile'], env);
    expect(badMap.code).toBe(2);
    expect(badMap.json).toEqual({
      error: expect.objectContaining({ kind: 'bad-mapping', message: expect.stringMatching(/nope: That column is not in the file/) }),
    });
    const nothing = await cli(['--json', 'bulk', csv('bad.csv', ['手机,姓名,订单号', 'bad,x,1']), '--template', 'ship'], env);
    expect(nothing.code).toBe(2);
    expect(nothing.json).toMatchObject({ totals: { valid: 0 } });
    const missing = await cli(['bulk', join(home.dir, 'missing.csv'), '--template', 'ship'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Cannot read/);
  });
});
