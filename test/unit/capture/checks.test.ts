// The capture proxy's checks of one exchange, as a tester reads them: what was wrong with the
// request the backend sent, and what the provider's reply meant.
import { describe, expect, it } from 'vitest';
import { builtinDialect, checkDialect, SPEC_DIALECT, type DialectInput } from '../../../common/dialects';
import { checkExchange, type CheckContext, type CheckedExchange } from '../../../main/capture/checks';
import { formatHttpDate, signRequest } from '../../../main/signing';

const KEY = 'unit-key-123456';
const NOW = new Date('2026-03-02T08:00:00Z');
const TARGET = 'https://voice.example.com';
const ctx: CheckContext = {
  target: new URL(TARGET),
  key: { apiKey: KEY, apiId: 'acct', variant: 'spec', dialect: SPEC_DIALECT },
  templates: [
    { name: 'code', content: '验证码【变量】', approved: true },
    { name: 'later', content: '明天【变量】见', approved: false },
  ],
  now: NOW,
};

function exchange(over: Partial<CheckedExchange> & { params?: Record<string, unknown>; signWith?: string; date?: Date } = {}): CheckedExchange {
  const url = over.url ?? `${TARGET}/voice/vm`;
  const h = signRequest({ apiId: 'acct', apiKey: over.signWith ?? KEY, method: 'POST', url, date: formatHttpDate(over.date ?? NOW) }).headers;
  const body = JSON.stringify(over.params ?? { account: 'acct', password: KEY, mobile: '13800138008', content: '验证码1234' });
  return {
    mode: 'forward',
    method: 'POST',
    url,
    providerUrl: url,
    headers: [
      ['Host', h.Host],
      ['Date', h.Date],
      ['Authorization', h.Authorization],
      ['Content-Type', 'application/json'],
    ],
    body,
    bodyCut: false,
    status: 200,
    responseHeaders: [['Content-Type', 'application/json']],
    responseBody: '{"code":2,"msg":"ok","smsid":"S1","count":1}',
    responseCut: false,
    error: null,
    maxBytes: 1000,
    ...over,
  };
}
const byName = (r: ReturnType<typeof checkExchange>, name: string) => r.checks.find((c) => c.check === name)!;

describe('checks of a captured exchange', () => {
  it('passes a well-formed, well-signed send of an approved text that the provider accepted', () => {
    const r = checkExchange(exchange(), ctx);
    expect(r.verdict).toBe('pass');
    expect(r.checks.map((c) => [c.check, c.code])).toEqual([
      ['signature', 'signature-valid'],
      ['clock', 'clock-within'],
      ['rules', 'rules-met'],
      ['reply', 'reply-sent'],
    ]);
    expect(byName(r, 'rules').params).toEqual({ kind: 'send', template: 'code' });
  });

  it('diagnoses a signature made with another key, and says a password that is not the key', () => {
    const r = checkExchange(
      exchange({ signWith: 'another-key-999', params: { account: 'acct', password: 'wrong', mobile: '13800138008', content: '验证码1' } }),
      ctx,
    );
    expect(byName(r, 'signature')).toMatchObject({ verdict: 'fail', code: 'signature-invalid', params: { kind: 'signature-mismatch' } });
    expect(byName(r, 'rules').issues).toEqual([expect.objectContaining({ code: 'password', verdict: 'fail' })]);
  });

  it('warns when the backend signed the proxy’s host (reverse mode)', () => {
    const url = 'http://127.0.0.1:8999/voice/vm';
    const r = checkExchange({ ...exchange({ url }), mode: 'reverse', providerUrl: `${TARGET}/voice/vm` }, ctx);
    expect(byName(r, 'signature')).toMatchObject({
      verdict: 'warn',
      code: 'signed-for-proxy',
      params: { host: '127.0.0.1:8999', provider: 'voice.example.com' },
    });
  });

  it('measures the clock against the provider’s Date when it answered, and fails outside the window', () => {
    const late = exchange({ date: new Date(NOW.getTime() - 400_000) });
    const r = checkExchange({ ...late, responseHeaders: [['Date', formatHttpDate(NOW)]] }, ctx);
    expect(byName(r, 'clock')).toMatchObject({ verdict: 'fail', code: 'clock-outside', params: { kind: 'provider-behind', seconds: 400, window: 300 } });
    // The signature itself is still right: the clock is said once, by its own check.
    expect(byName(r, 'signature').verdict).toBe('pass');
    const edge = checkExchange(exchange({ date: new Date(NOW.getTime() + 270_000) }), ctx);
    expect(byName(edge, 'clock')).toMatchObject({ verdict: 'warn', code: 'clock-near-edge', params: { kind: 'callout-ahead', seconds: 270 } });
  });

  it('lists each broken rule: missing fields, a bad number, a text over 500 characters, a pending template', () => {
    const missing = checkExchange(exchange({ params: { account: 'acct', password: KEY, content: '验证码1' } }), ctx);
    expect(byName(missing, 'rules')).toMatchObject({
      verdict: 'fail',
      code: 'rules-broken',
      issues: [expect.objectContaining({ code: 'missing', params: { field: 'mobile' } })],
    });
    const badNumber = checkExchange(exchange({ params: { account: 'acct', password: KEY, mobile: '12345', content: '验证码1' } }), ctx);
    expect(byName(badNumber, 'rules').issues).toEqual([expect.objectContaining({ code: 'mobile', params: expect.objectContaining({ kind: 'wrong-length' }) })]);
    const spaced = checkExchange(exchange({ params: { account: 'acct', password: KEY, mobile: '+86 138 0013 8008', content: '验证码1' } }), ctx);
    expect(byName(spaced, 'rules')).toMatchObject({
      verdict: 'warn',
      issues: [expect.objectContaining({ code: 'mobile', params: expect.objectContaining({ kind: 'not-bare', normalised: '13800138008' }) })],
    });
    const long = checkExchange(exchange({ params: { account: 'acct', password: KEY, mobile: '13800138008', content: '验证码' + 'x'.repeat(600) } }), ctx);
    expect(byName(long, 'rules').issues).toEqual([
      expect.objectContaining({ code: 'content', params: expect.objectContaining({ kind: 'too-long', max: 500 }) }),
    ]);
    const pending = checkExchange(exchange({ params: { account: 'acct', password: KEY, mobile: '13800138008', content: '明天上午见' } }), ctx);
    expect(byName(pending, 'rules').issues).toEqual([expect.objectContaining({ code: 'template', params: { kind: 'pending', name: 'later' } })]);
    const none = checkExchange(exchange({ params: { account: 'other', password: KEY, mobile: '13800138008', content: 'hello' } }), ctx);
    expect(
      byName(none, 'rules')
        .issues!.map((i) => i.code)
        .sort(),
    ).toEqual(['account', 'template']);
  });

  it('reads the reply with the dialect: a refusal, a rejected signature, a 502 of the proxy', () => {
    expect(byName(checkExchange(exchange({ responseBody: '{"code":404,"msg":"bad number"}' }), ctx), 'reply')).toMatchObject({
      verdict: 'fail',
      code: 'reply-refused',
      params: { code: 404 },
    });
    expect(byName(checkExchange(exchange({ status: 401, responseBody: '{"message":"client request can\'t be validated"}' }), ctx), 'reply')).toMatchObject({
      verdict: 'fail',
      code: 'reply-signature-rejected',
    });
    expect(byName(checkExchange(exchange({ status: null, responseHeaders: null, responseBody: null, error: 'refused' }), ctx), 'reply')).toMatchObject({
      verdict: 'fail',
      code: 'reply-none',
      params: { kind: 'refused' },
    });
  });

  it('does not check what is not a voice request to the provider, nor a signature without a key', () => {
    expect(checkExchange(exchange({ url: `${TARGET}/health`, providerUrl: `${TARGET}/health` }), ctx).checks.map((c) => c.code)).toContain('not-voice');
    expect(checkExchange(exchange({ url: 'http://elsewhere.example/x', providerUrl: 'http://elsewhere.example/x' }), ctx)).toMatchObject({
      verdict: 'skip',
      checks: [{ code: 'other-host' }],
    });
    expect(byName(checkExchange(exchange(), { ...ctx, key: null }), 'signature')).toMatchObject({ verdict: 'skip', code: 'no-key' });
    expect(byName(checkExchange(exchange({ body: '{"account":', bodyCut: true }), ctx), 'rules').issues).toEqual([
      expect.objectContaining({ code: 'body', params: expect.objectContaining({ kind: 'cut' }) }),
    ]);
  });
});

describe('checks in the profile’s dialect', () => {
  const ihuyi = { ...ctx, target: new URL('http://api.vm.example.com'), key: { ...ctx.key!, variant: null, dialect: builtinDialect('ihuyi')! } };
  const SUBMIT = 'http://api.vm.example.com/webservice/voice.php?method=Submit';
  const formSend = (fields: Record<string, string>, type = 'application/x-www-form-urlencoded'): CheckedExchange =>
    exchange({
      url: SUBMIT,
      providerUrl: SUBMIT,
      headers: [['Content-Type', type]],
      body: new URLSearchParams(fields).toString(),
      responseBody: '{"code":2,"msg":"提交成功","voiceid":"V1"}',
    });

  it('ihuyi: a form POST to voice.php?method=Submit is its send; its rules met, its voiceid read', () => {
    const r = checkExchange(formSend({ account: 'acct', password: KEY, mobile: '13800138008', content: '验证码1234', format: 'json' }), ihuyi);
    expect(byName(r, 'rules')).toMatchObject({ verdict: 'pass', code: 'rules-met', params: { kind: 'send', template: 'code' } });
    expect(byName(r, 'reply')).toMatchObject({ verdict: 'pass', code: 'reply-sent', params: { id: 'V1' } });
    // The spec's path is not one of ihuyi's operations.
    const spec = checkExchange(exchange({ url: 'http://api.vm.example.com/voice/vm', providerUrl: 'http://api.vm.example.com/voice/vm' }), ihuyi);
    expect(byName(spec, 'rules')).toMatchObject({ verdict: 'skip', code: 'not-voice' });
  });

  it('a JSON POST reads its fields from its body only: the key in the URL’s query is no password (the provider would not read it there)', () => {
    const url = `${TARGET}/voice/vm?password=${KEY}`;
    const r = checkExchange(exchange({ url, providerUrl: url, params: { account: 'acct', mobile: '13800138008', content: '验证码1234' } }), ctx);
    expect(byName(r, 'rules').issues).toEqual([expect.objectContaining({ code: 'missing', params: { field: 'password' } })]);
  });

  it('a dialect whose status is a GET: the query is its fields; a POST there is the wrong method', () => {
    const d = checkDialect({ ...(SPEC_DIALECT as DialectInput), id: undefined, name: 'GET status', request: { status: { method: 'GET' } } });
    if (!d.ok) throw new Error('dialect');
    const own = { ...ctx, key: { ...ctx.key!, variant: null, dialect: d.dialect } };
    const url = `${TARGET}/voice/status?account=acct&password=${KEY}&smsid=S1&format=json`;
    const get = checkExchange(
      exchange({ method: 'GET', url, providerUrl: url, headers: [], body: null, responseBody: '{"code":2,"msg":"ok","data":[]}' }),
      own,
    );
    expect(byName(get, 'rules')).toMatchObject({ verdict: 'pass', code: 'rules-met' });
    const post = checkExchange(
      exchange({ url: `${TARGET}/voice/status`, providerUrl: `${TARGET}/voice/status`, params: { account: 'acct', password: KEY, smsid: 'S1' } }),
      own,
    );
    expect(byName(post, 'rules').issues).toEqual([expect.objectContaining({ code: 'method', params: { method: 'POST', expected: 'GET' } })]);
  });

  it('ihuyi: JSON where a form is expected is a warning naming the form type; a missing field is named', () => {
    const json = checkExchange(formSend({ account: 'acct', password: KEY, content: '验证码1234' }, 'application/json'), ihuyi);
    expect(byName(json, 'rules').issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'content-type', verdict: 'warn', params: { type: 'application/json', expected: 'application/x-www-form-urlencoded' } }),
      ]),
    );
    const missing = checkExchange(formSend({ account: 'acct', password: KEY, content: '验证码1234' }), ihuyi);
    expect(byName(missing, 'rules').issues).toEqual([expect.objectContaining({ code: 'missing', params: { field: 'mobile' } })]);
  });
});
