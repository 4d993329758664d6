// The message catalog (common/messages) and the CLI's dictionary: both languages say the same
// things, with the same parameters, and every code main can report has its words.
import { describe, expect, it } from 'vitest';
import { ISSUE_KINDS } from '../../../common/bulk-types';
import { RESULT_CODE_LIST } from '../../../common/domain/codes';
import { CALL_STATES, OUTCOMES } from '../../../common/domain/status';
import { MESSAGES } from '../../../common/messages';
import { REASON_CODES } from '../../../common/reasons';
import { EXIT_FOR_ERROR } from '../../../main/cli/io';
import cliEn from '../../../main/cli/locales/en.json';
import cliZh from '../../../main/cli/locales/zh-CN.json';

function leaves(tree: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of leaves(v, key)) out.set(kk, vv);
  }
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}|\$t\(([^)]+)\)/g)].map((m) => m[0]).sort();
/** ASCII punctuation right after a Chinese character: a Chinese sentence should use ：？，；！ */
const ASCII_AFTER_CJK = /[\u4e00-\u9fff][:?,;!]/;

describe.each([
  ['the message catalog', MESSAGES.en, MESSAGES['zh-CN']],
  ["the CLI's dictionary", cliEn, cliZh],
])('%s', (_name, en, zh) => {
  const e = leaves(en);
  const z = leaves(zh);

  it('has the same keys in English and Chinese', () => {
    expect([...z.keys()].sort()).toEqual([...e.keys()].sort());
  });

  it('uses the same parameters in both languages', () => {
    for (const [k, v] of e) expect(placeholders(z.get(k) ?? ''), k).toEqual(placeholders(v));
  });

  it('writes Chinese sentences with Chinese punctuation, and English without Chinese', () => {
    for (const [k, v] of z) expect(v, k).not.toMatch(ASCII_AFTER_CJK);
    // The template marker 【变量】 is a token of the service, the same in both languages.
    for (const [k, v] of e) expect(v.replaceAll('【变量】', ''), k).not.toMatch(/[\u4e00-\u9fff]/);
  });
});

describe('every code main reports has its words', () => {
  const e = leaves(MESSAGES.en);
  const has = (key: string) => e.has(key);

  it('errors', () => {
    for (const code of Object.keys(EXIT_FOR_ERROR)) expect(has(`error.${code}`), code).toBe(true);
  });
  it('reasons', () => {
    for (const code of REASON_CODES) expect(has(`reason.${code}`), code).toBe(true);
  });
  it('call states and outcomes', () => {
    for (const s of CALL_STATES) expect(has(`state.${s}`), s).toBe(true);
    for (const o of OUTCOMES) expect(has(`outcome.${o}`), o).toBe(true);
  });
  it('provider result codes, with what to do', () => {
    for (const c of RESULT_CODE_LIST) expect(has(`provider.${c}.meaning`) && has(`provider.${c}.action`), String(c)).toBe(true);
  });
  it('transport failures', () => {
    for (const k of ['dns', 'refused', 'connect-timeout', 'tls', 'timeout', 'reset', 'aborted', 'too-large', 'network']) {
      expect(has(`transport.${k}`) && has(`reason.transport_${k}`), k).toBe(true);
    }
  });
  it('spreadsheet problems', () => {
    for (const k of ISSUE_KINDS) expect(has(`importIssue.${k}`), k).toBe(true);
  });
});
