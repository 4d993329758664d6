// The alert receiver under hostile input (issue 25, "Done when"): a real server on 127.0.0.1, a fake
// engine that records what it is handed. Every refusal is a clear 4xx (JSON saying why) that hands
// nothing over; a flood of posts is answered in full with each post handed over exactly once;
// Alertmanager's and Grafana's real posts are taken.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { AlertGroup } from '../../../common/paging/types';
import { INTAKE_LIMITS } from '../../../common/paging/intake';
import { ManualClock } from '../../../main/clock';
import { newPathSecret } from '../../../main/net/inbound';
import { MAX_ALERT_POST_BYTES, receiverWarning, startAlertReceiver, type AlertReceiverOptions } from '../../../main/paging/receiver';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'paging');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: Record<string, unknown> | null;
}

/**
 * One request with node:http (not fetch): the answer is read even when the server answers before
 * the body is sent in full and closes (a refused 10 MB post). `body` as chunks: sent without a length.
 */
function send(url: string, o: { method?: string; headers?: Record<string, string>; body?: string | Buffer | Buffer[]; path?: string } = {}): Promise<Answer> {
  const target = new URL(o.path ?? '', url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'Content-Type': 'application/json', ...o.headers };
    if (typeof o.body === 'string' || Buffer.isBuffer(o.body)) headers['Content-Length'] = Buffer.byteLength(o.body);
    let answered = false;
    const req = http.request(target, { method: o.method ?? 'POST', headers, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, unknown> | null;
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          json = null;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    // Writing into a connection the server closed fails after its answer came: that answer counts.
    req.on('error', (e) => (answered ? undefined : reject(e)));
    if (Array.isArray(o.body)) {
      for (const c of o.body) req.write(c);
      req.end();
    } else req.end(o.body);
  });
}

async function receiver(extra: Partial<AlertReceiverOptions> = {}) {
  const received: AlertGroup[] = [];
  const byKey = new Map<string, number>();
  const r = await startAlertReceiver({
    port: 0,
    secret: newPathSecret(),
    receive: (group) => {
      received.push(group);
      const known = byKey.get(group.key);
      if (known !== undefined) return { incidentId: known, duplicate: true };
      byKey.set(group.key, byKey.size + 1);
      return { incidentId: byKey.size };
    },
    ...extra,
  });
  onTestFinished(() => r.close());
  return { ...r, received };
}

const plain = (key: string) => JSON.stringify({ title: 'Disk full on db1', severity: 'critical', key, labels: { instance: 'db1' } });

describe('the alert receiver', () => {
  it('listens on 127.0.0.1 at its secret path, takes a post and says which incident it joined', async () => {
    const r = await receiver();
    const url = new URL(r.url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(r.warning).toBeNull();
    const first = await send(r.url, { body: plain('disk-db1') });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ ok: true, incidentId: 1, duplicate: false });
    // A repeat is still handed over (the engine deduplicates) and says so.
    expect((await send(r.url, { body: plain('disk-db1') })).json).toEqual({ ok: true, incidentId: 1, duplicate: true });
    expect(r.received.map((g) => [g.source, g.key, g.title])).toEqual([
      ['json', 'disk-db1', 'Disk full on db1'],
      ['json', 'disk-db1', 'Disk full on db1'],
    ]);
  });

  it('keeps the secret path given by the caller: the address survives a restart', async () => {
    const secret = newPathSecret();
    const a = await startAlertReceiver({ port: 0, secret, receive: () => ({ incidentId: 1 }) });
    const port = a.port;
    const url = a.url;
    await a.close();
    const b = await startAlertReceiver({ port, secret, receive: () => ({ incidentId: 1 }) });
    onTestFinished(() => b.close());
    expect(b.url).toBe(url);
    expect((await send(b.url, { body: plain('k') })).status).toBe(200);
  });

  it('warns when it listens beyond this machine, and why', () => {
    expect(receiverWarning('127.0.0.1')).toBeNull();
    expect(receiverWarning('::1')).toBeNull();
    expect(receiverWarning('192.168.1.20')).toEqual({ code: 'paging.receiver.exposed', params: { host: '192.168.1.20' } });
    expect(receiverWarning('0.0.0.0')).not.toBeNull();
  });

  it('answers a wrong path 404 and a wrong method 405, in JSON, handing nothing over', async () => {
    const r = await receiver();
    const base = new URL(r.url);
    for (const path of ['/', '/x', `${base.pathname}x`, base.pathname.slice(0, -1), `${base.pathname}/`, base.pathname.toUpperCase(), '/healthz/x']) {
      const a = await send(r.url, { path, body: plain('k') });
      expect(a.status, path).toBe(404);
      expect(a.json).toEqual({ error: 'not-found' });
    }
    const get = await send(r.url, { method: 'GET' });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expect(get.json).toEqual({ error: 'method-not-allowed' });
    expect(r.received).toEqual([]);
  });

  it('answers its health check with a bare ok, without the secret', async () => {
    let healthy = true;
    const r = await receiver({ healthy: () => healthy });
    const a = await send(r.healthUrl, { method: 'GET' });
    expect(a).toMatchObject({ status: 200, text: 'ok' });
    healthy = false;
    expect((await send(r.healthUrl, { method: 'GET' })).status).toBe(503);
    expect(r.healthUrl).not.toContain(new URL(r.url).pathname);
    expect(r.received).toEqual([]);
  });

  it('with a bearer token: no token and a wrong one get 401 with WWW-Authenticate; the right one is taken', async () => {
    const r = await receiver({ auth: { bearer: 's3cret-token' } });
    for (const authorization of [
      undefined,
      'Bearer wrong',
      'Bearer s3cret-token-and-more',
      'Bearer s3cret-toke',
      'Basic czNjcmV0LXRva2Vu',
      'Token s3cret-token',
      's3cret-token',
    ]) {
      const a = await send(r.url, { body: plain('k'), headers: authorization ? { Authorization: authorization } : {} });
      expect(a.status, authorization).toBe(401);
      expect(a.headers['www-authenticate']).toBe('Bearer realm="callout"');
      expect(a.json).toEqual({ error: 'unauthorized' });
    }
    expect(r.received).toEqual([]);
    expect((await send(r.url, { body: plain('k'), headers: { Authorization: 'Bearer s3cret-token' } })).status).toBe(200);
    expect((await send(r.url, { body: plain('k'), headers: { Authorization: 'bearer s3cret-token' } })).status).toBe(200);
    expect(r.received).toHaveLength(2);
  });

  it('with basic auth: the right user and password are taken, anything else is 401', async () => {
    const r = await receiver({ auth: { basic: { username: 'alertmanager', password: 'pa:ss wörd' } } });
    const basic = (s: string) => ({ Authorization: `Basic ${Buffer.from(s).toString('base64')}` });
    for (const headers of [
      {},
      basic('alertmanager:wrong'),
      basic('other:pa:ss wörd'),
      basic('alertmanager:pa:ss wörd!'),
      { Authorization: 'Bearer pa:ss wörd' },
    ]) {
      const a = await send(r.url, { body: plain('k'), headers });
      expect(a.status).toBe(401);
      expect(a.headers['www-authenticate']).toBe('Basic realm="callout", charset="UTF-8"');
    }
    expect(r.received).toEqual([]);
    expect((await send(r.url, { body: plain('k'), headers: basic('alertmanager:pa:ss wörd') })).status).toBe(200);
    expect(r.received).toHaveLength(1);
  });

  it('refuses a wrong content type (415) before reading the body', async () => {
    const r = await receiver();
    for (const type of ['application/x-www-form-urlencoded', 'text/html', 'multipart/form-data; boundary=x', 'application/xml']) {
      const a = await send(r.url, { body: plain('k'), headers: { 'Content-Type': type } });
      expect(a.status, type).toBe(415);
      expect(a.json).toEqual({ error: 'alert-post-invalid', field: 'content-type', problem: 'content-type' });
    }
    expect(r.received).toEqual([]);
  });

  it('refuses a 10 MB body (413), declared or streamed without a length, and stays up', async () => {
    const r = await receiver();
    const big = Buffer.alloc(10 * 1024 * 1024, 0x20);
    const declared = await send(r.url, { body: big });
    expect(declared.status).toBe(413);
    expect(declared.json).toEqual({ error: 'alert-post-invalid', field: '$', problem: 'too-large', limit: MAX_ALERT_POST_BYTES });
    const chunks = Array.from({ length: 160 }, () => Buffer.alloc(64 * 1024, 0x20));
    const streamed = await send(r.url, { body: chunks });
    expect(streamed.status).toBe(413);
    expect(r.received).toEqual([]);
    expect((await send(r.url, { body: plain('k') })).status).toBe(200);
  });

  it('refuses 10,000 alerts in one post by the intake bound (422, the field and the limit)', async () => {
    const r = await receiver();
    const alerts = Array.from({ length: 10_000 }, (_, i) => ({ status: 'firing', labels: { alertname: 'Flood', instance: `host-${i}` } }));
    const a = await send(r.url, { body: JSON.stringify({ version: '4', status: 'firing', groupKey: '{}:{}', alerts }) });
    expect(a.status).toBe(422);
    expect(a.json).toEqual({ error: 'alert-post-invalid', field: 'alerts', problem: 'too-many', limit: INTAKE_LIMITS.alerts });
    expect(r.received).toEqual([]);
  });

  it('refuses deep nesting (400) and malformed posts (400/422) with the field and problem', async () => {
    const r = await receiver();
    const deep = `{"title":"x","labels":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect((await send(r.url, { body: deep })).json).toEqual({ error: 'alert-post-invalid', field: '$', problem: 'too-deep', limit: INTAKE_LIMITS.depth });
    expect((await send(r.url, { body: deep })).status).toBe(400);
    const cases: Array<[string, number, object]> = [
      ['{"alerts": [', 400, { field: '$', problem: 'not-json' }],
      ['[1, 2]', 422, { field: '$', problem: 'not-object' }],
      ['{"hello": "world"}', 422, { field: '$', problem: 'unknown-shape' }],
      ['{"version": "4", "alerts": []}', 422, { field: 'alerts', problem: 'empty' }],
      ['{"version": "4", "alerts": [{"labels": {"a": 1}}]}', 422, { field: 'alerts[0].labels.a', problem: 'wrong-type' }],
      ['', 422, { field: '$', problem: 'empty' }],
    ];
    for (const [body, status, why] of cases) {
      const a = await send(r.url, { body });
      expect(a.status, body).toBe(status);
      expect(a.json, body).toEqual({ error: 'alert-post-invalid', ...why });
    }
    expect(r.received).toEqual([]);
  });

  it('takes a flood of 1,000 posts: every one answered, each handed over exactly once, one at a time', async () => {
    let inside = 0;
    let most = 0;
    const received: AlertGroup[] = [];
    const r = await receiver({
      receive: async (group) => {
        inside++;
        most = Math.max(most, inside);
        received.push(group);
        // The first post holds its turn while others arrive (for many turns of the event loop): none may start meanwhile.
        for (let turn = 0; turn < (received.length === 1 ? 500 : 1); turn++) await new Promise((resolve) => setImmediate(resolve));
        inside--;
        return { incidentId: Number(group.key.slice(2)) };
      },
    });
    const answers = await Promise.all(Array.from({ length: 1_000 }, (_, i) => send(r.url, { body: plain(`k-${i}`) })));
    expect(answers.map((a) => a.status)).toEqual(Array(1_000).fill(200));
    expect(answers.map((a) => a.json?.incidentId).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
    expect(received).toHaveLength(1_000);
    expect(new Set(received.map((g) => g.key)).size).toBe(1_000);
    expect(most).toBe(1);
    // Still alive.
    expect((await send(r.healthUrl, { method: 'GET' })).text).toBe('ok');
  });

  it('answers 503 (send again) when the engine cannot take a post, and takes it when sent again', async () => {
    let fail = true;
    const taken: string[] = [];
    const r = await receiver({
      receive: (g) => {
        if (fail) throw new Error('database is locked');
        taken.push(g.key);
        return { incidentId: 7 };
      },
      log: () => undefined,
    });
    const a = await send(r.url, { body: plain('k') });
    expect(a.status).toBe(503);
    expect(a.headers['retry-after']).toBe('5');
    fail = false;
    expect((await send(r.url, { body: plain('k') })).json).toEqual({ ok: true, incidentId: 7, duplicate: false });
    expect(taken).toEqual(['k']);
  });

  it('beyond its memory budget, asks the sender to come back (503) instead of reading', async () => {
    const r = await receiver({ maxInFlightBytes: 10 });
    const a = await send(r.url, { body: plain('k') });
    expect(a.status).toBe(503);
    expect(a.json).toEqual({ error: 'busy' });
    expect(r.received).toEqual([]);
  });

  it('drops a client whose body does not arrive in time (408 on the clock), handing nothing over', async () => {
    const clock = new ManualClock();
    const r = await receiver({ clock, bodyTimeoutMs: 10_000 });
    const answered = new Promise<Answer>((resolve, reject) => {
      let got = false;
      const req = http.request(r.url, { method: 'POST', agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': 1000 } }, (res) => {
        got = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString(), json: null }));
      });
      req.on('error', (e) => (got ? undefined : reject(e)));
      req.write('{"title": "slow');
    });
    while (clock.pending === 0) await new Promise((resolve) => setImmediate(resolve));
    await clock.advance(10_000);
    const a = await answered;
    expect(a.status).toBe(408);
    expect(JSON.parse(a.text)).toEqual({ error: 'timeout' });
    expect(r.received).toEqual([]);
  });

  it("takes Alertmanager's and Grafana's real posts", async () => {
    const r = await receiver({ auth: { bearer: 'tok' } });
    const auth = { Authorization: 'Bearer tok' };
    for (const name of [
      'alertmanager-v4-firing.json',
      'alertmanager-v4-two-alerts.json',
      'alertmanager-v4-resolved.json',
      'grafana-webhook.json',
      'plain.json',
    ]) {
      const a = await send(r.url, { body: fixture(name), headers: auth });
      expect(a.status, name).toBe(200);
      expect(typeof a.json?.incidentId, name).toBe('number');
    }
    expect(r.received.map((g) => [g.source, g.status])).toEqual([
      ['alertmanager', 'firing'],
      ['alertmanager', 'firing'],
      ['alertmanager', 'resolved'],
      ['grafana', 'firing'],
      ['json', 'firing'],
    ]);
    expect(r.received[3]!.alerts).toHaveLength(2);
  });
});
