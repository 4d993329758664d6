// `callout page serve` as an operator runs it on a server: the built binary in a child process, on a
// data directory configured beforehand (as the app would), with the built-in Sandbox. It prints the
// receiver's address, answers its health check, takes an Alertmanager post, logs the incident and
// each call with its result on stdout, and stops with exit 0 on SIGTERM. Needs `npm run build`.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { openSecretStore, SessionSecretStore } from '../../../main/secrets';
import { createServices } from '../../../main/services';
import { tempHome } from '../../helpers/temp-home';

const ROOT = resolve(__dirname, '../../..');
const BIN = join(ROOT, 'bin/callout.cjs');
const BUILT = existsSync(join(ROOT, 'out/main/cli.js'));
const FIXTURE = readFileSync(join(__dirname, '../../fixtures/paging/alertmanager-v4-firing.json'), 'utf8');

let home: { dir: string; cleanup: () => void };
let child: ChildProcess | null = null;
beforeEach(() => {
  home = tempHome('callout-page-serve-');
});
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = null;
  home.cleanup();
});

/** 李雷 is busy (…1), 张三 answers (…8): the Sandbox's call script. One group, called one by one. */
async function seed(): Promise<void> {
  const services = await createServices({
    home: home.dir,
    sandbox: false,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 't' } },
    receipts: 'on-demand',
  });
  const handlers = createHandlers(services);
  const call = async <T>(channel: string, input?: unknown): Promise<T> => {
    const r = await dispatch(handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.code), r.error);
    return r.value as T;
  };
  try {
    const li = await call<{ id: number }>('contacts.save', { name: '李雷', mobile: '13800000021' });
    const zhang = await call<{ id: number }>('contacts.save', { name: '张三', mobile: '13800000038' });
    const group = await call<{ id: number }>('contacts.saveGroup', { name: 'SRE', memberIds: [li.id, zhang.id] });
    await call('dial.saveSettings', { scope: '*', perMinute: null, perHour: null, perDay: null, quietStart: null, quietEnd: null });
    // The Sandbox's own approved alert template.
    await call('templates.save', { id: 'alert', content: '【变量】告警：【变量】，请立即处理。', approved: true, markerNames: ['who', 'what'] });
    const policy = await call<{ id: number }>('paging.savePolicy', {
      name: 'SRE',
      steps: [{ target: { kind: 'group', groupId: group.id, mode: 'one-by-one' }, attempts: 1, retrySeconds: 60, pauseSeconds: 60 }],
      repeat: 0,
      minAnsweredSeconds: 0,
    });
    await call('paging.saveRoute', {
      name: 'All',
      position: 0,
      matchers: [],
      severities: [],
      policyId: policy.id,
      templateId: 'alert',
      variables: { who: '{{labels.job}}', what: '{{labels.alertname}}' },
      throughQuietHours: [],
      callOnResolved: false,
      isDefault: true,
    });
  } finally {
    await services.close();
  }
}

function request(url: string, method: 'GET' | 'POST', body?: string): Promise<{ status: number; body: string }> {
  return new Promise((res, rej) => {
    const req = http.request(url, { method, headers: body ? { 'Content-Type': 'application/json' } : {} }, (r) => {
      let text = '';
      r.on('data', (d: Buffer) => (text += String(d)));
      r.on('end', () => res({ status: r.statusCode ?? 0, body: text }));
    });
    req.on('error', rej);
    req.end(body);
  });
}

describe.skipIf(!BUILT)('callout page serve (the built binary)', () => {
  it('prints its address, answers its health check, pages from an Alertmanager post (busy → the next person, answered), logs each step, and exits 0 on SIGTERM', async () => {
    await seed();
    const env = {
      PATH: process.env.PATH,
      CALLOUT_HOME: home.dir,
      CALLOUT_KEYCHAIN_SERVICE: `Callout-test-serve-${process.pid}`,
      LANG: 'en_US.UTF-8',
      TZ: 'UTC',
    };
    const proc = spawn(process.execPath, [BIN, 'page', 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += String(d)));
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    const lines: string[] = [];
    const waiters: { match: RegExp; resolve: (line: string) => void }[] = [];
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      lines.push(line);
      for (const w of waiters.splice(0)) {
        if (w.match.test(line)) w.resolve(line);
        else waiters.push(w);
      }
    });
    // Waits for a line of the log (the child's I/O, in real time: the serve process runs on the wall clock).
    const line = (match: RegExp) =>
      new Promise<string>((res, rej) => {
        const seen = lines.find((l) => match.test(l));
        if (seen) return res(seen);
        waiters.push({ match, resolve: res });
        void exited.then((code) => rej(new Error(`callout page serve exited with ${code}: ${stderr}\n${lines.join('\n')}`)));
      });

    const listening = await line(/^Receiving alerts at /);
    const url = /at (http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(listening)![1]!;
    const healthUrl = /^Health check: (\S+)/.exec(await line(/^Health check: /))![1]!;
    expect(await request(healthUrl, 'GET')).toEqual({ status: 200, body: 'ok' });

    const taken = await request(url, 'POST', FIXTURE);
    expect(taken.status).toBe(200);
    expect(JSON.parse(taken.body)).toMatchObject({ ok: true, incidentId: 1 });

    await line(/incident #1 opened \(alertmanager, critical\): ProbeFailure/);
    await line(/incident #1: calling 李雷 13800000021 \(step 1, attempt 1\), smsid \S+/);
    await line(/incident #1: 李雷 13800000021 busy/);
    await line(/incident #1: calling 张三 13800000038/);
    await line(/incident #1: 张三 13800000038 answered/);
    await line(/incident #1: The escalation ended: someone answered\./);

    // The same group again (Alertmanager's repeat): taken, joins incident #1, nobody is called.
    expect(JSON.parse((await request(url, 'POST', FIXTURE)).body)).toMatchObject({ incidentId: 1 });

    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines.at(-1)).toMatch(/^Stopped\./);
    expect(lines.filter((l) => / calling /.test(l))).toHaveLength(2);
    expect(stderr).toBe('');
    // It stopped listening.
    await expect(request(healthUrl, 'GET')).rejects.toThrow();
    // The Sandbox's key it kept in the keychain (a service of this test's own): removed.
    const secrets = await openSecretStore({ service: env.CALLOUT_KEYCHAIN_SERVICE });
    await secrets.store.delete('profile:sandbox').catch(() => false);
  }, 90_000);
});
