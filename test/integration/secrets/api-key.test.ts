import { describe, expect, it } from 'vitest';
import { API_KEY_MAX_LENGTH, API_KEY_MIN_LENGTH, describeApiKeyError, validateApiKey, type ApiKeyError } from '../../../main/secrets';

describe('validateApiKey', () => {
  it('accepts an ordinary key unchanged', () => {
    expect(validateApiKey('sk_live_0123456789abcdef')).toEqual({ ok: true, value: 'sk_live_0123456789abcdef' });
  });

  it('trims surrounding whitespace, including the line break a paste brings along', () => {
    expect(validateApiKey('  abc12345 \r\n')).toEqual({ ok: true, value: 'abc12345' });
    expect(validateApiKey('\tabc12345\u00a0\ufeff')).toEqual({ ok: true, value: 'abc12345' });
  });

  it('keeps inner spaces and non-ASCII characters', () => {
    expect(validateApiKey('ab cd ef gh')).toEqual({ ok: true, value: 'ab cd ef gh' });
    expect(validateApiKey('ключ-密钥-🔑-ü')).toEqual({ ok: true, value: 'ключ-密钥-🔑-ü' });
  });

  it('refuses a key shorter than 8 characters (it would be redacted letter by letter), counting after trimming', () => {
    expect(API_KEY_MIN_LENGTH).toBe(8);
    expect(validateApiKey('k')).toEqual({ ok: false, error: 'too-short' });
    expect(validateApiKey('  1234567 \n')).toEqual({ ok: false, error: 'too-short' });
    expect(validateApiKey('12345678')).toEqual({ ok: true, value: '12345678' });
    expect(validateApiKey('🔑🔑🔑🔑🔑🔑🔑')).toEqual({ ok: false, error: 'too-short' });
  });

  it('refuses an empty or blank key', () => {
    expect(validateApiKey('')).toEqual({ ok: false, error: 'empty' });
    expect(validateApiKey('   \t\r\n ')).toEqual({ ok: false, error: 'empty' });
  });

  it('accepts exactly 256 characters and refuses 257, counting characters after trimming', () => {
    expect(API_KEY_MAX_LENGTH).toBe(256);
    expect(validateApiKey('a'.repeat(256))).toEqual({ ok: true, value: 'a'.repeat(256) });
    expect(validateApiKey(`  ${'a'.repeat(256)}  `)).toEqual({ ok: true, value: 'a'.repeat(256) });
    expect(validateApiKey('a'.repeat(257))).toEqual({ ok: false, error: 'too-long' });
  });

  it('counts characters (code points), not UTF-16 units', () => {
    const emoji256 = '🔑'.repeat(256); // 512 UTF-16 units
    expect(validateApiKey(emoji256)).toEqual({ ok: true, value: emoji256 });
    expect(validateApiKey('🔑'.repeat(257))).toEqual({ ok: false, error: 'too-long' });
  });

  it.each([
    ['a tab inside', 'abc\tdef'],
    ['a line break inside', 'abc\ndef'],
    ['a carriage return inside', 'abc\rdef'],
    ['NUL', 'abc\u0000def'],
    ['escape', 'abc\u001b[0mdef'],
    ['DEL', 'abc\u007fdef'],
    ['a C1 control (NEL)', 'abc\u0085def'],
    ['a lone surrogate half', 'abc\ud800def'],
  ])('refuses control characters: %s', (_label, key) => {
    expect(validateApiKey(key)).toEqual({ ok: false, error: 'control-characters' });
  });

  it('refuses a non-string as empty instead of throwing', () => {
    expect(validateApiKey(undefined as unknown as string)).toEqual({ ok: false, error: 'empty' });
  });

  it('describes each error in a plain sentence', () => {
    const errors: ApiKeyError[] = ['empty', 'too-long', 'control-characters'];
    for (const e of errors) expect(describeApiKeyError(e)).toMatch(/^The API Key .+\.$/);
    expect(describeApiKeyError('too-long')).toContain('256');
  });
});
