// The capture proxy's wire under hostile input: bytes pass both ways unchanged (odd headers, binary
// bodies), large and slow bodies stream through with bounded records, many requests at once are each
// reported once, a target that is down is answered 502 with a clear body, CONNECT is an opaque tunnel.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer as createHttpServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { HEADERS_TIMEOUT_MS, startCaptureProxy, type CaptureProxy, type ProxiedExchange } from '../../../main/capture/proxy';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

interface Seen {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
}

/** A target that records what it received, byte for byte, and answers with `reply`. */
async function target(
  reply: (req: IncomingMessage, body: Buffer, res: import('node:http').ServerResponse) => void,
): Promise<{ url: string; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server: Server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body });
      reply(req, body, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, seen };
}

async function proxyTo(targetUrl: string, maxKeptBytes?: number): Promise<{ proxy: CaptureProxy; got: ProxiedExchange[]; next: (n: number) => Promise<void> }> {
  const got: ProxiedExchange[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const proxy = await startCaptureProxy({
    target: new URL(targetUrl),
    maxKeptBytes,
    onExchange: (x) => {
      got.push(x);
      for (const w of waiters) if (got.length >= w.n) w.resolve();
    },
  });
  closers.push(() => proxy.close());
  return { proxy, got, next: (n) => (got.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))) };
}

function call(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string | string[]>; body?: Buffer | string; slow?: Buffer[] },
): Promise<{ status: number; rawHeaders: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: opts.method ?? 'POST', path: opts.path, headers: opts.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    if (opts.slow) {
      let i = 0;
      const tick = () => {
        if (i < opts.slow!.length) {
          req.write(opts.slow![i++]);
          // Real time: the client sends its body slowly on purpose, over a real socket (the proxy under test sees real I/O).
          setTimeout(tick, 40);
        } else req.end();
      };
      tick();
    } else req.end(opts.body);
  });
}

describe('the capture proxy', () => {
  it('passes a request and its reply on byte for byte (reverse mode), replacing only the Host', async () => {
    const answer = Buffer.concat([Buffer.from('{"code":2,"msg":"ok"}'), Buffer.from([0xff, 0xfe, 0x00, 0x0a])]);
    const t = await target((_req, _body, res) => {
      res.writeHead(200, 'Fine', ['Content-Type', 'application/json', 'X-Dup', 'a', 'x-dup', 'b', 'Set-Cookie', 's=1']);
      res.end(answer);
    });
    const { proxy, got, next } = await proxyTo(`${t.url}/api`);
    const body = Buffer.concat([Buffer.from('{"account":"a","password":"p\\u00e9","content":"验证码 1"}'), randomBytes(64)]);
    const r = await call(proxy.port, {
      path: '/voice/vm?x=1',
      headers: {
        'Content-Type': 'application/json',
        'X-Weird-Case': 'v',
        Authorization: 'Signature keyId="a", signature="s"',
        'Content-Length': String(body.length),
      },
      body,
    });
    expect(r.status).toBe(200);
    expect(r.body.equals(answer)).toBe(true);
    expect(r.rawHeaders).toEqual(expect.arrayContaining(['X-Dup', 'a', 'x-dup', 'b', 'Set-Cookie', 's=1']));
    expect(t.seen[0]!.url).toBe('/api/voice/vm?x=1');
    expect(t.seen[0]!.body.equals(body)).toBe(true);
    expect(t.seen[0]!.rawHeaders).toEqual(
      expect.arrayContaining(['X-Weird-Case', 'v', 'Authorization', 'Signature keyId="a", signature="s"', 'Host', `127.0.0.1:${t.port}`]),
    );
    await next(1);
    expect(got[0]).toMatchObject({
      mode: 'reverse',
      method: 'POST',
      status: 200,
      statusText: 'Fine',
      answeredBy: 'target',
      hostForwarded: `127.0.0.1:${t.port}`,
      error: null,
    });
    expect(got[0]!.url).toBe(`${proxy.url}/voice/vm?x=1`);
    expect(got[0]!.request.kept.equals(body)).toBe(true);
    expect(got[0]!.response.kept.equals(answer)).toBe(true);
  });

  it('forwards an absolute URL (HTTP_PROXY) with the Host the backend signed', async () => {
    const t = await target((_req, _body, res) => res.end('{"code":2}'));
    const { proxy, got, next } = await proxyTo(t.url);
    const r = await call(proxy.port, { path: `${t.url}/voice/balance`, headers: { Host: `127.0.0.1:${t.port}` }, body: '{}' });
    expect(r.status).toBe(200);
    expect(t.seen[0]!.url).toBe('/voice/balance');
    expect(t.seen[0]!.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === 'host')).toHaveLength(1);
    await next(1);
    expect(got[0]).toMatchObject({ mode: 'forward', hostForwarded: null, url: `${t.url}/voice/balance` });
  });

  it('streams a large body both ways, keeping only the first bytes for the record', async () => {
    const t = await target((_req, body, res) => res.end(body));
    const { proxy, got, next } = await proxyTo(t.url, 1024);
    const big = randomBytes(6 * 1024 * 1024);
    const r = await call(proxy.port, { path: '/upload', headers: { 'Content-Length': String(big.length) }, body: big });
    expect(r.body.equals(big)).toBe(true);
    expect(t.seen[0]!.body.equals(big)).toBe(true);
    await next(1);
    expect(got[0]!.request).toMatchObject({ bytes: big.length });
    expect(got[0]!.request.kept.equals(big.subarray(0, 1024))).toBe(true);
    expect(got[0]!.response.bytes).toBe(big.length);
    expect(got[0]!.response.kept).toHaveLength(1024);
  });

  it('passes a slow, chunked body on whole, and streams a reply before it is complete', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const t = await target((_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('first;');
      void held.then(() => res.end('last'));
    });
    const { proxy, got, next } = await proxyTo(t.url);
    const parts = ['{"a":', '"slow"', ',"b":1}'].map((s) => Buffer.from(s));
    // The first part of the reply reaches the backend while the target still holds the rest.
    const firstSeen = new Promise<string>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: proxy.port, method: 'POST', path: '/x', agent: false }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
          if (text === 'first;') release();
        });
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      let i = 0;
      // Real time: the client sends its body slowly on purpose, over a real socket (the proxy under test sees real I/O).
      const tick = () => (i < parts.length ? (req.write(parts[i++]), setTimeout(tick, 40)) : req.end());
      tick();
    });
    expect(await firstSeen).toBe('first;last');
    expect(t.seen[0]!.body.toString()).toBe('{"a":"slow","b":1}');
    await next(1);
    expect(got[0]!.request.kept.toString()).toBe('{"a":"slow","b":1}');
  });

  it('answers 502 with a body that says so when the target is down, and records it', async () => {
    const probe = createTcpServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const { proxy, got, next } = await proxyTo(`http://127.0.0.1:${port}`);
    const r = await call(proxy.port, { path: '/voice/vm', body: '{"password":"x"}' });
    expect(r.status).toBe(502);
    const said = JSON.parse(r.body.toString()) as Record<string, string>;
    expect(said).toMatchObject({ proxy: 'callout-capture', error: 'bad-gateway', kind: 'refused', target: `http://127.0.0.1:${port}` });
    expect(said.message).toContain('could not reach');
    await next(1);
    expect(got[0]).toMatchObject({ status: null, answeredBy: 'proxy', error: { kind: 'refused' } });
  });

  it('answers 502 when the provider writes a status line Node cannot pass on (000, a control character), and keeps serving', async () => {
    const lines = ['HTTP/1.1 000 X', 'HTTP/1.1 200 O\x7fK', 'HTTP/1.1 200 O\x01K'];
    const raw = createTcpServer((socket) => {
      socket.once('data', () => socket.end(`${lines.shift()}\r\ncontent-length: 2\r\n\r\nhi`));
    });
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => raw.close(() => r())));
    const { proxy, got, next } = await proxyTo(`http://127.0.0.1:${(raw.address() as AddressInfo).port}`);
    for (let i = 0; i < 3; i++) {
      const r = await call(proxy.port, { path: '/voice/vm', body: '{}' });
      expect(r.status).toBe(502);
      expect(JSON.parse(r.body.toString())).toMatchObject({ proxy: 'callout-capture', error: 'bad-gateway' });
    }
    await next(3);
    expect(got.map((x) => [x.answeredBy, x.status, x.error?.kind])).toEqual([
      ['proxy', null, 'network'],
      ['proxy', null, 'network'],
      ['proxy', null, 'network'],
    ]);
  });

  it("never passes the backend's proxy credentials, or headers its Connection names, on to the provider", async () => {
    const t = await target((_req, _body, res) => res.end('{"code":2}'));
    const { proxy, next } = await proxyTo(t.url);
    await call(proxy.port, {
      path: `${t.url}/voice/balance`,
      headers: { Host: `127.0.0.1:${t.port}`, 'Proxy-Authorization': 'Basic dXNlcjpwYXNz', Connection: 'close, X-Hop', 'X-Hop': '1', 'X-Kept': '2' },
      body: '{}',
    });
    await next(1);
    const names = t.seen[0]!.rawHeaders.filter((_h, i) => i % 2 === 0).map((h) => h.toLowerCase());
    expect(names).not.toContain('proxy-authorization');
    expect(names).not.toContain('x-hop');
    expect(names).toContain('x-kept');
  });

  it('answers a URL it cannot read itself (400), sending nothing on; a target that is the proxy is a loop (508)', async () => {
    const t = await target((_req, _body, res) => res.end('{"code":2}'));
    const { proxy, got, next } = await proxyTo(t.url);
    const bad = await call(proxy.port, { path: 'http://%zz/voice/vm', body: '{"mobile":"1"}' });
    expect(bad.status).toBe(400);
    await next(1);
    expect(t.seen).toHaveLength(0);
    expect(got[0]).toMatchObject({ answeredBy: 'proxy', status: null });
    // Reverse mode pointed at itself.
    const probe = createTcpServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const self = await startCaptureProxy({ target: new URL(`http://127.0.0.1:${port}`), port, onExchange: () => undefined });
    closers.push(() => self.close());
    const loop = await call(self.port, { path: '/voice/vm', body: '{}' });
    expect(loop.status).toBe(508);
  });

  it('reports each of 100 concurrent requests once', async () => {
    // Real time: the target answers after a random delay so that the 100 replies come back out of order (real sockets).
    const t = await target((req, body, res) => setTimeout(() => res.end(body), Math.random() * 30));
    const { proxy, got, next } = await proxyTo(t.url);
    const replies = await Promise.all(Array.from({ length: 100 }, (_, i) => call(proxy.port, { path: `/n/${i}`, body: `body-${i}` })));
    replies.forEach((r, i) => expect(r.body.toString()).toBe(`body-${i}`));
    await next(100);
    expect(got).toHaveLength(100);
    expect(new Set(got.map((x) => x.request.kept.toString())).size).toBe(100);
    expect(proxy.inFlight()).toBe(0);
  });

  it('records a backend that goes away mid-request, and keeps serving', async () => {
    const t = await target((_req, body, res) => res.end(body));
    const { proxy, got, next } = await proxyTo(t.url);
    await new Promise<void>((resolve) => {
      const req = request({ host: '127.0.0.1', port: proxy.port, method: 'POST', path: '/x', headers: { 'Content-Length': '1000' }, agent: false });
      req.on('error', () => resolve());
      req.write('partial');
      // Real time: the body stays incomplete for a moment over a real socket before the client goes away.
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    await next(1);
    expect(got[0]!.error).not.toBeNull();
    const r = await call(proxy.port, { path: '/y', body: 'still here' });
    expect(r.body.toString()).toBe('still here');
  });

  it('tunnels CONNECT opaquely, counting the bytes, and answers 502 when the tunnel cannot open', async () => {
    const echo = createTcpServer((s) => s.pipe(s));
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => echo.close(() => r())));
    const echoPort = (echo.address() as AddressInfo).port;
    const { proxy, got, next } = await proxyTo('https://voice.example.com');
    const secret = randomBytes(5000);
    const back = await new Promise<Buffer>((resolve, reject) => {
      const s = connect(proxy.port, '127.0.0.1', () => s.write(`CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: 127.0.0.1:${echoPort}\r\n\r\n`));
      let buf = Buffer.alloc(0);
      let open = false;
      s.on('data', (c: Buffer) => {
        buf = Buffer.concat([buf, c]);
        if (!open) {
          const end = buf.indexOf('\r\n\r\n');
          if (end < 0) return;
          expect(buf.subarray(0, end).toString()).toMatch(/^HTTP\/1\.1 200/);
          buf = buf.subarray(end + 4);
          open = true;
          s.write(secret);
        }
        if (open && buf.length >= secret.length) {
          s.end();
          resolve(buf);
        }
      });
      s.on('error', reject);
    });
    expect(back.equals(secret)).toBe(true);
    await next(1);
    expect(got[0]).toMatchObject({
      mode: 'tunnel',
      method: 'CONNECT',
      url: `127.0.0.1:${echoPort}`,
      status: 200,
      request: { bytes: 5000 },
      response: { bytes: 5000 },
    });
    expect(got[0]!.request.kept).toHaveLength(0);

    const refused = await new Promise<string>((resolve) => {
      const s = connect(proxy.port, '127.0.0.1', () => s.write('CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: x\r\n\r\n'));
      let text = '';
      s.on('data', (c: Buffer) => (text += c.toString()));
      s.on('close', () => resolve(text));
    });
    expect(refused).toMatch(/^HTTP\/1\.1 502/);
    expect(refused).toContain('could not reach 127.0.0.1:1');
    await next(2);
    expect(got[1]).toMatchObject({ mode: 'tunnel', status: 502, answeredBy: 'proxy', error: { kind: 'refused' } });
  });
});

describe('slow headers', () => {
  it('answers 408 and closes a connection whose headers do not arrive in time, though they keep trickling in', async () => {
    const t = await target((_req, _body, res) => res.end('{}'));
    // Node checks header deadlines on a timer of its own (no Clock can be injected into it): the timeout
    // is made short here so the test waits 300 ms, not the 15 s a backend gets.
    const proxy = await startCaptureProxy({ target: new URL(t.url), headersTimeoutMs: 300, onExchange: () => undefined });
    closers.push(() => proxy.close());
    const s = connect(proxy.port, '127.0.0.1');
    s.write('POST /voice/vm HTTP/1.1\r\nHost: x\r\n');
    // A header line every 50 ms: the connection is never idle, only slow.
    let n = 0;
    const trickle = setInterval(() => s.writable && s.write(`X-Slow-${n++}: 1\r\n`), 50);
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      s.on('data', (c: Buffer) => (text += c.toString()));
      s.on('error', () => undefined);
      s.on('close', () => resolve(text));
    }).finally(() => clearInterval(trickle));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(t.seen).toHaveLength(0);
    // The proxy goes on serving.
    expect((await call(proxy.port, { path: '/voice/vm', body: '{}' })).status).toBe(200);
    expect(HEADERS_TIMEOUT_MS).toBeLessThanOrEqual(20_000);
  });
});

describe('stopping the capture proxy', () => {
  it('reports an exchange still under way as cut short before close() returns', async () => {
    const t = await target(() => undefined); // never answers
    const got: ProxiedExchange[] = [];
    const proxy = await startCaptureProxy({ target: new URL(t.url), onExchange: (x) => got.push(x) });
    const pending = call(proxy.port, { path: '/voice/vm', body: '{}' }).catch(() => 'closed');
    // Real time: a poll interval for I/O (sockets, a child process), not a wait for time to pass.
    for (let i = 0; i < 100 && t.seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(proxy.inFlight()).toBe(1);
    await proxy.close();
    expect(got).toHaveLength(1);
    expect(got[0]!.error).not.toBeNull();
    expect(proxy.inFlight()).toBe(0);
    await pending;
  });
});
