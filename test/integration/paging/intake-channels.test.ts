// Paging's intake through the handler table, as the On call screen uses it: a pasted Alertmanager
// post goes route → policy → calls against the built-in Sandbox with the real rules (rules.ts): the
// first person does not answer, the second is busy (the next is called at once), the third answers;
// a repeat of the post calls nobody; the preview calls nobody; an unreadable paste says where and
// what. And the receiver's settings: a secret path kept across restarts, its token in the keychain
// only, a post to its address received.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/clock';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services } from '../../../main/services';
import type { IncidentDetail, IncidentRecord } from '../../../common/paging/records';
import type { AlertPreview, ReceiverStatus } from '../../../common/contract/paging';
import { cliWords } from '../../../main/cli/text';
import { tempHome } from '../../helpers/temp-home';

const START = Date.UTC(2026, 10, 27, 2, 0, 0);
const fixture = (name: string) => readFileSync(join(__dirname, '../../fixtures/paging', name), 'utf8');

const opened: Services[] = [];
const homes: { cleanup: () => void }[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  for (const h of homes.splice(0)) h.cleanup();
});

type Call = <T>(channel: string, input?: unknown) => Promise<T>;

// `keychain`: the store stands in for the OS keychain (its status says so), as a real one would.
async function open(clock: ManualClock, dir: string, secrets = new SessionSecretStore(), sandbox = true, keychain = false) {
  const services = await createServices({
    home: dir,
    clock,
    ...(sandbox ? {} : { sandbox: false as const }),
    secrets: {
      store: secrets,
      status: keychain
        ? { kind: 'keychain', keychainAvailable: true, reason: null, reasonCode: null }
        : { kind: 'session', keychainAvailable: false, reason: 't' },
    },
    receipts: 'on-demand',
    paging: { escalate: true },
  });
  opened.push(services);
  const handlers = createHandlers(services);
  const call: Call = async <T>(channel: string, input?: unknown) => {
    const r = await dispatch(handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.code}`), r.error);
    return r.value as T;
  };
  const fails = async (channel: string, input?: unknown) => {
    const r = await dispatch(handlers, channel, input);
    if (r.ok) throw new Error(`${channel} succeeded`);
    return r.error;
  };
  return { services, call, fails };
}

/** 王工 never answers (…0), 李雷 is busy (…1), 张三 answers (…8): the Sandbox's call script (main/sandbox/call-script.ts). */
async function configure(call: Call): Promise<void> {
  const ids: number[] = [];
  for (const [name, mobile] of [
    ['王工', '13800000010'],
    ['李雷', '13800000021'],
    ['张三', '13800000038'],
  ])
    ids.push((await call<{ id: number }>('contacts.save', { name, mobile })).id);
  const group = await call<{ id: number }>('contacts.saveGroup', { name: 'SRE', memberIds: ids });
  await call('dial.saveSettings', { scope: '*', perMinute: null, perHour: null, perDay: null, quietStart: null, quietEnd: null });
  await call('templates.save', { id: 'alert', content: '【变量】告警：【变量】，请立即处理。', approved: true, markerNames: ['who', 'what'] });
  await call('sandbox.registerTemplates', { templateIds: ['alert'], approve: 'now' });
  const policy = await call<{ id: number }>('paging.savePolicy', {
    name: 'SRE',
    steps: [{ target: { kind: 'group', groupId: group.id, mode: 'one-by-one' }, attempts: 2, retrySeconds: 60, pauseSeconds: 120 }],
    repeat: 0,
    minAnsweredSeconds: 0,
  });
  await call('paging.saveRoute', {
    name: 'Probe failures',
    position: 0,
    matchers: [{ label: 'alertname', op: '=', value: 'ProbeFailure' }],
    severities: ['critical'],
    policyId: policy.id,
    templateId: 'alert',
    variables: { who: '{{labels.job}}', what: '{{labels.alertname}}' },
    throughQuietHours: [],
    callOnResolved: false,
    isDefault: false,
  });
  await call('paging.saveRoute', {
    name: 'Everything else',
    position: 1,
    matchers: [],
    severities: [],
    policyId: policy.id,
    templateId: 'alert',
    variables: { who: '{{labels.job}}', what: '{{title}}' },
    throughQuietHours: [],
    callOnResolved: false,
    isDefault: true,
  });
}

/**
 * Moves the manual clock on a second at a time until `done`: between steps the Sandbox's replies
 * come back over its socket (I/O on the event loop, not time), so each step lets that run.
 */
async function driveUntil(clock: ManualClock, done: () => Promise<boolean>, maxSeconds = 1800): Promise<void> {
  for (let i = 0; i < maxSeconds; i++) {
    if (await done()) return;
    await clock.advance(1000);
    await new Promise((r) => setImmediate(r));
    // Real time: one millisecond for the socket reply to land before the next step (I/O, not a wait for time to pass).
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error('not done in time');
}

describe('paste an alert → route → policy → calls (the real rules, the built-in Sandbox, the manual clock)', () => {
  it('no answer, busy (the next at once), answered: the incident ends answered; a repeat calls nobody', async () => {
    const clock = new ManualClock(START);
    const home = tempHome();
    homes.push(home);
    const { call } = await open(clock, home.dir);
    await configure(call);

    const preview = await call<AlertPreview>('paging.preview', { text: fixture('alertmanager-v4-firing.json') });
    expect(preview.route).toMatchObject({ name: 'Probe failures' });
    expect(preview.why.map((w) => w.code)).toEqual(['matched']);
    expect(preview.text).toBe('http_checks告警：ProbeFailure，请立即处理。');
    expect(preview.joins).toBeNull();
    // The preview called nobody and opened nothing.
    expect(await call<IncidentRecord[]>('incidents.list')).toEqual([]);

    const incident = await call<IncidentRecord>('paging.paste', { text: fixture('alertmanager-v4-firing.json') });
    expect(incident).toMatchObject({ source: 'paste', state: 'triggered' });
    const detail = () => call<IncidentDetail>('incidents.show', { id: incident.id });
    await driveUntil(clock, async () => (await detail()).incident.ended !== null);

    const d = await detail();
    expect(d.incident.ended).toBe('answered');
    expect(d.calls.map((c) => [c.name, c.result])).toEqual([
      ['王工', 'no-answer'],
      ['王工', 'no-answer'],
      ['李雷', 'busy'],
      ['张三', 'answered'],
    ]);
    // No answer waits retrySeconds before the second attempt; busy moves on at once.
    const [first, second, busy, answered] = d.calls;
    expect(second!.startedAt - first!.endedAt!).toBeGreaterThanOrEqual(60_000);
    expect(answered!.startedAt - busy!.endedAt!).toBeLessThan(5_000);
    expect(d.calls.every((c) => c.smsid !== null)).toBe(true);

    // Alertmanager's repeat of the same group joins the incident and calls nobody.
    const again = await call<AlertPreview>('paging.preview', { text: fixture('alertmanager-v4-firing.json') });
    expect(again.joins).toBe(incident.id);
    await call('paging.paste', { text: fixture('alertmanager-v4-firing.json') });
    await clock.advance(600_000);
    expect((await detail()).calls).toHaveLength(4);
    expect(await call<IncidentRecord[]>('incidents.list')).toHaveLength(1);
  });

  it('says where and what when a paste is not an alert, and opens nothing', async () => {
    const clock = new ManualClock(START);
    const home = tempHome();
    homes.push(home);
    const { call, fails } = await open(clock, home.dir, undefined, false);
    expect(await fails('paging.paste', { text: '{"version":"4","groupKey":"x","status":"firing","alerts":[{"status":"burning","labels":{}}]}' })).toMatchObject(
      {
        code: 'paging',
        params: { kind: 'alert-invalid', field: 'alerts[0].status', problem: 'invalid-status' },
      },
    );
    expect(await fails('paging.preview', { text: 'not json' })).toMatchObject({
      code: 'paging',
      params: { kind: 'alert-invalid', field: '$', problem: 'not-json' },
    });
    expect(await call<IncidentRecord[]>('incidents.list')).toEqual([]);
  });
});

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += String(d)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the alert receiver’s settings', () => {
  it('listens at a secret path kept across restarts, keeps its token in the keychain only, and hands posts to paging', async () => {
    const clock = new ManualClock(START);
    const home = tempHome();
    homes.push(home);
    const keychain = new SessionSecretStore();
    const first = await open(clock, home.dir, keychain, false, true);
    let status = await first.call<ReceiverStatus>('paging.receiverStatus');
    expect(status).toMatchObject({ enabled: false, listening: false, host: '127.0.0.1', url: null, warning: null });

    const token = 'alertmanager-token-0123456789';
    status = await first.call<ReceiverStatus>('paging.receiverSave', { enabled: true, host: '127.0.0.1', port: 0, bearer: token });
    expect(status).toMatchObject({ enabled: true, listening: true, auth: { bearer: true, basic: null }, error: null });
    const url = status.url!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{20,}$/);

    expect((await post(url, fixture('plain.json'))).status).toBe(401);
    expect((await post(url, fixture('plain.json'), { Authorization: 'Bearer alertmanager-token-WRONG-6789' })).status).toBe(401);
    const taken = await post(url, fixture('plain.json'), { Authorization: `Bearer ${token}` });
    expect(taken.status).toBe(200);
    expect(JSON.parse(taken.body)).toMatchObject({ ok: true, incidentId: 1 });
    expect(await first.call<IncidentRecord[]>('incidents.list')).toMatchObject([{ id: 1, source: 'json', key: 'orders-db-lag' }]);

    // Basic auth added (the token kept): either is taken, a wrong password is not; then basic auth is removed from the keychain.
    const password = 'grafana-password-42';
    status = await first.call<ReceiverStatus>('paging.receiverSave', { enabled: true, host: '127.0.0.1', port: 0, basic: { username: 'grafana', password } });
    expect(status.auth).toEqual({ bearer: true, basic: { username: 'grafana' } });
    const basic = (p: string) => ({ Authorization: `Basic ${Buffer.from(`grafana:${p}`).toString('base64')}` });
    expect((await post(status.url!, fixture('plain.json'), basic('wrong-password-42'))).status).toBe(401);
    expect((await post(status.url!, fixture('plain.json'), basic(password))).status).toBe(200);
    expect((await post(status.url!, fixture('plain.json'), { Authorization: `Bearer ${token}` })).status).toBe(200);
    expect(JSON.stringify(status)).not.toContain(password);
    status = await first.call<ReceiverStatus>('paging.receiverSave', { enabled: true, host: '127.0.0.1', port: 0, basic: null });
    expect(status.auth).toEqual({ bearer: true, basic: null });
    expect(await keychain.get('paging.receiver.basic')).toBeNull();

    // The token is in the keychain, never in the database.
    expect(await keychain.get('paging.receiver.bearer')).toBe(token);
    await first.services.close();
    opened.splice(opened.indexOf(first.services), 1);
    const db = new Database(join(home.dir, 'callout.db'), { readonly: true });
    const dump = JSON.stringify(db.prepare('SELECT * FROM settings').all());
    db.close();
    expect(dump).not.toContain(token);

    // The next start listens again (enabled), at the same secret path: Alertmanager's address still works.
    const second = await open(clock, home.dir, keychain, false, true);
    await driveUntil(clock, async () => (await second.call<ReceiverStatus>('paging.receiverStatus')).listening, 50);
    status = await second.call<ReceiverStatus>('paging.receiverStatus');
    expect(new URL(status.url!).pathname).toBe(new URL(url).pathname);

    // Stopping stops listening; an address beyond this machine is warned about.
    const stopped = await second.call<ReceiverStatus>('paging.receiverStop');
    expect(stopped.listening).toBe(false);
    await expect(post(status.url!, '{}')).rejects.toThrow();
    const exposed = await second.call<ReceiverStatus>('paging.receiverSave', { enabled: false, host: '192.0.2.10', port: 9095 });
    expect(exposed).toMatchObject({ listening: false, warning: { code: 'paging.receiver.exposed', params: { host: '192.0.2.10' } }, auth: { bearer: true } });
  });

  it('without a keychain, a token or password is refused and nothing is kept (it would be gone at the next start, every post refused)', async () => {
    const clock = new ManualClock(START);
    const home = tempHome();
    homes.push(home);
    const session = new SessionSecretStore();
    const { call, fails } = await open(clock, home.dir, session, false);
    const refused = await fails('paging.receiverSave', { enabled: true, host: '127.0.0.1', port: 0, bearer: 'alertmanager-token-0123456789' });
    expect(refused).toMatchObject({ code: 'receiver-keychain-unavailable' });
    await expect(
      call('paging.receiverSave', { enabled: true, host: '127.0.0.1', port: 0, basic: { username: 'grafana', password: 'grafana-password-42' } }),
    ).rejects.toMatchObject({ code: 'receiver-keychain-unavailable' });
    // The refusal names what was refused, the receiver's token or password, not the API Key (both languages).
    const en = cliWords('en').error(refused);
    const zh = cliWords('zh-CN').error(refused);
    expect(en).toContain("receiver's token or password");
    expect(zh).toContain('接收器的令牌或密码');
    expect(`${en} ${zh}`).not.toContain('API Key');
    expect(await call<ReceiverStatus>('paging.receiverStatus')).toMatchObject({ enabled: false, auth: { bearer: false, basic: null } });
    expect(await session.get('paging.receiver.bearer')).toBeNull();
    // Settings without a secret are still saved.
    expect(await call<ReceiverStatus>('paging.receiverSave', { enabled: false, host: '127.0.0.1', port: 9096 })).toMatchObject({ port: 9096 });
  });
});
