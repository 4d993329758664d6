// Schedules (issue 25, item 4) on fixed instants: who is on call, across a week, across daylight
// saving changes, with overrides; the two-week view; the iCalendar export; the form's checks.
import { describe, expect, it } from 'vitest';
import {
  escapeText,
  foldLine,
  nextShift,
  onCallAt,
  ROTATION_DEFAULTS,
  rotationStart,
  SCHEDULE_ISSUE_CODES,
  shifts,
  toICalendar,
  twoWeeks,
  validateOverride,
  validateRotation,
} from '../../../common/paging/schedule';
import type { Override, Rotation, Schedule, Shift } from '../../../common/paging/types';
import { addDays, epochToLocal, isTimeZone, localToEpoch, offsetAt } from '../../../common/paging/zoned';
import { codedArgs, MESSAGES } from '../../../common/messages';
import { translator } from '../../../main/i18n';

const at = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString().replace(':00.000Z', 'Z');
const H = 3_600_000;

function schedule(rotation: Partial<Rotation> & Pick<Rotation, 'start'>, overrides: Override[] = []): Schedule {
  return {
    id: 7,
    name: 'Primary',
    rotation: { participants: [1, 2, 3], shift: { count: 1, unit: 'week' }, handover: '10:00', timeZone: 'Asia/Shanghai', ...rotation },
    overrides,
  };
}
const brief = (s: Shift | null) => (s ? `${s.contactId}${s.overrideId === null ? '' : `(o${s.overrideId})`} ${iso(s.from)}→${iso(s.to)}` : null);

describe('wall-clock time in a time zone', () => {
  it('reads the local date and time of an instant', () => {
    expect(epochToLocal(at('2026-01-01T00:00:00Z'), 'Asia/Shanghai')).toEqual({
      year: 2026,
      month: 1,
      day: 1,
      hour: 8,
      minute: 0,
      second: 0,
      millisecond: 0,
      weekday: 4,
    });
    expect(epochToLocal(at('2026-01-01T00:00:00.250Z'), 'America/New_York')).toMatchObject({
      year: 2025,
      month: 12,
      day: 31,
      hour: 19,
      millisecond: 250,
      weekday: 3,
    });
    expect(offsetAt(at('2026-06-01T00:00:00Z'), 'Asia/Kathmandu')).toBe(5.75 * H);
  });

  it('finds the instant of a local time on both sides of a daylight saving change', () => {
    expect(iso(localToEpoch({ year: 2026, month: 3, day: 28, hour: 10, minute: 0 }, 'Europe/Berlin'))).toBe('2026-03-28T09:00Z');
    expect(iso(localToEpoch({ year: 2026, month: 3, day: 29, hour: 10, minute: 0 }, 'Europe/Berlin'))).toBe('2026-03-29T08:00Z');
    expect(iso(localToEpoch({ year: 2026, month: 10, day: 26, hour: 10, minute: 0 }, 'Europe/Berlin'))).toBe('2026-10-26T09:00Z');
    expect(iso(localToEpoch({ year: 2026, month: 11, day: 1, hour: 9, minute: 0 }, 'America/New_York'))).toBe('2026-11-01T14:00Z');
  });

  it('moves a local time the clocks skip forward by the gap, and takes the first of one they pass twice', () => {
    // Berlin, 29 March 2026: 02:00 CET becomes 03:00 CEST; 02:30 never happens.
    expect(iso(localToEpoch({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Berlin'))).toBe('2026-03-29T01:30Z');
    // Berlin, 25 October 2026: 03:00 CEST becomes 02:00 CET; 02:30 happens twice.
    expect(iso(localToEpoch({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, 'Europe/Berlin'))).toBe('2026-10-25T00:30Z');
    // New York, 1 November 2026: 01:30 happens twice (EDT, then EST).
    expect(iso(localToEpoch({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, 'America/New_York'))).toBe('2026-11-01T05:30Z');
  });

  it('goes there and back for every quarter hour around the changes (the repeated hour: its first instant)', () => {
    for (const [zone, day] of [
      ['Europe/Berlin', '2026-03-29'],
      ['Europe/Berlin', '2026-10-25'],
      ['America/New_York', '2026-03-08'],
      ['America/New_York', '2026-11-01'],
      ['Asia/Shanghai', '2026-03-29'],
    ] as const) {
      for (let t = at(`${day}T00:00:00Z`) - 12 * H; t < at(`${day}T00:00:00Z`) + 36 * H; t += H / 4) {
        const back = localToEpoch(epochToLocal(t, zone), zone);
        expect([t, t - H], `${zone} ${iso(t)}`).toContain(back);
      }
    }
  });

  it('knows which time zones exist', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone(undefined)).toBe(false);
  });

  it('counts calendar days across months and years', () => {
    expect(addDays({ year: 2026, month: 12, day: 30 }, 3)).toEqual({ year: 2027, month: 1, day: 2 });
    expect(addDays({ year: 2028, month: 3, day: 1 }, -1)).toEqual({ year: 2028, month: 2, day: 29 });
  });
});

describe('a rotation in Asia/Shanghai (the default), weekly, handing over on Monday at 10:00', () => {
  // Monday 23 November 2026, 10:00 in Beijing = 02:00 UTC.
  const start = rotationStart('2026-11-23', '10:00');
  const s = schedule({ start });

  it('defaults to Asia/Shanghai', () => {
    expect(ROTATION_DEFAULTS.timeZone).toBe('Asia/Shanghai');
    expect(iso(start)).toBe('2026-11-23T02:00Z');
    const noZone = schedule({ start, timeZone: '' });
    expect(brief(onCallAt(noZone, at('2026-11-30T02:00:00Z')))).toBe('2 2026-11-30T02:00Z→2026-12-07T02:00Z');
  });

  it('has nobody on call before its start; "next" is its first shift', () => {
    expect(onCallAt(s, start - 1)).toBeNull();
    expect(onCallAt(s, at('2026-01-01T00:00:00Z'))).toBeNull();
    expect(brief(nextShift(s, start - 1))).toBe('1 2026-11-23T02:00Z→2026-11-30T02:00Z');
    expect(brief(nextShift(s, at('2026-01-01T00:00:00Z')))).toBe('1 2026-11-23T02:00Z→2026-11-30T02:00Z');
  });

  it('has the first participant from the start instant', () => {
    expect(brief(onCallAt(s, start))).toBe('1 2026-11-23T02:00Z→2026-11-30T02:00Z');
  });

  it('keeps the shift over the week boundary (Sunday night, Monday morning) and hands over at 10:00 Monday', () => {
    expect(onCallAt(s, at('2026-11-29T15:59:00Z'))?.contactId).toBe(1); // Sunday 23:59
    expect(onCallAt(s, at('2026-11-29T16:00:00Z'))?.contactId).toBe(1); // Monday 00:00
    expect(onCallAt(s, at('2026-11-30T01:59:59.999Z'))?.contactId).toBe(1); // Monday 09:59:59.999
  });

  it('at the handover instant, says the new person is on call and the one after is next', () => {
    const handover = at('2026-11-30T02:00:00Z');
    expect(brief(onCallAt(s, handover))).toBe('2 2026-11-30T02:00Z→2026-12-07T02:00Z');
    expect(brief(nextShift(s, handover))).toBe('3 2026-12-07T02:00Z→2026-12-14T02:00Z');
    expect(brief(nextShift(s, handover - 1))).toBe('2 2026-11-30T02:00Z→2026-12-07T02:00Z');
  });

  it('cycles through the participants in order, a year later too', () => {
    expect(onCallAt(s, at('2026-12-14T02:00:00Z'))?.contactId).toBe(1);
    // 52 weeks later: shift 52, participant 52 mod 3 = 1 (the second).
    expect(brief(onCallAt(s, at('2027-11-22T02:00:00Z')))).toBe('2 2027-11-22T02:00Z→2027-11-29T02:00Z');
  });

  it('lists whole shifts over a range, not cut at its ends', () => {
    expect(shifts(s, at('2026-11-25T00:00:00Z'), at('2026-12-08T00:00:00Z')).map(brief)).toEqual([
      '1 2026-11-23T02:00Z→2026-11-30T02:00Z',
      '2 2026-11-30T02:00Z→2026-12-07T02:00Z',
      '3 2026-12-07T02:00Z→2026-12-14T02:00Z',
    ]);
    expect(shifts(s, at('2026-11-30T02:00:00Z'), at('2026-11-30T02:00:00Z'))).toEqual([]);
  });

  it('a start that is not at the handover time: the first shift runs from the start to the next handover after its length', () => {
    // Started at 09:00 on Monday with a 10:00 handover: the first shift is 1 day and 1 hour, then 10:00 every day.
    const early = schedule({ start: at('2026-11-23T09:00:00+08:00'), participants: [1, 2], shift: { count: 1, unit: 'day' } });
    expect(shifts(early, at('2026-11-23T01:00:00Z'), at('2026-11-25T00:00:00Z')).map(brief)).toEqual([
      '1 2026-11-23T01:00Z→2026-11-24T02:00Z',
      '2 2026-11-24T02:00Z→2026-11-25T02:00Z',
    ]);
  });

  it('with shifts of 2 weeks, hands over every 14 days', () => {
    const two = schedule({ start, participants: [1, 2], shift: { count: 2, unit: 'week' } });
    expect(onCallAt(two, at('2026-12-07T02:00:00Z'))?.contactId).toBe(2);
    expect(brief(onCallAt(two, at('2026-12-07T01:59:59Z')))).toBe('1 2026-11-23T02:00Z→2026-12-07T02:00Z');
    // 2 weeks = 14 days: 2026-11-23 + 14 = 2026-12-07.
    expect(onCallAt(two, at('2026-12-21T02:00:00Z'))?.contactId).toBe(1);
    expect(onCallAt(two, at('2026-12-21T01:59:00Z'))?.contactId).toBe(2);
  });
});

describe('a rotation across daylight saving changes: 10:00 local stays 10:00 local', () => {
  it('Europe/Berlin, daily, over the spring change (a 23-hour shift)', () => {
    const s = schedule({
      participants: [1, 2],
      shift: { count: 1, unit: 'day' },
      timeZone: 'Europe/Berlin',
      start: rotationStart('2026-03-27', '10:00', 'Europe/Berlin'),
    });
    expect(shifts(s, at('2026-03-27T09:00:00Z'), at('2026-03-31T00:00:00Z')).map(brief)).toEqual([
      '1 2026-03-27T09:00Z→2026-03-28T09:00Z',
      '2 2026-03-28T09:00Z→2026-03-29T08:00Z',
      '1 2026-03-29T08:00Z→2026-03-30T08:00Z',
      '2 2026-03-30T08:00Z→2026-03-31T08:00Z',
    ]);
    // 10:30 CEST on the Sunday: the handover at 10:00 has happened (24 hours after Saturday's it would not have).
    expect(onCallAt(s, at('2026-03-29T08:30:00Z'))?.contactId).toBe(1);
    for (const shift of shifts(s, at('2026-03-20T00:00:00Z'), at('2026-04-05T00:00:00Z')).slice(1)) {
      expect(epochToLocal(shift.from, 'Europe/Berlin')).toMatchObject({ hour: 10, minute: 0 });
    }
  });

  it('America/New_York, weekly, over the autumn change and the week boundary (a 7-day-and-1-hour shift)', () => {
    // Monday 26 October 2026, 09:00 EDT = 13:00 UTC; on Sunday 1 November the clocks go back.
    const s = schedule({
      participants: [1, 2],
      handover: '09:00',
      timeZone: 'America/New_York',
      start: rotationStart('2026-10-26', '09:00', 'America/New_York'),
    });
    expect(brief(onCallAt(s, at('2026-11-02T13:30:00Z')))).toBe('1 2026-10-26T13:00Z→2026-11-02T14:00Z'); // Monday 08:30 EST
    expect(brief(onCallAt(s, at('2026-11-02T14:00:00Z')))).toBe('2 2026-11-02T14:00Z→2026-11-09T14:00Z'); // Monday 09:00 EST
  });

  it('a handover at a time the clocks skip happens an hour later that day, and at the usual time after', () => {
    const s = schedule({
      participants: [1, 2],
      shift: { count: 1, unit: 'day' },
      handover: '02:30',
      timeZone: 'Europe/Berlin',
      start: rotationStart('2026-03-27', '02:30', 'Europe/Berlin'),
    });
    expect(shifts(s, at('2026-03-28T12:00:00Z'), at('2026-03-30T12:00:00Z')).map(brief)).toEqual([
      '2 2026-03-28T01:30Z→2026-03-29T01:30Z', // 02:30 CET → 03:30 CEST (02:30 never happens)
      '1 2026-03-29T01:30Z→2026-03-30T00:30Z', // → 02:30 CEST
      '2 2026-03-30T00:30Z→2026-03-31T00:30Z',
    ]);
  });
});

describe('overrides', () => {
  // Daily in Beijing from Monday 23 November 2026 10:00: 1 on Monday, 2 on Tuesday, 1 on Wednesday …
  const start = rotationStart('2026-11-23', '10:00');
  const rotation = { start, participants: [1, 2], shift: { count: 1, unit: 'day' as const } };
  const tue = (hhmm: string) => at(`2026-11-24T${hhmm}:00+08:00`);

  it('splits the shift it partly covers: before, the override, after', () => {
    const s = schedule(rotation, [{ id: 10, contactId: 3, from: tue('14:00'), to: tue('16:00') }]);
    expect(shifts(s, tue('00:00'), tue('23:59')).map(brief)).toEqual([
      '1 2026-11-23T02:00Z→2026-11-24T02:00Z',
      '2 2026-11-24T02:00Z→2026-11-24T06:00Z',
      '3(o10) 2026-11-24T06:00Z→2026-11-24T08:00Z',
      '2 2026-11-24T08:00Z→2026-11-25T02:00Z',
    ]);
    expect(brief(onCallAt(s, tue('15:00')))).toBe('3(o10) 2026-11-24T06:00Z→2026-11-24T08:00Z');
    expect(onCallAt(s, tue('14:00'))?.contactId).toBe(3);
    expect(brief(onCallAt(s, tue('16:00')))).toBe('2 2026-11-24T08:00Z→2026-11-25T02:00Z'); // `to` is exclusive
    expect(brief(nextShift(s, tue('12:00')))).toBe('3(o10) 2026-11-24T06:00Z→2026-11-24T08:00Z');
    expect(brief(nextShift(s, tue('15:00')))).toBe('2 2026-11-24T08:00Z→2026-11-25T02:00Z');
  });

  it('covers across a handover as one piece', () => {
    const s = schedule(rotation, [{ id: 10, contactId: 3, from: at('2026-11-23T20:00:00+08:00'), to: tue('12:00') }]);
    expect(shifts(s, at('2026-11-23T00:00:00Z'), tue('23:00')).map(brief)).toEqual([
      '1 2026-11-23T02:00Z→2026-11-23T12:00Z',
      '3(o10) 2026-11-23T12:00Z→2026-11-24T04:00Z',
      '2 2026-11-24T04:00Z→2026-11-25T02:00Z',
    ]);
    expect(brief(nextShift(s, at('2026-11-23T11:00:00Z')))).toBe('3(o10) 2026-11-23T12:00Z→2026-11-24T04:00Z');
  });

  it('where overrides overlap, the one created later (higher id) wins; the other keeps the rest', () => {
    const a = { contactId: 3, from: tue('14:00'), to: tue('18:00') };
    const b = { contactId: 4, from: tue('16:00'), to: tue('20:00') };
    const bLater = schedule(rotation, [
      { id: 10, ...a },
      { id: 11, ...b },
    ]);
    const aLater = schedule(rotation, [
      { id: 11, ...a },
      { id: 10, ...b },
    ]);
    expect(shifts(bLater, tue('12:00'), tue('21:00')).map(brief)).toEqual([
      '2 2026-11-24T02:00Z→2026-11-24T06:00Z',
      '3(o10) 2026-11-24T06:00Z→2026-11-24T08:00Z',
      '4(o11) 2026-11-24T08:00Z→2026-11-24T12:00Z',
      '2 2026-11-24T12:00Z→2026-11-25T02:00Z',
    ]);
    expect(shifts(aLater, tue('12:00'), tue('21:00')).map(brief)).toEqual([
      '2 2026-11-24T02:00Z→2026-11-24T06:00Z',
      '3(o11) 2026-11-24T06:00Z→2026-11-24T10:00Z',
      '4(o10) 2026-11-24T10:00Z→2026-11-24T12:00Z',
      '2 2026-11-24T12:00Z→2026-11-25T02:00Z',
    ]);
    expect(onCallAt(bLater, tue('17:00'))?.contactId).toBe(4);
    expect(onCallAt(aLater, tue('17:00'))?.contactId).toBe(3);
  });

  it('a later override inside an earlier one splits it in two', () => {
    const s = schedule(rotation, [
      { id: 10, contactId: 3, from: tue('12:00'), to: tue('20:00') },
      { id: 11, contactId: 4, from: tue('14:00'), to: tue('15:00') },
    ]);
    expect(shifts(s, tue('12:00'), tue('20:00')).map((x) => `${x.contactId}@${epochToLocal(x.from, 'Asia/Shanghai').hour}`)).toEqual(['3@12', '4@14', '3@15']);
    // An earlier override wholly under a later one is not seen at all.
    const hidden = schedule(rotation, [
      { id: 11, contactId: 3, from: tue('12:00'), to: tue('20:00') },
      { id: 10, contactId: 4, from: tue('14:00'), to: tue('15:00') },
    ]);
    expect(shifts(hidden, tue('12:00'), tue('20:00')).map((x) => x.contactId)).toEqual([3]);
  });

  it('puts someone on call before the rotation starts; nobody between it and the start', () => {
    const s = schedule(rotation, [{ id: 10, contactId: 5, from: at('2026-11-22T10:00:00+08:00'), to: at('2026-11-22T18:00:00+08:00') }]);
    expect(onCallAt(s, at('2026-11-22T12:00:00+08:00'))?.contactId).toBe(5);
    expect(onCallAt(s, at('2026-11-22T19:00:00+08:00'))).toBeNull();
    expect(brief(nextShift(s, at('2026-11-22T12:00:00+08:00')))).toBe('1 2026-11-23T02:00Z→2026-11-24T02:00Z');
  });

  it('finds "next" after a long override', () => {
    const s = schedule(rotation, [{ id: 10, contactId: 5, from: tue('10:00'), to: at('2026-12-10T10:00:00+08:00') }]);
    expect(brief(nextShift(s, tue('11:00')))).toBe('2 2026-12-10T02:00Z→2026-12-11T02:00Z');
  });

  it('an override is all there is when the rotation has no participants', () => {
    const s = schedule({ ...rotation, participants: [] }, [{ id: 10, contactId: 5, from: tue('10:00'), to: tue('11:00') }]);
    expect(onCallAt(s, tue('10:30'))?.contactId).toBe(5);
    expect(onCallAt(s, tue('11:30'))).toBeNull();
    expect(nextShift(s, tue('11:30'))).toBeNull();
  });
});

describe('the two-week view', () => {
  const start = rotationStart('2026-11-23', '10:00');
  const s = schedule({ start, participants: [1, 2], shift: { count: 1, unit: 'day' } }, [
    { id: 10, contactId: 3, from: at('2026-11-24T14:00:00+08:00'), to: at('2026-11-24T16:00:00+08:00') },
  ]);

  it('gives fourteen days from today with who covers which hours', () => {
    const days = twoWeeks(s, at('2026-11-23T05:00:00Z'), 'Asia/Shanghai');
    expect(days).toHaveLength(14);
    expect(days.map((d) => d.date)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-05',
      '2026-12-06',
    ]);
    expect(days[0]!.weekday).toBe(1);
    const say = (i: number) => days[i]!.covers.map((c) => `${c.contactId ?? 'nobody'}${c.overrideId ? '*' : ''} ${c.fromTime}–${c.toTime}`);
    expect(say(0)).toEqual(['nobody 00:00–10:00', '1 10:00–24:00']);
    expect(say(1)).toEqual(['1 00:00–10:00', '2 10:00–14:00', '3* 14:00–16:00', '2 16:00–24:00']);
    expect(say(13)).toEqual(['1 00:00–10:00', '2 10:00–24:00']); // 6 December: shift 13
    expect(days[1]!.covers[0]).toMatchObject({ continuesFromBefore: true, continuesAfter: false });
    expect(days[1]!.covers[3]).toMatchObject({ continuesFromBefore: false, continuesAfter: true });
  });

  it("shows the viewer's time zone, with a 23-hour day when its clocks go forward", () => {
    const berlin = schedule({
      start: rotationStart('2026-03-20', '10:00', 'Europe/Berlin'),
      participants: [1, 2],
      shift: { count: 1, unit: 'day' },
      timeZone: 'Europe/Berlin',
    });
    const days = twoWeeks(berlin, at('2026-03-28T12:00:00Z'), 'Europe/Berlin');
    expect(days[1]!.date).toBe('2026-03-29');
    expect(days[1]!.to - days[1]!.from).toBe(23 * H);
    expect(days[1]!.covers.map((c) => `${c.contactId} ${c.fromTime}–${c.toTime}`)).toEqual(['1 00:00–10:00', '2 10:00–24:00']);
    // Seen from Beijing, the Berlin handover is at 17:00 before the change and 16:00 after it.
    const fromBeijing = twoWeeks(berlin, at('2026-03-28T12:00:00Z'), 'Asia/Shanghai');
    expect(fromBeijing[0]!.covers.map((c) => c.fromTime)).toEqual(['00:00', '17:00']);
    expect(fromBeijing[1]!.covers.map((c) => c.fromTime)).toEqual(['00:00', '16:00']);
  });
});

describe('iCalendar export', () => {
  const start = rotationStart('2026-11-23', '10:00');
  const names = new Map([
    [1, '王工'],
    [2, '李雷'],
    [3, '欧阳娜娜·阿卜杜热合曼·买买提明·司马相如·诸葛孔明'],
  ]);
  const s: Schedule = { ...schedule({ start, participants: [1, 2] }), name: 'DBA, 一线; ops\\night' };
  s.overrides = [{ id: 10, contactId: 3, from: at('2026-11-24T14:00:00+08:00'), to: at('2026-11-24T16:00:00+08:00') }];
  const opts = {
    dtstamp: at('2026-11-27T07:44:00Z'),
    summary: MESSAGES.en.paging.schedule['ical-summary'],
    overrideNote: MESSAGES.en.paging.schedule['ical-override'],
  };
  const ics = toICalendar(s, names, at('2026-11-23T00:00:00Z'), at('2026-12-01T00:00:00Z'), opts);

  const unfold = (text: string) => text.replace(/\r\n[ \t]/g, '').split('\r\n');
  const unescape = (v: string) => v.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  const events = (text: string) => {
    const out: Record<string, string>[] = [];
    let current: Record<string, string> | null = null;
    for (const line of unfold(text)) {
      if (line === 'BEGIN:VEVENT') current = {};
      else if (line === 'END:VEVENT') {
        out.push(current!);
        current = null;
      } else if (current) {
        const i = line.indexOf(':');
        current[line.slice(0, i)] = line.slice(i + 1);
      }
    }
    return out;
  };

  it('is a calendar with CRLF line endings and no line over 75 octets', () => {
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
  });

  it('has one event per shift, in UTC, with the summary in the reader’s language', () => {
    const ev = events(ics);
    // The rotation's weeks: Monday 23 Nov, then the override on Tuesday splits the first week.
    expect(ev.map((e) => `${e.DTSTART}/${e.DTEND}`)).toEqual([
      '20261123T020000Z/20261124T060000Z',
      '20261124T060000Z/20261124T080000Z',
      '20261124T080000Z/20261130T020000Z',
      '20261130T020000Z/20261207T020000Z',
    ]);
    expect(ev.every((e) => e.DTSTAMP === '20261127T074400Z')).toBe(true);
    expect(unescape(ev[0]!.SUMMARY!)).toBe('On call: 王工 (DBA, 一线; ops\\night)');
    expect(unescape(ev[1]!.SUMMARY!)).toBe(`On call: ${names.get(3)} (DBA, 一线; ops\\night)`);
    expect(unescape(ev[1]!.DESCRIPTION!)).toContain(names.get(3));
    expect(unescape(ev[3]!.SUMMARY!)).toBe('On call: 李雷 (DBA, 一线; ops\\night)');
    expect(ev[0]!.SUMMARY).toBe('On call: 王工 (DBA\\, 一线\\; ops\\\\night)');
    const zh = events(
      toICalendar(s, names, at('2026-11-23T00:00:00Z'), at('2026-11-24T00:00:00Z'), { ...opts, summary: MESSAGES['zh-CN'].paging.schedule['ical-summary'] }),
    );
    expect(unescape(zh[0]!.SUMMARY!)).toBe('值班：王工（DBA, 一线; ops\\night）');
  });

  it('keeps the UID of a shift from one export to the next, whatever the range', () => {
    const uids = events(ics).map((e) => e.UID);
    expect(new Set(uids).size).toBe(uids.length);
    const later = events(toICalendar(s, names, at('2026-11-29T00:00:00Z'), at('2026-12-20T00:00:00Z'), { ...opts, dtstamp: at('2026-11-29T00:00:00Z') }));
    expect(later[0]!.UID).toBe(uids[2]);
    expect(later[1]!.UID).toBe(uids[3]);
    expect(uids[1]).toMatch(/override-10@/);
  });

  it('folds long Chinese lines between characters, never inside one', () => {
    const line = `SUMMARY:${'王'.repeat(30)}`;
    const folded = foldLine(line).split('\r\n');
    expect(folded.map((l) => Buffer.byteLength(l, 'utf8'))).toEqual([74, 25]); // 8 + 22 × 3; ' ' + 8 × 3
    expect(folded[1]!.startsWith(' 王')).toBe(true);
    expect(folded.join('\r\n').replace(/\r\n /g, '')).toBe(line);
    // 4-byte characters (outside the BMP) stay whole too.
    const emoji = foldLine(`X:${'😀'.repeat(40)}`).split('\r\n');
    for (const l of emoji) {
      expect(Buffer.byteLength(l, 'utf8')).toBeLessThanOrEqual(75);
      expect(Buffer.from(l, 'utf8').toString('utf8')).toBe(l);
      expect(l).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    }
    expect(foldLine('SHORT:line')).toBe('SHORT:line');
    expect(foldLine('A'.repeat(75))).toBe('A'.repeat(75));
    expect(foldLine('A'.repeat(76))).toBe(`${'A'.repeat(75)}\r\n A`);
    // The long name in the export was folded and unfolds back.
    expect(ics).toMatch(/\r\n /);
  });

  it('escapes commas, semicolons, backslashes and line breaks in text', () => {
    expect(escapeText('a,b;c\\d\ne\r\nf')).toBe('a\\,b\\;c\\\\d\\ne\\nf');
  });
});

describe('checks of a rotation and an override', () => {
  const good: Rotation = { participants: [1, 2], shift: { count: 1, unit: 'week' }, handover: '10:00', timeZone: 'Asia/Shanghai', start: 0 };
  const codes = (r: Partial<Rotation>) => validateRotation({ ...good, ...r }).map((i) => `${i.field}:${i.code}`);

  it('accepts a good rotation', () => {
    expect(validateRotation(good)).toEqual([]);
    expect(codes({ handover: '23:59', timeZone: 'America/New_York', shift: { count: 365, unit: 'day' } })).toEqual([]);
  });

  it('names each problem with a code and its parameters', () => {
    expect(codes({ participants: [] })).toEqual(['participants:participants-empty']);
    expect(codes({ participants: [1, 0] })).toEqual(['participants:participant-invalid']);
    for (const h of ['24:00', '9:00', '10:60', '10-00', '', ' 10:00']) expect(codes({ handover: h }), h).toEqual(['handover:handover-invalid']);
    expect(validateRotation({ ...good, timeZone: 'Asia/Beijing' })).toEqual([
      { field: 'timeZone', code: 'time-zone-unknown', params: { value: 'Asia/Beijing' } },
    ]);
    expect(validateRotation({ ...good, shift: { count: 0, unit: 'day' } })).toEqual([
      { field: 'shift', code: 'shift-count-range', params: { kind: 'day', min: 1, max: 365, value: '0' } },
    ]);
    expect(codes({ shift: { count: 53, unit: 'week' } })).toEqual(['shift:shift-count-range']);
    expect(codes({ shift: { count: 1.5, unit: 'week' } })).toEqual(['shift:shift-count-range']);
    expect(codes({ shift: { count: 1, unit: 'month' as 'week' } })).toEqual(['shift:shift-unit-invalid']);
    expect(codes({ start: Number.NaN })).toEqual(['start:start-invalid']);
  });

  it('an override must end after it starts', () => {
    expect(validateOverride({ contactId: 3, from: 1000, to: 2000 })).toEqual([]);
    expect(validateOverride({ contactId: 3, from: 2000, to: 2000 })).toEqual([{ field: 'to', code: 'override-order', params: { from: 2000, to: 2000 } }]);
    expect(validateOverride({ contactId: 3, from: 2000, to: 1000 }).map((i) => i.code)).toEqual(['override-order']);
    expect(validateOverride({ contactId: 0, from: Number.NaN, to: 1000 }).map((i) => `${i.field}:${i.code}`)).toEqual([
      'contactId:override-contact-required',
      'from:override-time-invalid',
    ]);
  });

  it('every issue has its words in both languages', () => {
    const issues = [
      ...validateRotation({ participants: [], shift: { count: 0, unit: 'week' }, handover: '7', timeZone: 'Nowhere/Else', start: Number.NaN }),
      ...validateRotation({ ...good, participants: [-1], shift: { count: 1, unit: 'x' as 'day' } }),
      ...validateOverride({ contactId: 0, from: Number.NaN, to: 5 }),
      ...validateOverride({ contactId: 1, from: 5, to: 5 }),
    ];
    expect(new Set(issues.map((i) => i.code))).toEqual(new Set(SCHEDULE_ISSUE_CODES));
    for (const issue of issues) {
      for (const lang of ['en', 'zh-CN'] as const) {
        const text = translator(lang)(...codedArgs('paging.schedule', issue)) as string;
        expect(text, `${lang} ${issue.code}`).not.toContain('paging.schedule');
        expect(text, `${lang} ${issue.code}`).not.toMatch(/\{\{/);
      }
    }
    expect(translator('en')(...codedArgs('paging.schedule', validateRotation({ ...good, shift: { count: 99, unit: 'week' } })[0]!))).toBe(
      'Enter a shift length from 1 to 52 weeks.',
    );
    expect(translator('zh-CN')(...codedArgs('paging.schedule', validateRotation({ ...good, timeZone: 'Asia/Beijing' })[0]!))).toBe(
      '未知时区：Asia/Beijing。请输入 IANA 时区，例如 Asia/Shanghai。',
    );
  });
});
