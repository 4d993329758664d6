import { describe, expect, it } from 'vitest';
import { withAside, withProviderMessage } from '../../../renderer/src/i18n/punctuation';

describe('punctuation put together in code', () => {
  it('uses full-width parentheses in Chinese and spaced ASCII ones in English', () => {
    expect(withAside('zh-CN', '全部', '20')).toBe('全部（20）');
    expect(withAside('en', 'All', '20')).toBe('All (20)');
  });

  it('does not say the provider message twice when it repeats the reading of the code', () => {
    expect(withProviderMessage('zh-CN', '提交成功', '提交成功')).toBe('提交成功');
    expect(withProviderMessage('zh-CN', '提交成功：服务商已受理。', '提交成功')).toBe('提交成功：服务商已受理。');
    expect(withProviderMessage('zh-CN', '余额不足', '账户欠费')).toBe('余额不足（账户欠费）');
    expect(withProviderMessage('en', 'Accepted.', 'OK, queued')).toBe('Accepted. (OK, queued)');
    expect(withProviderMessage('en', 'Accepted.', '  ')).toBe('Accepted.');
    expect(withProviderMessage('en', 'Accepted.', null)).toBe('Accepted.');
  });
});
