// Several processes opening one new data directory at the same moment (two `callout send` started
// together, the app and the CLI): each migration runs once, and every process opens the store.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../main/store';
import { tempHome } from '../../helpers/temp-home';

const ROOT = join(__dirname, '..', '..', '..');
const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function opener(home: string): Promise<{ code: number | null; stderr: string }> {
  const script = `const { openStore } = require(${JSON.stringify(join(ROOT, 'main/store/index.ts'))}); openStore(process.env.HOME_DIR).close();`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME_DIR: home },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

describe('one new data directory, opened by several processes at once', () => {
  it('every process opens it; the schema is migrated once', async () => {
    const home = tempHome();
    cleanups.push(home.cleanup);
    const results = await Promise.all([opener(home.dir), opener(home.dir), opener(home.dir), opener(home.dir)]);
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
    const store = openStore(home.dir);
    cleanups.push(() => store.close());
    expect(store.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(16);
  }, 60_000);
});
