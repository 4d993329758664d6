// `callout profile ...` and `--dialect` from a terminal, through the handler table: the app's
// profiles with the same fields as its form, the key only from standard input or a hidden prompt,
// a dialect by id or file (a bad file says what is wrong, line by field), and one-off readings.
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtinDialect } from '../../../common/dialects';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { openStore } from '../../../main/store';
import { tempHome } from '../../helpers/temp-home';
import { probeRealKeychain, KEYCHAIN_REQUIRED, NO_KEYCHAIN_HINT, uniqueService } from '../secrets/helpers';
import { cli } from './run-cli';

const KEY = 'profile-cli-key-7Yp!';
const OTP = '您的验证码是123456，5分钟内有效。';
let sandbox: Sandbox;
let home: { dir: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: 0.002, accounts: [{ apiId: 'pc', apiKey: KEY, balance: 1000 }], dialect: builtinDialect('numeric-states') });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  home = tempHome();
  onTestFinished(home.cleanup);
  env = { CALLOUT_HOME: home.dir, CALLOUT_KEYCHAIN_SERVICE: uniqueService('cli-') };
});

describe('callout profile', () => {
  it('adds, lists, shows, updates and removes a profile, with the fields of the app’s form', async () => {
    const add = await cli(
      [
        '--json',
        'profile',
        'add',
        'Ops',
        '--base-url',
        'https://voice.example.com/api',
        '--api-id',
        'ops-1',
        '--signing',
        'apisix',
        '--format',
        'xml',
        '--timeout',
        '20',
        '--connect-timeout',
        '3',
        '--low-balance',
        '50',
      ],
      env,
    );
    expect(add.code).toBe(0);
    expect(add.json).toMatchObject({
      name: 'Ops',
      baseUrl: 'https://voice.example.com/api',
      apiId: 'ops-1',
      signing: 'apisix',
      format: 'xml',
      totalTimeoutMs: 20_000,
      connectTimeoutMs: 3000,
      lowBalanceThreshold: 50,
      hasKey: false,
      dialect: 'spec',
      follow: 'poll',
      receipts: { state: 'off', url: null },
    });
    const list = await cli(['--json', 'profile', 'list'], env);
    expect((list.json as { name: string }[]).map((p) => p.name)).toEqual(['Sandbox', 'Ops']);
    // Only what changes is given; the rest stays.
    const upd = await cli(['--json', 'profile', 'update', 'ops', '--name', 'Ops 2', '--timeout', '30', '--low-balance', 'none'], env);
    expect(upd.code).toBe(0);
    expect(upd.json).toMatchObject({
      name: 'Ops 2',
      baseUrl: 'https://voice.example.com/api',
      signing: 'apisix',
      format: 'xml',
      totalTimeoutMs: 30_000,
      lowBalanceThreshold: null,
    });
    const show = await cli(['profile', 'show', 'Ops 2'], env);
    expect(show.stdout).toContain('https://voice.example.com/api');
    expect(show.stdout).toContain("The spec's reading [spec]");
    const gone = await cli(['--json', 'profile', 'remove', 'Ops 2'], env);
    expect(gone).toMatchObject({ code: 0, json: { removed: 'Ops 2' } });
    expect((await cli(['profile', 'show', 'Ops 2'], env)).code).toBe(2);
  });

  it("sets a profile's lines and whether they are lent while calls wait for a redial, and shows them in either language", async () => {
    await cli(['profile', 'add', 'Lines', '--base-url', 'https://voice.example.com/api', '--api-id', 'l-1'], env);
    expect((await cli(['--json', 'profile', 'show', 'Lines'], env)).json).toMatchObject({ lines: 1, lendLines: true });
    const upd = await cli(['--json', 'profile', 'update', 'Lines', '--lines', '3', '--lend-lines', 'off'], env);
    expect(upd).toMatchObject({ code: 0, json: { lines: 3, lendLines: false } });
    // Kept: the next command (another process) reads them back.
    const shown = await cli(['profile', 'show', 'Lines'], env);
    expect(shown.stdout).toContain('Lines: 3 lines (60 calls at once) · not lent while calls wait for a redial');
    const zh = await cli(['profile', 'show', 'Lines'], { ...env, LC_ALL: 'zh_CN.UTF-8' });
    expect(zh.stdout).toContain('线路数：3 条线路（可同时进行 60 通呼叫） · 呼叫等待重呼时不让出线路');
    // What the flags take, and nothing saved when one is wrong.
    const bad = await cli(['profile', 'update', 'Lines', '--lend-lines', 'maybe'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--lend-lines');
    expect((await cli(['profile', 'update', 'Lines', '--lines', '0'], env)).code).toBe(2);
    expect((await cli(['--json', 'profile', 'show', 'Lines'], env)).json).toMatchObject({ lines: 3, lendLines: false, lendingStoppedAt: null });
  });

  it('shows that a refusal in the app stopped lending, since when, and how to lend again', async () => {
    await cli(['profile', 'add', 'Lent', '--base-url', 'https://voice.example.com/api', '--api-id', 'l-2'], env);
    const id = ((await cli(['--json', 'profile', 'show', 'Lent'], env)).json as { id: string }).id;
    // The app saw the provider refuse a send on a lent line (kept with the profile, at 09:41:07 local time today).
    const at = new Date();
    at.setHours(9, 41, 7, 0);
    const store = openStore(home.dir);
    try {
      expect(store.dialSettings.setLendingRefusedAt(id, at.getTime())).toBe(true);
    } finally {
      store.close();
    }
    const shown = await cli(['profile', 'show', 'Lent'], env);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(
      'Lines: 1 line (20 calls at once) · not lent since 09:41:07, when the provider refused a call that started on a lent line (to lend again: --lend-lines on)',
    );
    const zh = await cli(['profile', 'show', 'Lent'], { ...env, LC_ALL: 'zh_CN.UTF-8' });
    expect(zh.stdout).toContain('自 09:41:07 起不再让出线路：服务商拒绝了一通在让出的线路上发起的呼叫（如需重新让出：--lend-lines on）');
    expect((await cli(['--json', 'profile', 'show', 'Lent'], env)).json).toMatchObject({ lendLines: true, lendingStoppedAt: at.toISOString() });
    // A person sets it on: the refusal is forgotten, for the app too.
    expect(await cli(['--json', 'profile', 'update', 'Lent', '--lend-lines', 'on'], env)).toMatchObject({
      code: 0,
      json: { lendLines: true, lendingStoppedAt: null },
    });
    // (A run of CI once printed nothing here: a failure now says how the command ended.)
    const lent = await cli(['profile', 'show', 'Lent'], env);
    expect(lent.code, lent.stderr).toBe(0);
    expect(lent.stdout).toContain('· lent while calls wait for a redial');
    const again = openStore(home.dir);
    try {
      expect(again.dialSettings.lendingRefusedAt(id)).toBeNull();
    } finally {
      again.close();
    }
  });

  it('refuses what the form refuses, field by field, and says which profiles exist', async () => {
    const bad = await cli(['--json', 'profile', 'add', 'X', '--base-url', 'ftp://x', '--api-id', 'a'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/baseUrl: .*http/);
    const noUrl = await cli(['profile', 'add', 'X', '--api-id', 'a'], env);
    expect(noUrl).toMatchObject({ code: 2 });
    expect(noUrl.stderr).toContain('--base-url');
    await cli(['profile', 'add', 'X', '--base-url', 'https://x.example', '--api-id', 'a'], env);
    expect((await cli(['profile', 'add', 'x', '--base-url', 'https://x.example', '--api-id', 'a'], env)).stderr).toContain('callout profile update');
    const missing = await cli(['profile', 'show', 'Nope'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Sandbox, X');
    expect((await cli(['profile', 'remove', 'Sandbox'], env)).code).toBe(2);
    expect((await cli(['profile', 'add', 'Y', '--base-url', 'https://x.example', '--api-id', 'a', '--signing', 'hmac'], env)).stderr).toContain('--signing');
  });

  it('never takes the key from a flag; reads it from standard input into the keychain', async () => {
    const probe = await probeRealKeychain(env.CALLOUT_KEYCHAIN_SERVICE!);
    await cli(['profile', 'add', 'Keyed', '--base-url', sandbox.baseUrl, '--api-id', 'pc'], env);
    expect((await cli(['profile', 'set-key', 'Keyed', '--key', KEY], env)).code).toBe(2);
    expect((await cli(['profile', 'set-key', 'Keyed'], env, { readSecret: async () => '' })).code).toBe(2);
    const r = await cli(['--json', 'profile', 'set-key', 'Keyed'], env, { readSecret: async () => KEY });
    if (!probe.available) {
      if (KEYCHAIN_REQUIRED) throw new Error(`no keychain: ${probe.reason}`);
      // Without a keychain the key cannot outlive the command: said, not pretended.
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/keychain/i);
      console.warn(`keychain part skipped: ${NO_KEYCHAIN_HINT}`);
      return;
    }
    expect(r).toMatchObject({ code: 0, json: { name: 'Keyed', hasKey: true } });
    expect(r.stdout).not.toContain(KEY);
    const sent = await cli(['--json', '--profile', 'Keyed', 'send', '--to', '13800138008', '--content', OTP], env);
    expect(sent).toMatchObject({ code: 0, json: { outcome: 'accepted' } });
    // Flags over a saved profile hold for this command only, with the profile's key.
    const once = await cli(['--json', '--profile', 'Keyed', '--timeout', '20', '--format', 'json', 'send', '--to', '13800138009', '--content', OTP], env);
    expect(once).toMatchObject({ code: 0, json: { outcome: 'accepted' } });
    await cli(['profile', 'remove', 'Keyed'], env);
  });

  it('sets a dialect by id or from a file; a file that is not a dialect says what is wrong', async () => {
    await cli(['profile', 'add', 'D', '--base-url', 'https://x.example', '--api-id', 'a'], env);
    const byId = await cli(['--json', 'profile', 'dialect', 'D', '--builtin', 'digit-states'], env);
    expect(byId).toMatchObject({ code: 0, json: { dialect: 'digit-states', dialectName: builtinDialect('digit-states')!.name, reread: 0 } });
    const file = join(home.dir, 'mine.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'Mine',
        send: { id: 'voiceid' },
        status: { record: 'data', state: 'state', states: { '200000': 'answered' } },
        balance: { units: 'num' },
      }),
    );
    const own = await cli(['--json', 'profile', 'dialect', 'D', '--file', file], env);
    expect(own).toMatchObject({ code: 0, json: { dialect: 'custom', dialectName: 'Mine', dialectSpec: { status: { states: { '200000': 'answered' } } } } });
    writeFileSync(file, JSON.stringify({ name: 'Bad', send: { id: 'voiceid' }, status: { state: 'state', states: { '1': 'answred' } }, extra: true }));
    const bad = await cli(['profile', 'dialect', 'D', '--file', file], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('status.states.1');
    expect(bad.stderr).toContain('extra');
    expect((await cli(['profile', 'dialect', 'D', '--builtin', 'nope'], env)).stderr).toContain('spec, voiceid-push, numeric-states, digit-states');
    expect((await cli(['profile', 'dialect', 'D'], env)).code).toBe(2);
    // A dialect without a status query moves the profile to receipts, with an address to give the provider.
    const push = await cli(['--json', 'profile', 'dialect', 'D', '--builtin', 'voiceid-push'], env);
    expect(push.json).toMatchObject({ follow: 'receipts', receipts: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}$/) } });
    const poll = await cli(['profile', 'update', 'D', '--follow', 'poll'], env);
    expect(poll.code).toBe(2);
    expect(poll.stderr).toContain('follow: This dialect has no status query');
  });
});

describe('--dialect: a one-off reading beside --base-url/--api-id', () => {
  beforeEach(() => {
    env = { ...env, CALLOUT_BASE_URL: sandbox.baseUrl, CALLOUT_API_ID: 'pc', CALLOUT_API_KEY: KEY };
  });

  it('send, status and balance read a numeric-states provider; an unknown value is shown, never guessed', async () => {
    const sent = await cli(['--json', '--dialect', 'numeric-states', 'send', '--to', '13800138008', '--content', OTP], env);
    expect(sent).toMatchObject({ code: 0, json: { outcome: 'accepted', smsid: expect.any(String) } });
    const { smsid } = sent.json as { smsid: string };
    let status = await cli(['--json', '--dialect', 'numeric-states', 'status', smsid], env);
    for (let i = 0; i < 100 && (status.json as { state: string }).state !== 'answered'; i++) {
      // Real time: a poll interval for I/O (sockets, a child process), not a wait for time to pass.
      await new Promise((r) => setTimeout(r, 30));
      status = await cli(['--json', '--dialect', 'numeric-states', 'status', smsid], env);
    }
    expect(status.json).toMatchObject({ code: 2, state: 'answered', value: '200000', unmapped: false, duration: 6 });
    const balance = await cli(['--json', '--dialect', 'numeric-states', 'balance'], env);
    expect(balance).toMatchObject({ code: 0, json: { units: expect.any(Number) } });
    // Without the dialect, the same provider is not understood: no ID to follow, no balance field.
    const plain = await cli(['--json', 'balance'], env);
    expect(plain.json).toMatchObject({ units: null });

    // A busy line: 200002, which numeric-states does not know.
    const busy = await cli(['--json', '--dialect', 'numeric-states', 'send', '--to', '13800138001', '--content', OTP], env);
    const busyId = (busy.json as { smsid: string }).smsid;
    let s = await cli(['--dialect', 'numeric-states', 'status', busyId], env);
    for (let i = 0; i < 100 && !s.stdout.includes('200002'); i++) {
      // Real time: the sandbox (a real HTTP server on the system clock, sped up by its time scale) runs the call; bounded by the count.
      await new Promise((r) => setTimeout(r, 30));
      s = await cli(['--dialect', 'numeric-states', 'status', busyId], env);
    }
    expect(s.code).toBe(0);
    expect(s.stdout).toContain('State value "200002" not recognised — map it.');
    const zh = await cli(['--lang', 'zh-CN', '--dialect', 'numeric-states', 'status', busyId], env);
    expect(zh.stdout).toContain('状态值“200002”无法识别——请映射它。');
  });

  it('a dialect that is neither built in nor a file is a usage error, nothing sent', async () => {
    const before = sandbox.requests().length;
    const r = await cli(['--json', '--dialect', 'nope.json', 'send', '--to', '13800138008', '--content', OTP], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('spec, voiceid-push');
    expect(sandbox.requests().length).toBe(before);
    const push = await cli(['--json', '--dialect', 'voiceid-push', 'dial', '13800138008', '--content', OTP, '--override'], env);
    expect(push.code).toBe(2);
    expect(push.stderr).toContain('--follow receipts');
  });
});

describe('callout sandbox --dialect', () => {
  it('rehearses a provider’s shape, and pushes receipts where it is told', async () => {
    const { spawn } = await import('node:child_process');
    const { createInterface } = await import('node:readline');
    const received: string[] = [];
    const { scriptedServer } = await import('../../helpers/scripted-server');
    const listener = await scriptedServer((req, body, res) => {
      received.push(`${req.headers['content-type']} ${body}`);
      res.end('SUCCESS');
    });
    onTestFinished(() => listener.close());
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(__dirname, '../../../main/cli/index.ts'),
        '--json',
        '--dialect',
        'digit-states',
        'sandbox',
        '--time-scale',
        '0.002',
        '--receipts-to',
        `${listener.baseUrl}/r`,
      ],
      {
        env: { PATH: process.env.PATH, CALLOUT_HOME: home.dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    onTestFinished(() => {
      if (child.exitCode === null) child.kill('SIGINT');
    });
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const started = JSON.parse(first) as { baseUrl: string; apiId: string; apiKey: string; dialect: string; receiptsTo: string };
    expect(started).toMatchObject({ dialect: 'digit-states', receiptsTo: `${listener.baseUrl}/r` });
    const e = { ...env, CALLOUT_BASE_URL: started.baseUrl, CALLOUT_API_ID: started.apiId, CALLOUT_API_KEY: started.apiKey };
    const sent = await cli(['--json', '--dialect', 'digit-states', 'send', '--to', '13800138003', '--content', OTP], e);
    expect(sent).toMatchObject({ code: 0, json: { outcome: 'accepted' } });
    await expect.poll(() => received.length, { timeout: 10_000 }).toBeGreaterThan(0);
    // A GBK form, with the receipts as a JSON text in voice_status: the description says unreachable.
    expect(received[0]).toMatch(/^application\/x-www-form-urlencoded; charset=gbk voice_status=/);
    const exit = new Promise((r) => child.once('exit', r));
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  }, 30_000);

  it('refuses a dialect file that is not valid, before it starts', async () => {
    const file = join(home.dir, 'bad.json');
    writeFileSync(file, '{"name": "x"}');
    const r = await cli(['--dialect', file, 'sandbox'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('send');
  });
});
