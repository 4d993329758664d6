import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clearSigningKeyCache, parseHttpDate, signParts, signRequest } from '../../../main/signing';
import { DATE } from './vectors';

const input = {
  apiId: '测试账号',
  apiKey: '密钥🔑-Key',
  method: 'post',
  url: 'https://api.example.com:8443/voice/vm?format=json#section',
  date: DATE,
};

describe('signRequest: every step', () => {
  it('spec: lines, string, flags and headers', () => {
    const s = signRequest(input);
    expect(s.variant).toBe('spec');
    expect(s.method).toBe('POST');
    expect(s.url).toBe('https://api.example.com:8443/voice/vm?format=json');
    expect(s.host).toBe('api.example.com:8443');
    expect(s.path).toBe('/voice/vm');
    expect(s.query).toBe('format=json');
    expect(s.droppedQuery).toBe(true);
    expect(s.droppedFragment).toBe(true);
    expect(s.lines).toEqual(['测试账号', 'POST /voice/vm', `date: ${DATE}`, 'host: api.example.com:8443']);
    expect(s.stringToSign).toBe(s.lines.join('\n'));
    expect(s.headers).toEqual({ Host: 'api.example.com:8443', Date: DATE, Authorization: s.authorization });
    expect(s.authorization).toBe(`Signature keyId="测试账号", algorithm="hmac-sha256", headers="@request-target date host", signature="${s.signature}"`);
  });

  it('apisix: keeps the query, so nothing is dropped but the fragment', () => {
    const s = signRequest({ ...input, variant: 'apisix' });
    expect(s.variant).toBe('apisix');
    expect(s.droppedQuery).toBe(false);
    expect(s.droppedFragment).toBe(true);
    expect(s.lines[1]).toBe('POST /voice/vm?format=json');
    expect(s.stringToSign).toBe(s.lines.join('\n') + '\n');
  });

  it('flags are false when the URL has no query and no fragment', () => {
    const s = signRequest({ ...input, url: 'https://api.example.com/voice/vm' });
    expect(s.droppedQuery).toBe(false);
    expect(s.droppedFragment).toBe(false);
    expect(s.query).toBe('');
  });

  it('the bytes are the UTF-8 encoding of the string to sign (multi-byte for Chinese)', () => {
    const s = signRequest(input);
    expect(s.stringToSignBytesHex).toBe(Buffer.from(s.stringToSign, 'utf8').toString('hex'));
    expect(s.stringToSignBytesHex.startsWith('e6b58be8af95e8b4a6e58fb70a')).toBe(true); // 测试账号\n
  });

  it('hmacHex and signature are the same 32 bytes, hex and base64', () => {
    const s = signRequest(input);
    expect(s.hmacHex).toMatch(/^[0-9a-f]{64}$/);
    expect(Buffer.from(s.hmacHex, 'hex').toString('base64')).toBe(s.signature);
    expect(s.hmacHex).toBe(createHmac('sha256', Buffer.from(input.apiKey, 'utf8')).update(Buffer.from(s.stringToSign, 'utf8')).digest('hex'));
  });

  it('agrees with the fast path for both variants', () => {
    for (const variant of ['spec', 'apisix'] as const) {
      const s = signRequest({ ...input, variant });
      const fast = signParts({
        apiId: input.apiId,
        apiKey: input.apiKey,
        method: input.method,
        host: s.host,
        path: s.path,
        query: s.query,
        date: DATE,
        variant,
      });
      expect(fast).toEqual({ signature: s.signature, authorization: s.authorization });
    }
  });

  it('uses the current time as an HTTP-date when no date is given', () => {
    const before = Date.now();
    const s = signRequest({ ...input, date: undefined });
    const d = parseHttpDate(s.date);
    expect(d).not.toBeNull();
    expect(Math.abs((d?.getTime() ?? 0) - before)).toBeLessThan(2000);
    expect(s.headers.Date).toBe(s.date);
  });

  it.each([
    ['a URL that does not parse', { url: 'not a url' }],
    ['a non-http URL', { url: 'ftp://api.example.com/voice/vm' }],
    ['a method with a space', { method: 'PO ST' }],
    ['an empty method', { method: '' }],
    ['an API ID with a double quote', { apiId: 'a"b' }],
    ['an API ID with a line break', { apiId: 'a\nb' }],
    ['an empty API ID', { apiId: '' }],
    ['a date with a line break', { date: `${DATE}\nhost: evil` }],
  ])('refuses %s', (_name, patch) => {
    expect(() => signRequest({ ...input, ...patch })).toThrow(TypeError);
  });
});

describe('signParts key handling', () => {
  it('never signs with a previous key, whatever the order of keys', () => {
    clearSigningKeyCache();
    const parts = { apiId: 'C1', method: 'POST', host: 'h', path: '/voice/vm', date: DATE };
    for (const apiKey of ['A', 'A', 'A', 'B', 'B', 'A', '密钥', '密钥', 'A', '', '', 'B']) {
      const expected = createHmac('sha256', Buffer.from(apiKey, 'utf8')).update(`C1\nPOST /voice/vm\ndate: ${DATE}\nhost: h`).digest('base64');
      expect(signParts({ ...parts, apiKey }).signature).toBe(expected);
    }
  });
});
