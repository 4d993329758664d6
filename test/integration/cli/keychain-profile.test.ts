// `callout send --profile NAME --template T` and `callout bulk FILE --template T --profile NAME`
// with the profile's key in the REAL keychain (gnome-keyring under dbus-run-session here and in
// CI). The template lookup opens the session first; the key must still come from the keychain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEYCHAIN_SERVICE_ENV, KeychainSecretStore } from '../../../main/secrets';
import { secretAccount } from '../../../main/profiles/profile-service';
import { createServices } from '../../../main/services';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { tempHome } from '../../helpers/temp-home';
import { KEYCHAIN_REQUIRED, NO_KEYCHAIN_HINT, probeRealKeychain, uniqueService } from '../secrets/helpers';
import { runCli } from '../../../main/cli/program';
import { cli } from './run-cli';

const SERVICE = uniqueService('cli-profile-');
const keychain = await probeRealKeychain(SERVICE);
const skip = !keychain.available && !KEYCHAIN_REQUIRED;
if (skip) console.warn(`keychain-profile.test.ts skipped: ${keychain.reason}; ${NO_KEYCHAIN_HINT}`);

const KEY = 'keychain-profile-key-77';
const TEMPLATE = '您的验证码是【变量】，5分钟内有效。';

describe.skipIf(skip)('--profile with the key in the real keychain', () => {
  let sandbox: Sandbox;
  let home: { dir: string; cleanup: () => void };
  let env: NodeJS.ProcessEnv;
  let profileId = '';
  const previousService = process.env[KEYCHAIN_SERVICE_ENV];

  beforeAll(async () => {
    // The CLI opens the keychain itself (lazily), under this run's own service name.
    process.env[KEYCHAIN_SERVICE_ENV] = SERVICE;
    sandbox = await startSandbox({ timeScale: 0.002, accounts: [{ apiId: 'kc-acct', apiKey: KEY, balance: 1000 }] });
    home = tempHome();
    env = { CALLOUT_HOME: home.dir, LANG: 'en_US.UTF-8' };
    // The app saved the profile and put its key in the keychain.
    const app = await createServices({ home: home.dir, sandbox: false });
    expect((await app.secretStatus()).kind).toBe('keychain');
    const p = await app.profiles.save({ name: 'Prod', baseUrl: sandbox.baseUrl, apiId: 'kc-acct' });
    await app.profiles.setKey(p.id, KEY);
    profileId = p.id;
    await app.close();
    expect((await cli(['template', 'add', '--id', 'otp', '--content', TEMPLATE, '--approved'], env)).code).toBe(0);
  });

  afterAll(async () => {
    const store = await KeychainSecretStore.open({ service: SERVICE, probeTimeoutMs: 5_000 }).catch(() => null);
    if (profileId) await store?.delete(secretAccount(profileId)).catch(() => undefined);
    await store?.delete(secretAccount('sandbox')).catch(() => undefined);
    if (previousService === undefined) delete process.env[KEYCHAIN_SERVICE_ENV];
    else process.env[KEYCHAIN_SERVICE_ENV] = previousService;
    await sandbox?.close();
    home?.cleanup();
  });

  it('send --profile NAME --template T finds the key', async () => {
    const r = await cli(['--json', '--profile', 'Prod', 'send', '--to', '13800138008', '--template', 'otp', '--var', '1=246810'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ code: 2, outcome: 'accepted', mobile: '13800138008' });
    expect(sandbox.requests().filter((x) => x.op === 'send')).toHaveLength(1);
  });

  it('bulk FILE --template T --profile NAME finds the key and sends every row', async () => {
    const file = join(home.dir, 'list.csv');
    writeFileSync(file, 'mobile,code\n13800138001,1111\n13800138002,2222\n');
    const r = await cli(['--json', '--profile', 'Prod', 'bulk', file, '--template', 'otp', '--no-wait'], env);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.json).toMatchObject({ status: 'done', sent: 2, accepted: 2, unknown: 0, rejected: 0 });
  });
  it("capture --profile Sandbox prints the Sandbox's demo account for the backend (never a real profile's key)", async () => {
    // The app ran with its Sandbox once: the Sandbox's key was generated and kept in the keychain.
    const app = await createServices({ home: home.dir, sandbox: { timeScale: 0.002 } });
    const demo = app.sandbox!.demo;
    await app.close();
    for (const [lang, words] of [
      ['en_US.UTF-8', "Sandbox's demo account"],
      ['zh_CN.UTF-8', '沙箱的演示账号'],
    ] as const) {
      let stop!: () => void;
      const until = new Promise<void>((r) => (stop = r));
      let out = '';
      let err = '';
      let up!: () => void;
      const listening = new Promise<void>((r) => (up = r));
      const exit = runCli(['--profile', 'Sandbox', 'capture', '--target', sandbox.baseUrl], {
        stdout: (x) => ((out += x), out.includes('Ctrl-C') && up()),
        stderr: (x) => (err += x),
        env: { ...env, LANG: lang },
        stderrIsTTY: false,
        until,
      });
      await Promise.race([listening, exit.then((c) => Promise.reject(new Error(`capture exited ${c}: ${err}${out}`)))]);
      stop();
      expect(await exit).toBe(0);
      expect(out).toContain(words);
      expect(out).toContain(demo.apiId);
      expect(out).toContain(demo.apiKey);
      expect(out).not.toContain(KEY);
    }
    // A real profile's key is not printed.
    let stop!: () => void;
    const until = new Promise<void>((r) => (stop = r));
    let out = '';
    let up!: () => void;
    const listening = new Promise<void>((r) => (up = r));
    const exit = runCli(['--profile', 'Prod', 'capture', '--target', sandbox.baseUrl], {
      stdout: (x) => ((out += x), out.includes('Ctrl-C') && up()),
      stderr: () => undefined,
      env,
      stderrIsTTY: false,
      until,
    });
    await listening;
    stop();
    expect(await exit).toBe(0);
    expect(out).not.toContain(KEY);
    expect(out).not.toContain(demo.apiKey);
  });
});
