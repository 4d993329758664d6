import { afterEach, describe, expect, it } from 'vitest';
import { VoiceClient, type ProviderEndpoint } from '../../../main/voice/client';
import { closedPort, scriptedServer } from '../../helpers/scripted-server';

const KEY = 'secret-key-for-client-tests';
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

function endpoint(baseUrl: string, over: Partial<ProviderEndpoint> = {}): ProviderEndpoint {
  return { profile: 'test', baseUrl, apiId: 'acct', apiKey: KEY, signing: null, connectTimeoutMs: 1000, totalTimeoutMs: 400, format: 'json', ...over };
}
async function server(handler: Parameters<typeof scriptedServer>[0]) {
  const s = await scriptedServer(handler);
  closers.push(s.close);
  return s;
}
const fastRetry = { retryDelayMs: () => 5 };

describe('voice client over real HTTP', () => {
  it('posts the spec parameters as JSON and reads the reply, capturing both halves and timings, redacted', async () => {
    const s = await server((_req, _body, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ code: 2, msg: '提交成功', smsid: 'S1', count: 1 }));
    });
    const r = await new VoiceClient(endpoint(s.baseUrl)).send({ mobile: '13800138000', content: '您好' });
    expect(r.failure).toBeNull();
    expect(r.reply).toMatchObject({ code: 2, smsid: 'S1', count: 1 });
    expect(s.received[0]!.url).toBe('/voice/vm');
    expect(JSON.parse(s.received[0]!.body)).toEqual({ account: 'acct', password: KEY, mobile: '13800138000', content: '您好', format: 'json' });
    const [e] = r.exchanges;
    expect(e).toMatchObject({ method: 'POST', url: `${s.baseUrl}/voice/vm`, status: 200, error: null });
    expect(e!.responseBody).toContain('S1');
    expect(e!.timings.connectMs).not.toBeNull();
    expect(e!.timings.firstByteMs).toBeGreaterThanOrEqual(e!.timings.connectMs!);
    expect(JSON.stringify(r.exchanges)).not.toContain(KEY);
  });

  it('retries a request that provably never left (connection refused), and says not-sent', async () => {
    const port = await closedPort();
    const r = await new VoiceClient(endpoint(`http://127.0.0.1:${port}`), fastRetry).send({ mobile: '13800138000', content: 'x' });
    expect(r.failure).toMatchObject({ kind: 'refused', outcome: 'not-sent', reason: { code: 'transport', params: { kind: 'refused' } } });
    expect(r.exchanges).toHaveLength(3);
  });

  it('never resends after a timeout: one request, outcome unknown', async () => {
    const s = await server(() => undefined);
    const r = await new VoiceClient(endpoint(s.baseUrl), fastRetry).send({ mobile: '13800138000', content: 'x' });
    expect(r.failure).toMatchObject({ kind: 'timeout', outcome: 'unknown', reason: { code: 'transport', params: { kind: 'timeout' } } });
    expect(s.received).toHaveLength(1);
    expect(r.exchanges).toHaveLength(1);
  });

  it('never resends after a connection reset: outcome unknown', async () => {
    const s = await server((req) => req.socket.destroy());
    const r = await new VoiceClient(endpoint(s.baseUrl), fastRetry).send({ mobile: '13800138000', content: 'x' });
    expect(r.failure).toMatchObject({ kind: 'reset', outcome: 'unknown' });
    expect(s.received).toHaveLength(1);
  });

  it('calls an HTML error page unreadable, outcome unknown, keeping the page for the inspector', async () => {
    const s = await server((_req, _body, res) => {
      res.writeHead(502, { 'Content-Type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
    });
    const r = await new VoiceClient(endpoint(s.baseUrl)).send({ mobile: '13800138000', content: 'x' });
    expect(r.failure).toMatchObject({ kind: 'unreadable-reply', outcome: 'unknown', reason: { code: 'unreadable-reply', params: { status: 502 } } });
    expect(r.exchanges[0]!.responseBody).toContain('502 Bad Gateway');
  });

  it('recognises the gateway signature rejection', async () => {
    const s = await server((_req, _body, res) => {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ message: "client request can't be validated" }));
    });
    const r = await new VoiceClient(endpoint(s.baseUrl, { signing: 'spec' })).balance();
    expect(r.failure).toMatchObject({ kind: 'signature-rejected', outcome: 'rejected' });
    const auth = r.exchanges[0]!.requestHeaders.find(([n]) => n === 'Authorization')![1];
    expect(auth).toMatch(/^Signature keyId="acct", algorithm="hmac-sha256", headers="@request-target date host", signature="\[REDACTED\]"$/);
    expect(s.received[0]!.headers.authorization).toMatch(/signature="[A-Za-z0-9+/]+=*"/);
    expect(s.received[0]!.headers.host).toBe(new URL(s.baseUrl).host);
  });

  it('asks for XML when the profile says so and reads it', async () => {
    const s = await server((_req, body, res) => {
      expect(JSON.parse(body).format).toBe('xml');
      res.setHeader('Content-Type', 'application/xml');
      res.end('<?xml version="1.0"?><BalanceResult><code>2</code><msg>ok</msg><num>7</num></BalanceResult>');
    });
    const r = await new VoiceClient(endpoint(s.baseUrl, { format: 'xml' })).balance();
    expect(r.reply).toMatchObject({ code: 2, units: 7 });
  });

  it('cuts off a reply larger than 1 MiB', async () => {
    const s = await server((_req, _body, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(`{"code":2,"pad":"${'x'.repeat(1_100_000)}"}`);
    });
    const r = await new VoiceClient(endpoint(s.baseUrl, { totalTimeoutMs: 5000 })).balance();
    expect(r.failure).toMatchObject({ kind: 'too-large', outcome: 'unknown' });
  });
});
