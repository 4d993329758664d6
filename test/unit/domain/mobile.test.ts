import { describe, expect, it } from 'vitest';
import { catalogSection, catalogText } from '../../helpers/catalog';
import { type MobileError, maskMobile, normalizeMobile } from '../../../common/domain/mobile';

const CJK = /[\u4e00-\u9fff]/;

describe('normalizeMobile accepts mainland mobiles in common forms', () => {
  it.each([
    ['13812345678', '13812345678'],
    ['19912345678', '19912345678'],
    ['  13812345678  ', '13812345678'],
    ['138 1234 5678', '13812345678'],
    ['138-1234-5678', '13812345678'],
    ['138‐1234‐5678', '13812345678'], // U+2010 hyphen
    ['138–1234–5678', '13812345678'], // en dash
    ['138—1234—5678', '13812345678'], // em dash
    ['138.1234.5678', '13812345678'],
    ['(138) 1234-5678', '13812345678'],
    ['138\u30001234\u30005678', '13812345678'], // full-width space
    ['138\u00a01234\u00a05678', '13812345678'], // NBSP
    ['138\t1234\t5678', '13812345678'],
    ['１３８１２３４５６７８', '13812345678'], // full-width digits
    ['１３８ １２３４ ５６７８', '13812345678'],
    ['+8613812345678', '13812345678'],
    ['+86 13812345678', '13812345678'],
    ['+86 138 1234 5678', '13812345678'],
    ['+86-138-1234-5678', '13812345678'],
    ['(+86)13812345678', '13812345678'],
    ['(+86) 138 1234 5678', '13812345678'],
    ['＋８６１３８１２３４５６７８', '13812345678'], // full-width plus and digits
    ['（+86）13812345678', '13812345678'], // full-width parentheses
    ['008613812345678', '13812345678'],
    ['0086 138 1234 5678', '13812345678'],
    ['8613812345678', '13812345678'],
    ['86 138 1234 5678', '13812345678'],
    ['86-13912345678', '13912345678'],
  ])('%j → %s', (input, mobile) => {
    expect(normalizeMobile(input)).toEqual({ ok: true, mobile });
    expect(normalizeMobile(input).ok).toBe(true);
  });

  it.each(['13', '14', '15', '16', '17', '18', '19'])('accepts the %s prefix', (p) => {
    expect(normalizeMobile(`${p}012345678`)).toEqual({ ok: true, mobile: `${p}012345678` });
  });
});

describe('normalizeMobile says what is wrong', () => {
  it.each<[string, MobileError]>([
    ['', 'empty'],
    ['   ', 'empty'],
    ['\u3000', 'empty'],
    ['--', 'empty'],
    ['()', 'empty'],
    ['138a1234567', 'invalid-characters'],
    ['138 1234 567O', 'invalid-characters'], // letter O instead of zero
    ['13812345678#', 'invalid-characters'],
    ['138/1234/5678', 'invalid-characters'],
    ['138+12345678', 'invalid-characters'], // + in the middle
    ['++8613812345678', 'invalid-characters'],
    ['tel:13812345678', 'invalid-characters'],
    ['一三八一二三四五六七八', 'invalid-characters'],
    ['1381234567', 'wrong-length'], // 10 digits
    ['138123456789', 'wrong-length'], // 12 digits
    ['1', 'wrong-length'],
    ['+86138123456', 'wrong-length'],
    ['+86 138 1234 56789', 'wrong-length'],
    ['0086138123456', 'wrong-length'],
    ['86138123456', 'not-mainland-mobile'], // 11 digits, not stripped as a prefix: 86… is not a mobile
    ['8601012345678', 'wrong-length'], // 13 digits, 86 prefix only counts before a 1
    ['01012345678', 'landline'], // Beijing landline
    ['02112345678', 'landline'],
    ['0755-12345678', 'landline'], // Shenzhen, as people write it
    ['010 1234 5678', 'landline'],
    ['0571-8888888', 'landline'], // 7-digit local number
    ['+86 755 1234 5678', 'landline'], // after +86 without the trunk 0
    ['400-810-8888', 'landline'], // service number
    ['12345678901', 'not-mainland-mobile'],
    ['11012345678', 'not-mainland-mobile'],
    ['+8601012345678', 'landline'],
    ['+14155550123', 'not-mainland-mobile'], // foreign number
    ['+852 9123 4567', 'not-mainland-mobile'], // Hong Kong
    ['008601012345678', 'landline'],
  ])('%j → %s', (input, error) => {
    expect(normalizeMobile(input)).toEqual({ ok: false, error });
    expect(normalizeMobile(input).ok).toBe(false);
  });
});

const MOBILE_ERRORS = catalogSection('mobile') as Record<string, { en: string; 'zh-CN': string }>;
delete MOBILE_ERRORS.hint;
const MOBILE_HINT = catalogText('mobile.hint');

describe('mobile texts in the catalog', () => {
  it('has a message in Chinese and English for every error', () => {
    const errors: MobileError[] = ['empty', 'invalid-characters', 'wrong-length', 'landline', 'not-mainland-mobile'];
    expect(Object.keys(MOBILE_ERRORS).sort()).toEqual([...errors].sort());
    for (const e of errors) {
      expect(MOBILE_ERRORS[e]!['zh-CN']).toMatch(CJK);
      expect(MOBILE_ERRORS[e]!.en).toMatch(/[a-z]/);
    }
  });

  it('tells the user what is accepted', () => {
    for (const text of [...Object.values(MOBILE_ERRORS), MOBILE_HINT]) {
      expect(text.en).toMatch(/11/);
      expect(text['zh-CN']).toMatch(/11/);
      expect(text.en).toMatch(/13–19/);
    }
    expect(MOBILE_ERRORS['wrong-length']!.en).toMatch(/\+86/);
    expect(MOBILE_HINT.en).toBe('Enter an 11-digit mainland mobile number starting with 13–19; +86, spaces and dashes are fine.');
  });

  it('messages differ per error', () => {
    const en = new Set(Object.values(MOBILE_ERRORS).map((t) => t.en));
    const zh = new Set(Object.values(MOBILE_ERRORS).map((t) => t['zh-CN']));
    expect(en.size).toBe(Object.keys(MOBILE_ERRORS).length);
    expect(zh.size).toBe(Object.keys(MOBILE_ERRORS).length);
  });
});

describe('maskMobile', () => {
  it.each([
    ['13812345678', '138****5678'],
    ['+86 138-1234-5678', '138****5678'],
    ['008613812345678', '138****5678'],
    ['01012345678', '010****5678'],
    ['123456789012345', '123********2345'],
    ['1381234', '1****34'],
    ['1234', '1**4'],
    ['12', '*2'],
    ['1', '*'],
    ['', ''],
  ])('%j → %j', (input, masked) => {
    expect(maskMobile(input)).toBe(masked);
  });

  it('never shows the middle four digits of a valid number', () => {
    expect(maskMobile('13899995678')).not.toContain('9999');
  });
});
