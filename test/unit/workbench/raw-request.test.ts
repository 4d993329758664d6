import { describe, expect, it } from 'vitest';
import { rawRequest, type RawRequestInput } from '../../../common/contract/workbench';
import { buildRawRequest } from '../../../main/workbench/raw-request';
import { verifyRequest } from '../../../main/signing';
import { builtinDialect, checkDialect, SPEC_DIALECT, type DialectInput } from '../../../common/dialects';
import type { ProviderEndpoint } from '../../../main/voice/client';

const endpoint: ProviderEndpoint = {
  profile: 'p',
  baseUrl: 'https://gw.example.com/route/',
  apiId: 'acct',
  apiKey: 'k3y"&=',
  signing: 'spec',
  connectTimeoutMs: 1,
  totalTimeoutMs: 1,
  format: 'json',
};
const NOW = new Date('2026-11-24T08:00:00Z');
const build = (r: RawRequestInput, variables: Record<string, string> = {}) => buildRawRequest(rawRequest.parse(r), { endpoint, variables, now: NOW });

describe('building a raw request', () => {
  it('keeps the base URL path, appends the parameters to the query as text and signs what is sent', () => {
    const { request, missing } = build({ method: 'GET', path: '/voice/balance?b=1%202', credentials: 'query' });
    expect(missing).toEqual([]);
    expect(request.url).toBe('https://gw.example.com/route/voice/balance?b=1%202&account=acct&password=k3y%22%26%3D&format=json');
    expect(request.body).toBeNull();
    const h = Object.fromEntries(request.headers);
    expect(h.Host).toBe('gw.example.com');
    expect(h.Date).toBe('Tue, 24 Nov 2026 08:00:00 GMT');
    const v = verifyRequest({
      method: 'GET',
      url: request.url,
      host: h.Host,
      date: h.Date,
      authorization: h.Authorization!,
      apiKey: endpoint.apiKey,
      now: NOW,
      variant: 'spec',
    });
    expect(v.valid).toBe(true);
  });

  it('inserts the parameters into a JSON object without rewriting it, even a malformed one; never twice', () => {
    expect(build({ path: '/x', body: { kind: 'json', text: '  {\n "a" : 1 }' } }).request.body).toBe(
      '  {"account":"acct","password":"k3y\\"&=","format":"json",\n "a" : 1 }',
    );
    expect(build({ path: '/x', body: { kind: 'json', text: '{}' } }).request.body).toBe('{"account":"acct","password":"k3y\\"&=","format":"json"}');
    expect(build({ path: '/x', body: { kind: 'json', text: '{"a":' } }).request.body).toBe('{"account":"acct","password":"k3y\\"&=","format":"json","a":');
    expect(build({ path: '/x', body: { kind: 'json', text: '{"account":"other"}' } }).request.body).toBe(
      '{"password":"k3y\\"&=","format":"json","account":"other"}',
    );
    expect(() => build({ path: '/x', body: { kind: 'json', text: '[1]' } })).toThrow(/object/);
  });

  it("fills variables (JSON-escaped in JSON), lists those without a value, and lets headers replace or leave out Callout's", () => {
    const { request, missing } = build(
      {
        path: '/{{op}}',
        credentials: 'none',
        signing: 'off',
        omit: ['Accept', 'Host'],
        headers: [
          { name: 'content-type', value: 'text/x-mine' },
          { name: 'X-Who', value: '{{who}}' },
          { name: 'X-Off', value: '1', enabled: false },
        ],
        body: { kind: 'json', text: '{"p":"{{password}}","m":"{{m}}","u":"{{unknown}}"}' },
      },
      { op: 'voice/vm', who: 'me', m: 'x"y' },
    );
    expect(missing).toEqual(['unknown']);
    expect(request.url).toBe('https://gw.example.com/route/voice/vm');
    expect(request.headers).toEqual([
      ['content-type', 'text/x-mine'],
      ['X-Who', 'me'],
    ]);
    expect(request.omit).toEqual(['host']);
    expect(request.body).toBe('{"p":"k3y\\"&=","m":"x\\"y","u":"{{unknown}}"}');
  });

  it("never leaves the profile's origin", () => {
    expect(build({ path: '/../../other', credentials: 'none' }).request.url).toBe('https://gw.example.com/other');
    expect(new URL(build({ path: '/{{to}}', credentials: 'none' }, { to: '/evil.example/x' }).request.url).origin).toBe('https://gw.example.com');
  });
});

describe('a raw request in the profile’s dialect', () => {
  const withDialect =
    (dialect: ProviderEndpoint['dialect'], baseUrl = 'https://api.vm.example.com') =>
    (r: RawRequestInput) =>
      buildRawRequest(rawRequest.parse(r), { endpoint: { ...endpoint, baseUrl, signing: null, dialect }, variables: {}, now: NOW });

  it('ihuyi: the fields under its names, to its path with a query, under a base URL with a query of its own', () => {
    const build = withDialect(builtinDialect('ihuyi'), 'https://api.vm.example.com/?tenant=7');
    const { request } = build({ path: '/webservice/voice.php?method=GetNum', body: { kind: 'form', fields: [] } });
    expect(request.url).toBe('https://api.vm.example.com/webservice/voice.php?tenant=7&method=GetNum');
    expect(request.body).toBe('account=acct&password=k3y%22%26%3D&format=json');
  });

  it('a key that travels in a header goes there, not in the body; the operation’s fixed fields come along', () => {
    const d = checkDialect({
      ...(SPEC_DIALECT as DialectInput),
      id: undefined,
      request: {
        key: { header: 'X-Api-Key', prefix: 'Key ' },
        fields: { account: 'appid', format: null },
        send: { path: '/v2/calls', extra: { version: '2' } },
      },
    });
    if (!d.ok) throw new Error('dialect');
    const { request } = withDialect(d.dialect)({ path: '/v2/calls', body: { kind: 'json', text: '{"to":"13800138008"}' } });
    expect(request.body).toBe('{"appid":"acct","version":"2","to":"13800138008"}');
    expect(request.headers).toContainEqual(['X-Api-Key', 'Key k3y"&=']);
    // Without Callout's credentials, no key at all.
    const bare = withDialect(d.dialect)({ path: '/v2/calls', credentials: 'none', body: { kind: 'json', text: '{}' } }).request;
    expect(bare.headers.map(([n]) => n)).not.toContain('X-Api-Key');
  });
});
