// Built-in dialects are shown by name in both languages: every built-in has its words, and the
// English ones are the dialect files' own.
import { describe, expect, it } from 'vitest';
import { BUILTIN_DIALECTS } from '../../../common/dialects';
import { MESSAGES } from '../../../common/messages';

const en = { builtin: MESSAGES.en.dialect };
const zh = { builtin: MESSAGES['zh-CN'].dialect };

describe('built-in dialect names on screen', () => {
  it('every built-in has a name and a description in both languages; the English ones are its own', () => {
    const ids = BUILTIN_DIALECTS.map((d) => d.id!);
    expect(Object.keys(en.builtin)).toEqual(ids);
    expect(Object.keys(zh.builtin)).toEqual(ids);
    for (const d of BUILTIN_DIALECTS) {
      expect(en.builtin[d.id as keyof typeof en.builtin]).toEqual({ name: d.name, description: d.description });
      expect(zh.builtin[d.id as keyof typeof zh.builtin].name).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});
