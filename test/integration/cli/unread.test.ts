// Never silently unread, in the CLI: a state value the dialect does not map is shown wherever a
// state is (`history`, `status`, `send --wait`, `dial`), a call only receipts tell about says so,
// and waiting for a call's end has a bound the user sets, with its own exit status.
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { reason } from '../../../common/reasons';
import { openStore } from '../../../main/store';
import { scriptedServer } from '../../helpers/scripted-server';
import { FASTEST_SCALE, ScaledClock } from '../../helpers/scaled-clock';
import { tempHome } from '../../helpers/temp-home';
import { ManualClock } from '../../../main/clock';
import { runCli } from '../../../main/cli/program';
import { cli, cliOn } from './run-cli';

const KEY = 'cli-unread-key-4Rt';
const TEXT = '您的验证码是123456，5分钟内有效。';
let home: { dir: string; cleanup: () => void };

beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());

/**
 * A provider that accepts every send and answers status queries with `states` in turn (the last one
 * repeated): the spec's reply shape, or voiceid's send reply (no status query) with `idField`.
 */
async function provider(states: Array<{ state: string; duration?: number }>, idField = 'smsid') {
  let sent = 0;
  const asked = new Map<string, number>();
  const server = await scriptedServer((req, body, res) => {
    res.setHeader('Content-Type', 'application/json');
    if (req.url?.endsWith('/voice/vm')) {
      sent++;
      res.end(JSON.stringify({ code: 2, msg: 'ok', [idField]: `S-${sent}`, count: 1 }));
      return;
    }
    if (req.url?.endsWith('/voice/status')) {
      const smsid = /S-\d+/.exec(body)?.[0] ?? 'S-1';
      const n = asked.get(smsid) ?? 0;
      asked.set(smsid, n + 1);
      const s = states[Math.min(n, states.length - 1)]!;
      res.end(JSON.stringify({ code: 2, msg: 'ok', data: { smsid, state: s.state, duration: s.duration ?? 0 } }));
      return;
    }
    res.end(JSON.stringify({ code: 2, msg: 'ok', num: 100 }));
  });
  onTestFinished(() => server.close());
  const env: NodeJS.ProcessEnv = {
    CALLOUT_HOME: home.dir,
    CALLOUT_BASE_URL: server.baseUrl,
    CALLOUT_API_ID: 'unread',
    CALLOUT_API_KEY: KEY,
    LANG: 'en_US.UTF-8',
  };
  return { server, env };
}

/**
 * Runs the CLI on a manual clock, as a person would see it live: `out()` is what it printed so far.
 * `until(pred)` lets I/O run (real, short polls) until something is printed; `advance` moves time.
 */
function live(args: string[], env: NodeJS.ProcessEnv) {
  const clock = new ManualClock(Date.now());
  let stdout = '';
  let stderr = '';
  let code: number | null = null;
  const done = runCli(args, { stdout: (x) => (stdout += x), stderr: (x) => (stderr += x), env, stderrIsTTY: false, clock }).then((c) => (code = c));
  return {
    clock,
    done,
    out: () => stdout,
    err: () => stderr,
    code: () => code,
    /** Waits (real time, for sockets and the store) until `pred` holds; bounded. */
    async until(pred: () => boolean): Promise<void> {
      for (let i = 0; i < 400 && !pred(); i++) await new Promise((r) => setTimeout(r, 10));
      expect(pred()).toBe(true);
    },
    /** Moves the clock by `ms` in steps of `step`, stopping once the command has ended. */
    async advance(ms: number, step = 60_000): Promise<void> {
      for (let passed = 0; passed < ms && code === null; passed += step) {
        await clock.advance(Math.min(step, ms - passed));
        // Real time: lets a reply on a socket in flight arrive between steps (I/O, not a wait for time to pass).
        await new Promise((r) => setTimeout(r, 5));
      }
    },
  };
}

/** Records, as a receipt would have, that the provider said `value` of message `id` and the dialect does not map it. */
function markUnmapped(id: number, value: string): void {
  const store = openStore(home.dir);
  try {
    store.messages.markUnmapped(id, value, reason('unmapped-state', { value }));
  } finally {
    store.close();
  }
}

describe('a value the dialect does not map is shown wherever a state is', () => {
  it('callout history: the line and the JSON name the value (both languages)', async () => {
    const { env } = await provider([{ state: 'calling' }]);
    const sent = await cli(['--json', 'send', '--to', '13800138008', '--content', TEXT], env);
    const id = (sent.json as { messageId: number }).messageId;
    markUnmapped(id, 'MYSTERY_7');
    const en = await cli(['history'], env);
    expect(en.stdout).toMatch(new RegExp(`#${id}\\t.*Accepted/Unknown \\(not recognised: MYSTERY_7\\)`));
    const zh = await cli(['--lang', 'zh-CN', 'history'], env);
    expect(zh.stdout).toMatch(/\/状态未知（无法识别：MYSTERY_7）/);
    const [row] = (await cli(['--json', 'history'], env)).json as { id: number; state: string; unmappedValue: string | null }[];
    expect(row).toMatchObject({ id, state: 'unknown', unmappedValue: 'MYSTERY_7' });
  });

  it('callout history --refresh: a value the provider now sends and nobody mapped is shown, not hidden as "unknown"', async () => {
    const { env } = await provider([{ state: 'MYSTERY_7' }]);
    const sent = await cli(['--json', 'send', '--to', '13800138008', '--content', TEXT], env);
    const id = (sent.json as { messageId: number }).messageId;
    const r = await cli(['history', '--refresh'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`#${id}\\t.*Accepted/Unknown \\(not recognised: MYSTERY_7\\)`));
    const plain = (await cli(['--json', 'history'], env)).json as { unmappedValue: string | null }[];
    expect(plain[0]!.unmappedValue).toBe('MYSTERY_7');
  });

  it('callout status with a receipts-only dialect: the stored state, its unmapped value, and that receipts follow it (exit 0)', async () => {
    const { env, server } = await provider([], 'voiceid');
    const sent = await cli(['--json', '--dialect', 'voiceid-push', 'send', '--to', '13800138008', '--content', TEXT], env);
    expect(sent.code).toBe(0);
    const { messageId, smsid } = sent.json as { messageId: number; smsid: string };
    expect(smsid).toBe('S-1');
    const before = server.received.length;

    const waiting = await cli(['--dialect', 'voiceid-push', 'status', smsid], env);
    expect(waiting.code).toBe(0);
    expect(waiting.stdout).toContain(`S-1: Waiting to call`);
    expect(waiting.stdout).toContain("followed by the provider's receipts");

    markUnmapped(messageId, '用户听完一半');
    const json = await cli(['--json', '--dialect', 'voiceid-push', 'status', smsid], env);
    expect(json.code).toBe(0);
    expect(json.json).toMatchObject({ smsid, state: 'unknown', value: '用户听完一半', unmapped: true, messageId, followedBy: 'receipts' });
    const en = await cli(['--dialect', 'voiceid-push', 'status', smsid], env);
    expect(en.stdout).toContain('State value "用户听完一半" not recognised — map it.');
    const zh = await cli(['--lang', 'zh-CN', '--dialect', 'voiceid-push', 'status', smsid], env);
    expect(zh.stdout).toContain('状态值“用户听完一半”无法识别——请映射它。');
    expect(zh.stdout).toContain('回执跟踪');
    // Nothing was asked of the provider: it has no status query.
    expect(server.received.length).toBe(before);
    // An smsid Callout did not send still cannot be asked about.
    const other = await cli(['--dialect', 'voiceid-push', 'status', 'elsewhere-1'], env);
    expect(other.code).toBe(2);
  });

  it('callout send --wait says the value once when it arrives, then how the call ended', async () => {
    const { env } = await provider([{ state: 'MYSTERY_7' }, { state: 'MYSTERY_7' }, { state: 'MYSTERY_7' }, { state: 'answered', duration: 5 }]);
    const r = await cliOn(new ScaledClock(FASTEST_SCALE))(['send', '--wait', '--to', '13800138008', '--content', TEXT], env);
    expect(r.code).toBe(0);
    const said = r.stdout.split('\n').filter((l) => l.includes('not recognised'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^\s+\d\d:\d\d:\d\d Unknown \(not recognised: MYSTERY_7 — the dialect does not map it\)$/);
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/^Answered; the call lasted 5 s/);
  });

  it('callout dial says the value once when it arrives (zh-CN)', async () => {
    const { env } = await provider([{ state: 'MYSTERY_7' }, { state: 'MYSTERY_7' }, { state: 'answered', duration: 5 }]);
    const r = await cliOn(new ScaledClock(FASTEST_SCALE))(
      ['--lang', 'zh-CN', 'dial', '13800138008', '--content', 'db1告警：x，请立即处理。', '--override'],
      env,
    );
    expect(r.code).toBe(0);
    const said = r.stderr.split('\n').filter((l) => l.includes('无法识别'));
    expect(said).toEqual(['138****8008：状态未知（无法识别：MYSTERY_7——方言没有映射它）']);
  });
});

describe('a call only receipts tell about says so while it waits', () => {
  it.each([
    ['en', "  Waiting for the provider's receipt: this call is followed only by the receipts the provider posts (nothing to ask)."],
    ['zh-CN', '  正在等待服务商的回执：该呼叫只由服务商推送的回执跟踪（无可查询的状态）。'],
  ] as const)('callout send --wait with a receipts-only dialect (%s)', async (lang, line) => {
    const { env, server } = await provider([], 'voiceid');
    const run = live(['--lang', lang, '--dialect', 'voiceid-push', 'send', '--wait', '--to', '13800138008', '--content', TEXT], env);
    await run.until(() => run.out().includes('S-1'));
    expect(run.out().split('\n')[1]).toBe(line);
    // Nothing is asked of a provider without a status query, however long it waits.
    await run.advance(40 * 60_000);
    await run.done;
    expect(server.received.filter((r) => r.url?.endsWith('/voice/status'))).toHaveLength(0);
  });

  it('a polled call says nothing of receipts', async () => {
    const { env } = await provider([{ state: 'answered', duration: 5 }]);
    const r = await cliOn(new ScaledClock(FASTEST_SCALE))(['send', '--wait', '--to', '13800138008', '--content', TEXT], env);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('receipt');
  });
});

describe('send --wait and dial give up after a bound the user sets, and say why (exit 5)', () => {
  it('send --wait --wait-timeout 2m: still waiting just before, then stops at 2 min; nothing resent', async () => {
    const { env, server } = await provider([], 'voiceid');
    const run = live(['--dialect', 'voiceid-push', 'send', '--wait', '--wait-timeout', '2m', '--to', '13800138008', '--content', TEXT], env);
    await run.until(() => run.out().includes('S-1'));
    await run.advance(119_000, 10_000);
    expect(run.code()).toBeNull();
    await run.advance(1_000);
    await run.done;
    expect(run.code()).toBe(5);
    expect(run.err()).toContain('Stopped waiting after 2 min (--wait-timeout): the end of the call was not heard (last known: Waiting to call, message #1).');
    expect(server.received.filter((r) => r.url?.endsWith('/voice/vm'))).toHaveLength(1);
  });

  it('without --wait-timeout: 10 minutes; the JSON says it gave up, in Chinese too', async () => {
    const { env } = await provider([], 'voiceid');
    const run = live(['--json', '--lang', 'zh-CN', '--dialect', 'voiceid-push', 'send', '--wait', '--to', '13800138008', '--content', TEXT], env);
    await run.until(() => run.clock.pending > 0 && run.out() === '' && run.err() === '');
    await run.advance(9 * 60_000 + 59_000, 60_000);
    expect(run.code()).toBeNull();
    await run.advance(1_000);
    await run.done;
    expect(run.code()).toBe(5);
    expect(JSON.parse(run.out())).toMatchObject({
      outcome: 'accepted',
      state: 'pending',
      gaveUp: true,
      waitedSeconds: 600,
      followedBy: 'receipts',
      endedAt: null,
    });
    expect(run.err()).toContain('等待 10 分钟后停止（--wait-timeout）：没有得到呼叫的结束结果');
  });

  it('dial --wait-timeout 90s: a call whose end is not heard stops the run; nobody else is called (exit 5)', async () => {
    const { env, server } = await provider([{ state: 'calling' }]);
    const run = live(['dial', '13800138008', '13800138118', '--content', 'db1告警：x，请立即处理。', '--override', '--wait-timeout', '90s'], env);
    await run.until(() => server.received.some((r) => r.url?.endsWith('/voice/vm')));
    await run.advance(5 * 60_000, 5_000);
    await run.done;
    expect(run.code()).toBe(5);
    expect(run.err()).toMatch(
      /Stopped waiting after 90 s \(--wait-timeout\) for the end of the call to 138\*\*\*\*8008 \(last known: Calling, message #1\): it may still be going on, so nobody else was called/,
    );
    // One call only: the second person was not called.
    expect(server.received.filter((r) => r.url?.endsWith('/voice/vm'))).toHaveLength(1);
  });

  it('dial --json --wait-timeout: the value says it gave up (zh-CN)', async () => {
    const { env } = await provider([{ state: 'calling' }]);
    const run = live(['--json', '--lang', 'zh-CN', 'dial', '13800138008', '--content', 'db1告警：x，请立即处理。', '--override', '--wait-timeout', '1m'], env);
    await run.until(() => run.clock.pending > 0);
    await run.advance(3 * 60_000, 5_000);
    await run.done;
    expect(run.code()).toBe(5);
    expect(JSON.parse(run.out())).toMatchObject({ status: 'gave-up', gaveUp: { messageId: 1, state: 'calling', waitedSeconds: 60 } });
    expect(run.err()).toContain('等待 1 分钟后停止（--wait-timeout）');
  });

  it('a bound that is not a duration is a usage error (exit 2), nothing sent', async () => {
    const { env, server } = await provider([]);
    for (const bad of ['0', 'soon', '25h', '-5m']) {
      const r = await cli(['send', '--wait', '--wait-timeout', bad, '--to', '13800138008', '--content', TEXT], env);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--wait-timeout must be a duration');
    }
    expect(server.received).toHaveLength(0);
  });
});
