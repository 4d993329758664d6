import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { tempHome } from '../../helpers/temp-home';
import { cli } from './run-cli';

const KEY = 'cli-test-key-Zq9!x';
const APPROVED = '您的验证码是【变量】，5分钟内有效。';
let sandbox: Sandbox;
let home: { dir: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: 0.002, accounts: [{ apiId: 'cli-acct', apiKey: KEY, balance: 1000 }] });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  home = tempHome();
  sandbox.clearFaults();
  env = { CALLOUT_HOME: home.dir, CALLOUT_BASE_URL: sandbox.baseUrl, CALLOUT_API_ID: 'cli-acct', CALLOUT_API_KEY: KEY };
});
afterEach(() => home.cleanup());

const text = (code: string) => APPROVED.replace('【变量】', code);
const sends = () => sandbox.requests().filter((r) => r.op === 'send').length;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('callout send / status / history against the sandbox', () => {
  it('sends, follows the call to answered with a duration, and lists it in history', async () => {
    const sent = await cli(['--json', 'send', '--to', '+86 138-0013-8008', '--content', text('123456')], env);
    expect(sent.code).toBe(0);
    expect(sent.json).toMatchObject({ code: 2, count: 1, mobile: '13800138008', outcome: 'accepted', units: 1 });
    const { smsid } = sent.json as { smsid: string };
    expect(smsid).toBeTruthy();

    let status = await cli(['--json', 'status', smsid], env);
    for (let i = 0; i < 100 && (status.json as { state: string }).state !== 'answered'; i++) {
      // Real time: a poll interval for I/O (sockets, a child process), not a wait for time to pass.
      await new Promise((r) => setTimeout(r, 50));
      status = await cli(['--json', 'status', smsid], env);
    }
    expect(status.code).toBe(0);
    expect(status.json).toMatchObject({ code: 2, smsid, state: 'answered' });
    expect((status.json as { duration: number }).duration).toBeGreaterThanOrEqual(3);

    const history = await cli(['--json', 'history', '--limit', '5'], env);
    expect(history.code).toBe(0);
    expect(history.json).toEqual([
      expect.objectContaining({ mobile: '13800138008', content: text('123456'), smsid, code: 2, outcome: 'accepted', state: 'answered' }),
    ]);
    const human = await cli(['history'], env);
    expect(human.stdout).toContain('13800138008');
    expect(human.stdout).toContain('Accepted/Answered');
  });

  it('prints a human line without --json', async () => {
    const r = await cli(['send', '--to', '13800138008', '--content', text('1')], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Accepted: smsid \S+ · 13800138008 · 1 unit \(charged only if answered\)/);
  });

  it.each([
    [400, 'Parameter error'],
    [401, 'API ID or API Key'],
    [402, 'balance'],
    [403, 'not approved'],
    [404, 'number'],
  ])('provider code %i: exit 3, the code in the JSON, one clear line on stderr', async (code, words) => {
    sandbox.setFault({ kind: 'code', code: code as 400, op: 'send', times: 1 });
    const r = await cli(['--json', 'send', '--to', '13800138008', '--content', text('9')], env);
    expect(r.code).toBe(3);
    expect(r.json).toMatchObject({ code, outcome: 'rejected' });
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(words, 'i'));
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const [m] = (await cli(['--json', 'history'], env)).json as { outcome: string; code: number }[];
    expect(m).toMatchObject({ outcome: 'rejected', code });
  });

  it('a real 401 (wrong key) and a real 403 (text matching no approved template)', async () => {
    const wrong = await cli(['--json', 'send', '--to', '13800138008', '--content', text('9')], { ...env, CALLOUT_API_KEY: 'wrong-key-000' });
    expect(wrong).toMatchObject({ code: 3, json: { code: 401 } });
    const unapproved = await cli(['--json', 'send', '--to', '13800138008', '--content', '随便说点什么'], env);
    expect(unapproved).toMatchObject({ code: 3, json: { code: 403 } });
    expect(unapproved.stderr).toMatch(/template/i);
  });

  it('provider code 500: exit 4, outcome unknown, not resent', async () => {
    sandbox.setFault({ kind: 'code', code: 500, op: 'send', times: 1 });
    const before = sends();
    const r = await cli(['--json', 'send', '--to', '13800138008', '--content', text('5')], env);
    expect(r.code).toBe(4);
    expect(r.json).toMatchObject({ code: 500, outcome: 'unknown' });
    expect(sends() - before).toBe(1);
  });

  it.each([
    ['timeout', 'timeout'],
    ['reset', 'reset'],
    ['html', 'unreadable-reply'],
    ['http500', 'unknown'],
  ] as const)('fault %s: exit 4, recorded once as unknown, sent once', async (kind, errorKind) => {
    sandbox.setFault({ kind, op: 'send', times: 1 });
    const before = sends();
    const r = await cli(['--json', '--timeout', '0.5', 'send', '--to', '13800138008', '--content', text('7')], env);
    expect(r.code).toBe(4);
    const out = r.json as { error?: { kind: string; outcome: string }; outcome?: string };
    expect(out.error?.outcome ?? out.outcome).toBe('unknown');
    if (errorKind !== 'unknown') expect(out.error?.kind).toBe(errorKind);
    expect(r.stderr).toMatch(/Not resent/);
    expect(sends() - before).toBe(1);
    const history = (await cli(['--json', 'history'], env)).json as { outcome: string }[];
    expect(history).toHaveLength(1);
    expect(history[0]!.outcome).toBe('unknown');
  });

  it('a delay within the timeout still succeeds', async () => {
    sandbox.setFault({ kind: 'delay', delayMs: 150, op: 'send', times: 1 });
    const r = await cli(['--json', 'send', '--to', '13800138008', '--content', text('8')], env);
    expect(r.code).toBe(0);
  });

  it('connection refused: exit 4, outcome not-sent', async () => {
    const r = await cli(['--json', 'send', '--to', '13800138008', '--content', text('8')], { ...env, CALLOUT_BASE_URL: 'http://127.0.0.1:9' });
    expect(r.code).toBe(4);
    expect(r.json).toMatchObject({ error: { kind: 'refused', outcome: 'not-sent' } });
  });

  it('checks the number and the text before anything is sent (exit 2)', async () => {
    const before = sends();
    const badMobile = await cli(['--json', 'send', '--to', '12345', '--content', text('1')], env);
    expect(badMobile.code).toBe(2);
    expect(badMobile.stderr).toMatch(/11-digit|11 digits/);
    const tooLong = await cli(['send', '--to', '13800138008', '--content', 'x'.repeat(501)], env);
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toMatch(/500/);
    const neither = await cli(['send', '--to', '13800138008'], env);
    expect(neither.code).toBe(2);
    const noKey = await cli(['send', '--to', '13800138008', '--content', 'x'], { ...env, CALLOUT_API_KEY: '' });
    expect(noKey).toMatchObject({ code: 2 });
    expect(noKey.stderr).toMatch(/CALLOUT_API_KEY/);
    const unknownFlag = await cli(['send', '--bogus'], env);
    expect(unknownFlag.code).toBe(2);
    expect(sends()).toBe(before);
  });

  it('sends from a template with --var, by position or label', async () => {
    const add = await cli(['--json', 'template', 'add', '--id', 'otp', '--content', APPROVED, '--approved', '--marker', 'code'], env);
    expect(add).toMatchObject({ code: 0, json: { id: 'otp', approved: true, markerNames: ['code'] } });
    const byLabel = await cli(['--json', 'send', '--to', '13800138008', '--template', 'otp', '--var', 'code=4321'], env);
    expect(byLabel).toMatchObject({ code: 0, json: { outcome: 'accepted' } });
    const missing = await cli(['send', '--to', '13800138008', '--template', 'otp'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Missing --var for: code/);
    const [m] = (await cli(['--json', 'history'], env)).json as { content: string; templateId: string }[];
    expect(m).toMatchObject({ content: text('4321'), templateId: 'otp' });
  });

  it('balance: units as a number, and the raw reply', async () => {
    const r = await cli(['--json', 'balance'], env);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ code: 2, raw: { code: 2 } });
    expect(typeof (r.json as { units: unknown }).units).toBe('number');
  });

  it('history filters by number and state', async () => {
    await cli(['send', '--to', '13911112222', '--content', text('1')], env);
    await cli(['send', '--to', '13800138008', '--content', text('2')], env);
    const byMobile = (await cli(['--json', 'history', '--mobile', '1111'], env)).json as { mobile: string }[];
    expect(byMobile.map((m) => m.mobile)).toEqual(['13911112222']);
    const bad = await cli(['history', '--state', 'ringing'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--state must be one of/);
  });

  it('the API Key appears in no output and in no file under the data directory', async () => {
    const outputs = [
      await cli(['--json', 'send', '--to', '13800138008', '--content', text('1')], env),
      await cli(['--json', 'send', '--to', '13800138008', '--content', text('2')], { ...env, CALLOUT_API_KEY: `${KEY}-wrong` }),
      await cli(['--json', 'balance'], env),
      await cli(['--json', 'history'], env),
    ];
    sandbox.setFault({ kind: 'reset', op: 'send', times: 1 });
    outputs.push(await cli(['--json', 'send', '--to', '13800138008', '--content', text('3')], env));
    for (const o of outputs) expect(o.stdout + o.stderr).not.toContain(KEY);
    const files = filesUnder(home.dir);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(readFileSync(f).includes(Buffer.from(KEY))).toBe(false);
  });
});

describe('callout sign / verify', () => {
  const signEnv = () => ({ CALLOUT_HOME: home.dir, CALLOUT_API_KEY: 'sign-key', CALLOUT_API_ID: 'AK1' });
  const date = 'Sat, 21 Nov 2026 12:00:00 GMT';

  it('signs, and verify accepts its own output (exit 0)', async () => {
    const s = await cli(['--json', 'sign', '--api-id', 'AK1', '--method', 'POST', '--url', 'https://api.example.com/voice/vm?x=1', '--date', date], signEnv());
    expect(s.code).toBe(0);
    const out = s.json as { stringToSign: string; authorization: string; headers: Record<string, string>; signature: string };
    expect(out.stringToSign).toBe(`AK1\nPOST /voice/vm\ndate: ${date}\nhost: api.example.com`);
    expect(out.headers).toEqual({ Host: 'api.example.com', Date: date, Authorization: out.authorization });
    const v = await cli(
      [
        '--json',
        'verify',
        '--method',
        'POST',
        '--url',
        'https://api.example.com/voice/vm',
        '--date',
        date,
        '--authorization',
        out.authorization,
        '--now',
        date,
      ],
      signEnv(),
    );
    expect(v).toMatchObject({ code: 0, json: { valid: true, reason: null, skewSeconds: 0 } });
  });

  it('verify says why: tampered signature, 301 s skew, other variant (exit 1)', async () => {
    const s = (await cli(['--json', 'sign', '--api-id', 'AK1', '--method', 'GET', '--url', 'http://127.0.0.1:8080/x', '--date', date], signEnv())).json as {
      authorization: string;
    };
    const base = ['--json', 'verify', '--method', 'GET', '--url', 'http://127.0.0.1:8080/x', '--date', date];
    const tampered = await cli([...base, '--authorization', s.authorization.replace(/signature="./, 'signature="A'), '--now', date], signEnv());
    expect(tampered).toMatchObject({ code: 1, json: { valid: false, reason: 'signature-mismatch' } });
    const skewed = await cli([...base, '--authorization', s.authorization, '--now', 'Sat, 21 Nov 2026 12:05:01 GMT'], signEnv());
    expect(skewed).toMatchObject({ code: 1, json: { valid: false, reason: 'clock-skew', skewSeconds: -301 } });
    const inWindow = await cli([...base, '--authorization', s.authorization, '--now', 'Sat, 21 Nov 2026 12:05:00 GMT'], signEnv());
    expect(inWindow).toMatchObject({ code: 0, json: { valid: true } });
    const apisix = await cli([...base, '--authorization', s.authorization, '--now', date, '--variant', 'apisix'], signEnv());
    expect(apisix).toMatchObject({ code: 1, json: { reason: 'signature-mismatch' } });
  });

  it('signs and verifies with a key shorter than 8 characters (RFC 4231\'s "Jefe"), saying Callout would not store it', async () => {
    const env = { ...signEnv(), CALLOUT_API_KEY: 'Jefe', LANG: 'en_US.UTF-8' };
    const s = await cli(['--json', 'sign', '--api-id', 'AK1', '--method', 'POST', '--url', 'https://api.example.com/voice/vm', '--date', date], env);
    expect(s.code).toBe(0);
    const out = s.json as { stringToSign: string; signature: string; authorization: string; keyNote: string };
    expect(out.signature).toBe(createHmac('sha256', 'Jefe').update(out.stringToSign).digest('base64'));
    expect(out.keyNote).toMatch(/shorter than 8 characters.*would not store it/);
    const human = await cli(['sign', '--api-id', 'AK1', '--method', 'POST', '--url', 'https://api.example.com/voice/vm', '--date', date], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(out.authorization);
    expect(human.stderr).toMatch(/^callout: Note: this key is shorter than 8 characters/);
    const zh = await cli(['--lang', 'zh-CN', 'sign', '--api-id', 'AK1', '--method', 'POST', '--url', 'https://api.example.com/voice/vm', '--date', date], env);
    expect(zh.stderr).toMatch(/少于 8 个字符.*不会把它保存到配置中。/);
    const v = await cli(
      [
        '--json',
        'verify',
        '--api-id',
        'AK1',
        '--method',
        'POST',
        '--url',
        'https://api.example.com/voice/vm',
        '--date',
        date,
        '--authorization',
        out.authorization,
        '--now',
        date,
      ],
      env,
    );
    expect(v).toMatchObject({ code: 0, json: { valid: true } });
  });

  it('verify refuses a header signed for another API ID (keyId) as its own reason, in both languages', async () => {
    const url = 'https://api.example.com/voice/vm';
    const other = (await cli(['--json', 'sign', '--api-id', 'OTHER-ACCT', '--method', 'POST', '--url', url, '--date', date], signEnv())).json as {
      authorization: string;
    };
    const args = ['verify', '--method', 'POST', '--url', url, '--date', date, '--authorization', other.authorization, '--now', date];
    const v = await cli(['--json', '--api-id', 'AK1', ...args], signEnv());
    expect(v).toMatchObject({ code: 1, json: { valid: false, reason: 'key-id-mismatch', keyId: 'OTHER-ACCT', expectedApiId: 'AK1' } });
    // The API ID from the environment when no flag names one.
    expect(await cli(['--json', ...args], signEnv())).toMatchObject({ code: 1, json: { reason: 'key-id-mismatch' } });
    const en = await cli(['--lang', 'en', '--api-id', 'AK1', ...args], signEnv());
    expect(en.stdout).toMatch(/^invalid: signed for another API ID: keyId “OTHER-ACCT”, expected “AK1”/);
    const zh = await cli(['--lang', 'zh-CN', '--api-id', 'AK1', ...args], signEnv());
    expect(zh.stdout).toMatch(/^签名无效：签名所用的 API ID 不对：keyId 为“OTHER-ACCT”，应为“AK1”/);
    // Its own API ID verifies.
    expect(await cli(['--json', '--api-id', 'OTHER-ACCT', ...args], signEnv())).toMatchObject({ code: 0, json: { valid: true } });
    // Nothing to compare keyId with: a usage error, nothing checked.
    const none = await cli(['--json', ...args], { ...signEnv(), CALLOUT_API_ID: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--api-id/);
  });

  it('the apisix variant ends every line with a line break and signs the query', async () => {
    const s = await cli(
      ['--json', 'sign', '--api-id', 'AK1', '--method', 'GET', '--url', 'https://h.example/p?q=1', '--date', date, '--variant', 'apisix'],
      signEnv(),
    );
    expect((s.json as { stringToSign: string }).stringToSign).toBe(`AK1\nGET /p?q=1\ndate: ${date}\nhost: h.example\n`);
  });

  it('rejects a bad date or method with exit 2', async () => {
    expect((await cli(['sign', '--api-id', 'A', '--method', 'PUT', '--url', 'https://h/x'], signEnv())).code).toBe(2);
    const d = await cli(['sign', '--api-id', 'A', '--method', 'GET', '--url', 'https://h/x', '--date', 'yesterday'], signEnv());
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/HTTP date/);
  });
});

describe('the CLI speaks the language of the environment, or --lang', () => {
  /** Three Latin words in a row, outside the protocol tokens a Chinese sentence keeps. */
  const englishSentence = (s: string) =>
    /\b[A-Za-z]+\s+[A-Za-z]+\s+[A-Za-z]+\b/.test(s.replace(/callout [a-z-]+( --[a-z-]+)*|CALLOUT_[A-Z_]+|API (ID|Key)|--[a-z-]+/g, ''));

  it('says usage errors, provider refusals and results in Chinese under a Chinese locale', async () => {
    const zh = { ...env, LANG: 'zh_CN.UTF-8' };
    const usage = await cli(['send', '--to', '13800138008'], zh);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^callout: 请给出 --content/);
    const bad = await cli(['send', '--to', '12345', '--content', text('1')], zh);
    expect(bad.stderr).toMatch(/号码位数不对/);
    sandbox.setFault({ kind: 'code', code: 403, op: 'send', times: 1 });
    const refused = await cli(['send', '--to', '13800138008', '--content', text('2')], zh);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/服务商返回 403：内容未审核/);
    const ok = await cli(['send', '--to', '13800138008', '--content', text('3')], zh);
    expect(ok.stdout).toMatch(/^已受理：smsid \S+ · 13800138008 · 1 条/);
    const history = await cli(['history'], zh);
    for (const r of [usage, bad, refused, ok, history]) expect(englishSentence(r.stdout + r.stderr), r.stdout + r.stderr).toBe(false);
  });

  it('--lang overrides the environment', async () => {
    const en = await cli(['--lang', 'en', 'send', '--to', '13800138008'], { ...env, LANG: 'zh_CN.UTF-8' });
    expect(en.stderr).toMatch(/^callout: Give either --content TEXT/);
    const zh = await cli(['--lang', 'zh-CN', 'history'], { ...env, LANG: 'en_US.UTF-8' });
    expect(zh.stdout).toBe('还没有消息。\n');
  });
});
