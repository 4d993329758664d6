import { describe, expect, it } from 'vitest';
import { initialLanguage, isLanguage, languageFromTag, LANGUAGE_NAMES, LANGUAGES } from '../../../renderer/src/i18n/language';

describe('the starting language', () => {
  it('maps every Chinese tag to zh-CN and English tags to en', () => {
    for (const tag of ['zh', 'zh-CN', 'zh-cn', 'zh-Hans', 'zh-Hans-CN', 'zh-TW', 'zh_CN']) expect(languageFromTag(tag), tag).toBe('zh-CN');
    for (const tag of ['en', 'en-US', 'en-GB']) expect(languageFromTag(tag), tag).toBe('en');
    for (const tag of ['fr-FR', 'ja', 'zhx', '']) expect(languageFromTag(tag), tag).toBeNull();
  });

  it('follows the OS languages in order, and English when none is ours', () => {
    expect(initialLanguage(null, ['zh-CN', 'en-US'])).toBe('zh-CN');
    expect(initialLanguage(null, ['en-US', 'zh-CN'])).toBe('en');
    expect(initialLanguage(null, ['fr-FR', 'zh-TW'])).toBe('zh-CN');
    expect(initialLanguage(null, ['fr-FR', 'de'])).toBe('en');
    expect(initialLanguage(undefined, [])).toBe('en');
  });

  it("prefers the user's saved choice, and ignores a saved value that is not a language", () => {
    expect(initialLanguage('en', ['zh-CN'])).toBe('en');
    expect(initialLanguage('zh-CN', ['en-US'])).toBe('zh-CN');
    expect(initialLanguage('klingon', ['zh-CN'])).toBe('zh-CN');
    expect(isLanguage('zh')).toBe(false);
  });

  it('names each language in itself', () => {
    expect(LANGUAGES.map((l) => LANGUAGE_NAMES[l])).toEqual(['中文', 'English']);
  });
});
