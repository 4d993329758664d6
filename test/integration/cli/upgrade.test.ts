// The CLI on a store written by an earlier version: the upgrade is said on standard error (a line
// that follows the steps on a terminal; a start and an end line otherwise), in the user's language,
// and the command's own output is what it always is.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../main/cli/program';
import { CLEAR_LINE } from '../../../main/cli/terminal-text';
import { MIGRATIONS } from '../../../main/store/migrations';
import { writeOldStore } from '../../helpers/old-store';
import { tempHome } from '../../helpers/temp-home';
import { cli } from './run-cli';

const LATEST = MIGRATIONS.at(-1)!.version;
let home: { dir: string; cleanup: () => void };
beforeEach(() => {
  home = tempHome();
});
afterEach(() => home.cleanup());

describe('the CLI on a store from an earlier version', () => {
  it('says the upgrade on stderr, once at its start and once at its end, and the command answers as always', async () => {
    writeOldStore(join(home.dir, 'callout.db'), 30);
    const run = await cli(['history', '--json', '--lang', 'en'], { CALLOUT_HOME: home.dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`^callout: Upgrading the store from version 4 to ${LATEST} \\(once, after an update\\)…\\n`));
    expect(run.stderr).toMatch(new RegExp(`callout: Store upgraded to version ${LATEST} in [\\d.]+ s\\.\\n$`));
    expect(run.stderr).not.toContain(CLEAR_LINE);
    expect((run.json as Array<{ mobile: string }>)[0]).toMatchObject({ mobile: '13800000030' }); // the newest first, found after the upgrade

    // The next command: nothing to upgrade, nothing said.
    const again = await cli(['history', '--json'], { CALLOUT_HOME: home.dir });
    expect(again.stderr).toBe('');
  });

  it('on a terminal, a line follows the steps, in Chinese when asked', async () => {
    writeOldStore(join(home.dir, 'callout.db'), 30);
    let stderr = '';
    let stdout = '';
    const code = await runCli(['history', '--lang', 'zh-CN'], {
      stdout: (s) => (stdout += s),
      stderr: (s) => (stderr += s),
      env: { CALLOUT_HOME: home.dir },
      stderrIsTTY: true,
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`callout: 正在把数据库从版本 4 升级到 ${LATEST}（更新后只需一次）……\n`);
    expect(stderr).toContain(`${CLEAR_LINE}正在升级数据库（4 → ${LATEST}）：第 1 步，共 ${LATEST - 4} 步，为消息建立搜索索引`);
    expect(stderr).toContain(`${CLEAR_LINE}正在升级数据库（4 → ${LATEST}）：第 8 步，共 ${LATEST - 4} 步，为报文建立搜索索引`);
    expect(stderr).toMatch(new RegExp(`${CLEAR_LINE.replace('[', '\\[')}callout: 数据库已升级到版本 ${LATEST}，用时 [\\d.]+ 秒。\\n$`));
    expect(stdout).toContain('13800000030');
  });
});
