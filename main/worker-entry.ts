// How to start one of main's worker threads: its built file beside the calling module (out/main, or
// one folder up from a shared chunk), or, running from the TypeScript source (tests, bench), a small
// bootstrap that registers tsx in the worker first. `here` is the caller's import.meta.url; the
// worker's source file sits beside the caller's.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface WorkerEntry {
  code: string | URL;
  eval: boolean;
}

/** The entry of worker `name` (its file's name without extension), or null when this build lacks it. */
export function workerEntry(here: string, name: string): WorkerEntry | null {
  if (here.endsWith('.ts')) {
    const source = fileURLToPath(new URL(`./${name}.ts`, here));
    return { code: `require('tsx/cjs/api').register(); require(${JSON.stringify(source)});`, eval: true };
  }
  for (const candidate of [`./${name}.js`, `../${name}.js`]) {
    const url = new URL(candidate, here);
    if (existsSync(fileURLToPath(url))) return { code: url, eval: false };
  }
  return null;
}
