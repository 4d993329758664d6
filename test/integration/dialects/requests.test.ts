// Requests in a dialect: the provider's method, path (with its query), encoding, field names, fixed
// fields and the key's place. Asserted on what the sandbox received, byte for byte: ihuyi's
// documented form POST to /webservice/voice.php?method=Submit, a provider that wants its key in a
// header and its status by GET, one that takes the key only through the spec's signature. The key
// never shows in what is kept.
import { describe, expect, it } from 'vitest';
import { BUILTIN_DIALECTS, checkDialect, SPEC_DIALECT, type Dialect, type DialectInput } from '../../../common/dialects';
import { VoiceClient } from '../../../main/voice/client';
import { dialectEndpoint, sandbox, TEXT } from '../sandbox/helpers';
import { cli } from '../cli/run-cli';
import { tempHome } from '../../helpers/temp-home';
import { onTestFinished } from 'vitest';

function dialect(input: DialectInput): Dialect {
  const r = checkDialect(input);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.dialect;
}

/** The spec's reading of replies, with a request side of its own. */
const asking = (request: DialectInput['request']): Dialect => dialect({ ...(SPEC_DIALECT as DialectInput), id: undefined, name: 'Own requests', request });

const endpoint = dialectEndpoint;

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('ihuyi, as its documentation shows', () => {
  async function setup() {
    const { builtinDialect } = await import('../../../common/dialects');
    const sb = await sandbox({ dialect: builtinDialect('ihuyi') });
    const home = tempHome();
    onTestFinished(home.cleanup);
    const env = (apiId = sb.demo.apiId) => ({ CALLOUT_HOME: home.dir, CALLOUT_BASE_URL: sb.baseUrl, CALLOUT_API_ID: apiId, CALLOUT_API_KEY: sb.demo.apiKey });
    return { sb, env };
  }

  it('a send is a form POST of account, password, mobile, content and format to voice.php?method=Submit; its voiceid is kept', async () => {
    const { sb, env } = await setup();
    const r = await cli(['--json', '--dialect', 'ihuyi', 'send', '--to', '13800138008', '--content', TEXT.code], env());
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ outcome: 'accepted', smsid: expect.stringMatching(/^SBX/) });
    const [received] = sb.requests();
    expect(received).toMatchObject({
      method: 'POST',
      path: '/webservice/voice.php?method=Submit',
      op: 'send',
      contentType: 'application/x-www-form-urlencoded; charset=utf-8',
    });
    // Exactly these bytes (the key redacted by the sandbox's log): the documented fields, in order.
    expect(received!.bodyText).toBe(
      `${form({ account: sb.demo.apiId })}&password=[REDACTED]&${form({ mobile: '13800138008', content: TEXT.code, format: 'json' })}`,
    );
    expect(JSON.stringify(r)).not.toContain(sb.demo.apiKey);
  });

  it('the balance is method=GetNum; a refusal with ihuyi’s own code ends rejected (exit 3) with its meaning, sent once', async () => {
    const { sb, env } = await setup();
    const b = await cli(['--json', '--dialect', 'ihuyi', 'balance'], env());
    expect(b.code).toBe(0);
    expect(b.json).toMatchObject({ units: expect.any(Number) });
    expect(sb.requests()[0]).toMatchObject({ path: '/webservice/voice.php?method=GetNum', op: 'balance' });
    expect(sb.requests()[0]!.bodyText).toBe(`${form({ account: sb.demo.apiId })}&password=[REDACTED]&format=json`);

    const refused = await cli(['--json', '--dialect', 'ihuyi', 'send', '--to', '13800138008', '--content', TEXT.code], env('nobody'));
    expect(refused.code).toBe(3);
    expect(refused.json).toMatchObject({ outcome: 'rejected', code: 405 });
    expect(refused.stderr).toContain('405');
    expect(refused.stderr).toContain('wrong API ID or API KEY');
    expect(sb.requests().filter((q) => q.op === 'send')).toHaveLength(1);
  });

  it('the spec’s paths are not ihuyi’s: they are not found there', async () => {
    const { sb } = await setup();
    const r = await fetch(`${sb.baseUrl}/voice/vm`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(404);
  });
});

describe('a dialect of your own', () => {
  const HEADER = asking({
    key: { header: 'X-Api-Key', prefix: 'Key ' },
    fields: { account: 'appid', mobile: 'to', content: 'text', id: 'callId', format: null },
    extra: { version: '2' },
    send: { path: '/v2/calls?action=create' },
    status: { method: 'GET', path: '/v2/calls/status' },
    balance: { path: '/v2/account', body: 'form', extra: { what: 'balance' } },
  });

  it('key in a header, its own field names and fixed fields, status by GET with the id in the query', async () => {
    const sb = await sandbox({ dialect: HEADER });
    const client = new VoiceClient(endpoint(sb.baseUrl, sb.demo.apiId, sb.demo.apiKey, HEADER));
    const sent = await client.send({ mobile: '13800138008', content: TEXT.code });
    expect(sent.reply).toMatchObject({ outcome: 'accepted', smsid: expect.stringMatching(/^SBX/) });
    const smsid = sent.reply!.smsid!;
    const status = await client.status(smsid);
    expect(status.reply).toMatchObject({ outcome: 'accepted' });
    const balance = await client.balance();
    expect(balance.reply?.units).toEqual(expect.any(Number));

    const [s, q, b] = sb.requests();
    expect(s).toMatchObject({ method: 'POST', path: '/v2/calls?action=create', op: 'send', contentType: 'application/json; charset=utf-8' });
    expect(s!.bodyText).toBe(JSON.stringify({ appid: sb.demo.apiId, to: '13800138008', text: TEXT.code, version: '2' }));
    expect(q).toMatchObject({
      method: 'GET',
      path: `/v2/calls/status?${form({ appid: sb.demo.apiId, callId: smsid, version: '2' })}`,
      op: 'status',
      bodyText: null,
    });
    expect(b).toMatchObject({ method: 'POST', path: '/v2/account', op: 'balance', contentType: 'application/x-www-form-urlencoded; charset=utf-8' });
    expect(b!.bodyText).toBe(form({ appid: sb.demo.apiId, version: '2', what: 'balance' }));

    // The key travelled in its header, and what is kept of it is redacted there.
    const exchanges = [...sent.exchanges, ...status.exchanges, ...balance.exchanges];
    for (const x of exchanges) expect(x.requestHeaders).toContainEqual(['X-Api-Key', 'Key [REDACTED]']);
    expect(JSON.stringify(exchanges)).not.toContain(sb.demo.apiKey);
  });

  it('a wrong key in the header is refused as the provider says (401), never sent twice', async () => {
    const sb = await sandbox({ dialect: HEADER });
    const r = await new VoiceClient(endpoint(sb.baseUrl, sb.demo.apiId, 'not-the-key-123', HEADER)).send({ mobile: '13800138008', content: TEXT.code });
    expect(r.reply).toMatchObject({ outcome: 'rejected', code: 401 });
    expect(sb.requests()).toHaveLength(1);
  });

  it('key only in the spec’s signature: no password field; a wrong key fails at the gateway', async () => {
    const SIGNED = asking({ key: 'signature' });
    const sb = await sandbox({ dialect: SIGNED });
    const ok = await new VoiceClient(endpoint(sb.baseUrl, sb.demo.apiId, sb.demo.apiKey, SIGNED)).send({ mobile: '13800138008', content: TEXT.code });
    expect(ok.reply).toMatchObject({ outcome: 'accepted' });
    expect(sb.requests()[0]!.bodyText).toBe(JSON.stringify({ account: sb.demo.apiId, mobile: '13800138008', content: TEXT.code, format: 'json' }));
    expect(ok.exchanges[0]!.requestHeaders!.map(([n]) => n)).toEqual(expect.arrayContaining(['Authorization', 'Date', 'Host']));
    const wrong = await new VoiceClient(endpoint(sb.baseUrl, sb.demo.apiId, 'not-the-key-123', SIGNED)).send({ mobile: '13800138008', content: TEXT.code });
    expect(wrong.failure).toMatchObject({ kind: 'signature-rejected', outcome: 'rejected' });
  });

  it('a wrong key sent to the sandbox (the spec’s password, a dialect’s own field, in a body or a query) is not in its log', async () => {
    const wrongKey = 'prod-key-9f8e7d6c';
    const spec = await sandbox();
    await fetch(`${spec.baseUrl}/voice/vm`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ account: spec.demo.apiId, password: wrongKey, mobile: '13800138008', content: TEXT.code }),
    });
    const OWN = asking({ fields: { password: 'apikey' }, status: { method: 'GET' } });
    const own = await sandbox({ dialect: OWN });
    await fetch(`${own.baseUrl}/voice/vm`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form({ account: own.demo.apiId, apikey: wrongKey, mobile: '13800138008', content: TEXT.code }),
    });
    await fetch(`${own.baseUrl}/voice/status?${form({ account: own.demo.apiId, apikey: wrongKey, smsid: 'SBX1' })}`);
    const log = [...spec.requests(), ...own.requests()];
    expect(log).toHaveLength(3);
    expect(JSON.stringify(log)).not.toContain(wrongKey);
    expect(own.requests()[0]!.bodyText).toContain('apikey=[REDACTED]');
  });

  it('refuses a key header that says where or how the request travels (Host, Content-Length, Proxy-…)', () => {
    for (const header of ['Host', 'content-length', 'Transfer-Encoding', 'Proxy-Authorization', 'Connection']) {
      const r = checkDialect({ ...(SPEC_DIALECT as DialectInput), id: undefined, name: 'x', request: { key: { header, prefix: 'evil.example/' } } });
      expect(r.ok, header).toBe(false);
    }
    expect(
      checkDialect({ ...(SPEC_DIALECT as DialectInput), id: undefined, name: 'x', request: { key: { header: 'Authorization', prefix: 'Bearer ' } } }).ok,
    ).toBe(true);
  });

  it('refuses a path that would climb out of the base URL’s own path (.. or %2e%2e, with / or \\)', () => {
    const path = (p: string) => checkDialect({ ...(SPEC_DIALECT as DialectInput), id: undefined, name: 'x', request: { send: { path: p } } }).ok;
    for (const p of ['/../tenant-b/voice/vm', '/%2e%2e/x', '/a/%2E./x', '/a\\..\\x', '/a/.', '/a/..?q=1']) expect(path(p), p).toBe(false);
    for (const p of ['/webservice/voice.php?method=Submit', '/a..b/c', '/v1.2/calls', '/x?next=../y']) expect(path(p), p).toBe(true);
  });

  it('says what is wrong in a request section, field by field', () => {
    const r = checkDialect({
      ...(SPEC_DIALECT as DialectInput),
      request: { method: 'PUT', send: { path: 'voice/vm', fields: { mobile: 'to number' } }, key: { header: 'bad header' }, body: 'xml' },
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues).toEqual(
      expect.arrayContaining([
        { path: 'request.method', message: 'dialect-method' },
        { path: 'request.send.path', message: 'dialect-request-path' },
        { path: 'request.send.fields.mobile', message: 'dialect-field' },
        { path: 'request.body', message: 'dialect-body' },
        expect.objectContaining({ path: expect.stringMatching(/^request\.key/), message: 'dialect-key' }),
      ]),
    );
  });
});

describe.each(BUILTIN_DIALECTS.map((d) => d.id!))('the CLI against the sandbox speaking %s, requests included', (id) => {
  it('a send is accepted with its id, the balance is read, a refusal ends rejected (exit 3) with the provider’s code, sent once', async () => {
    const d = BUILTIN_DIALECTS.find((x) => x.id === id)!;
    const sb = await sandbox({ dialect: d });
    const home = tempHome();
    onTestFinished(home.cleanup);
    const env = { CALLOUT_HOME: home.dir, CALLOUT_BASE_URL: sb.baseUrl, CALLOUT_API_ID: sb.demo.apiId, CALLOUT_API_KEY: sb.demo.apiKey, LANG: 'en_US.UTF-8' };
    const sent = await cli(['--json', '--dialect', id, 'send', '--to', '13800138008', '--content', TEXT.code], env);
    expect(sent.code).toBe(0);
    expect(sent.json).toMatchObject({ outcome: 'accepted', smsid: expect.stringMatching(/^SBX/) });
    const balance = await cli(['--json', '--dialect', id, 'balance'], env);
    expect(balance).toMatchObject({ code: 0, json: { units: expect.any(Number) } });

    sb.setFault({ kind: 'code', code: 402, op: 'send', times: 1 });
    const refused = await cli(['--dialect', id, 'send', '--to', '13800138008', '--content', TEXT.code], env);
    expect(refused.code).toBe(3);
    // The code as this provider writes it for "insufficient balance".
    expect(refused.stderr).toContain(d.shape?.codes?.['402'] ?? '402');
    expect(sb.requests().filter((q) => q.op === 'send')).toHaveLength(2);
    // Every request went where the dialect sends it.
    for (const q of sb.requests()) expect(q.op).not.toBeNull();
  });
});

describe('the spec’s requests, as before', () => {
  it('a JSON POST with its key only in the URL’s query is refused by the sandbox, as by a provider that reads the body', async () => {
    const sb = await sandbox();
    const r = await fetch(`${sb.baseUrl}/voice/vm?password=${encodeURIComponent(sb.demo.apiKey)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ account: sb.demo.apiId, mobile: '13800138008', content: TEXT.code }),
    });
    expect(await r.json()).not.toMatchObject({ code: 2 });
    expect(sb.calls()).toHaveLength(0);
  });
});
