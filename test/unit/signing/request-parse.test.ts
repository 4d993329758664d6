import { describe, expect, it } from 'vitest';
import {
  MAX_CAPTURED_LENGTH,
  capturedSignatureInput,
  parseCapturedRequest,
  signRequest,
  verifyRequest,
  type CapturedRequest,
  type ParseCapturedResult,
} from '../../../main/signing';

const DATE = 'Sat, 21 Nov 2026 22:36:54 GMT';
const AUTH =
  'Signature keyId="C80604386", algorithm="hmac-sha256", headers="@request-target date host", signature="FnAzSH22amuCBtpi7GgRFa3u+woPfwrWGJNn17FV9Is="';

function ok(r: ParseCapturedResult): CapturedRequest {
  if (!r.ok) throw new Error(`expected ok, got ${r.error}: ${JSON.stringify(r.detail)}`);
  return r.value;
}

describe('parseCapturedRequest: raw HTTP', () => {
  it('reads a request line, headers (names lower-cased), a blank line and the body; CRLF line ends', () => {
    const text = [
      'POST /voice/vm HTTP/1.1',
      'Host: gateway.example.cn:8080',
      `Date: ${DATE}`,
      `Authorization: ${AUTH}`,
      'Content-Type: application/json',
      '',
      '{"account":"C80604386","mobile":"13800138000"}',
    ].join('\r\n');
    const v = ok(parseCapturedRequest(text));
    expect(v).toMatchObject({
      format: 'http',
      method: 'POST',
      url: 'https://gateway.example.cn:8080/voice/vm',
      body: '{"account":"C80604386","mobile":"13800138000"}',
    });
    expect(v.headers).toEqual({ host: 'gateway.example.cn:8080', date: DATE, authorization: AUTH, 'content-type': 'application/json' });
    expect(v.warnings).toEqual([{ code: 'scheme-assumed', params: {} }]);
  });

  it('takes the scheme from defaults.url, keeps the query, and has no body without one', () => {
    const v = ok(
      parseCapturedRequest(`GET /voice/status?smsid=1&format=json HTTP/1.1\nHost: 127.0.0.1:8080\nDate: ${DATE}\n`, { url: 'http://127.0.0.1:8080/' }),
    );
    expect(v.url).toBe('http://127.0.0.1:8080/voice/status?smsid=1&format=json');
    expect(v.body).toBeNull();
    expect(v.warnings).toEqual([]);
  });

  it('reads an absolute-form request target; the Host header stays as captured', () => {
    const v = ok(parseCapturedRequest(`POST http://10.0.0.5:8443/voice/vm HTTP/1.1\nHost: 10.0.0.5\nDate: ${DATE}\n\n{}`));
    expect(v.url).toBe('http://10.0.0.5:8443/voice/vm');
    expect(v.headers.host).toBe('10.0.0.5');
    expect(v.body).toBe('{}');
  });

  it('without a Host header the host comes from defaults.url, else it is an error', () => {
    expect(ok(parseCapturedRequest('POST /voice/vm HTTP/1.1\nDate: x\n', { url: 'https://api.example.com/whatever' })).url).toBe(
      'https://api.example.com/voice/vm',
    );
    const r = parseCapturedRequest('POST /voice/vm HTTP/1.1\nDate: x\n');
    expect(r).toEqual({ ok: false, error: 'no-host', detail: { code: 'no-host', params: {} } });
    expect(ok(parseCapturedRequest('POST /voice/vm HTTP/1.1\nDate: x\n', { url: 'https://api.example.com/' })).warnings).toEqual([
      { code: 'host-from-url', params: { origin: 'https://api.example.com' } },
    ]);
  });

  it('keeps the method as captured (case included), joins obs-fold lines, warns about a repeated header', () => {
    const v = ok(parseCapturedRequest(`post /voice/vm HTTP/1.1\nHost: a.example\nX-Long: one\n  two\nDate: ${DATE}\nDate: other\n`));
    expect(v.method).toBe('post');
    expect(v.headers['x-long']).toBe('one two');
    expect(v.headers.date).toBe(DATE);
    expect(v.warnings).toContainEqual({ code: 'duplicate-header', params: { name: 'date' } });
  });

  it('accepts a request line without an HTTP version, with a warning', () => {
    const v = ok(parseCapturedRequest('POST /voice/vm\nHost: a.example\n'));
    expect(v.url).toBe('https://a.example/voice/vm');
    expect(v.warnings).toContainEqual({ code: 'no-http-version', params: {} });
  });

  it('understands HTTP/2 pseudo-headers as browser dev tools show them', () => {
    const v = ok(parseCapturedRequest(`POST /voice/vm HTTP/2\n:method: POST\n:authority: api.example.com\n:scheme: https\n:path: /voice/vm\ndate: ${DATE}\n`));
    expect(v.url).toBe('https://api.example.com/voice/vm');
    expect(v.headers).toEqual({ date: DATE });
  });

  it('gives clear errors for a broken request line or header', () => {
    expect(parseCapturedRequest('POST /voice/vm HTTP/x\nHost: a\n')).toEqual({
      ok: false,
      error: 'bad-request-line',
      detail: { code: 'http-version', params: { version: 'HTTP/x' } },
    });
    expect(parseCapturedRequest('POST voice/vm HTTP/1.1\nHost: a\n')).toEqual({
      ok: false,
      error: 'bad-request-line',
      detail: { code: 'target', params: { target: 'voice/vm' } },
    });
    expect(parseCapturedRequest('OPTIONS * HTTP/1.1\nHost: a\n')).toEqual({
      ok: false,
      error: 'bad-request-line',
      detail: { code: 'target-asterisk', params: {} },
    });
    expect(parseCapturedRequest('POST /voice/vm HTTP/1.1\nHost: a\nthis is not a header\n')).toEqual({
      ok: false,
      error: 'bad-header',
      detail: { code: 'not-a-header', params: { line: 3, text: 'this is not a header' } },
    });
    expect(parseCapturedRequest('POST /voice/vm HTTP/1.1\nHost: a\nBad Name: x\n')).toEqual({
      ok: false,
      error: 'bad-header',
      detail: { code: 'header-name', params: { line: 3, name: 'Bad Name' } },
    });
    expect(parseCapturedRequest('POST /voice/vm HTTP/1.1\nHost: a b/c\n')).toEqual({
      ok: false,
      error: 'bad-url',
      detail: { code: 'host-name', params: { host: 'a b/c' } },
    });
    // A value quoted from the paste is clipped.
    const long = 'x'.repeat(500);
    const r = parseCapturedRequest(`POST /voice/vm HTTP/1.1\nHost: a\n${long}\n`);
    expect(r.ok ? null : r.detail).toEqual({ code: 'not-a-header', params: { line: 3, text: 'x'.repeat(60) + '…' } });
  });
});

describe('parseCapturedRequest: cURL', () => {
  it('reads our httpsnippet output (long options, line continuations, the quote-escape idiom)', () => {
    const text = `curl --request POST \\
  --url 'http://127.0.0.1:8080/voice/vm?x=1' \\
  --header 'Authorization: ${AUTH}' \\
  --header 'Content-Type: application/json' \\
  --header 'Date: ${DATE}' \\
  --data '{"account":"it'\\''s","content":"你好"}'`;
    const v = ok(parseCapturedRequest(text));
    expect(v).toMatchObject({ format: 'curl', method: 'POST', url: 'http://127.0.0.1:8080/voice/vm?x=1', body: '{"account":"it\'s","content":"你好"}' });
    expect(v.headers).toEqual({ authorization: AUTH, 'content-type': 'application/json', date: DATE });
    expect(v.warnings).toEqual([]);
  });

  it('reads the short form (-X, -H, -d) and an implied POST', () => {
    const v = ok(parseCapturedRequest(`curl -X POST 'https://api.example.com/voice/vm' -H 'Date: ${DATE}' -d '{"a":1}'`));
    expect(v).toMatchObject({ method: 'POST', url: 'https://api.example.com/voice/vm', body: '{"a":1}', headers: { date: DATE } });
    expect(ok(parseCapturedRequest(`curl https://api.example.com/voice/vm -d a=1 -d b=2`))).toMatchObject({ method: 'POST', body: 'a=1&b=2' });
    expect(ok(parseCapturedRequest(`curl https://api.example.com/voice/balance`)).method).toBe('GET');
    expect(ok(parseCapturedRequest(`curl -XPOST -HDate:x https://a.example/p`))).toMatchObject({ method: 'POST', headers: { date: 'x' } });
  });

  it('reads a browser "Copy as cURL (bash)": $\'...\' ANSI-C quoting, --data-raw, --compressed', () => {
    const text = `curl 'https://api.example.com/voice/vm' \\
  -H 'accept: application/json' \\
  -H $'date: ${DATE}' \\
  -H 'authorization: ${AUTH}' \\
  --data-raw $'{"content":"\\u4f60\\u597d \\xe4\\xb8\\x96 it\\'s\\\\n\\t"}' \\
  --compressed`;
    const v = ok(parseCapturedRequest(text));
    expect(v.method).toBe('POST');
    expect(v.headers).toEqual({ accept: 'application/json', date: DATE, authorization: AUTH });
    expect(v.body).toBe('{"content":"你好 世 it\'s\\n\t"}');
    expect(v.warnings).toEqual([]);
  });

  it('reads double quotes with backslash escapes', () => {
    const v = ok(
      parseCapturedRequest(
        `curl -H "Authorization: Signature keyId=\\"k\\", algorithm=\\"hmac-sha256\\", headers=\\"@request-target date host\\", signature=\\"c2ln\\"" "https://a.example/voice/vm?q=\\$x"`,
      ),
    );
    expect(v.headers.authorization).toBe('Signature keyId="k", algorithm="hmac-sha256", headers="@request-target date host", signature="c2ln"');
    expect(v.url).toBe('https://a.example/voice/vm?q=$x');
  });

  it('-G moves the data into the query string; -I is HEAD; a pipe after the command is ignored with a warning', () => {
    expect(ok(parseCapturedRequest(`curl -G https://a.example/voice/status -d smsid=1 --data-urlencode 'q=a b'`))).toMatchObject({
      method: 'GET',
      url: 'https://a.example/voice/status?smsid=1&q=a%20b',
      body: null,
    });
    expect(ok(parseCapturedRequest('curl -sI https://a.example/')).method).toBe('HEAD');
    const piped = ok(parseCapturedRequest(`curl -s https://a.example/voice/balance -d '{}' | jq .`));
    expect(piped.url).toBe('https://a.example/voice/balance');
    expect(piped.warnings).toEqual([{ code: 'text-after-curl', params: {} }]);
  });

  it("a URL without a scheme gets http, as cURL does (or the default URL's scheme)", () => {
    const bare = ok(parseCapturedRequest('curl 127.0.0.1:8080/voice/vm -d x'));
    expect(bare.url).toBe('http://127.0.0.1:8080/voice/vm');
    expect(bare.warnings).toEqual([{ code: 'url-scheme-assumed', params: { kind: 'http' } }]);
    const given = ok(parseCapturedRequest('curl api.example.com/voice/vm -d x', { url: 'https://api.example.com' }));
    expect(given.url).toBe('https://api.example.com/voice/vm');
    expect(given.warnings).toEqual([{ code: 'url-scheme-assumed', params: { kind: 'https' } }]);
  });

  it('a body from a file is not available: null, with a warning', () => {
    const v = ok(parseCapturedRequest('curl https://a.example/voice/vm --data-binary @body.json'));
    expect(v.method).toBe('POST');
    expect(v.body).toBeNull();
    expect(v.warnings).toEqual([{ code: 'body-unavailable', params: { kind: 'file', file: 'body.json' } }]);
    expect(ok(parseCapturedRequest('curl https://a.example/voice/vm -d @-')).warnings).toEqual([
      { code: 'body-unavailable', params: { kind: 'stdin', file: '' } },
    ]);
    expect(ok(parseCapturedRequest('curl https://a.example/voice/vm -F a=b')).warnings).toEqual([
      { code: 'body-unavailable', params: { kind: 'form', file: '' } },
    ]);
  });

  it('says what it ignored: basic authentication, unknown options, a removed header, several URLs, a repeated header', () => {
    const v = ok(parseCapturedRequest(`curl -u me:pw --frobnicate -H 'X-Gone:' -H 'Date: a' -H 'Date: b' https://a.example/one https://a.example/two`));
    expect(v.url).toBe('https://a.example/one');
    expect(v.warnings).toEqual([
      { code: 'basic-auth', params: { option: '-u' } },
      { code: 'unknown-options', params: { options: '--frobnicate' } },
      { code: 'several-urls', params: { count: 2 } },
      { code: 'header-removed', params: { name: 'X-Gone' } },
      { code: 'duplicate-header', params: { name: 'date' } },
    ]);
  });

  it('reads a command pasted without the continuation backslashes', () => {
    const v = ok(parseCapturedRequest(`curl https://a.example/voice/vm\n  -H 'Date: ${DATE}'\n  -d '{}'`));
    expect(v).toMatchObject({ method: 'POST', headers: { date: DATE }, body: '{}' });
    expect(v.warnings).toEqual([{ code: 'joined-lines', params: {} }]);
  });

  it('gives clear errors: unterminated quote, missing value, no URL, cmd.exe syntax, bad header, not http', () => {
    const detail = (text: string) => {
      const r = parseCapturedRequest(text);
      return r.ok ? null : { error: r.error, ...r.detail };
    };
    expect(detail(`curl 'https://a.example/`)).toEqual({ error: 'bad-curl', code: 'curl-quote', params: { kind: 'single' } });
    expect(detail(`curl "https://a.example/`)).toEqual({ error: 'bad-curl', code: 'curl-quote', params: { kind: 'double' } });
    expect(detail(`curl $'https://a.example/`)).toEqual({ error: 'bad-curl', code: 'curl-quote', params: { kind: 'ansi-c' } });
    expect(detail(`curl $'\\xZZ'`)).toEqual({ error: 'bad-curl', code: 'curl-escape', params: { escape: '\\x', position: 7 } });
    expect(detail(`curl https://a.example/ \\`)).toEqual({ error: 'bad-curl', code: 'curl-backslash', params: {} });
    expect(detail(`curl https://a.example/ -H`)).toEqual({ error: 'bad-curl', code: 'curl-option-value', params: { option: '-H' } });
    expect(detail(`curl https://a.example/ --header`)).toEqual({ error: 'bad-curl', code: 'curl-option-value', params: { option: '--header' } });
    expect(detail(`curl -H 'Date: x'`)).toEqual({ error: 'no-url', code: 'curl-no-url', params: {} });
    expect(detail('curl ^"https://a.example/^" ^\n  -H ^"Date: x^"')).toEqual({ error: 'bad-curl', code: 'curl-cmd-exe', params: {} });
    expect(detail(`curl https://a.example/ -H 'no colon here'`)).toEqual({ error: 'bad-header', code: 'curl-header', params: { header: 'no colon here' } });
    expect(detail(`curl ftp://a.example/file`)).toEqual({ error: 'bad-url', code: 'not-http-url', params: { url: 'ftp://a.example/file' } });
  });
});

describe('parseCapturedRequest: headers only', () => {
  it('takes the URL and method from the defaults', () => {
    const v = ok(
      parseCapturedRequest(`Date: ${DATE}\nAuthorization: ${AUTH}\nHost: api.example.com\n`, { url: 'https://api.example.com/voice/vm', method: 'POST' }),
    );
    expect(v).toMatchObject({ format: 'headers', method: 'POST', url: 'https://api.example.com/voice/vm', body: null });
    expect(v.headers).toEqual({ date: DATE, authorization: AUTH, host: 'api.example.com' });
    expect(v.warnings).toEqual([]);
  });

  it('assumes POST when no method is given, and needs a URL', () => {
    const v = ok(parseCapturedRequest(`Date: ${DATE}`, { url: 'https://api.example.com/voice/vm' }));
    expect(v.method).toBe('POST');
    expect(v.warnings).toEqual([{ code: 'method-assumed', params: {} }]);
    expect(parseCapturedRequest(`Date: ${DATE}\nAuthorization: ${AUTH}`)).toEqual({ ok: false, error: 'no-url', detail: { code: 'headers-only', params: {} } });
    expect(parseCapturedRequest(`:path: /voice/vm\nDate: ${DATE}`)).toEqual({ ok: false, error: 'no-host', detail: { code: 'no-authority', params: {} } });
  });

  it('reads the URL from HTTP/2 pseudo-headers', () => {
    const v = ok(parseCapturedRequest(`:method: POST\n:authority: api.example.com:8443\n:scheme: https\n:path: /voice/vm\ndate: ${DATE}`));
    expect(v).toMatchObject({ method: 'POST', url: 'https://api.example.com:8443/voice/vm', headers: { date: DATE } });
  });
});

describe('parseCapturedRequest: garbage', () => {
  it.each([
    ['hello world', 'unrecognised'],
    ['{"account": "x", "password": "y"}', 'unrecognised'],
    ['Date: fine\nbut this line is not a header', 'unrecognised'],
    ['', 'empty'],
    ['  \n\t\n', 'empty'],
  ] as const)('%j → %s', (text, error) => {
    const r = parseCapturedRequest(text, { url: 'https://a.example/' });
    expect(r).toMatchObject({ ok: false, error, detail: { code: error === 'empty' ? 'empty' : 'not-a-request' } });
  });

  it('the error for garbage names the first line that is not a header', () => {
    expect(parseCapturedRequest('hello world')).toEqual({
      ok: false,
      error: 'unrecognised',
      detail: { code: 'not-a-request', params: { line: 1, text: 'hello world' } },
    });
  });

  it('refuses a bad default URL, and a paste too long to be a request', () => {
    expect(parseCapturedRequest('Date: x', { url: 'not a url' })).toEqual({
      ok: false,
      error: 'bad-url',
      detail: { code: 'default-url', params: { url: 'not a url' } },
    });
    expect(parseCapturedRequest('x'.repeat(MAX_CAPTURED_LENGTH + 1))).toEqual({
      ok: false,
      error: 'unrecognised',
      detail: { code: 'too-long', params: { length: MAX_CAPTURED_LENGTH + 1, max: MAX_CAPTURED_LENGTH } },
    });
  });
});

describe('capturedSignatureInput → verifyRequest', () => {
  const steps = signRequest({ apiId: 'C80604386', apiKey: 'k-1', method: 'POST', url: 'http://127.0.0.1:8080/voice/vm', date: DATE });
  const now = new Date(Date.parse(DATE));

  it('a raw HTTP capture of a signed request verifies', () => {
    const text = `POST /voice/vm HTTP/1.1\r\nHost: ${steps.headers.Host}\r\nDate: ${steps.headers.Date}\r\nAuthorization: ${steps.headers.Authorization}\r\n\r\n{}`;
    const v = ok(parseCapturedRequest(text, { url: 'http://127.0.0.1:8080' }));
    expect(verifyRequest({ ...capturedSignatureInput(v), apiKey: 'k-1', now })).toMatchObject({ valid: true });
  });

  it("a cURL capture without a Host header verifies with the URL's host", () => {
    const text = `curl -X POST http://127.0.0.1:8080/voice/vm -H 'Date: ${steps.headers.Date}' -H 'Authorization: ${steps.headers.Authorization}' -d '{}'`;
    const input = capturedSignatureInput(ok(parseCapturedRequest(text)));
    expect(input).not.toHaveProperty('host');
    expect(verifyRequest({ ...input, apiKey: 'k-1', now })).toMatchObject({ valid: true });
    expect(verifyRequest({ ...input, apiKey: 'k-2', now })).toMatchObject({ valid: false, reason: 'signature-mismatch' });
  });
});
