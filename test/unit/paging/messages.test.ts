// Every code the paging rules report has its words in both languages (catalog section `paging`).
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../common/messages';
import { INTAKE_PROBLEMS } from '../../../common/paging/intake';
import { WINDOW_ISSUE_CODES } from '../../../common/paging/maintenance';
import { MATCHER_PROBLEMS, MATCHER_SYNTAX_PROBLEMS, ROUTE_WHY_CODES } from '../../../common/paging/matchers';
import { SAY_CODES } from '../../../common/paging/say';
import { POLICY_ISSUE_CODES } from '../../../common/paging/timeline';

const sections: Array<[string, readonly string[]]> = [
  ['intake', INTAKE_PROBLEMS],
  ['matcher', MATCHER_PROBLEMS],
  ['matcherSyntax', MATCHER_SYNTAX_PROBLEMS],
  ['route', ROUTE_WHY_CODES],
  ['say', SAY_CODES],
  ['maintenance', WINDOW_ISSUE_CODES],
  ['policy', POLICY_ISSUE_CODES],
];

describe.each(['en', 'zh-CN'] as const)('the paging messages (%s)', (lang) => {
  const paging = MESSAGES[lang].paging as unknown as Record<string, Record<string, string> | undefined>;
  it.each(sections)('%s: a text for every code', (section, codes) => {
    for (const code of codes) expect(paging[section]?.[code], `paging.${section}.${code}`).toMatch(/\S/);
  });
});
