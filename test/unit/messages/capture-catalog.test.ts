// Every check and rule the capture proxy can store has its words, with each variant, in both languages.
import { describe, expect, it } from 'vitest';
import { CHECK_NAMES, CHECK_TEXT_KINDS, RULE_TEXT_KINDS, VERDICTS } from '../../../common/capture';
import { MESSAGES } from '../../../common/messages';

const at = (tree: unknown, key: string): unknown => key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], tree);

describe.each([['en'], ['zh-CN']] as const)('capture texts (%s)', (lang) => {
  const catalog = MESSAGES[lang];
  const has = (key: string) => typeof at(catalog, key) === 'string';
  // A key holding a dot-free variant: capture.check.<code>_<kind>
  const variant = (section: string, code: string, kind: string) => typeof (at(catalog, section) as Record<string, unknown>)[`${code}_${kind}`] === 'string';

  it('has a text for every check code and each of its kinds', () => {
    for (const [code, kinds] of Object.entries(CHECK_TEXT_KINDS)) {
      expect(has(`capture.check.${code}`), code).toBe(true);
      for (const k of kinds) expect(variant('capture.check', code, k), `${code}_${k}`).toBe(true);
    }
  });
  it('has a text for every rule and each of its kinds', () => {
    for (const [code, kinds] of Object.entries(RULE_TEXT_KINDS)) {
      expect(has(`capture.rule.${code}`), code).toBe(true);
      for (const k of kinds) expect(variant('capture.rule', code, k), `${code}_${k}`).toBe(true);
    }
  });
  it('names every verdict and check', () => {
    for (const v of VERDICTS) expect(has(`capture.verdict.${v}`), v).toBe(true);
    for (const n of CHECK_NAMES) expect(has(`capture.checkName.${n}`), n).toBe(true);
  });
});
