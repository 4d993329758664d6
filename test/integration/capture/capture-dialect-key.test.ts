// The capture proxy with a profile whose dialect puts the key somewhere of its own (a header, a field
// not named password, a query): what the backend sends there is kept redacted even when it is not the
// profile's key (a production key sent by mistake is still a key).
import { afterEach, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkDialect, SPEC_DIALECT, type DialectInput } from '../../../common/dialects';
import type { Exchange } from '../../../common/records';
import type { ExchangeRepository } from '../../../main/store';
import { CaptureService } from '../../../main/capture/capture-service';

const WRONG = 'prod-key-7c6b5a49';
const d = checkDialect({
  ...(SPEC_DIALECT as DialectInput),
  id: undefined,
  name: 'Own key places',
  request: { key: { header: 'X-Api-Key', prefix: 'Key ' }, fields: { password: 'apikey' }, status: { method: 'GET' } },
});
if (!d.ok) throw new Error('dialect');

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function captureOne(method: string, path: string, headers: Record<string, string>, body: string): Promise<{ exchange: Exchange; capture: unknown }> {
  const target = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"code":2,"msg":"ok","smsid":"1"}');
    });
  });
  servers.push(target);
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  const kept: { exchange: Exchange; capture: unknown }[] = [];
  let stored: () => void = () => {};
  const done = new Promise<void>((r) => (stored = r));
  const service = new CaptureService({
    exchanges: {
      insert: (exchange: Exchange, meta: { capture: unknown }) => (kept.push({ exchange, capture: meta.capture }), 1),
    } as unknown as ExchangeRepository,
    templates: () => [],
    checkKey: async () => ({ apiKey: 'the-profiles-key-1', apiId: 'acct', variant: null, dialect: d.ok ? d.dialect : SPEC_DIALECT }),
    onChange: (_s, id) => id !== null && stored(),
  });
  const status = await service.start({ target: targetUrl, profileId: 'p' });
  try {
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: status.port!, method, path, headers, agent: false }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end(body);
    });
    await done;
  } finally {
    await service.close();
  }
  return kept[0]!;
}

describe('a key where the dialect puts one is not kept, whoever’s key it is', () => {
  it('in its header, with its prefix', async () => {
    const r = await captureOne(
      'POST',
      '/voice/vm',
      { 'Content-Type': 'application/json', 'X-Api-Key': `Key ${WRONG}` },
      '{"account":"acct","mobile":"13800138008","content":"x"}',
    );
    expect(r.exchange.requestHeaders).toContainEqual(['X-Api-Key', '[REDACTED]']);
    expect(JSON.stringify(r)).not.toContain(WRONG);
  });

  it('in its own field of a form body', async () => {
    const r = await captureOne(
      'POST',
      '/voice/vm',
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      `account=acct&apikey=${WRONG}&mobile=13800138008&content=x`,
    );
    expect(r.exchange.requestBody).toBe('account=acct&apikey=%5BREDACTED%5D&mobile=13800138008&content=x');
    expect(JSON.stringify(r)).not.toContain(WRONG);
  });

  it('in its own field of a JSON body and of a GET query (and the checks that quote the URL)', async () => {
    const a = await captureOne(
      'POST',
      '/voice/vm',
      { 'Content-Type': 'application/json' },
      JSON.stringify({ account: 'acct', apikey: WRONG, mobile: '1', content: 'x' }),
    );
    expect(JSON.stringify(a)).not.toContain(WRONG);
    const b = await captureOne('GET', `/voice/status?account=acct&apikey=${WRONG}&smsid=1`, {}, '');
    expect(b.exchange.url).toContain('smsid=1');
    expect(JSON.stringify(b)).not.toContain(WRONG);
  });
});
