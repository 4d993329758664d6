// `npm run bench -- --only intake [--quick]`: the alert receiver under a steady load on loopback.
// 100 posts a second for 30 s (5 s with --quick), each a real Alertmanager v4 post of one of 50
// groups (so most are repeats, as Alertmanager's repeat_interval sends them), into a receive that
// deduplicates by the group's key, as the engine does. Posts are sent on a fixed schedule over
// keep-alive connections (Alertmanager reuses its connections), whatever the answers' pace.
//
// - intakeP50Ms / intakeP99Ms: from a post leaving to its answer read (every post, milliseconds).
// - intakePosts: posts sent; intakeRefused: posts not answered 200 (should be 0).
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { newPathSecret } from '../../main/net/inbound';
import { startAlertReceiver } from '../../main/paging/receiver';

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
  const seconds = opts.quick ? 5 : 30;
  const template = JSON.parse(readFileSync(join(__dirname, '..', '..', 'test', 'fixtures', 'paging', 'alertmanager-v4-firing.json'), 'utf8')) as {
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
