// commander's own usage errors (an unknown option, a missing value, too many arguments...) in the
// user's language. commander words them in English only, so each is read back into its parts by its
// code and said again from the CLI's catalog; one it does not know keeps commander's words. The
// patterns follow commander 15's messages; test/integration/cli/usage-errors.test.ts pins them.
import type { Lang } from '../../common/domain/i18n-text';

export interface UsageText {
  key: string;
  params: Record<string, unknown>;
}

/** "(Did you mean --json?)" / "(Did you mean one of --json, --jsonl?)" at the end of a message. */
const SUGGESTION = /\n\(Did you mean (?:one of )?(.+)\?\)$/s;

const PATTERNS: Record<string, { pattern: RegExp; key: string; names: string[] }> = {
  'commander.unknownOption': { pattern: /^error: unknown option '(.*)'$/s, key: 'unknownOption', names: ['flag'] },
  'commander.unknownCommand': { pattern: /^error: unknown command '(.*)'$/s, key: 'unknownCommand', names: ['name'] },
  'commander.missingArgument': { pattern: /^error: missing required argument '(.*)'$/s, key: 'missingArgument', names: ['name'] },
  'commander.optionMissingArgument': { pattern: /^error: option '(.*)' argument missing$/s, key: 'optionMissingArgument', names: ['flags'] },
  'commander.missingMandatoryOptionValue': { pattern: /^error: required option '(.*)' not specified$/s, key: 'missingOption', names: ['flags'] },
  'commander.excessArguments': {
    pattern: /^error: too many arguments(?: for '(.*)')?\. Expected (\d+) arguments? but got (\d+): (.*)\.$/s,
    key: 'excessArguments',
    names: ['command', 'count', 'received', 'given'],
  },
};

/** A commander error in the catalog's words (a key of `cli:usage` and its parts), or null for one it does not know. */
export function usageText(error: { code: string; message: string }, lang: Lang): UsageText | null {
  const known = PATTERNS[error.code];
  const suggested = SUGGESTION.exec(error.message);
  const message = suggested ? error.message.slice(0, suggested.index) : error.message;
  const parts = known?.pattern.exec(message);
  if (!known || !parts) return null;
  const params: Record<string, unknown> = { command: 'callout' };
  known.names.forEach((name, i) => {
    const value = parts[i + 1];
    if (value !== undefined) params[name] = name === 'count' ? Number(value) : value;
  });
  if (typeof params.given === 'string') params.given = params.given.split(', ').join(lang === 'zh-CN' ? '、' : ', ');
  if (suggested) params.suggestion = suggested[1]!.split(', ').join(lang === 'zh-CN' ? '、' : ', ');
  return { key: `cli:usage.${known.key}${suggested ? 'Suggest' : ''}`, params };
}
