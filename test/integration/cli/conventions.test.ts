// The CLI's conventions, as other tools expect them: `--version`, an exit status of its own for an
// internal error, `-` for standard input, progress only on a terminal's stderr, and run reports.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempHome } from '../../helpers/temp-home';
import { cli } from './run-cli';

const ROOT = join(__dirname, '../../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('callout --version', () => {
  it.each([['--version'], ['-V']])('%s prints the version of package.json and exits 0', async (flag) => {
    const home = tempHome();
    try {
      const r = await cli([flag], { CALLOUT_HOME: home.dir, LANG: 'en_US.UTF-8' });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${VERSION}\n`);
      expect(r.stderr).toBe('');
    } finally {
      home.cleanup();
    }
  });

  it.each([
    ['en_US.UTF-8', "print Callout's version and exit"],
    ['zh_CN.UTF-8', '输出 Callout 的版本号并退出'],
  ])('--help names it (%s)', async (LANG, said) => {
    const home = tempHome();
    try {
      const r = await cli(['--help'], { CALLOUT_HOME: home.dir, LANG });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/-V, --version/);
      expect(r.stdout).toContain(said);
    } finally {
      home.cleanup();
    }
  });
});
