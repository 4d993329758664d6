// The provider answered but the store could not take the result (a full disk), and the process
// ends: the answer must survive it. A real process sends with a store whose outcome writes fail and
// exits; the next start writes the kept answer (its smsid) into the history. Where the answer
// cannot be kept in a file either, the send says so, and says to write the smsid down: the texts
// are true in both languages.
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliWords } from '../../../main/cli/text';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices } from '../../../main/services';
import { KEPT_ANSWERS_FOLDER, KeptAnswers } from '../../../main/store/kept-answers';
import type { Reason } from '../../../common/reasons';
import { scriptedServer } from '../../helpers/scripted-server';
import type { Store } from '../../../main/store';
import { withStore } from '../../helpers/stored';
import { tempHome } from '../../helpers/temp-home';

const ROOT = join(__dirname, '..', '..', '..');
const SENDER = join(__dirname, 'fixtures', 'send-unstored.ts');
const KEY = 'kept-answers-test-key-1';
const TEXT = '您的验证码是1357，5分钟内有效。';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const session = () => ({ store: new SessionSecretStore(), status: { kind: 'session' as const, keychainAvailable: false, reason: 'test' } });

async function provider() {
  const s = await scriptedServer((req, _body, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.endsWith('/voice/vm')) res.end(JSON.stringify({ code: 2, msg: '提交成功', smsid: 'SMS-K1', count: 1 }));
    else if (req.url?.endsWith('/voice/status')) res.end(JSON.stringify({ code: 2, msg: 'ok', state: 'calling' }));
    else res.end(JSON.stringify({ code: 2, msg: 'ok', num: 5 }));
  });
  cleanups.push(s.close);
  return { ...s, sends: () => s.received.filter((r) => r.url?.endsWith('/voice/vm')) };
}

function home() {
  const h = tempHome();
  cleanups.push(h.cleanup);
  // The temp-folder fallback of this data directory goes too.
  cleanups.push(() => rmSync(new KeptAnswers({ home: h.dir }).folders[1]!, { recursive: true, force: true }));
  return h.dir;
}

function runSender(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SENDER], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => child.exitCode === null && child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

const files = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

describe('an answer the store could not take survives the process', () => {
  it('a process that could not store the answer exits; the next start writes its smsid into the history', async () => {
    const server = await provider();
    const dir = home();
    const run = await runSender({ CALLOUT_HOME: dir, PROVIDER_URL: server.baseUrl, PROVIDER_KEY: KEY, TEXT });
    expect(run.code, run.stderr).toBe(0);
    const sent = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
      ok: true;
      value: { message: { id: number; outcome: string; smsid: string; reason: Reason } };
    };
    expect(sent.value.message).toMatchObject({
      outcome: 'unknown',
      smsid: 'SMS-K1',
      reason: { code: 'store-incomplete', params: { smsid: 'SMS-K1', kind: 'accepted' } },
    });
    // What the person read is true: the answer is in a file of the data directory (without the key), and the next start writes it.
    expect(cliWords('en').reason(sent.value.message.reason)).toContain(
      'Callout keeps the answer in a file and writes it as soon as it can, at the latest when it next starts',
    );
    expect(cliWords('zh-CN').reason(sent.value.message.reason)).toContain('Callout 已将该应答保存在文件中，会尽快写入，最迟在下次启动时写入');
    const folder = join(dir, KEPT_ANSWERS_FOLDER);
    expect(files(folder)).toHaveLength(1);
    const kept = readFileSync(join(folder, files(folder)[0]!), 'utf8');
    expect(kept).toContain('SMS-K1');
    expect(kept).not.toContain(KEY);

    // The next start (the app, the CLI: createServices) writes it.
    const services = await createServices({ home: dir, secrets: session(), sandbox: false, follow: { resume: false } });
    cleanups.push(() => services.close());
    const id = sent.value.message.id;
    expect(services.sent.detail(id).message).toMatchObject({ outcome: 'accepted', smsid: 'SMS-K1', code: 2, billedUnits: 1, mobile: '13900000041' });
    expect(withStore(dir, (s) => s.messages.findBySmsid('SMS-K1')?.id)).toBe(id);
    expect(services.sent.detail(id).exchanges.map((e) => e.operation)).toEqual(['send']);
    expect(services.recovery.messages.map((m) => m.id)).not.toContain(id);
    expect(files(folder)).toEqual([]);
    // Never sent again.
    expect(server.sends()).toHaveLength(1);
  }, 120_000);

  it('kept in the OS temp folder when the data directory cannot take the file either (the answer only, without the key)', () => {
    const dir = home();
    // Something that is not a folder where the kept answers go: the data directory cannot take one.
    writeFileSync(join(dir, KEPT_ANSWERS_FOLDER), 'not a folder');
    const kept = new KeptAnswers({ home: dir });
    const exchange = { operation: 'send', requestBody: `{"password":"${KEY}"}` } as never;
    const path = kept.keep({ messageId: 7, profile: 'p', reply: { code: 2, msg: `echo ${KEY}`, smsid: 'S7' } as never, failure: null, exchanges: [exchange] }, [
      KEY,
    ]);
    expect(path).toBe(join(kept.folders[1]!, files(kept.folders[1]!)[0]!));
    const text = readFileSync(path!, 'utf8');
    expect(text).toContain('S7');
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toMatchObject({ messageId: 7, exchanges: [] });
    expect(kept.list().map((f) => f.answer.messageId)).toEqual([7]);
  });

  it('where it cannot be kept at all, the send says so and to write the smsid down, in both languages', async () => {
    const server = await provider();
    const dir = home();
    writeFileSync(join(dir, KEPT_ANSWERS_FOLDER), 'not a folder');
    const fallback = new KeptAnswers({ home: dir }).folders[1]!;
    mkdirSync(join(fallback, '..'), { recursive: true });
    writeFileSync(fallback, 'not a folder either');
    let store!: Store;
    const services = await createServices({
      home: dir,
      secrets: session(),
      sandbox: false,
      storeRetry: { delaysMs: [5], intervalMs: 50 },
      follow: { resume: false },
      testOnlyWrapStore: (opened) => void (store = opened),
    });
    cleanups.push(() => services.close());
    const handlers = createHandlers(services);
    const call = (channel: string, input?: unknown) => dispatch(handlers, channel, input, () => undefined);
    const p = (await call('profiles.save', { name: 'P', baseUrl: server.baseUrl, apiId: 'acct' })) as { value: { id: string } };
    await call('profiles.setKey', { id: p.value.id, apiKey: KEY });
    store.messages.markAccepted = () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    };
    const sent = (await call('messages.send', { profileId: p.value.id, mobile: '13900000042', content: TEXT })) as {
      ok: true;
      value: { message: { reason: Reason; smsid: string } };
    };
    expect(sent.value.message).toMatchObject({ smsid: 'SMS-K1', reason: { code: 'store-unkept', params: { smsid: 'SMS-K1', kind: 'accepted' } } });
    const en = cliWords('en').reason(sent.value.message.reason);
    const zh = cliWords('zh-CN').reason(sent.value.message.reason);
    expect(en).toContain('nor kept in a file. Write down the smsid SMS-K1');
    expect(en).not.toMatch(/keeps the answer/);
    expect(zh).toContain('也无法保存到文件中。请记下 smsid SMS-K1');
    expect(zh).not.toContain('已将该应答保存在文件中');
    rmSync(fallback, { force: true });
  });
});
