// The upgrade's words (the app's upgrade window, the CLI's line) in both languages.
import { describe, expect, it } from 'vitest';
import type { UpgradeProgress } from '../../main/store/database';
import { upgradeLine, upgradeTexts } from '../../main/upgrade-text';

const step = (over: Partial<UpgradeProgress> = {}): UpgradeProgress => ({
  kind: 'step',
  from: 19,
  to: 23,
  step: 3,
  steps: 4,
  version: 22,
  name: 'exchange-hours',
  share: 0.456,
  ...over,
});

describe("the upgrade's words", () => {
  it('name the step, its share in whole percent, and say closing loses nothing', () => {
    expect(upgradeTexts(step(), 'en')).toEqual({
      title: 'Upgrading your call history',
      versions: 'This version of Callout keeps its data in a newer shape (store version 19\u00a0→\u00a023). This happens once.',
      step: 'Step 3 of 4: adding up exchanges by hour',
      percent: '45%',
      share: 0.456,
      note: 'You can close Callout now and lose nothing: the upgrade goes on when it next opens.',
    });
    expect(upgradeTexts(step(), 'zh-CN')).toMatchObject({ title: '正在升级历史记录', step: '第 3 步，共 4 步：按小时汇总报文', percent: '45%' });
    expect(upgradeLine(step({ share: 1 }), 'en')).toBe('Upgrading the store (19 → 23): step 3 of 4, adding up exchanges by hour 100%');
  });

  it('a step that does not say how far has no share; one without a name of its own is "updating tables"', () => {
    expect(upgradeTexts(step({ share: null, name: 'lend-lines', version: 14 }), 'en')).toMatchObject({
      step: 'Step 3 of 4: updating tables',
      percent: '',
      share: null,
    });
    expect(upgradeLine(step({ share: null, name: 'lend-lines' }), 'zh-CN')).toBe('正在升级数据库（19 → 23）：第 3 步，共 4 步，更新数据表');
  });

  it('waiting for another process says so, with no bar', () => {
    const waiting = step({ kind: 'waiting' });
    expect(upgradeTexts(waiting, 'en')).toMatchObject({
      step: 'Waiting for another Callout window or command that is upgrading the same data…',
      percent: '',
      share: null,
    });
    expect(upgradeLine(waiting, 'zh-CN')).toBe('另一个 Callout 窗口或命令正在升级同一份数据，正在等待……');
  });
});
