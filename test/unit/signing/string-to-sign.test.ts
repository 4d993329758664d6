import { describe, expect, it } from 'vitest';
import { SIGNATURE_VARIANTS, buildStringToSign, stringToSignLines } from '../../../main/signing';

const base = {
  apiId: 'C80604386',
  method: 'post',
  host: 'api.example.com',
  path: '/voice/status',
  query: 'smsid=abc&format=json',
  date: 'Sat, 21 Nov 2026 22:36:54 GMT',
};

describe('string to sign', () => {
  it('names the two variants, spec first', () => {
    expect(SIGNATURE_VARIANTS).toEqual(['spec', 'apisix']);
  });

  it('spec (the default): four lines, no trailing line break, method upper-cased, no query', () => {
    const expected = 'C80604386\nPOST /voice/status\ndate: Sat, 21 Nov 2026 22:36:54 GMT\nhost: api.example.com';
    expect(buildStringToSign(base)).toBe(expected);
    expect(buildStringToSign({ ...base, variant: 'spec' })).toBe(expected);
  });

  it('apisix: a line break after every line including the last, and the query in the request target', () => {
    expect(buildStringToSign({ ...base, variant: 'apisix' })).toBe(
      'C80604386\nPOST /voice/status?smsid=abc&format=json\ndate: Sat, 21 Nov 2026 22:36:54 GMT\nhost: api.example.com\n',
    );
  });

  it('apisix without a query has no "?"', () => {
    for (const query of [undefined, '']) {
      expect(buildStringToSign({ ...base, query, variant: 'apisix' })).toBe(
        'C80604386\nPOST /voice/status\ndate: Sat, 21 Nov 2026 22:36:54 GMT\nhost: api.example.com\n',
      );
    }
  });

  it('apisix tolerates a query given with its leading "?"', () => {
    expect(buildStringToSign({ ...base, query: '?smsid=abc', variant: 'apisix' })).toContain('\nPOST /voice/status?smsid=abc\n');
  });

  it('line breaks: exactly 3 in spec, exactly 4 in apisix, never a carriage return', () => {
    const spec = buildStringToSign(base);
    const apisix = buildStringToSign({ ...base, variant: 'apisix' });
    expect(spec.split('\n')).toHaveLength(4);
    expect(spec.endsWith('\n')).toBe(false);
    expect(apisix.split('\n')).toHaveLength(5);
    expect(apisix.endsWith('host: api.example.com\n')).toBe(true);
    expect(spec + apisix).not.toContain('\r');
  });

  it('upper-cases any method, including mixed case', () => {
    expect(buildStringToSign({ ...base, method: 'gEt' }).split('\n')[1]).toBe('GET /voice/status');
    expect(buildStringToSign({ ...base, method: 'PUT' }).split('\n')[1]).toBe('PUT /voice/status');
  });

  it('stringToSignLines gives the four lines of each variant', () => {
    expect(stringToSignLines(base)).toEqual(['C80604386', 'POST /voice/status', 'date: Sat, 21 Nov 2026 22:36:54 GMT', 'host: api.example.com']);
    expect(stringToSignLines({ ...base, variant: 'apisix' })[1]).toBe('POST /voice/status?smsid=abc&format=json');
    expect(stringToSignLines(base).join('\n')).toBe(buildStringToSign(base));
    expect(stringToSignLines({ ...base, variant: 'apisix' }).join('\n') + '\n').toBe(buildStringToSign({ ...base, variant: 'apisix' }));
  });
});
