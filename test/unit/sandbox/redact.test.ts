// The sandbox's request log never shows an API Key or a password, however the request hid it:
// nested deep in a JSON body, as a field's name, as a query parameter's name, or percent-encoded.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactDeep, redactParams, redactPath } from '../../../main/sandbox/redact';

const KEY = 'sk-live-0123456789abcdef';

/** `{ a: { a: ... { ...leaf } } }`, `levels` objects deep. */
function nest(levels: number, leaf: Record<string, unknown>): Record<string, unknown> {
  let v: Record<string, unknown> = leaf;
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

describe('redactParams', () => {
  it('blanks password fields and the key at any depth, the rest kept as it was', () => {
    const out = redactParams({ account: 'acme', password: 'pw-123456', note: `my key is ${KEY}`, list: [{ password: 'x' }, KEY] }, [KEY]);
    expect(out).toEqual({ account: 'acme', password: REDACTED, note: `my key is ${REDACTED}`, list: [{ password: REDACTED }, REDACTED] });
  });

  it('a password or the key nested deeper than the log copies never appears in it', () => {
    for (const levels of [19, 22, 200]) {
      const params = { deep: nest(levels, { password: 'hunter2-secret', key: KEY, list: [[[KEY]]] }) };
      const text = JSON.stringify(redactParams(params, [KEY]));
      expect(text, `${levels} levels`).not.toContain(KEY);
      expect(text, `${levels} levels`).not.toContain('hunter2-secret');
      expect(text).toContain(REDACTED);
    }
    // Shallow parts of the same body are still shown.
    expect(redactParams({ account: 'acme', deep: nest(50, { password: 'p' }) }, [KEY]).account).toBe('acme');
  });

  it('a field named with the key is shown with the name redacted', () => {
    const out = redactParams({ [KEY]: 1, inner: { [`x-${KEY}`]: 'v' } }, [KEY]);
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(out).toEqual({ [REDACTED]: 1, inner: { [`x-${REDACTED}`]: 'v' } });
  });

  it('redactDeep does the same for a whole log entry', () => {
    const entry = { path: '/voice/vm', body: nest(30, { password: 'pw-abcdef', v: KEY }) };
    const text = JSON.stringify(redactDeep(entry, [KEY]));
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('pw-abcdef');
  });
});

describe('redactPath', () => {
  it('redacts a password parameter and the key as a value', () => {
    const out = redactPath(`/voice/vm?account=acme&password=secret-pw&note=${KEY}`, [KEY]);
    expect(out).not.toContain(KEY);
    expect(out).not.toContain('secret-pw');
    expect(new URLSearchParams(out.split('?')[1]).get('account')).toBe('acme');
  });

  it('redacts the key used as a parameter name', () => {
    const out = redactPath(`/voice/vm?${KEY}=1&account=acme`, [KEY]);
    expect(out).not.toContain(KEY);
    expect([...new URLSearchParams(out.split('?')[1])]).toEqual([
      [REDACTED, '1'],
      ['account', 'acme'],
    ]);
    expect(redactPath(`/voice/vm?${encodeURIComponent(KEY).replace(/-/g, '%2D')}=1`, [KEY])).not.toContain(KEY);
  });

  it('redacts the key in the path, also percent-encoded', () => {
    expect(redactPath(`/voice/${KEY}/vm`, [KEY])).toBe(`/voice/${REDACTED}/vm`);
    const encoded = `/voice/${KEY.replace(/-/g, '%2D')}/vm?a=1`;
    const out = redactPath(encoded, [KEY]);
    expect(decodeURIComponent(out)).not.toContain(KEY);
    expect(out).toBe(`/voice/${REDACTED}/vm?a=1`);
  });
});
