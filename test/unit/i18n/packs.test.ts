// The console loads one language at a time, in parts (renderer/src/i18n/packs.ts): its base (the
// shell's dictionary, with the message catalog and Ant Design's texts) before the first screen, and
// each feature's texts with its screen (feature-texts.ts). Put together, the parts must be the whole
// dictionary of that language — a feature missing from the list would show its keys, not its texts.
import { describe, expect, it } from 'vitest';
import { EN, ZH_CN } from '../../../renderer/src/i18n/dictionaries';
import { FEATURES, featureTexts } from '../../../renderer/src/i18n/feature-texts';
import shellEn from '../../../renderer/src/i18n/en.json';
import shellZh from '../../../renderer/src/i18n/zh-CN.json';

describe('language packs', () => {
  it.each([
    ['en', shellEn, EN],
    ['zh-CN', shellZh, ZH_CN],
  ] as const)('%s: the shell and every feature make the whole dictionary', async (lang, shell, whole) => {
    const assembled: Record<string, unknown> = { ...shell };
    for (const f of FEATURES) {
      // The shell leaves every feature to its own file.
      expect(shell).not.toHaveProperty(f);
      assembled[f] = (await featureTexts(lang, f)).default;
    }
    expect(assembled).toEqual(whole);
  });
});
