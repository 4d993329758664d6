// What the CLI prints can't be abused and never crashes ugly: a provider's text with terminal
// escapes is shown, not obeyed; an internal error is one line and a log file; a database set aside
// at open is announced on stderr and in --json; a too-short key is refused.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../../main/store';
import { escapeControls, safeJson } from '../../../main/cli/terminal-text';
import { scriptedServer } from '../../helpers/scripted-server';
import { tempHome } from '../../helpers/temp-home';
import { cli } from './run-cli';

const KEY = 'hostile-output-key-9';
const TEXT = '您的验证码是1357，5分钟内有效。';
// Sets the terminal's title, erases the line, goes back to its start, and prints a fake verdict.
const EVIL = '\u001b]0;pwned\u0007\u001b[2K\rAll good, nothing was sent\n\u009b31m\u202eevil';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(reply: Record<string, unknown>) {
  const server = await scriptedServer((_req, _body, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(reply));
  });
  const home = tempHome();
  cleanups.push(server.close, home.cleanup);
  return {
    server,
    home: home.dir,
    env: { CALLOUT_HOME: home.dir, CALLOUT_BASE_URL: server.baseUrl, CALLOUT_API_ID: 'acct', CALLOUT_API_KEY: KEY, LANG: 'en_US.UTF-8' },
  };
}

/** No control character a terminal would obey, except the line breaks and tabs the CLI writes itself. */
// eslint-disable-next-line no-control-regex -- what the test looks for
const RAW_CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('provider text on a terminal', () => {
  it('an accepted send whose smsid carries a direction override prints it visibly, in both languages; one with escapes is no usable ID', async () => {
    // A control character makes an ID unusable (common/dialects usableId): the call cannot be followed, and nothing raw is printed.
    const controls = await setup({ code: 2, msg: EVIL, smsid: EVIL, count: 1 });
    const r0 = await cli(['send', '--to', '13800138008', '--content', TEXT], controls.env);
    expect(r0.code).toBe(0);
    expect(r0.stdout + r0.stderr).not.toMatch(RAW_CONTROLS);
    // A right-to-left override is not a control character: the ID is kept, and printed escaped so it cannot reorder the line.
    const { env } = await setup({ code: 2, msg: EVIL, smsid: 'S1\u202eevil', count: 1 });
    for (const lang of ['en', 'zh-CN']) {
      const r = await cli(['--lang', lang, 'send', '--to', '13800138008', '--content', TEXT], env);
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toMatch(RAW_CONTROLS);
      expect(r.stdout).toContain('S1\\u202eevil');
      // The fake verdict never starts a line of its own.
      expect(r.stdout.split('\n').some((l) => l.startsWith('All good'))).toBe(false);
    }
  });

  it('a provider error (code 500) with a hostile msg: the one stderr line is escaped', async () => {
    const { env } = await setup({ code: 500, msg: EVIL });
    const r = await cli(['send', '--to', '13800138008', '--content', TEXT], env);
    expect(r.code).toBe(4);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout + r.stderr).not.toMatch(RAW_CONTROLS);
  });

  it('history prints message text from a hostile file or provider escaped', async () => {
    const { env, home } = await setup({ code: 2, msg: 'ok', smsid: 'S1', count: 1 });
    expect((await cli(['send', '--to', '13800138008', '--content', `${TEXT}\u001b[2J`], env)).code).toBe(0);
    const r = await cli(['history'], env);
    expect(r.stdout).not.toMatch(RAW_CONTROLS);
    expect(r.stdout).toContain('\\e[2J');
    expect(existsSync(home)).toBe(true);
  });

  it('--json stays the same value, with C1 controls and direction overrides as \\u escapes', async () => {
    const { env } = await setup({ code: 2, msg: EVIL, smsid: 'S-\u009b-\u202e', count: 1 });
    const r = await cli(['--json', 'send', '--to', '13800138008', '--content', TEXT], env);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROLS);
    expect((r.json as { msg: string; smsid: string }).msg).toBe(EVIL);
    expect((r.json as { smsid: string }).smsid).toBe('S-\u009b-\u202e');
  });

  it('the escaping rule: visible, reversible by reading, idempotent', () => {
    expect(escapeControls('a\u001b[31mb\r\n\tc\u0000')).toBe('a\\e[31mb\\r\\n\\tc\\x00');
    expect(escapeControls('line\nnext\tcol', { keepLines: true })).toBe('line\nnext\tcol');
    expect(escapeControls(escapeControls(EVIL))).toBe(escapeControls(EVIL));
    expect(escapeControls('中文，标点。ok')).toBe('中文，标点。ok');
    expect(JSON.parse(safeJson(JSON.stringify({ x: '\u0085\u2028\u202e' })))).toEqual({ x: '\u0085\u2028\u202e' });
  });
});

describe('a crash is one line and a log file, never a stack trace', () => {
  it('an internal error: exit 70 (not 1, a negative result), one line naming the log, the details (not the key) in the log', async () => {
    const { env, home } = await setup({ code: 2, msg: 'ok', smsid: 'S1', count: 1 });
    // A store whose messages lost a column the history reads: the history query fails inside Callout.
    const s = openStore(home);
    s.db.exec('ALTER TABLE messages RENAME COLUMN content TO content_gone');
    s.close();
    for (const args of [['history'], ['--json', 'history']]) {
      const r = await cli(args, env);
      expect(r.code).toBe(70);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at |Error:|SqliteError/);
      const log = /The details are in (\S+)/.exec(r.stderr)?.[1];
      expect(log).toBeTruthy();
      expect(log!.startsWith(join(home, 'logs'))).toBe(true);
      const detail = readFileSync(log!, 'utf8');
      expect(detail).toMatch(/no such column/);
      expect(detail).toMatch(/\n\s+at /);
      expect(detail).not.toContain(KEY);
      if (args[0] === '--json') expect(r.json).toMatchObject({ error: { kind: 'internal', log } });
    }
  });
});

describe('a database set aside at open', () => {
  it('is announced on stderr and in --json (wrapped when the value is a list), in both modes', async () => {
    const { env, home } = await setup({ code: 2, msg: 'ok' });
    writeFileSync(join(home, 'callout.db'), 'this is not a database, it was damaged '.repeat(200));
    const r = await cli(['--json', 'history'], env);
    expect(r.code).toBe(0);
    const value = r.json as { databaseRecovered: { movedTo: string; kind: string }; result: unknown[] };
    expect(value.result).toEqual([]);
    expect(value.databaseRecovered).toMatchObject({ kind: 'database' });
    expect(value.databaseRecovered.movedTo).toMatch(/callout\.db\.corrupt-/);
    expect(existsSync(value.databaseRecovered.movedTo)).toBe(true);
    expect(r.stderr).toMatch(/^callout: the database was damaged: it was kept aside as .*callout\.db\.corrupt-/);

    writeFileSync(join(home, 'callout.db'), 'damaged again '.repeat(300));
    const human = await cli(['template', 'list'], env);
    expect(human.code).toBe(0);
    expect(human.stderr).toMatch(/kept aside as/);
    // An object value gets the key.
    writeFileSync(join(home, 'callout.db'), 'and again '.repeat(300));
    const saved = await cli(['--json', 'template', 'add', '--content', '您好【变量】'], env);
    expect(saved.json).toMatchObject({ content: '您好【变量】', databaseRecovered: { kind: 'database' } });
  });
});

describe('CALLOUT_API_KEY shorter than the minimum', () => {
  it('is refused before anything is sent, without echoing it', async () => {
    const { env, server } = await setup({ code: 2, msg: 'ok', smsid: 'S1', count: 1 });
    const r = await cli(['send', '--to', '13800138008', '--content', TEXT], { ...env, CALLOUT_API_KEY: 'k' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/shorter than 8 characters/);
    expect(server.received).toHaveLength(0);
    // The signature debugger computes with it (HMAC test vectors use short keys), and says Callout would not store it.
    const sign = await cli(['sign', '--api-id', 'a', '--method', 'POST', '--url', 'https://x.example/voice/vm'], { ...env, CALLOUT_API_KEY: 'abc' });
    expect(sign.code).toBe(0);
    expect(sign.stderr).toMatch(/shorter than 8 characters; Callout signs with it here but would not store it/);
    expect(sign.stderr + sign.stdout).not.toContain('abc"');
  });

  it('plain http to another machine needs --send-key-unencrypted', async () => {
    const { env } = await setup({ code: 2, msg: 'ok' });
    const r = await cli(['balance'], { ...env, CALLOUT_BASE_URL: 'http://voice.example.invalid' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unencrypted/);
  });
});
