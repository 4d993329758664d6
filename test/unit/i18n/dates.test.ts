// Dates read the same way to every reader: year-month-day, as History writes them.
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../renderer/src/features/bulk/bulk-model';
import { formatClock } from '../../../renderer/src/features/dial/dial-model';

const at = new Date(2026, 10, 27, 9, 5, 7).getTime(); // 27 November 2026, 09:05:07 local time

describe('dates on the Bulk and quick dial screens', () => {
  it.each(['en', 'zh-CN'] as const)('a batch date is 2026-11-27 09:05 in %s, never 27/11/2026', (lang) => {
    expect(formatDateTime(lang, at)).toBe('2026-11-27 09:05');
  });

  it.each(['en', 'zh-CN'] as const)('a call of another day shows month before day in %s', (lang) => {
    const nextDay = new Date(2026, 10, 28, 12, 0, 0).getTime();
    expect(formatClock(lang, at, nextDay)).toBe('11-27 09:05:07');
    expect(formatClock(lang, at, at)).toBe('09:05:07');
  });
});
