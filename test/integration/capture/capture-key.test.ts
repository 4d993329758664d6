// The key through the capture proxy in every encoding a backend may write it (percent-encoded in either
// case, Python's quote_plus, PHP's json_encode, \u escapes, base64 in any header, inside Basic's
// account:key) and a `password` field in every body format (form with an encoded name, query,
// multipart, XML), with and without a key configured: each is passed on byte for byte, and stored
// without the secret. Then a key scan: no encoding of either secret is in any file of the data
// directory, in the HAR export, in cURL or the code snippets, or in the CSV.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CaptureStatus } from '../../../common/capture';
import type { ExchangeRecord } from '../../../common/records';
import { EVENT_CHANNELS } from '../../../common/contract';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services } from '../../../main/services';
import { findKey, keyEncodings, scanDirectory } from '../../helpers/key-scan';
import { tempHome } from '../../helpers/temp-home';

/** The profile's key: a space, reserved characters and a non-ASCII one, so that every encoding differs from the others. */
const KEY = 'Kx7 q/+r=Zé&9!m2~';
/** A password sent while no key is configured: found only by its field's name. */
const OTHER = 'other-s3cret/Pw+9';
const enc = Object.fromEntries(keyEncodings(KEY).map(({ name, text }) => [name, text]));

let services: Services;
let profileId: string;
let target: Server;
let targetUrl: string;
const received: Buffer[] = [];
const stored: number[] = [];
const home = tempHome();
const call = async <T>(channel: string, input?: unknown): Promise<T> => {
  const r = await dispatch(createHandlers(services), channel, input);
  if (!r.ok) throw Object.assign(new Error(r.error.code), { code: r.error.code, params: r.error.params });
  return r.value as T;
};
let waiting: ((id: number) => void) | null = null;

beforeAll(async () => {
  services = await createServices({
    home: home.dir,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 't' } },
    sandbox: false,
  });
  services.subscribe((channel, payload) => {
    const p = payload as { status: CaptureStatus; exchangeId: number | null };
    if (channel === EVENT_CHANNELS.captureUpdated && p.exchangeId !== null) waiting?.(p.exchangeId);
  });
  // The provider: echoes the request's body and its credentials header (a reply that quotes the key).
  target = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push(body);
      res.writeHead(200, { 'Content-Type': req.headers['content-type'] ?? 'text/plain', 'X-Echo': req.headers['x-api-credentials'] ?? '-' });
      res.end(body);
    });
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  const profile = await call<{ id: string }>('profiles.save', { name: 'Backend', baseUrl: targetUrl, apiId: 'acct' });
  profileId = (await call<{ id: string }>('profiles.setKey', { id: profile.id, apiKey: KEY })).id;
});
afterAll(async () => {
  await services.close();
  await new Promise((r) => target.close(r));
  home.cleanup();
});

/** One request of a backend through a capture proxy (with the profile's key, or none), as stored. */
async function capture(withKey: boolean, path: string, headers: Record<string, string>, body: string): Promise<ExchangeRecord> {
  const status = await call<CaptureStatus>('capture.start', { target: targetUrl, ...(withKey ? { profileId } : {}) });
  try {
    const id = new Promise<number>((resolve) => (waiting = resolve));
    const sent = Buffer.from(body, 'utf8');
    const answer = await new Promise<Buffer>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: status.port!, method: 'POST', path, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      });
      req.on('error', reject);
      req.end(sent);
    });
    // Passed on byte for byte both ways: the redaction is only of what is kept.
    expect(received.at(-1)!.equals(sent)).toBe(true);
    expect(answer.equals(sent)).toBe(true);
    const record = await call<ExchangeRecord>('exchanges.get', { id: await id });
    stored.push(record.id);
    return record;
  } finally {
    waiting = null;
    await call('capture.stop');
  }
}

/** The encodings of `secret` found in what is kept of an exchange (each text as stored, and the record as JSON). */
function leaks(r: ExchangeRecord, secret: string): string[] {
  const texts = [r.url, r.requestBody, r.responseBody, r.error?.message, JSON.stringify(r)];
  for (const [n, v] of [...r.requestHeaders, ...(r.responseHeaders ?? [])]) texts.push(n, v);
  return findKey(texts.filter((t) => t != null).join('\n'), secret);
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'Content-Type': 'application/json' };

describe('the capture proxy stores no key, however the backend writes it', () => {
  it('percent-encoded in lower case, in a field not named password', async () => {
    const r = await capture(true, '/voice/vm', FORM, `account=acct&secret=${enc['percent-lower']}&mobile=13800138008`);
    expect(leaks(r, KEY)).toEqual([]);
    expect(r.requestBody).toContain('account=acct&secret=[REDACTED]&mobile=13800138008');
  });

  it("as Python's quote_plus writes it (+ for the space, every reserved character encoded, either case)", async () => {
    const r = await capture(true, '/voice/vm', FORM, `account=acct&key=${enc['quote_plus']}&key2=${enc['quote_plus-lower']}`);
    expect(leaks(r, KEY)).toEqual([]);
  });

  it('in a query, every byte percent-encoded', async () => {
    const r = await capture(true, `/voice/status?token=${enc['percent-every-byte']}&smsid=1`, JSON_TYPE, '{}');
    expect(leaks(r, KEY)).toEqual([]);
    expect(r.url).toContain('smsid=1');
  });

  it("as PHP's json_encode writes it (\\/), in a field not named password", async () => {
    const r = await capture(true, '/voice/vm', JSON_TYPE, `{"account":"acct","auth":{"secret":"${enc['json-slash']}"}}`);
    expect(leaks(r, KEY)).toEqual([]);
  });

  it('with every character a JSON \\u escape (lower and upper case)', async () => {
    const r = await capture(
      true,
      '/voice/vm',
      JSON_TYPE,
      `{"account":"acct","apiKey":"${enc['json-unicode-escapes']}","k":"${enc['json-unicode-escapes-upper']}"}`,
    );
    expect(leaks(r, KEY)).toEqual([]);
    expect(JSON.parse(r.requestBody!)).toEqual({ account: 'acct', apiKey: '[REDACTED]', k: '[REDACTED]' });
  });

  it('in base64 in any header: alone, unpadded, base64url, and inside account:key (the reply echoes it)', async () => {
    const basic = Buffer.from(`acct:${KEY}`).toString('base64');
    const r = await capture(
      true,
      '/voice/balance',
      {
        ...JSON_TYPE,
        'X-Api-Credentials': basic,
        'X-Key': enc['base64-unpadded']!,
        'X-Key-Url': enc['base64url']!,
        'X-Token': `v1.${Buffer.from(`{"k":"${KEY}"}`).toString('base64url')}.sig`,
      },
      '{}',
    );
    expect(leaks(r, KEY)).toEqual([]);
    expect(r.requestHeaders).toEqual(
      expect.arrayContaining([
        ['X-Api-Credentials', '[REDACTED]'],
        ['X-Token', 'v1.[REDACTED].sig'],
      ]),
    );
    expect(r.responseHeaders).toEqual(expect.arrayContaining([['X-Echo', '[REDACTED]']]));
  });
});

describe('the capture proxy stores no password field, in any body format, even without a key', () => {
  it('a form field whose name is percent-encoded (pass%77ord)', async () => {
    const r = await capture(false, '/voice/vm', FORM, `account=acct&pass%77ord=${encodeURIComponent(OTHER)}&mobile=1`);
    expect(leaks(r, OTHER)).toEqual([]);
    expect(r.requestBody).toBe('account=acct&pass%77ord=%5BREDACTED%5D&mobile=1');
  });

  it('a query field whose name is percent-encoded', async () => {
    const r = await capture(false, `/voice/status?account=acct&PASS%57ORD=${encodeURIComponent(OTHER)}`, JSON_TYPE, '{}');
    expect(leaks(r, OTHER)).toEqual([]);
  });

  it('a multipart part named password', async () => {
    const body = [
      '--XyZ',
      'Content-Disposition: form-data; name="account"',
      '',
      'acct',
      '--XyZ',
      'Content-Disposition: form-data; name="password"',
      '',
      OTHER,
      '--XyZ--',
      '',
    ].join('\r\n');
    const r = await capture(false, '/voice/vm', { 'Content-Type': 'multipart/form-data; boundary=XyZ' }, body);
    expect(leaks(r, OTHER)).toEqual([]);
    expect(r.requestBody).toBe(body.replace(OTHER, '[REDACTED]'));
  });

  it('an XML password element and attribute', async () => {
    const body = `<?xml version="1.0"?><req><account>acct</account><password>${OTHER}</password><auth password="${OTHER}"/></req>`;
    const r = await capture(false, '/voice/vm', { 'Content-Type': 'application/xml' }, body);
    expect(leaks(r, OTHER)).toEqual([]);
    expect(r.requestBody).toContain('<account>acct</account><password>[REDACTED]</password>');
  });
});

describe('key scan after the captures', () => {
  it('finds neither secret, in any encoding, in the data directory or in any export', async () => {
    expect(stored.length).toBeGreaterThanOrEqual(10);
    const exports: Array<[string, string]> = [];
    exports.push(['har', (await call<{ json: string }>('exchanges.exportHar', { ids: stored })).json]);
    for (const id of stored) {
      for (const target of ['curl', 'python', 'node', 'go'])
        exports.push([`${target} #${id}`, (await call<{ command: string }>('exchanges.curl', { id, target })).command]);
    }
    exports.push(['csv', (await call<{ csv: string }>('history.exportCsv', { lang: 'en', utcOffsetMinutes: 0 })).csv]);
    for (const secret of [KEY, OTHER]) {
      for (const [name, text] of exports) expect(findKey(text, secret), name).toEqual([]);
      expect(scanDirectory(home.dir, secret)).toEqual([]);
    }
    // The export really holds the exchanges (the scan is not of an empty file).
    expect(exports[0]![1]).toContain('account=acct');
  });
});
