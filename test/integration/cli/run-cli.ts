import { runCli } from '../../../main/cli/program';
import type { CliIo } from '../../../main/cli/io';
import type { Clock } from '../../../main/clock';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json: unknown;
}

/** Runs the CLI in-process with its own environment. */
export async function cli(args: string[], env: NodeJS.ProcessEnv, extra: Pick<CliIo, 'readSecret' | 'clock'> = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env, stderrIsTTY: false, ...extra });
  let json: unknown = undefined;
  if (args.includes('--json')) json = JSON.parse(stdout);
  return { code, stdout, stderr, json };
}

/** `cli` with its commands (and the services they open) on `clock`, e.g. a ScaledClock to follow calls on a sped-up sandbox. */
export function cliOn(clock: Clock): typeof cli {
  return (args, env, extra = {}) => cli(args, env, { clock, ...extra });
}
