import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/clock';
import { startSandbox, type Sandbox } from '../../../main/sandbox';
import { formatHttpDate } from '../../../main/signing';
import { probeServerClock, probeSignatureVariant } from '../../../main/voice/probes';
import { VoiceClient, type ProviderEndpoint } from '../../../main/voice/client';
import { closedPort } from '../../helpers/scripted-server';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function sandbox(opts: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sb = await startSandbox({ timeScale: 0.001, ...opts });
  closers.push(() => sb.close());
  return sb;
}

/** A loopback server whose Date header is whatever the test says (Node's own Date is switched off). */
async function dateServer(date: () => string | null, opts: { delayMs?: number } = {}) {
  const methods: string[] = [];
  const server = http.createServer((req, res) => {
    methods.push(req.method ?? '');
    res.sendDate = false;
    const d = date();
    if (d !== null) res.setHeader('Date', d);
    // Real time: a real HTTP server that answers late on purpose (the probe's timeout runs on a manual clock below).
    setTimeout(() => {
      res.statusCode = 405;
      res.end();
    }, opts.delayMs ?? 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, methods };
}

function endpoint(sb: Sandbox): ProviderEndpoint {
  return {
    profile: 'sandbox',
    baseUrl: sb.baseUrl,
    apiId: sb.demo.apiId,
    apiKey: sb.demo.apiKey,
    signing: null,
    connectTimeoutMs: 2000,
    totalTimeoutMs: 5000,
    format: 'json',
  };
}

describe('probeServerClock', () => {
  it("reads the sandbox's Date header: in step with the local clock (a HEAD to the base URL; any status)", async () => {
    const sb = await sandbox();
    // The probe's clock, a manual one set to now: the local time it reports is read from that clock.
    const clock = new ManualClock(Date.now());
    const p = await probeServerClock(sb.baseUrl, { timeoutMs: 2000, clock });
    expect(p.error).toBeNull();
    expect(p.httpStatus).toBe(404); // the sandbox has nothing at "/": fine for a clock probe
    expect(p.serverDate).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(p.serverTime).toBe(Date.parse(p.serverDate as string));
    // The header has whole seconds (truncated): a server in step reads between -1 and 0 (+ round trip).
    expect(p.skewSeconds).toBeGreaterThanOrEqual(-1.5);
    expect(p.skewSeconds).toBeLessThanOrEqual(0.5);
    expect(p.roundTripMs).toBeGreaterThan(0);
    expect(p.localTime).toBe(Math.round(clock.now() + p.roundTripMs / 2));
    expect(sb.requests().at(-1)).toMatchObject({ method: 'HEAD', path: '/' });
  });

  // The sandbox's Date header shows its gateway clock, offset included, like a real gateway's would.
  it("reads the sandbox's clock offset from its Date header, the clock its gateway checks against", async () => {
    const sb = await sandbox({ signature: 'spec' });
    sb.setClockOffset(120);
    const p = await probeServerClock(sb.baseUrl, { timeoutMs: 2000 });
    expect(p.skewSeconds).toBeGreaterThanOrEqual(118.5);
    expect(p.skewSeconds).toBeLessThanOrEqual(120.5);
    // ...while its gateway does run 120 s ahead: a request dated 190 s ago is outside ±300 s there.
    const old = formatHttpDate(new Date(Date.now() - 190_000));
    const r = await new VoiceClient({ ...endpoint(sb), signing: 'spec' }, { retries: 0, now: () => new Date(Date.parse(old)) }).balance();
    expect(r.failure?.kind).toBe('signature-rejected');
    expect(sb.requests().at(-1)?.signature).toMatchObject({ reason: 'clock-skew', skewSeconds: expect.any(Number) });
    expect(sb.requests().at(-1)?.signature?.skewSeconds).toBeLessThanOrEqual(-309);
  });

  it('measures a server 120 s ahead (and one 45 s behind), to a tenth of a second', async () => {
    const ahead = await dateServer(() => formatHttpDate(new Date(Date.now() + 120_000)));
    const p = await probeServerClock(ahead.baseUrl, { timeoutMs: 2000 });
    expect(p.error).toBeNull();
    expect(p.httpStatus).toBe(405);
    expect(p.skewSeconds).toBeGreaterThanOrEqual(118.5);
    expect(p.skewSeconds).toBeLessThanOrEqual(120.5);
    expect(Number.isInteger(Math.round((p.skewSeconds as number) * 10))).toBe(true);
    expect(ahead.methods).toEqual(['HEAD']);

    const behind = await dateServer(() => formatHttpDate(new Date(Date.now() - 45_000)));
    const q = await probeServerClock(behind.baseUrl, { timeoutMs: 2000, method: 'GET' });
    expect(q.skewSeconds).toBeGreaterThanOrEqual(-46.5);
    expect(q.skewSeconds).toBeLessThanOrEqual(-44.5);
    expect(behind.methods).toEqual(['GET']);
  });

  it('reports, never throws: no Date header, a bad one, refused, timeout', async () => {
    const none = await dateServer(() => null);
    expect(await probeServerClock(none.baseUrl)).toMatchObject({
      serverDate: null,
      skewSeconds: null,
      httpStatus: 405,
      error: { code: 'no-date-header', params: {} },
    });
    const bad = await dateServer(() => 'yesterday');
    expect(await probeServerClock(bad.baseUrl)).toMatchObject({
      serverDate: 'yesterday',
      serverTime: null,
      skewSeconds: null,
      error: { code: 'bad-date-header', params: { value: 'yesterday' } },
    });
    const port = await closedPort();
    expect(await probeServerClock(`http://127.0.0.1:${port}`)).toMatchObject({
      httpStatus: null,
      skewSeconds: null,
      error: { code: 'transport', params: { kind: 'refused' } },
    });
    expect(await probeServerClock('http://host.invalid/')).toMatchObject({ httpStatus: null, error: { code: 'transport', params: { kind: 'dns' } } });
    const cancelled = new AbortController();
    cancelled.abort();
    expect(await probeServerClock(`http://127.0.0.1:${port}`, { signal: cancelled.signal })).toMatchObject({
      error: { code: 'transport', params: { kind: 'aborted' } },
    });
    const hung = await dateServer(() => formatHttpDate(new Date()), { delayMs: 1000 });
    // HEAD replies are sent when the handler ends; the server above holds it back (1 s, real time)
    // while the probe's own clock, a manual one, is moved past its 150 ms timeout.
    const clock = new ManualClock(Date.now());
    const probing = probeServerClock(hung.baseUrl, { timeoutMs: 150, clock });
    await clock.advance(150);
    const t = await probing;
    expect(t).toMatchObject({ skewSeconds: null, error: { code: 'timeout', params: { ms: 150 } } });
    expect(() => probeServerClock('ftp://127.0.0.1/')).toThrow(TypeError);
  });
});

describe('probeSignatureVariant against the sandbox gateway', () => {
  it.each([
    ['spec', ['spec']],
    ['apisix', ['apisix']],
    ['any', ['spec', 'apisix']],
  ] as const)('gateway mode %s → accepted %j', async (mode, accepted) => {
    const sb = await sandbox({ signature: mode });
    const p = await probeSignatureVariant(endpoint(sb));
    expect(p.accepted).toEqual(accepted);
    expect(p.results.map((r) => r.variant)).toEqual(['spec', 'apisix']);
    for (const r of p.results) {
      const ok = (accepted as readonly string[]).includes(r.variant);
      expect(r, r.variant).toMatchObject(
        ok
          ? { outcome: 'accepted', httpStatus: 200, gatewayRejected: false, providerCode: 2, reason: null }
          : { outcome: 'rejected', httpStatus: 401, gatewayRejected: true, providerCode: null, reason: null },
      );
      expect(r.exchange?.operation).toBe('balance');
      expect(r.exchange?.requestHeaders.some(([n]) => n === 'Authorization')).toBe(true);
      if (!ok) expect(r.exchange?.responseBody).toBe('{"message":"client request can\'t be validated"}');
    }
    // The key never appears in the exchanges (the client redacts it).
    expect(JSON.stringify(p)).not.toContain(sb.demo.apiKey);
    // Two balance queries reached the sandbox, one per variant; no call was placed.
    const log = sb.requests();
    expect(log.map((r) => [r.op, r.signature?.valid])).toEqual([
      ['balance', mode !== 'apisix'],
      ['balance', mode !== 'spec'],
    ]);
    expect(sb.calls()).toHaveLength(0);
  });

  it('follows a mode switched at run time (setSignatureMode)', async () => {
    const sb = await sandbox({ signature: 'spec' });
    expect((await probeSignatureVariant(endpoint(sb))).accepted).toEqual(['spec']);
    sb.setSignatureMode('apisix');
    expect((await probeSignatureVariant(endpoint(sb))).accepted).toEqual(['apisix']);
  });

  it("without a gateway both pass; the profile's own signing setting is ignored", async () => {
    const sb = await sandbox({ signature: 'off' });
    const p = await probeSignatureVariant({ ...endpoint(sb), signing: 'apisix' });
    expect(p.accepted).toEqual(['spec', 'apisix']);
  });

  it('a wrong key: the gateway rejects both variants', async () => {
    const sb = await sandbox({ signature: 'any' });
    const p = await probeSignatureVariant({ ...endpoint(sb), apiKey: 'not-the-key' });
    expect(p.accepted).toEqual([]);
    expect(p.results.map((r) => r.outcome)).toEqual(['rejected', 'rejected']);
  });

  it('nothing listening: both undetermined, with the reason, and no retries', async () => {
    const port = await closedPort();
    const p = await probeSignatureVariant({
      profile: 'x',
      baseUrl: `http://127.0.0.1:${port}`,
      apiId: 'a',
      apiKey: 'k',
      signing: null,
      connectTimeoutMs: 500,
      totalTimeoutMs: 1000,
      format: 'json',
    });
    expect(p.accepted).toEqual([]);
    for (const r of p.results) {
      expect(r).toMatchObject({
        outcome: 'undetermined',
        httpStatus: null,
        gatewayRejected: false,
        reason: { code: 'transport', params: { kind: 'refused' } },
      });
    }
  });
});
