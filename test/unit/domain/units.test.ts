import { describe, expect, it } from 'vitest';
import { catalogSection } from '../../helpers/catalog';
import { CHARS_PER_UNIT, CONTENT_MAX, CONTENT_MIN, checkContent, textLength, unitsFor } from '../../../common/domain/units';

const CONTENT_ERRORS = catalogSection('content');

const CJK = /[\u4e00-\u9fff]/;

describe('constants', () => {
  it('follow the spec: 1..500 characters, 70 characters per unit', () => {
    expect([CONTENT_MIN, CONTENT_MAX, CHARS_PER_UNIT]).toEqual([1, 500, 70]);
  });
});

describe('textLength counts code points, not UTF-16 units', () => {
  it.each([
    ['', 0],
    ['a', 1],
    ['你好', 2],
    ['【变量】', 4],
    ['😀', 1],
    ['😀😀', 2],
    ['你好😀！', 4],
    ['𠮷野家', 3], // U+20BB7 is outside the BMP
    ['a\nb', 3],
    ['a\r\nb', 4],
  ])('%j has %i characters', (s, n) => {
    expect(textLength(s)).toBe(n);
  });

  it('differs from String.length for emoji', () => {
    expect('😀'.length).toBe(2);
    expect(textLength('😀')).toBe(1);
  });

  it('counts a lone surrogate as one character', () => {
    expect(textLength('\ud83d')).toBe(1);
    expect(textLength('a\ude00b')).toBe(3);
  });
});

describe('unitsFor', () => {
  it.each([
    [0, 0],
    [1, 1],
    [69, 1],
    [70, 1],
    [71, 2],
    [139, 2],
    [140, 2],
    [141, 3],
    [500, 8],
  ])('%i characters cost %i units', (len, units) => {
    expect(unitsFor('字'.repeat(len))).toBe(units);
  });

  it('counts emoji as one character each (70 emoji = 1 unit, 71 = 2)', () => {
    expect(unitsFor('😀'.repeat(70))).toBe(1);
    expect(unitsFor('😀'.repeat(71))).toBe(2);
  });
});

describe('checkContent', () => {
  it.each([
    ['x', 1, 1],
    ['x'.repeat(70), 70, 1],
    ['x'.repeat(71), 71, 2],
    ['x'.repeat(140), 140, 2],
    ['x'.repeat(141), 141, 3],
    ['x'.repeat(500), 500, 8],
    ['😀'.repeat(500), 500, 8],
  ])('accepts a text of length %#', (s, length, units) => {
    expect(checkContent(s)).toEqual({ ok: true, length, units });
  });

  it('rejects 501 characters as too long', () => {
    expect(checkContent('x'.repeat(501))).toEqual({ ok: false, error: 'too-long', length: 501, max: 500 });
  });

  it('accepts 500 emoji (1000 UTF-16 units) but rejects 501', () => {
    expect(checkContent('😀'.repeat(500)).ok).toBe(true);
    expect(checkContent('😀'.repeat(501))).toMatchObject({ ok: false, error: 'too-long', length: 501 });
  });

  it.each(['', ' ', '   ', '\n', '\r\n\t', '\u3000', '\u00a0 '])('treats %j as empty', (s) => {
    expect(checkContent(s)).toMatchObject({ ok: false, error: 'empty', max: 500, length: textLength(s) });
  });

  it('counts surrounding whitespace of a non-empty text', () => {
    expect(checkContent(' 你好 ')).toEqual({ ok: true, length: 4, units: 1 });
  });

  it('has a message in both languages for each error', () => {
    for (const text of Object.values(CONTENT_ERRORS)) {
      expect(text['zh-CN']).toMatch(CJK);
      expect(text.en.length).toBeGreaterThan(10);
    }
    expect(Object.keys(CONTENT_ERRORS).sort()).toEqual(['empty', 'too-long']);
  });
});
