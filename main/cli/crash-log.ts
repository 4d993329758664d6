// A crash never shows a stack trace: the CLI says one line and where the details are, a log file
// in the data directory (logs/cli-<time>.log), with every secret it knows of removed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactSecrets } from '../secrets/secret-store';
import { dataDirectory } from '../store';
import { systemClock } from '../clock';

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
    const text = [`${now.toISOString()} callout ${argv.join(' ')}`, `node ${process.version} ${process.platform}`, detail(error), ''].join('\n');
    writeFileSync(file, redactSecrets(text, [env.CALLOUT_API_KEY]), { mode: 0o600 });
    return file;
  } catch {
    return null;
  }
}
