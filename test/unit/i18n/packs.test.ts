// The console loads one language at a time, in parts (renderer/src/i18n/packs.ts): its base before
// the first screen and each feature's texts with its screen. Put together, the parts must be the
// whole dictionary and the whole message catalog of that language — a feature missing from the
// packs would show its keys instead of its texts.
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages';
import { EN, ZH_CN } from '../../../renderer/src/i18n/dictionaries';
import { FEATURES, loadBase, loadFeature } from '../../../renderer/src/i18n/packs';

describe('language packs', () => {
  it.each([
    ['en', EN],
    ['zh-CN', ZH_CN],
  ] as const)('%s: the base and every feature make the whole dictionary and catalog', async (lang, whole) => {
    const base = await loadBase(lang);
    const assembled: Record<string, unknown> = { ...base.translation };
    for (const f of FEATURES) assembled[f] = await loadFeature(lang, f);
    expect(assembled).toEqual(whole);
    expect(base.msg).toEqual(MESSAGES[lang]);
    expect(base.antd.locale).toBe(lang === 'en' ? 'en' : 'zh-cn');
  });

  it('the base leaves out every feature (they come with their screens)', async () => {
    const base = await loadBase('en');
    for (const f of FEATURES) expect(base.translation).not.toHaveProperty(f);
  });
});
