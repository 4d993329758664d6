// The CLI's history is up to date: `send --wait` follows the call to its end while the CLI runs,
// `history --refresh` asks the provider about calls still going on, and a state that may be stale
// says since when it is known. And `callout sandbox` shows examples that fill each variable with a
// value of its kind.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { runSandboxCommand } from '../../../main/cli/sandbox-command';
import { cliWords } from '../../../main/cli/text';
import { tempHome } from '../../helpers/temp-home';
import { cliOn } from './run-cli';
import { FASTEST_SCALE, ScaledClock } from '../../helpers/scaled-clock';
import { ManualClock } from '../../../main/clock';

// The commands run on a clock twenty times faster, so that a followed call's looks come as fast as the sandbox's calls end.
const cli = cliOn(new ScaledClock(FASTEST_SCALE));

const KEY = 'cli-follow-key-7Hq';
const text = (code: string) => `您的验证码是${code}，5分钟内有效。`;
let sandbox: Sandbox;
let home: { dir: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: 0.002, accounts: [{ apiId: 'cli-acct', apiKey: KEY, balance: 1000 }] });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  home = tempHome();
  env = { CALLOUT_HOME: home.dir, CALLOUT_BASE_URL: sandbox.baseUrl, CALLOUT_API_ID: 'cli-acct', CALLOUT_API_KEY: KEY, LANG: 'en_US.UTF-8' };
});
afterEach(() => home.cleanup());

describe('callout send --wait', () => {
  it('follows an answered call to its end: exit 0, the final state and duration in the JSON', async () => {
    const r = await cli(['--json', 'send', '--wait', '--to', '13800138008', '--content', text('1')], env);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ code: 2, outcome: 'accepted', state: 'answered' });
    expect((r.json as { duration: number }).duration).toBeGreaterThanOrEqual(3);
    expect((r.json as { endedAt: string }).endedAt).toMatch(/Z$/);
    // History knows the end without anyone running `callout status`.
    const [m] = (await cli(['--json', 'history', '--limit', '1'], env)).json as { state: string; open: boolean }[];
    expect(m).toMatchObject({ state: 'answered', open: false });
  });

  it('says each state as it changes while the phone rings, then how it ended', async () => {
    // A slower sandbox, so that the ringing is seen (about half a second of it).
    const slow = await startSandbox({ timeScale: 0.05, accounts: [{ apiId: 'cli-acct', apiKey: KEY, balance: 10 }] });
    try {
      const r = await cli(['send', '--wait', '--to', '13800138008', '--content', text('2')], { ...env, CALLOUT_BASE_URL: slow.baseUrl });
      expect(r.code).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^Accepted: smsid /);
      expect(lines.some((l) => /^\s+\d\d:\d\d:\d\d Calling$/.test(l))).toBe(true);
      expect(lines.at(-1)).toMatch(/^Answered; the call lasted \d+ s \(message #\d+\)\.$/);
    } finally {
      await slow.close();
    }
  });

  it('nobody answered: exit 1, and how it ended', async () => {
    const r = await cli(['send', '--wait', '--to', '13800138000', '--content', text('2')], env);
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/^Ended: No answer \(message #\d+\)\.$/);
  });

  it('speaks Chinese with Chinese punctuation', async () => {
    const r = await cli(['--lang', 'zh-CN', 'send', '--wait', '--to', '13800138008', '--content', text('3')], env);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/^已接听，通话 \d+ 秒（消息 #\d+）。$/);
  });

  it('without --wait returns once the provider accepted it (the default)', async () => {
    // On a manual clock that is never moved: the send returns without waiting for a look at the call
    // (were it to wait for one, it would never finish).
    const r = await cli(['--json', 'send', '--to', '13800138008', '--content', text('4')], env, { clock: new ManualClock(Date.now()) });
    expect(r.code).toBe(0);
    // The state as the send left it (nobody has heard the call end yet), and nothing of its end.
    expect(r.json).toMatchObject({ outcome: 'accepted', state: 'pending' });
    expect(r.json).not.toHaveProperty('endedAt');
  });
});

describe('callout history: a state that may be stale says since when; --refresh asks the provider first', () => {
  it('an open call shows "as of" its last known time and the hint; --refresh brings its end', async () => {
    const sent = await cli(['--json', 'send', '--to', '13800138008', '--content', text('5')], env);
    const id = (sent.json as { messageId: number }).messageId;
    // The sandbox ends the call within milliseconds, but nobody asked: history still says what was known.
    // Real time: gives the sandbox (on the system clock, reached over HTTP by a CLI child process) time to end the call.
    await new Promise((r) => setTimeout(r, 200));
    const stale = await cli(['history'], env);
    expect(stale.stdout).toMatch(new RegExp(`#${id}\\t.*Accepted/(Waiting to call|Calling) \\(as of \\d\\d:\\d\\d:\\d\\d, just now\\)`));
    expect(stale.stdout).toContain('callout history --refresh');
    const json = (await cli(['--json', 'history'], env)).json as { id: number; open: boolean; stateSince: string }[];
    expect(json[0]).toMatchObject({ id, open: true });
    expect(Date.parse(json[0]!.stateSince)).toBeGreaterThan(0);

    const fresh = await cli(['history', '--refresh'], env);
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toMatch(new RegExp(`#${id}\\t.*Accepted/Answered \\d+ s\\t`));
    expect(fresh.stdout).not.toContain('as of');
    expect(fresh.stdout).not.toContain('--refresh');
  });

  it('a call that cannot be asked about is listed as it was, with why', async () => {
    const sent = await cli(['--json', 'send', '--to', '13800138008', '--content', text('6')], env);
    const id = (sent.json as { messageId: number }).messageId;
    // No provider flags now: the message's profile (the one of the environment) has no key here.
    const noKey = { CALLOUT_HOME: home.dir, LANG: 'en_US.UTF-8' };
    const r = await cli(['--json', 'history', '--refresh'], noKey);
    expect(r.code).toBe(0);
    const [m] = r.json as { id: number; open: boolean; notRefreshed?: string }[];
    expect(m).toMatchObject({ id, open: true });
    expect(m!.notRefreshed).toMatch(/profile/i);
  });
});

describe('callout sandbox', () => {
  it.each(['en', 'zh-CN'] as const)('fills each demo template with values of their kind (%s)', async (lang) => {
    let out = '';
    await runSandboxCommand(
      { timeScale: 1, signature: 'off' },
      { stdout: (s) => (out += s), stderr: () => undefined, env: {}, stderrIsTTY: false },
      false,
      cliWords(lang),
      Promise.resolve(),
    );
    expect(out).toContain('callout send --to 13800138008 --content "您好，张三，您的订单A1001已发货，请注意查收。"');
    expect(out).toContain('--content "您的验证码是123456，5分钟内有效。"');
    expect(out).toContain('--content "数据库告警：CPU 使用率 95%，请立即处理。"');
    // No name where the order number goes.
    expect(out).not.toMatch(/订单123456|您好，123456/);
  });
});
