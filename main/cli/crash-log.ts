// A crash never shows a stack trace: the CLI says one line and where the details are, a log file
// in the data directory (logs/cli-<time>.log), with every secret it knows of removed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REDACTED, redactSecrets } from '../secrets/secret-store';
import { dataDirectory } from '../store';
import { systemClock } from '../clock';
import { RECEIVER_PASSWORD_ENV, RECEIVER_TOKEN_ENV } from './paging-command';

/**
 * The command line as the log keeps it: a secret typed on it (`page receiver --token TOKEN`,
 * `--basic USER:PASSWORD`) is replaced, the user name kept.
 */
export function argvForLog(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (arg.startsWith('--token=')) out.push(`--token=${REDACTED}`);
    else if (arg.startsWith('--basic=')) out.push(`--basic=${withoutPassword(arg.slice('--basic='.length))}`);
    else if (arg === '--token' && next !== undefined && !next.startsWith('-')) {
      out.push(arg, REDACTED);
      i++;
    } else if (arg === '--basic' && next !== undefined) {
      out.push(arg, withoutPassword(next));
      i++;
    } else out.push(arg);
  }
  return out;
}

const withoutPassword = (userAndPassword: string) => {
  const at = userAndPassword.indexOf(':');
  return at < 0 ? userAndPassword : `${userAndPassword.slice(0, at)}:${REDACTED}`;
};

function detail(error: unknown): string {
  if (error instanceof Error) return `${error.stack ?? `${error.name}: ${error.message}`}${error.cause ? `\ncaused by: ${detail(error.cause)}` : ''}`;
  try {
    return typeof error === 'string' ? error : JSON.stringify(error);
  } catch {
    return String(error);
  }
}

/** Writes the error's details; returns the file's path, or null when it could not be written (a full disk...). */
export function writeCrashLog(env: NodeJS.ProcessEnv, argv: readonly string[], error: unknown, now = systemClock.date()): string | null {
  try {
    const dir = join(dataDirectory(env), 'logs');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `cli-${now.toISOString().replace(/[:.]/g, '-')}-${process.pid}.log`);
    const text = [`${now.toISOString()} callout ${argvForLog(argv).join(' ')}`, `node ${process.version} ${process.platform}`, detail(error), ''].join('\n');
    writeFileSync(file, redactSecrets(text, [env.CALLOUT_API_KEY, env[RECEIVER_TOKEN_ENV], env[RECEIVER_PASSWORD_ENV]]), { mode: 0o600 });
    return file;
  } catch {
    return null;
  }
}
