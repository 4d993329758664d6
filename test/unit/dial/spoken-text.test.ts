// Quick dial's "Hear it first" plays exactly what the call would read, and nothing half-filled.
import { describe, expect, it } from 'vitest';
import type { TemplateView } from '../../../common/contract';
import { spokenText } from '../../../renderer/src/features/dial/dial-model';

const alert = { id: 't1', markerCount: 2, content: '【变量】告警：【变量】，请立即处理。' } as TemplateView;

describe('the text quick dial plays aloud', () => {
  it('is the filled-in text, with the values trimmed as they are sent', () => {
    expect(spokenText(alert, [' 数据库 ', '磁盘已满'])).toBe('数据库告警：磁盘已满，请立即处理。');
  });

  it('is nothing while a marker is still empty', () => {
    expect(spokenText(alert, ['数据库', '  '])).toBeNull();
    expect(spokenText(alert, ['数据库'])).toBeNull();
  });
});
