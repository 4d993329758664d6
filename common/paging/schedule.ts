// Schedules (issue 25, item 4): who is on call when. A rotation hands the shift from one participant
// to the next at a local 'HH:MM' in its time zone; overrides let someone cover from T1 to T2. Pure: no
// I/O and no clock reads — every instant is a parameter (epoch ms), so the engine asks with its Clock's
// now() and tests ask with fixed instants.
//
// The rules, in one place:
// - Rotation. Shift 0 starts at `rotation.start` (which should be a handover moment: rotationStart()
//   computes one) and belongs to participants[0]. Shift k ≥ 1 starts at the handover time on the local
//   date k × (count days, or count × 7 days) after start's local date, in the rotation's time zone, and
//   belongs to participants[k mod n]. Calendar days, not 24-hour periods: a handover at 10:00 stays at
//   10:00 local across a daylight saving change (that shift is 23 or 25 hours long). A handover time the
//   clocks skip happens at the same instant it would have one hour later (02:30 → 03:30); one they pass
//   twice happens the first time (common/paging/zoned.ts). Before `start`, the rotation has nobody.
// - Overrides. An override puts its contact on call over [from, to) instead of whoever the rotation
//   has; a rotation shift it partly covers is split around it. Where overrides overlap, the one created
//   later — the higher id, ids being given in creation order — wins; the earlier one keeps the rest of its
//   time. An override also counts before the rotation's start.
// - Shifts. The timeline is the rotation's shifts and the overrides merged into one sequence of
//   non-overlapping pieces, each with its contact and the override it comes from (null: the rotation).
//   Pieces are never cut at the bounds of a query: a shift is always reported whole, so the same shift
//   has the same from/to (and iCalendar UID) whatever range is asked.
import type { Override, Rotation, Schedule, Shift } from './types';
import { addDays, daysBetween, DEFAULT_TIME_ZONE, epochToLocal, formatDate, formatTime, isTimeZone, localToEpoch, type LocalDate } from './zoned';

export { DEFAULT_TIME_ZONE };

/** What a new rotation's form starts with. */
export const ROTATION_DEFAULTS: Pick<Rotation, 'shift' | 'handover' | 'timeZone'> = {
  shift: { count: 1, unit: 'week' },
  handover: '10:00',
  timeZone: DEFAULT_TIME_ZONE,
};

/** How many days or weeks a shift may last. */
export const SHIFT_COUNT_BOUNDS = { day: { min: 1, max: 365 }, week: { min: 1, max: 52 } } as const;

const DAY_MS = 86_400_000;
const HANDOVER = /^([01]\d|2[0-3]):([0-5]\d)$/;

// ---------------------------------------------------------------------------------------------------
// Validation

/** Issue codes; their texts are `paging.schedule.<code>` in common/messages/{en,zh-CN}.json. */
export const SCHEDULE_ISSUE_CODES = [
  'participants-empty',
  'participant-invalid',
  'shift-unit-invalid',
  'shift-count-range',
  'handover-invalid',
  'time-zone-unknown',
  'start-invalid',
  'override-contact-required',
  'override-time-invalid',
  'override-order',
] as const;
export type ScheduleIssueCode = (typeof SCHEDULE_ISSUE_CODES)[number];

export interface ScheduleIssue {
  /** The field of the rotation or override the issue is about. */
  field: 'participants' | 'shift' | 'handover' | 'timeZone' | 'start' | 'contactId' | 'from' | 'to';
  code: ScheduleIssueCode;
  /** For the text; `kind` picks a variant (i18next context), as everywhere in the catalog. */
  params: Record<string, string | number>;
}

/** What is wrong with a rotation ([] when nothing). Render with codedArgs('paging.schedule', issue). */
export function validateRotation(r: Rotation): ScheduleIssue[] {
  const issues: ScheduleIssue[] = [];
  if (!Array.isArray(r.participants) || r.participants.length === 0) issues.push({ field: 'participants', code: 'participants-empty', params: {} });
  else {
    const bad = r.participants.find((p) => !Number.isSafeInteger(p) || p <= 0);
    if (bad !== undefined) issues.push({ field: 'participants', code: 'participant-invalid', params: { value: String(bad) } });
  }
  const unit = r.shift?.unit;
  if (unit !== 'day' && unit !== 'week') issues.push({ field: 'shift', code: 'shift-unit-invalid', params: { value: String(unit) } });
  else {
    const { min, max } = SHIFT_COUNT_BOUNDS[unit];
    const count = r.shift.count;
    if (!Number.isInteger(count) || count < min || count > max)
      issues.push({ field: 'shift', code: 'shift-count-range', params: { kind: unit, min, max, value: String(count) } });
  }
  if (typeof r.handover !== 'string' || !HANDOVER.test(r.handover))
    issues.push({ field: 'handover', code: 'handover-invalid', params: { value: String(r.handover) } });
  if (!isTimeZone(r.timeZone)) issues.push({ field: 'timeZone', code: 'time-zone-unknown', params: { value: String(r.timeZone) } });
  if (!Number.isFinite(r.start)) issues.push({ field: 'start', code: 'start-invalid', params: {} });
  return issues;
}

/** What is wrong with an override ([] when nothing). */
export function validateOverride(o: Pick<Override, 'contactId' | 'from' | 'to'>): ScheduleIssue[] {
  const issues: ScheduleIssue[] = [];
  if (!Number.isSafeInteger(o.contactId) || o.contactId <= 0) issues.push({ field: 'contactId', code: 'override-contact-required', params: {} });
  const badFrom = !Number.isFinite(o.from);
  const badTo = !Number.isFinite(o.to);
  if (badFrom) issues.push({ field: 'from', code: 'override-time-invalid', params: {} });
  if (badTo) issues.push({ field: 'to', code: 'override-time-invalid', params: {} });
  if (!badFrom && !badTo && o.to <= o.from) issues.push({ field: 'to', code: 'override-order', params: { from: o.from, to: o.to } });
  return issues;
}

// ---------------------------------------------------------------------------------------------------
// The rotation

function parseHandover(handover: string): { hour: number; minute: number } {
  const m = HANDOVER.exec(handover);
  if (!m) throw new RangeError(`handover must be HH:MM, got ${JSON.stringify(handover)}`);
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/** The instant of the handover on a local date ('YYYY-MM-DD' or parts): a rotation's `start`. */
export function rotationStart(date: LocalDate | string, handover: string, timeZone: string = DEFAULT_TIME_ZONE): number {
  const d = typeof date === 'string' ? parseDate(date) : date;
  return localToEpoch({ ...d, ...parseHandover(handover) }, timeZone);
}

function parseDate(s: string): LocalDate {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) throw new RangeError(`date must be YYYY-MM-DD, got ${JSON.stringify(s)}`);
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
}

/** The rotation's shift boundaries, computed once per rotation and query. */
class Boundaries {
  private readonly anchor: LocalDate;
  private readonly days: number;
  private readonly at: { hour: number; minute: number };
  private readonly timeZone: string;

  constructor(private readonly rotation: Rotation) {
    this.timeZone = rotation.timeZone || DEFAULT_TIME_ZONE;
    this.anchor = epochToLocal(rotation.start, this.timeZone);
    this.days = rotation.shift.count * (rotation.shift.unit === 'week' ? 7 : 1);
    this.at = parseHandover(rotation.handover);
  }

  /** When shift k starts. */
  start(k: number): number {
    if (k <= 0) return this.rotation.start;
    return localToEpoch({ ...addDays(this.anchor, k * this.days), ...this.at }, this.timeZone);
  }

  /** The shift that contains t (t ≥ rotation.start). */
  index(t: number): number {
    const local = epochToLocal(t, this.timeZone);
    let k = Math.max(0, Math.floor(daysBetween(this.anchor, local) / this.days));
    while (k > 0 && this.start(k) > t) k--;
    while (this.start(k + 1) <= t) k++;
    return k;
  }

  shift(k: number): Shift {
    const p = this.rotation.participants;
    return { contactId: p[k % p.length]!, from: this.start(k), to: this.start(k + 1), overrideId: null };
  }

  /** The longest a shift can be, with an hour to spare for a daylight saving change. */
  get maxLength(): number {
    return this.days * DAY_MS + 3_600_000;
  }
}

function usable(r: Rotation): boolean {
  return (
    r.participants.length > 0 &&
    (r.shift.unit === 'day' || r.shift.unit === 'week') &&
    Number.isInteger(r.shift.count) &&
    r.shift.count >= 1 &&
    HANDOVER.test(r.handover) &&
    Number.isFinite(r.start) &&
    isTimeZone(r.timeZone || DEFAULT_TIME_ZONE)
  );
}

// ---------------------------------------------------------------------------------------------------
// The timeline: rotation and overrides merged

type Interval = [number, number];

/** `base` minus the union of `cuts`. */
function subtract(base: Interval, cuts: Interval[]): Interval[] {
  let rest: Interval[] = [base];
  for (const [cf, ct] of cuts) {
    const next: Interval[] = [];
    for (const [f, t] of rest) {
      if (ct <= f || cf >= t) next.push([f, t]);
      else {
        if (cf > f) next.push([f, cf]);
        if (ct < t) next.push([ct, t]);
      }
    }
    rest = next;
  }
  return rest;
}

/** The visible pieces of every override: later-created (higher id) overrides win where they overlap. */
function overridePieces(overrides: Override[]): Shift[] {
  const valid = overrides.filter((o) => Number.isFinite(o.from) && Number.isFinite(o.to) && o.to > o.from).sort((a, b) => b.id - a.id);
  const out: Shift[] = [];
  const above: Interval[] = [];
  for (const o of valid) {
    for (const [from, to] of subtract([o.from, o.to], above)) out.push({ contactId: o.contactId, from, to, overrideId: o.id });
    above.push([o.from, o.to]);
  }
  return out;
}

/** Every piece of the timeline that overlaps [from, to), whole, in order. */
function timeline(schedule: Schedule, from: number, to: number): Shift[] {
  if (!(Number.isFinite(from) && Number.isFinite(to))) throw new RangeError('shifts: from and to must be finite instants');
  if (to <= from) return [];
  const overlaps = (s: Shift) => s.to > from && s.from < to;
  const overrides = overridePieces(schedule.overrides ?? []);
  const cuts: Interval[] = (schedule.overrides ?? []).filter((o) => o.to > o.from).map((o) => [o.from, o.to]);
  const pieces: Shift[] = overrides.filter(overlaps);
  const r = schedule.rotation;
  if (usable(r) && to > r.start) {
    const b = new Boundaries(r);
    for (let k = b.index(Math.max(from, r.start)); ; k++) {
      const s = b.shift(k);
      if (s.from >= to) break;
      for (const [f, t] of subtract([s.from, s.to], cuts)) {
        const piece = { ...s, from: f, to: t };
        if (overlaps(piece)) pieces.push(piece);
      }
    }
  }
  return pieces.sort((a, b) => a.from - b.from);
}

/** Who is on call at instant t ("on call now"), whole shift; null when nobody (e.g. before the rotation starts). */
export function onCallAt(schedule: Schedule, t: number): Shift | null {
  return timeline(schedule, t, t + 1).find((s) => s.from <= t && t < s.to) ?? null;
}

/** The first shift that starts after t ("next"): the rotation's next handover, or an override's start or end. */
export function nextShift(schedule: Schedule, t: number): Shift | null {
  const r = schedule.rotation;
  const step = usable(r) ? new Boundaries(r).maxLength : 7 * DAY_MS;
  const lastOverride = Math.max(-Infinity, ...(schedule.overrides ?? []).map((o) => o.to).filter(Number.isFinite));
  // Far enough to pass every override and one whole rotation shift after the later of t and the start.
  const horizon = Math.max(t, usable(r) ? r.start : t, Number.isFinite(lastOverride) ? lastOverride : t) + step + DAY_MS;
  return timeline(schedule, t, horizon).find((s) => s.from > t) ?? null;
}

/** The shifts that overlap [from, to), whole (not cut at from or to), in order: rotation and overrides merged. */
export function shifts(schedule: Schedule, from: number, to: number): Shift[] {
  return timeline(schedule, from, to);
}

// ---------------------------------------------------------------------------------------------------
// The two-week view

/** Who covers which hours of one day (contactId null: nobody is on call then). */
export interface DayCover {
  contactId: number | null;
  overrideId: number | null;
  /** Within the day: epoch ms. */
  from: number;
  to: number;
  /** Local 'HH:MM' in the view's time zone; `toTime` is '24:00' when it runs to the end of the day. */
  fromTime: string;
  toTime: string;
  /** The shift started before this day / goes on after it. */
  continuesFromBefore: boolean;
  continuesAfter: boolean;
}

export interface ScheduleDay {
  /** 'YYYY-MM-DD' in the view's time zone. */
  date: string;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  /** Local midnight to the next local midnight (23 or 25 hours on a daylight saving change). */
  from: number;
  to: number;
  covers: DayCover[];
}

/** Fourteen days from the local day of t in `timeZone` (the viewer's; may differ from the rotation's). */
export function twoWeeks(schedule: Schedule, t: number, timeZone: string = DEFAULT_TIME_ZONE, days = 14): ScheduleDay[] {
  const today = epochToLocal(t, timeZone);
  const midnight = (i: number) => localToEpoch({ ...addDays(today, i), hour: 0, minute: 0 }, timeZone);
  const all = timeline(schedule, midnight(0), midnight(days));
  const hhmm = (x: number) => formatTime(epochToLocal(x, timeZone));
  const out: ScheduleDay[] = [];
  for (let i = 0; i < days; i++) {
    const from = midnight(i);
    const to = midnight(i + 1);
    const date = addDays(today, i);
    const covers: DayCover[] = [];
    let at = from;
    const push = (contactId: number | null, overrideId: number | null, f: number, e: number, before: boolean, after: boolean) =>
      covers.push({
        contactId,
        overrideId,
        from: f,
        to: e,
        fromTime: hhmm(f),
        toTime: e === to ? '24:00' : hhmm(e),
        continuesFromBefore: before,
        continuesAfter: after,
      });
    for (const s of all) {
      if (s.to <= from || s.from >= to) continue;
      const f = Math.max(s.from, from);
      const e = Math.min(s.to, to);
      if (f > at) push(null, null, at, f, false, false);
      push(s.contactId, s.overrideId, f, e, s.from < from, s.to > to);
      at = e;
    }
    if (at < to) push(null, null, at, to, false, false);
    out.push({ date: formatDate(date), weekday: epochToLocal(from, timeZone).weekday, from, to, covers });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// iCalendar (RFC 5545)

export interface ICalendarOptions {
  /** DTSTAMP of every event (when the export was made): the caller's clock, never read here. */
  dtstamp: number;
  /**
   * The event's title with {{name}} and {{schedule}}: the catalog's `paging.schedule.ical-summary` in
   * the reader's language (e.g. 'On call: {{name}} ({{schedule}})').
   */
  summary: string;
  /** Said in DESCRIPTION of an override's event (the catalog's `paging.schedule.ical-override`), with {{name}}. */
  overrideNote?: string;
  /** UID's domain part (default 'callout.local'). */
  domain?: string;
}

const CRLF = '\r\n';

/** TEXT value escaping (RFC 5545 §3.3.11): backslash, semicolon, comma, and line breaks as \n. */
export function escapeText(s: string): string {
  return s
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

const encoder = new TextEncoder();

/**
 * Fold a content line (RFC 5545 §3.1): no line longer than 75 octets of UTF-8; each continuation
 * starts with one space. Never splits a character's bytes (a code point stays whole).
 */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = encoder.encode(ch).length;
    const limit = out.length === 0 ? 75 : 74; // a continuation's leading space is one of its 75
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join(`${CRLF} `);
}

/** 'YYYYMMDDTHHMMSSZ' (UTC). */
export function icalDateTime(t: number): string {
  return new Date(t)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (m, k: string) => values[k] ?? m);

/**
 * The schedule's shifts overlapping [from, to) as an iCalendar (text/calendar) with one VEVENT per
 * shift, whole shifts in UTC. A shift keeps its UID from one export to the next (schedule, start,
 * contact, override), so a calendar that subscribes updates the events instead of doubling them.
 * `names`: contact id → name; a contact without one is written '#id'.
 */
export function toICalendar(schedule: Schedule, names: Map<number, string>, from: number, to: number, opts: ICalendarOptions): string {
  const domain = opts.domain ?? 'callout.local';
  const stamp = icalDateTime(opts.dtstamp);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Callout//Paging schedules//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(schedule.name)}`,
  ];
  for (const s of shifts(schedule, from, to)) {
    const name = names.get(s.contactId) ?? `#${s.contactId}`;
    const uid = `schedule-${schedule.id}-${s.from}-${s.contactId}${s.overrideId === null ? '' : `-override-${s.overrideId}`}@${domain}`;
    lines.push('BEGIN:VEVENT', `UID:${uid}`, `DTSTAMP:${stamp}`, `DTSTART:${icalDateTime(s.from)}`, `DTEND:${icalDateTime(s.to)}`);
    lines.push(`SUMMARY:${escapeText(fill(opts.summary, { name, schedule: schedule.name }))}`);
    if (s.overrideId !== null && opts.overrideNote) lines.push(`DESCRIPTION:${escapeText(fill(opts.overrideNote, { name }))}`);
    lines.push('TRANSP:TRANSPARENT', 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join(CRLF) + CRLF;
}
