import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../common/records';
import { REDACTED, Redactor } from '../../../main/voice/redaction';
import { findKey, keyEncodings } from '../../helpers/key-scan';

const KEY = 'k3y/with+odd"chars&=中文';

function exchange(over: Partial<Exchange> = {}): Exchange {
  return {
    operation: 'send',
    method: 'POST',
    url: 'http://127.0.0.1:1/voice/vm',
    requestHeaders: [
      ['Content-Type', 'application/json'],
      ['Authorization', 'Signature keyId="id", algorithm="hmac-sha256", headers="@request-target date host", signature="c2lnbmF0dXJl"'],
    ],
    requestBody: JSON.stringify({ account: 'id', password: KEY, mobile: '13800138000', content: 'hi' }),
    status: 200,
    statusText: 'OK',
    responseHeaders: [['Content-Type', 'application/json']],
    responseBody: JSON.stringify({ code: 401, msg: `bad password ${KEY}` }),
    error: null,
    startedAt: 0,
    timings: { dnsMs: null, connectMs: 1, tlsMs: null, firstByteMs: 2, totalMs: 3 },
    ...over,
  };
}

describe('redaction', () => {
  it('removes the key from JSON bodies, echoed replies, URLs and errors, and the signature from Authorization', () => {
    const r = new Redactor([KEY]).exchange(
      exchange({ url: `http://h/x?password=${encodeURIComponent(KEY)}`, error: { kind: 'reset', message: `failed for ${KEY}` } }),
    );
    const all = JSON.stringify(r);
    expect(all).not.toContain('k3y');
    expect(all).not.toContain('c2lnbmF0dXJl');
    expect(JSON.parse(r.requestBody!)).toMatchObject({ account: 'id', password: REDACTED, mobile: '13800138000' });
    expect(r.requestHeaders[1]![1]).toContain(`signature="${REDACTED}"`);
    expect(r.requestHeaders[1]![1]).toContain('keyId="id"');
  });

  it('redacts the password field of a form body even when the key is not known to it', () => {
    const r = new Redactor([]).exchange(
      exchange({ requestHeaders: [['Content-Type', 'application/x-www-form-urlencoded']], requestBody: 'account=id&password=other-secret&mobile=1' }),
    );
    expect(r.requestBody).toBe(`account=id&password=${encodeURIComponent(REDACTED)}&mobile=1`);
  });

  it('leaves exchanges without secrets byte for byte as they were', () => {
    const plain = exchange({
      requestBody: '{"account":"id","mobile":"1"}',
      requestHeaders: [['Content-Type', 'application/json']],
      responseBody: '{"code":2, "msg":"ok"}',
    });
    expect(new Redactor([KEY]).exchange(plain)).toEqual(plain);
  });

  it('keeps only the scheme of any other Authorization (Basic carries the key in base64), and of Proxy-Authorization', () => {
    const basic = `Basic ${Buffer.from(`id:${KEY}`).toString('base64')}`;
    const r = new Redactor([KEY]).exchange(
      exchange({
        requestHeaders: [
          ['Authorization', basic],
          ['Proxy-Authorization', 'Basic dXNlcjpwYXNz'],
          ['authorization', 'Bearer tok.en'],
          ['Authorization', 'opaque-token'],
        ],
      }),
    );
    expect(r.requestHeaders).toEqual([
      ['Authorization', `Basic ${REDACTED}`],
      ['Proxy-Authorization', `Basic ${REDACTED}`],
      ['authorization', `Bearer ${REDACTED}`],
      ['Authorization', REDACTED],
    ]);
  });

  it('finds a password field whatever its case, in JSON and in forms, without knowing the key', () => {
    const r = new Redactor([]);
    expect(r.body('{"PASSWORD":"s3cret","Password":123}', 'application/json')).toBe(`{"PASSWORD":"${REDACTED}","Password":"${REDACTED}"}`);
    expect(r.body('account=id&Password=s3cret', 'application/x-www-form-urlencoded')).toBe(`account=id&Password=${encodeURIComponent(REDACTED)}`);
  });

  it('a body nested thousands deep loses its password too, and never throws', () => {
    const deep = `{"a":${'['.repeat(20_000)}${']'.repeat(20_000)},"password":"s3cret"}`;
    const out = new Redactor(['s3cret']).body(deep, 'application/json')!;
    expect(out).not.toContain('s3cret');
    expect(out).toContain(REDACTED);
    const deepObject = `${'{"a":'.repeat(5_000)}{"password":"s3cret"}${'}'.repeat(5_000)}`;
    expect(new Redactor([]).body(deepObject, 'application/json')).not.toContain('s3cret');
  });

  it('finds the key as the URL parser writes it into a path or a query', () => {
    const key = "Ab'c=De{f} g";
    const url = new URL(`http://127.0.0.1:1/voice/${key}?x=${key}`).toString();
    expect(new Redactor([key]).text(url)).toBe(`http://127.0.0.1:1/voice/${REDACTED}?x=${REDACTED}`);
    // A key the parser would cut (a #) adds no short form that would blank ordinary text.
    expect(new Redactor(['a#bcdefgh']).text('a banana')).toBe('a banana');
  });

  it('finds the key in every encoding a backend may write it, also one written half one way, half another', () => {
    const r = new Redactor([KEY]);
    for (const { name, text } of keyEncodings(KEY)) {
      const out = r.text(`a=1&x=${text}&b=2`);
      expect(findKey(out, KEY), name).toEqual([]);
      expect(out, name).toMatch(/^a=1&x=.*\[REDACTED\].*&b=2$/);
    }
    const half = encodeURIComponent(KEY.slice(0, 5)).toLowerCase() + JSON.stringify(KEY.slice(5)).slice(1, -1);
    expect(r.text(half)).toBe(REDACTED);
    // Inside longer base64 at each alignment, in a JSON string with \/ escapes: the whole token goes.
    for (const prefix of ['a:', 'ab:', 'abc:']) {
      const token = Buffer.from(`${prefix}${KEY}!`).toString('base64').replace(/\//g, '\\/');
      expect(r.text(`{"auth":"Basic ${token}"}`)).toBe(`{"auth":"Basic ${REDACTED}"}`);
    }
    // In a URL the placeholder is percent-encoded, so that the URL stays one.
    expect(r.url(`http://h/x?t=${encodeURIComponent(KEY).toLowerCase()}`)).toBe(`http://h/x?t=${encodeURIComponent(REDACTED)}`);
  });

  it('finds a password field by its name as a server reads it, in forms, queries, multipart and XML, without the key', () => {
    const r = new Redactor([]);
    const gone = encodeURIComponent(REDACTED);
    expect(r.body('a=1&pass%77ord=s3cret&data%5Bpassword%5D=s3cret&passwords=kept', 'application/x-www-form-urlencoded')).toBe(
      `a=1&pass%77ord=${gone}&data%5Bpassword%5D=${gone}&passwords=kept`,
    );
    expect(r.url('http://h/x?PASS%57ORD=s3cret&y=2#f')).toBe(`http://h/x?PASS%57ORD=${gone}&y=2#f`);
    const multipart = [
      '--B',
      'Content-Disposition: form-data; name="a"',
      '',
      'kept',
      '--B',
      "Content-Disposition: form-data; name*=UTF-8''pass%77ord",
      'Content-Type: text/plain',
      '',
      's3cret',
      '--B',
      'Content-Disposition: form-data; name="password"',
      '',
      's3cret cut off',
    ].join('\r\n');
    // A boundary read from the body when the Content-Type lost it; the last part is cut by the size limit.
    expect(r.body(multipart, 'multipart/form-data')).toBe(multipart.replace('s3cret cut off', REDACTED).replace('s3cret', REDACTED));
    expect(r.body('<r><s:Password x="1">s3cret</s:Password><password/><a password=\'s3cret\'>kept</a><password>cut', 'text/xml')).toBe(
      `<r><s:Password x="1">${REDACTED}</s:Password><password/><a password="${REDACTED}">kept</a><password>${REDACTED}`,
    );
  });

  it('leaves base64 and percent-encoded text that does not hold the key as it was', () => {
    const r = new Redactor([KEY]);
    const other = `Basic ${Buffer.from('acct:another-key-entirely').toString('base64')} %6b%33%79 k3y`;
    expect(r.text(other)).toBe(other);
  });
});
