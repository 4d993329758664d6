// Dates read the same way to every reader: year-month-day, as History writes them.
import { describe, expect, it } from 'vitest';
import { isoDate, isoDateTime, monthDay } from '../../../renderer/src/i18n/dates';

const at = new Date(2026, 10, 27, 9, 5, 7); // 27 November 2026, 09:05:07 local time

describe('dates on every screen', () => {
  it('a batch date is 2026-11-27 09:05, never 27/11/2026', () => {
    expect(isoDateTime(at.getTime())).toBe('2026-11-27 09:05');
    expect(isoDate(at)).toBe('2026-11-27');
  });

  it('a call of another day shows month before day', () => {
    expect(monthDay(at)).toBe('11-27');
  });
});
