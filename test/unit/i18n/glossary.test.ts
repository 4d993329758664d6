// One name per thing in each language (docs/glossary.json), and Chinese sentences with Chinese
// punctuation in every dictionary: the window's (every feature's), the message catalog and the CLI's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages';
import cliEn from '../../../main/cli/locales/en.json';
import cliZh from '../../../main/cli/locales/zh-CN.json';
import { EN, ZH_CN } from '../../../renderer/src/i18n/dictionaries';

interface Term {
  id: string;
  en?: string;
  'zh-CN'?: string;
  uses?: string[];
  avoid?: { en?: string[]; 'zh-CN'?: string[] };
  avoidPatterns?: { en?: string[]; 'zh-CN'?: string[] };
}
const glossary = JSON.parse(readFileSync(join(__dirname, '../../../docs/glossary.json'), 'utf8')) as { terms: Term[] };

type Lang = 'en' | 'zh-CN';
const DICTIONARIES: Record<string, Record<Lang, unknown>> = {
  renderer: { en: EN, 'zh-CN': ZH_CN },
  msg: { en: MESSAGES.en, 'zh-CN': MESSAGES['zh-CN'] },
  cli: { en: cliEn, 'zh-CN': cliZh },
};

function leaves(tree: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else if (v && typeof v === 'object') for (const [kk, vv] of leaves(v, key)) out.set(kk, vv);
  }
  return out;
}

const texts = (lang: Lang) => Object.entries(DICTIONARIES).flatMap(([name, d]) => [...leaves(d[lang])].map(([k, v]) => [`${name}:${k}`, v] as const));

describe('the glossary: one name per thing', () => {
  it('is well formed', () => {
    expect(glossary.terms.length).toBeGreaterThan(5);
    for (const term of glossary.terms) expect(term.id, JSON.stringify(term)).toBeTruthy();
  });

  describe.each(['en', 'zh-CN'] as const)('%s', (lang) => {
    const all = texts(lang);
    const byKey = new Map<string, string>(all);

    it("names each thing with the glossary's word where the thing is named", () => {
      for (const term of glossary.terms) {
        const word = term[lang];
        if (!word || !term.uses) continue;
        for (const use of term.uses) {
          const text = byKey.get(use);
          expect(text, `${use} (glossary: ${term.id})`).toBeDefined();
          expect(text!.toLowerCase(), `${use} (glossary: ${term.id})`).toContain(word.toLowerCase());
        }
      }
    });

    it('never uses another name for the same thing', () => {
      for (const term of glossary.terms) {
        for (const avoided of term.avoid?.[lang] ?? []) {
          expect(
            all.filter(([, v]) => v.includes(avoided)).map(([k]) => k),
            `“${avoided}” (glossary: ${term.id})`,
          ).toEqual([]);
        }
        for (const pattern of term.avoidPatterns?.[lang] ?? []) {
          const re = new RegExp(pattern);
          expect(
            all.filter(([, v]) => re.test(v)).map(([k, v]) => `${k}: ${v}`),
            `/${pattern}/ (glossary: ${term.id})`,
          ).toEqual([]);
        }
      }
    });
  });
});

describe('punctuation in every dictionary', () => {
  /** ASCII punctuation right after a Chinese character: a Chinese sentence uses ：？，；！ */
  const ASCII_AFTER_CJK = /[\u4e00-\u9fff][:?,;!]/;

  it.each(Object.keys(DICTIONARIES))('%s: Chinese sentences use Chinese punctuation', (name) => {
    const bad = [...leaves(DICTIONARIES[name]!['zh-CN'])].filter(([, v]) => ASCII_AFTER_CJK.test(v));
    expect(bad).toEqual([]);
  });

  it.each(Object.keys(DICTIONARIES))('%s: English has no Chinese except the tokens of the service', (name) => {
    // 【变量】 (the template marker) and the names of the other language in the language switch are tokens.
    const bad = [...leaves(DICTIONARIES[name]!.en)].filter(([, v]) => /[\u4e00-\u9fff]/.test(v.replaceAll('【变量】', '')));
    expect(bad).toEqual([]);
  });

  it('the renderer dictionaries have the same keys and placeholders in both languages', () => {
    const e = leaves(EN);
    const z = leaves(ZH_CN);
    expect([...z.keys()].sort()).toEqual([...e.keys()].sort());
    const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[0]).sort();
    for (const [k, v] of e) expect(placeholders(z.get(k) ?? ''), k).toEqual(placeholders(v));
  });
});
