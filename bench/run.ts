// `npm run bench [-- --json] [--only GROUP] [--quick] [--messages N]`: runs the benchmark groups and prints their figures.
// With --json, the last line of output is one JSON object of named figures. With --quick, groups that
// run for a set time (intake) run shorter: a check that they work, not figures to record.
import { bulk } from './groups/bulk';
import { consoleGroup } from './groups/console';
import { core } from './groups/core';
import { dialects } from './groups/dialects';
import { history, historyReal } from './groups/history';
import { historyScreen } from './groups/history-screen';
import { intake } from './groups/intake';
import { upgrade } from './groups/upgrade';

type Group = (opts: { quick: boolean; messages?: number }) => Promise<Record<string, number>>;
const GROUPS: Record<string, Group> = {
  core,
  history,
  'history-real': historyReal,
  'history-screen': historyScreen,
  bulk,
  dialects,
  console: consoleGroup,
  intake,
  upgrade,
};

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const quick = args.includes('--quick');
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;
  // --messages N: the size of the real-shaped history (history-real, history-screen, upgrade), e.g. 10000000.
  const messagesAt = args.indexOf('--messages');
  const messages = messagesAt >= 0 ? Number(args[messagesAt + 1]) : undefined;
  if (messages !== undefined && !(Number.isInteger(messages) && messages >= 1000)) {
    process.stderr.write('bench: --messages takes a whole number of at least 1000\n');
    return 2;
  }
  if (onlyAt >= 0 && (!only || !(only in GROUPS))) {
    process.stderr.write(`bench: --only takes one of ${Object.keys(GROUPS).join(', ')}\n`);
    return 2;
  }
  const figures: Record<string, number> = {};
  for (const [name, run] of Object.entries(GROUPS)) {
    if (only && name !== only) continue;
    process.stderr.write(`bench: ${name}…\n`);
    const result = await run({ quick, messages });
    Object.assign(figures, result);
    if (!json) for (const [k, v] of Object.entries(result)) process.stdout.write(`${name}.${k}: ${v}\n`);
  }
  if (json) process.stdout.write(`${JSON.stringify(figures)}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
