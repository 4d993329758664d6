// `callout page receiver`: a user sets, replaces and removes the alert receiver's bearer token and
// basic auth from a terminal (the secret from standard input, an environment variable or — with a
// warning in the help — the command line), then `callout page serve` refuses a post without them or
// with the wrong ones (401) and takes one with them. The secrets live in the keychain only: never in
// SQLite, never printed. Needs the OS keychain (see NO_KEYCHAIN_HINT); without one, setting a secret
// is refused rather than kept for the length of one command.
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../main/cli/program';
import { openSecretStore } from '../../../main/secrets';
import { tempHome } from '../../helpers/temp-home';
import { KEYCHAIN_REQUIRED, NO_KEYCHAIN_HINT, probeRealKeychain, uniqueService } from '../secrets/helpers';
import { cli } from '../cli/run-cli';

const PLAIN = readFileSync(join(__dirname, '../../fixtures/paging/plain.json'), 'utf8');
const TOKEN = 'am-receiver-token-4f9c2e7a1b';
const PASSWORD = 'grafana-basic-pw-73';

let home: { dir: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
const printed: string[] = [];

beforeEach(() => {
  home = tempHome('callout-receiver-auth-');
  env = { CALLOUT_HOME: home.dir, CALLOUT_KEYCHAIN_SERVICE: uniqueService('receiver-'), TZ: 'UTC' };
  printed.length = 0;
});
afterEach(async () => {
  const probe = await probeRealKeychain(env.CALLOUT_KEYCHAIN_SERVICE!);
  if (probe.available) {
    const { store } = await openSecretStore({ service: env.CALLOUT_KEYCHAIN_SERVICE });
    for (const account of ['paging.receiver.bearer', 'paging.receiver.basic', 'profile:sandbox']) await store.delete(account).catch(() => false);
  }
  home.cleanup();
});

async function run(args: string[], extra: Parameters<typeof cli>[2] = {}, moreEnv: NodeJS.ProcessEnv = {}) {
  const r = await cli(args, { ...env, ...moreEnv }, extra);
  printed.push(r.stdout, r.stderr);
  return r;
}

function post(url: string, authorization?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (authorization) headers.Authorization = authorization;
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(PLAIN);
  });
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** `callout page serve --port 0` in this process until `probe` is done: what each post got. */
async function serving<T>(probe: (url: string) => Promise<T>): Promise<T> {
  let stop!: () => void;
  const until = new Promise<void>((r) => (stop = r));
  let out = '';
  let err = '';
  let found!: (url: string) => void;
  const address = new Promise<string>((r) => (found = r));
  const done = runCli(['--lang', 'en', 'page', 'serve', '--port', '0'], {
    stdout: (s) => {
      out += s;
      const m = /Receiving alerts at (http:\/\/\S+)/.exec(out);
      if (m) found(m[1]!);
    },
    stderr: (s) => (err += s),
    env,
    stderrIsTTY: false,
    until,
  });
  const url = await Promise.race([address, done.then((code) => Promise.reject(new Error(`page serve exited ${code}: ${err}${out}`)))]);
  try {
    return await probe(url);
  } finally {
    stop();
    expect(await done).toBe(0);
    printed.push(out, err);
  }
}

describe('callout page receiver', () => {
  it('sets a bearer token from standard input, then basic auth from an environment variable, then removes both: page serve answers 401, 401, taken accordingly', async () => {
    const probe = await probeRealKeychain(env.CALLOUT_KEYCHAIN_SERVICE!);
    if (!probe.available) {
      if (KEYCHAIN_REQUIRED) throw new Error(`no keychain: ${probe.reason}`);
      // Without a keychain the token could not outlive the command: refused, and nothing is kept.
      const refused = await run(['--lang', 'en', 'page', 'receiver', '--token'], { readSecret: async () => TOKEN });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/keychain/i);
      // It names what was refused: the receiver's token or password, not the API Key.
      expect(refused.stderr).toContain("alert receiver's token or password");
      expect(refused.stderr).not.toContain('API Key');
      const zh = await run(['--lang', 'zh-CN', 'page', 'receiver', '--basic', 'grafana'], {}, { CALLOUT_RECEIVER_PASSWORD: 'grafana-password-42' });
      expect(zh.code).toBe(2);
      expect(zh.stderr).toContain('告警接收器的令牌或密码');
      expect((await run(['--json', 'page', 'receiver'])).json).toMatchObject({ auth: { token: false, basic: null } });
      console.warn(`keychain part skipped: ${NO_KEYCHAIN_HINT}`);
      return;
    }

    // Nothing set: said, in both languages.
    expect((await run(['--lang', 'en', 'page', 'receiver'])).stdout).toContain('Bearer token: not set.');
    expect((await run(['--lang', 'zh-CN', 'page', 'receiver'])).stdout).toContain('Bearer 令牌：未设置。');

    // The token from standard input (as `pass show am-token | callout page receiver --token` would).
    const set = await run(['--lang', 'en', 'page', 'receiver', '--token'], { readSecret: async () => TOKEN });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('Bearer token: set');
    expect((await run(['--lang', 'zh-CN', 'page', 'receiver'])).stdout).toContain('Bearer 令牌：已设置');
    expect(await serving(async (url) => [await post(url), await post(url, 'Bearer am-receiver-token-WRONG-000'), await post(url, `Bearer ${TOKEN}`)])).toEqual([
      401, 401, 200,
    ]);

    // Basic auth added, its password from the environment: either credential is taken.
    const withBasic = await run(['--json', 'page', 'receiver', '--basic', 'grafana'], {}, { CALLOUT_RECEIVER_PASSWORD: PASSWORD });
    expect(withBasic).toMatchObject({ code: 0, json: { auth: { token: true, basic: 'grafana' }, changed: true } });
    expect(
      await serving(async (url) => [
        await post(url, basic('grafana', 'not-the-password')),
        await post(url, basic('grafana', PASSWORD)),
        await post(url, `Bearer ${TOKEN}`),
      ]),
    ).toEqual([401, 200, 200]);

    // Replaced: the old token stops working.
    const replaced = await run(['--json', 'page', 'receiver', '--token', 'am-receiver-token-second-one'], {});
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(await serving(async (url) => [await post(url, `Bearer ${TOKEN}`), await post(url, 'Bearer am-receiver-token-second-one')])).toEqual([401, 200]);

    // Removed: a post to the secret address needs nothing more.
    const removed = await run(['--lang', 'en', 'page', 'receiver', '--no-auth']);
    expect(removed.stdout).toContain('Bearer token: not set.');
    expect(removed.stdout).toContain('Basic auth: not set.');
    expect(await serving(async (url) => [await post(url)])).toEqual([200]);
    const { store } = await openSecretStore({ service: env.CALLOUT_KEYCHAIN_SERVICE });
    expect(await store.get('paging.receiver.bearer')).toBeNull();
    expect(await store.get('paging.receiver.basic')).toBeNull();

    // The secrets were never printed, nor kept in the database.
    for (const text of printed) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(PASSWORD);
    }
    const db = new Database(join(home.dir, 'callout.db'), { readonly: true });
    const dump = JSON.stringify(db.prepare('SELECT * FROM settings').all());
    db.close();
    expect(dump).not.toContain(TOKEN);
    expect(dump).not.toContain(PASSWORD);
  }, 60_000);

  it('refuses unclear flags before keeping anything', async () => {
    expect((await run(['--lang', 'en', 'page', 'receiver', '--no-auth', '--token', 'x'.repeat(20)])).code).toBe(2);
    expect((await run(['--lang', 'en', 'page', 'receiver', '--enable', '--disable'])).code).toBe(2);
    const empty = await run(['--lang', 'en', 'page', 'receiver', '--token'], { readSecret: async () => '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('CALLOUT_RECEIVER_TOKEN');
    const both = await run(['--lang', 'zh-CN', 'page', 'receiver', '--token', '--basic', 'ops'], { readSecret: async () => TOKEN });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('CALLOUT_RECEIVER_PASSWORD');
    expect((await run(['--json', 'page', 'receiver'])).json).toMatchObject({ auth: { token: false, basic: null } });
  });

  it('a crash while a token and a password are on the command line: the log file has neither', async () => {
    // A store whose settings table is gone: reading the receiver's settings fails inside Callout.
    expect((await run(['page', 'receiver'])).code).toBe(0);
    const db = new Database(join(home.dir, 'callout.db'));
    db.exec('ALTER TABLE settings RENAME TO settings_gone');
    db.close();
    const r = await run(['--lang', 'en', 'page', 'receiver', '--token', TOKEN, '--basic', `grafana:${PASSWORD}`]);
    expect(r.code).toBe(70);
    const log = /The details are in (\S+)/.exec(r.stderr)?.[1];
    expect(log, r.stderr).toBeTruthy();
    const detail = readFileSync(log!, 'utf8');
    expect(detail).toContain('page receiver --token');
    expect(detail).not.toContain(TOKEN);
    expect(detail).not.toContain(PASSWORD);
  });
});
