// How the Send form names a past send whose values it offers: its first value (shortened) and when.
import { describe, expect, it } from 'vitest';
import { firstValueOf, formatWhen } from '../../../renderer/src/features/send/last-send';

describe('the last send offered on the Send form', () => {
  it('is recognised by its first non-blank value, shortened by characters, not UTF-16 units', () => {
    expect(firstValueOf(['吴霞19', '按摩', '12点'])).toBe('吴霞19');
    expect(firstValueOf(['  ', ' 张先生 '])).toBe('张先生');
    expect(firstValueOf([])).toBe('');
    expect(firstValueOf(['𠀀'.repeat(20)], 5)).toBe(`${'𠀀'.repeat(4)}…`);
  });

  it('says its time when it was today, and its date too when it was not', () => {
    const at = new Date(2026, 10, 27, 10, 32).getTime();
    const sameDay = new Date(2026, 10, 27, 18, 0).getTime();
    const nextDay = new Date(2026, 10, 28, 9, 0).getTime();
    expect(formatWhen('zh-CN', at, sameDay)).toBe('10:32');
    expect(formatWhen('en', at, sameDay)).toMatch(/^10:32\sAM$/);
    expect(formatWhen('zh-CN', at, nextDay)).toMatch(/2026\/11\/27 10:32/);
    expect(formatWhen('en', at, nextDay)).toMatch(/11\/27\/26.*10:32/);
  });
});
