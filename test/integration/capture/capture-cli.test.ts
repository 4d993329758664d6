// The issue's integration test: a script acting as a backend sends 50 requests (some signed wrong,
// some with bad numbers, a few through the reverse proxy) through `callout capture` to the sandbox.
// Every one reaches the sandbox unchanged, every one is in history once with the right verdicts.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../main/cli/program';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { signRequest } from '../../../main/signing';
import { openStore } from '../../../main/store';
import { tempHome } from '../../helpers/temp-home';
import { cli } from '../cli/run-cli';

const KEY = 'capture-test-key-Zq9!x';
const API_ID = 'cap-acct';
const APPROVED = '您的验证码是【变量】，5分钟内有效。';
let sandbox: Sandbox;
let home: { dir: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: 0.002, signature: 'spec', accounts: [{ apiId: API_ID, apiKey: KEY, balance: 1000 }] });
});
afterAll(() => sandbox.close());
beforeEach(() => {
  home = tempHome();
  env = { CALLOUT_HOME: home.dir, CALLOUT_API_ID: API_ID, CALLOUT_API_KEY: KEY, LANG: 'en_US.UTF-8' };
});
afterEach(() => home.cleanup());

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Runs `callout capture` in-process until `stop()`; resolves once it listens. */
async function startCapture(args: string[], runEnv: NodeJS.ProcessEnv) {
  let stop!: () => void;
  const until = new Promise<void>((r) => (stop = r));
  let stdout = '';
  let stderr = '';
  let listening!: (line: string) => void;
  const first = new Promise<string>((r) => (listening = r));
  const exit = runCli(['--json', 'capture', ...args], {
    stdout: (s) => {
      stdout += s;
      if (!stdout.includes('\n')) return;
      listening(stdout.split('\n')[0]!);
    },
    stderr: (s) => (stderr += s),
    env: runEnv,
    stderrIsTTY: false,
    until,
  });
  const line = await Promise.race([first, exit.then((code) => Promise.reject(new Error(`capture exited ${code}: ${stderr}`)))]);
  const started = JSON.parse(line) as { url: string; port: number; key: string };
  return {
    started,
    async stop() {
      stop();
      const code = await exit;
      return {
        code,
        lines: stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>),
        stderr,
      };
    },
  };
}

interface Sent {
  status: number;
  body: string;
}

/** One request as a backend makes it: to the proxy, with an absolute URL (forward) or a path (reverse). */
function send(proxyPort: number, opts: { url: string; path: string; headers: Record<string, string>; body: string }): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: proxyPort,
        method: 'POST',
        path: opts.path,
        headers: { ...opts.headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(opts.body)) },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

type Kind = 'good' | 'wrong-key' | 'bad-number' | 'reverse';
const kindOf = (i: number): Kind => (i >= 45 ? 'reverse' : i % 5 === 0 ? 'wrong-key' : i % 5 === 1 ? 'bad-number' : 'good');

describe('callout capture: 50 requests of a backend through the proxy to the sandbox', () => {
  it('passes every one on unchanged and keeps every one once, with the right verdicts', { timeout: 60_000 }, async () => {
    expect((await cli(['template', 'add', '--content', APPROVED, '--approved', '--name', 'code'], env)).code).toBe(0);
    const capture = await startCapture(['--target', sandbox.baseUrl], env);
    expect(capture.started.key).toBe('profile');
    const proxy = capture.started.port;
    const before = sandbox.requests().length;
    const providerUrl = `${sandbox.baseUrl}/voice/vm`;
    const sent = new Map<string, { kind: Kind; body: string; reply: Sent }>();

    // Ten at a time, as a busy backend would.
    for (let batch = 0; batch < 5; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const i = batch * 10 + j;
          const kind = kindOf(i);
          const code = String(100000 + i);
          const body = JSON.stringify({
            account: API_ID,
            password: KEY,
            mobile: kind === 'bad-number' ? `1380013${i}` : '13800138008',
            content: APPROVED.replace('【变量】', code),
          });
          // Reverse: the backend's base URL is the proxy, so it signs the proxy's host.
          const signedUrl = kind === 'reverse' ? `http://127.0.0.1:${proxy}/voice/vm` : providerUrl;
          const h = signRequest({ apiId: API_ID, apiKey: kind === 'wrong-key' ? 'not-the-key-123' : KEY, method: 'POST', url: signedUrl }).headers;
          const reply = await send(proxy, {
            url: providerUrl,
            path: kind === 'reverse' ? '/voice/vm' : providerUrl,
            headers: { Host: h.Host, Date: h.Date, Authorization: h.Authorization },
            body,
          });
          sent.set(code, { kind, body, reply });
        }),
      );
    }
    const { code, lines } = await capture.stop();
    expect(code).toBe(0);

    // Every request reached the sandbox once, its parameters unchanged (the sandbox's log hides the password).
    const received = sandbox.requests().slice(before);
    expect(received).toHaveLength(50);
    for (const [c, s] of sent) {
      const at = received.filter((r) => typeof r.body?.content === 'string' && (r.body.content as string).includes(c));
      expect(at, c).toHaveLength(1);
      const original = JSON.parse(s.body) as Record<string, unknown>;
      expect(at[0]!.body).toEqual({ ...original, password: '[REDACTED]' });
      // The sandbox's gateway judged the signature as the checks do.
      expect(at[0]!.signature?.valid, c).toBe(s.kind === 'good' || s.kind === 'bad-number');
      // The backend got the provider's reply as it was sent.
      if (s.kind === 'good') expect(JSON.parse(s.reply.body)).toMatchObject({ code: 2 });
      if (s.kind === 'bad-number') expect(JSON.parse(s.reply.body)).toMatchObject({ code: 404 });
      if (s.kind === 'wrong-key' || s.kind === 'reverse') expect(s.reply.status).toBe(401);
    }

    // The proxy said each exchange once as it passed (start line, 50 exchanges, the stop line).
    expect(lines).toHaveLength(52);
    expect(lines.at(-1)).toMatchObject({ stopped: true, counts: { exchanges: 50, unstored: 0 } });

    // History: 50 captured exchanges, none duplicated or lost, each with the right verdicts.
    const listed = await cli(['--json', 'exchanges', '--captured', '--limit', '100'], env);
    expect(listed.code).toBe(0);
    const rows = listed.json as Array<{
      id: number;
      captured: boolean;
      verdict: string;
      mode: string;
      checks: Array<{ check: string; verdict: string; code: string; issues?: Array<{ code: string }> }>;
    }>;
    expect(rows).toHaveLength(50);
    expect(new Set(rows.map((r) => r.id)).size).toBe(50);
    const store = openStore(home.dir);
    const stored = rows.map((r) => ({ r, body: store.history.exchange(r.id)!.requestBody ?? '' }));
    store.close();
    // Stored redacted: the password's value is gone, the rest of the body is as it was sent.
    for (const { body } of stored) expect(body).toContain('"password":"[REDACTED]"');
    const byCode = new Map(stored.map(({ r, body }) => [/(1000\d\d)/.exec(body)![1]!, r]));
    expect(byCode.size).toBe(50);
    for (const [c, s] of sent) {
      const r = byCode.get(c)!;
      const verdictOf = (name: string) => r.checks.find((x) => x.check === name);
      expect(r.captured).toBe(true);
      expect(r.mode, c).toBe(s.kind === 'reverse' ? 'reverse' : 'forward');
      expect(verdictOf('clock')?.verdict, c).toBe('pass');
      if (s.kind === 'good') {
        expect(r.verdict, c).toBe('pass');
        expect(verdictOf('rules')).toMatchObject({ verdict: 'pass', code: 'rules-met' });
        expect(verdictOf('reply')).toMatchObject({ verdict: 'pass', code: 'reply-sent' });
      } else if (s.kind === 'bad-number') {
        expect(r.verdict, c).toBe('fail');
        expect(verdictOf('signature')).toMatchObject({ verdict: 'pass', code: 'signature-valid' });
        expect(verdictOf('rules')).toMatchObject({ verdict: 'fail', issues: [expect.objectContaining({ code: 'mobile' })] });
        expect(verdictOf('reply')).toMatchObject({ verdict: 'fail', code: 'reply-refused' });
      } else if (s.kind === 'wrong-key') {
        expect(r.verdict, c).toBe('fail');
        expect(verdictOf('signature')).toMatchObject({ verdict: 'fail', code: 'signature-invalid' });
        expect(verdictOf('rules')?.verdict).toBe('pass');
        expect(verdictOf('reply')).toMatchObject({ verdict: 'fail', code: 'reply-signature-rejected' });
      } else {
        expect(verdictOf('signature')).toMatchObject({ verdict: 'warn', code: 'signed-for-proxy' });
        expect(verdictOf('reply')).toMatchObject({ verdict: 'fail', code: 'reply-signature-rejected' });
      }
    }
    // The key (sent as the password and signing the requests) is nowhere in the data directory.
    for (const f of filesUnder(home.dir)) expect(readFileSync(f).includes(Buffer.from(KEY)), f).toBe(false);
  });

  it('says each exchange and its problems in words, in the language asked for, and checks nothing it has no key for', { timeout: 30_000 }, async () => {
    const noKey = { CALLOUT_HOME: home.dir, LANG: 'en_US.UTF-8' };
    let stop!: () => void;
    const until = new Promise<void>((r) => (stop = r));
    let out = '';
    let listening!: () => void;
    const up = new Promise<void>((r) => (listening = r));
    const exit = runCli(['capture', '--target', sandbox.baseUrl], {
      stdout: (x) => ((out += x), out.includes('Ctrl-C') && listening()),
      stderr: () => undefined,
      env: noKey,
      stderrIsTTY: false,
      until,
    });
    await up;
    expect(out).toContain('No key to check with');
    const port = Number(/127\.0\.0\.1:(\d+)/.exec(out)![1]);
    const body = JSON.stringify({ account: API_ID, password: KEY, mobile: '12345', content: 'hello' });
    await send(port, { url: '', path: '/voice/vm', headers: {}, body });
    // Real time: a poll interval for I/O (sockets, a child process), not a wait for time to pass.
    for (let i = 0; i < 100 && !out.includes('#1'); i++) await new Promise((r) => setTimeout(r, 20));
    stop();
    expect(await exit).toBe(0);
    // One line for the exchange, then a line per check that did not pass, said in words.
    expect(out).toMatch(/#1 .* fail .*POST http:\/\/127\.0\.0\.1:\d+\/voice\/vm/);
    expect(out).toContain('mobile 12345 does not have 11 digits.');
    expect(out).toContain('The template library is empty');
    expect(out).toContain('Capture stopped. Exchanges recorded: 1');
    expect(out).not.toContain(KEY);
    const zh = await cli(['exchanges', '--captured', '--lang', 'zh-CN'], noKey);
    expect(zh.code).toBe(0);
    expect(zh.stdout).toContain('失败');
    expect(zh.stdout).toContain('mobile 12345 不是 11 位。');
  });
});
