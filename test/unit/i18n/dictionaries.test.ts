// The renderer's two dictionaries must say the same things: the same keys (deep), no empty text,
// the same interpolation variables, and Chinese text where the English has words.
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages';
import { EN as en, ZH_CN as zhCN } from '../../../renderer/src/i18n/dictionaries';
import cliEn from '../../../main/cli/locales/en.json';

type Tree = { [key: string]: string | Tree };

/** Every leaf as [dotted path, value]; a non-string, non-object leaf is reported as a problem. */
function leaves(tree: Tree, prefix = ''): [string, unknown][] {
  return Object.entries(tree).flatMap(([key, value]): [string, unknown][] => {
    const path = prefix ? `${prefix}.${key}` : key;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? leaves(value, path) : [[path, value]];
  });
}

/** Keys that are objects in one dictionary must be objects in the other (not only same leaves). */
function branches(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return value !== null && typeof value === 'object' ? [path, ...branches(value, path)] : [];
  });
}

const variables = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}/g)].map((m) => m[1]).sort();

const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
const LETTERS = /[A-Za-z]{2,}/;

/**
 * Texts that are the same product and protocol names in both languages (the provider's console
 * says "API ID" and "API Key" in Chinese too). Nothing else may be left untranslated.
 */
// Protocol tokens and file formats are the same words in both languages.
const SAME_IN_BOTH = new Set([
  'profiles.column.apiId',
  'profiles.column.key',
  'profiles.form.apiId',
  'key.label',
  'bulk.action.exportXlsx',
  'sandbox.faults.kindName.http500',
  'sandbox.requests.answerHttp',
  'send.timeline.smsid',
]);

const dictionaries = { en: en as Tree, 'zh-CN': zhCN as Tree };
const enLeaves = new Map(leaves(dictionaries.en));
const zhLeaves = new Map(leaves(dictionaries['zh-CN']));

describe('renderer dictionaries (en, zh-CN)', () => {
  it('have exactly the same keys, deep', () => {
    expect([...zhLeaves.keys()].sort()).toEqual([...enLeaves.keys()].sort());
    expect(branches(dictionaries['zh-CN']).sort()).toEqual(branches(dictionaries.en).sort());
  });

  it.each(Object.entries(dictionaries))('%s: every value is a non-empty string', (_lang, dict) => {
    for (const [path, value] of leaves(dict)) {
      expect(typeof value, path).toBe('string');
      expect((value as string).trim(), path).not.toBe('');
    }
  });

  it('use the same interpolation variables in both languages', () => {
    for (const [path, text] of enLeaves) {
      expect(variables(String(zhLeaves.get(path) ?? '')), path).toEqual(variables(String(text)));
    }
  });

  it('zh-CN is Chinese wherever en has words', () => {
    const untranslated: string[] = [];
    for (const [path, text] of enLeaves) {
      const zh = String(zhLeaves.get(path) ?? '');
      // Ignore what is not prose: variables and example addresses.
      const prose = String(text)
        .replace(/\{\{[^}]*\}\}/g, '')
        .replace(/https?:\/\/\S+/g, '');
      if (LETTERS.test(prose) && !CJK.test(zh) && !SAME_IN_BOTH.has(path)) untranslated.push(`${path}: ${zh}`);
    }
    expect(untranslated).toEqual([]);
  });

  it('en has no Chinese text', () => {
    const chinese = [...enLeaves].filter(([, text]) => CJK.test(String(text))).map(([path]) => path);
    expect(chinese).toEqual([]);
  });

  it('the exemptions are still in use and still identical', () => {
    for (const path of SAME_IN_BOTH) {
      expect(enLeaves.has(path), path).toBe(true);
      expect(zhLeaves.get(path), path).toBe(enLeaves.get(path));
    }
  });

  it("say every profile field problem the contract's schemas and main report (from the catalog's issue texts)", () => {
    const issueKeys = [
      'name-required',
      'name-too-long',
      'name-taken',
      'base-url-invalid',
      'api-id-required',
      'api-id-too-long',
      'timeout-order',
      'key-required',
      'key-too-long',
      'connect-timeout-range',
      'total-timeout-range',
      'threshold-range',
    ];
    for (const key of issueKeys) {
      expect(typeof (MESSAGES.en.issue as Record<string, unknown>)[key], key).toBe('string');
      expect(typeof (MESSAGES['zh-CN'].issue as Record<string, unknown>)[key], key).toBe('string');
    }
  });

  it('have plural forms for unit counts in both languages', () => {
    for (const form of ['balance.units_one', 'balance.units_other']) {
      expect(enLeaves.has(form), form).toBe(true);
      expect(zhLeaves.has(form), form).toBe(true);
    }
  });
});

describe('English plurals', () => {
  it('never write "(s)" in the app or the CLI: a count picks its own form (_one / _other)', () => {
    const all = [...enLeaves, ...leaves(cliEn as Tree)];
    const lazy = all.filter(([, text]) => /\w\(s\)/.test(String(text).replace(/https?\(s\)|http\(s\)/g, ''))).map(([path, text]) => `${path}: ${String(text)}`);
    expect(lazy).toEqual([]);
  });
});
