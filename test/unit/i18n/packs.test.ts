// The console loads one language at a time, in parts (renderer/src/i18n/packs.ts): its base (the
// shell's dictionary, with the message catalog's core and Ant Design's texts) before the first
// screen, and each feature's texts with its screen (feature-texts.ts), with the catalog's feature
// sections for the features that say them. Put together, the parts must be the whole dictionary and
// the whole catalog of that language — a part missing would show keys, not texts.
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages';
import coreEn from '../../../common/messages/en.json';
import coreZh from '../../../common/messages/zh-CN.json';
import { EN, ZH_CN } from '../../../renderer/src/i18n/dictionaries';
import { FEATURES, featureMessages, featureTexts, saysFeatureMessages } from '../../../renderer/src/i18n/feature-texts';
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

  it.each([
    ['en', coreEn],
    ['zh-CN', coreZh],
  ] as const)('%s: the catalog core and its feature sections are apart and make the whole catalog', async (lang, core) => {
    const features = (await featureMessages(lang)).default;
    expect(Object.keys(core).filter((section) => section in features)).toEqual([]);
    expect({ ...core, ...features }).toEqual(MESSAGES[lang]);
  });

  it('the first screen (Send, the guide button) says only the core; every other feature brings the feature sections', () => {
    expect(FEATURES.filter((f) => !saysFeatureMessages(f))).toEqual(['onboarding', 'send']);
  });
});
