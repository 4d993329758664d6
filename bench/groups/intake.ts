// `npm run bench -- --only intake [--quick]`: the alert receiver under a steady load on loopback.
// 100 posts a second for 30 s (5 s with --quick), each a real Alertmanager v4 post of one of 50
// groups (so most are repeats, as Alertmanager's repeat_interval sends them), into a receive that
// deduplicates by the group's key, as the engine does. Posts are sent on a fixed schedule over
// keep-alive connections (Alertmanager reuses its connections), whatever the answers' pace.
//
// - intakeP50Ms / intakeP99Ms: from a post leaving to its answer read (every post, milliseconds).
// - intakePosts: posts sent; intakeRefused: posts not answered 200 (should be 0).
//
// Then the whole path, as the app and `callout page serve` run it (createServices with escalations,
// the receiver started through the handler table, with its bearer token): 5 alerts a second for 30 s
// (1 s with --quick), each a new Alertmanager group, so each opens an incident whose first step calls
// one person through a profile whose provider is a Sandbox behind a loopback relay. The relay notes
// when each send request arrives (its body names the alert) and passes it on.
//
// - postToCallP50Ms / postToCallP99Ms: from a post leaving to the provider receiving that alert's send
//   request (milliseconds): the receiver, the engine's step, the send path's checks and the request.
// - postToCallAlerts: alerts posted; postToCallMissing: alerts whose send never arrived (should be 0).
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ReceiverStatus } from '../../common/contract/paging';
import { dispatch } from '../../main/dispatch';
import { createHandlers } from '../../main/handlers';
import { newPathSecret } from '../../main/net/inbound';
import { startAlertReceiver } from '../../main/paging/receiver';
import { startSandbox } from '../../main/sandbox';
import { SessionSecretStore } from '../../main/secrets';
import { createServices } from '../../main/services';
import { tempHome } from '../../test/helpers/temp-home';

const RATE_PER_S = 100;
const GROUPS = 50;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

function post(agent: http.Agent, url: string, body: string, token: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Authorization: `Bearer ${token}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

export async function intake(opts: { quick?: boolean } = {}): Promise<Record<string, number>> {
  return { ...(await receiverOnly(opts)), ...(await postToCall(opts)) };
}

const FIXTURE = join(__dirname, '..', '..', 'test', 'fixtures', 'paging', 'alertmanager-v4-firing.json');
const ALERTS_PER_S = 5;

async function postToCall(opts: { quick?: boolean }): Promise<Record<string, number>> {
  const total = ALERTS_PER_S * (opts.quick ? 1 : 30);
  const apiKey = 'bench-paging-key-0123';
  const sandbox = await startSandbox({ timeScale: 0.01, accounts: [{ apiId: 'bench', apiKey, balance: 10_000_000, lines: 5 }] });
  const content = '【变量】告警：【变量】，请立即处理。';
  sandbox.addTemplate('bench', content, { approved: true });
  // The relay in front of the provider: when each alert's send request arrived (its content names the alert).
  const arrived = new Map<number, number>();
  const relay = http.createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const named = /BenchAlert(\d+)/.exec(body.toString('utf8'));
      if (named && !arrived.has(Number(named[1]))) arrived.set(Number(named[1]), at);
      const out = http.request(sandbox.baseUrl + (req.url ?? '/'), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const relayUrl = `http://127.0.0.1:${(relay.address() as { port: number }).port}`;
  const home = tempHome('callout-bench-paging-');
  const services = await createServices({
    home: home.dir,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'bench' } },
    sandbox: false,
    receipts: 'on-demand',
    paging: { escalate: true },
  });
  const handlers = createHandlers(services);
  const call = async <T>(channel: string, input?: unknown): Promise<T> => {
    const r = await dispatch(handlers, channel, input);
    if (!r.ok) throw new Error(`bench: ${channel}: ${JSON.stringify(r.error)}`);
    return r.value as T;
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  try {
    const profile = await call<{ id: string }>('profiles.save', { name: 'Bench', baseUrl: relayUrl, apiId: 'bench' });
    await call('profiles.setKey', { id: profile.id, apiKey });
    await call('profiles.setLines', { id: profile.id, lines: 5 });
    await call('paging.profile', { profileId: profile.id });
    await call('dial.saveSettings', { scope: '*', perMinute: null, perHour: null, perDay: null, quietStart: null, quietEnd: null });
    await call('templates.save', { id: 'bench-alert', content, approved: true, markerNames: ['who', 'what'] });
    const person = await call<{ id: number }>('contacts.save', { name: 'Bench', mobile: '13800000038' });
    const policy = await call<{ id: number }>('paging.savePolicy', {
      name: 'Bench',
      steps: [{ target: { kind: 'contact', contactId: person.id }, attempts: 1, retrySeconds: 60, pauseSeconds: 600 }],
      repeat: 0,
      minAnsweredSeconds: 0,
    });
    await call('paging.saveRoute', {
      name: 'All',
      position: 0,
      matchers: [],
      severities: [],
      policyId: policy.id,
      templateId: 'bench-alert',
      variables: { who: '{{labels.job}}', what: '{{labels.alertname}}' },
      throughQuietHours: [],
      callOnResolved: false,
      isDefault: true,
    });
    const token = newPathSecret();
    const status = await call<ReceiverStatus>('paging.receiverSave', { enabled: true, host: '127.0.0.1', port: 0, bearer: token });
    const url = status.url!;
    const template = JSON.parse(readFileSync(FIXTURE, 'utf8')) as {
      groupKey: string;
      commonLabels: Record<string, string>;
      alerts: { labels: Record<string, string> }[];
    };
    const body = (i: number) =>
      JSON.stringify({
        ...template,
        groupKey: `${template.groupKey}-bench-${i}`,
        commonLabels: { ...template.commonLabels, alertname: `BenchAlert${i}` },
        alerts: template.alerts.map((a) => ({ ...a, labels: { ...a.labels, alertname: `BenchAlert${i}` }, fingerprint: `bench${i}` })),
      });
    const posted = new Map<number, number>();
    let refused = 0;
    const start = performance.now();
    const sent: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / ALERTS_PER_S;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      posted.set(i, performance.now());
      sent.push(
        post(agent, url, body(i), token).then((s) => {
          if (s !== 200) refused++;
        }),
      );
    }
    await Promise.all(sent);
    // Every send arrives within seconds; 20 s more for a straggler.
    const until = performance.now() + 20_000;
    while (arrived.size < total - refused && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    const times = [...posted].flatMap(([i, t0]) => (arrived.has(i) ? [arrived.get(i)! - t0] : [])).sort((a, b) => a - b);
    if (times.length === 0) throw new Error('bench: no send request reached the provider');
    return {
      postToCallP50Ms: Math.round(quantile(times, 0.5) * 100) / 100,
      postToCallP99Ms: Math.round(quantile(times, 0.99) * 100) / 100,
      postToCallAlerts: total,
      postToCallMissing: total - times.length,
    };
  } finally {
    agent.destroy();
    await services.close();
    relay.closeAllConnections();
    await new Promise<void>((resolve) => relay.close(() => resolve()));
    await sandbox.close();
    home.cleanup();
  }
}

async function receiverOnly(opts: { quick?: boolean }): Promise<Record<string, number>> {
  const seconds = opts.quick ? 5 : 30;
  const template = JSON.parse(readFileSync(FIXTURE, 'utf8')) as {
    groupKey: string;
  };
  const bodies = Array.from({ length: GROUPS }, (_, i) => JSON.stringify({ ...template, groupKey: `${template.groupKey}-${i}` }));
  const incidents = new Map<string, number>();
  const token = newPathSecret();
  const receiver = await startAlertReceiver({
    port: 0,
    secret: newPathSecret(),
    auth: { bearer: token },
    receive: (group) => {
      const known = incidents.get(group.key);
      if (known !== undefined) return { incidentId: known, duplicate: true };
      incidents.set(group.key, incidents.size + 1);
      return { incidentId: incidents.size };
    },
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  try {
    // Warm up (the first requests pay for connections and JIT); not counted.
    for (let i = 0; i < 50; i++) await post(agent, receiver.url, bodies[i % GROUPS]!, token);
    const total = RATE_PER_S * seconds;
    const latencies: number[] = [];
    let refused = 0;
    const start = performance.now();
    const sent: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / RATE_PER_S;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const t0 = performance.now();
      sent.push(
        post(agent, receiver.url, bodies[i % GROUPS]!, token).then((status) => {
          latencies.push(performance.now() - t0);
          if (status !== 200) refused++;
        }),
      );
    }
    await Promise.all(sent);
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      intakeP50Ms: Math.round(quantile(sorted, 0.5) * 100) / 100,
      intakeP99Ms: Math.round(quantile(sorted, 0.99) * 100) / 100,
      intakePosts: total,
      intakeRefused: refused,
      intakeIncidents: incidents.size,
    };
  } finally {
    agent.destroy();
    await receiver.close();
  }
}
