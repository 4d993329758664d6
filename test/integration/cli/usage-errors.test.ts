// commander's usage errors, as a user meets them, in both languages: what was wrong, in the user's
// words, the suggestion kept, exit 2 (a usage error), and the pointer to --help. Runs the real
// commander, so a change to its messages shows here rather than as English in a Chinese terminal.
import { afterEach, describe, expect, it } from 'vitest';
import { tempHome } from '../../helpers/temp-home';
import { cli } from './run-cli';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function said(args: string[], LANG: string): Promise<{ code: number; stderr: string }> {
  const home = tempHome();
  cleanups.push(home.cleanup);
  const r = await cli(args, { CALLOUT_HOME: home.dir, LANG });
  return { code: r.code, stderr: r.stderr };
}

const CASES: Array<[what: string, args: string[], en: string, zh: string]> = [
  [
    'an unknown option, with the likely one',
    ['history', '--limt', '5'],
    'callout: There is no option --limt. Did you mean --limit? (see callout --help)\n',
    'callout: 没有选项 --limt。您是想用 --limit 吗？（参见 callout --help）\n',
  ],
  [
    'an unknown option, nothing like it',
    ['history', '--zzzzzz'],
    'callout: There is no option --zzzzzz. (see callout --help)\n',
    'callout: 没有选项 --zzzzzz。（参见 callout --help）\n',
  ],
  [
    'an unknown command, with the likely one',
    ['histroy'],
    'callout: There is no command "histroy". Did you mean history? (see callout --help)\n',
    'callout: 没有命令“histroy”。您是想用 history 吗？（参见 callout --help）\n',
  ],
  [
    'a missing argument',
    ['profile', 'show'],
    'callout: The argument name is missing. (see callout --help)\n',
    'callout: 缺少参数 name。（参见 callout --help）\n',
  ],
  [
    'an option without its value',
    ['history', '--limit'],
    'callout: --limit <n> needs a value. (see callout --help)\n',
    'callout: --limit <n> 需要一个值。（参见 callout --help）\n',
  ],
  [
    'a required option not given',
    ['send', '--content', 'x'],
    'callout: --to <mobile> is required. (see callout --help)\n',
    'callout: 必须给出 --to <mobile>。（参见 callout --help）\n',
  ],
  [
    'too many arguments',
    ['history', 'a', 'b'],
    'callout: The command "history" takes 0 arguments but got 2: a, b. (see callout --help)\n',
    'callout: 命令“history”接受 0 个参数，收到了 2 个：a、b。（参见 callout --help）\n',
  ],
  [
    'one argument too many',
    ['profile', 'show', 'a', 'b'],
    'callout: The command "show" takes 1 argument but got 2: a, b. (see callout --help)\n',
    'callout: 命令“show”接受 1 个参数，收到了 2 个：a、b。（参见 callout --help）\n',
  ],
];

describe("commander's usage errors in the user's language", () => {
  it.each(CASES)('%s (English)', async (_what, args, en) => {
    const r = await said(args, 'en_US.UTF-8');
    expect(r.stderr).toBe(en);
    expect(r.code).toBe(2);
  });

  it.each(CASES)('%s (Chinese)', async (_what, args, _en, zh) => {
    const r = await said(args, 'zh_CN.UTF-8');
    expect(r.stderr).toBe(zh);
    expect(r.code).toBe(2);
  });

  it('a value with control characters is shown with them made visible, not written to the terminal', async () => {
    const r = await said(['history', '--x\u001b[2J'], 'en_US.UTF-8');
    expect(r.stderr).not.toContain('\u001b');
    expect(r.stderr).toMatch(/^callout: There is no option --x.*\[2J\. \(see callout --help\)\n$/);
  });
});
