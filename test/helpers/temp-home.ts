import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway CALLOUT_HOME (under `parent`, default the OS temp folder). */
export function tempHome(prefix = 'callout-test-', parent: string = tmpdir()): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(parent, prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
