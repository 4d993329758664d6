import { describe, expect, it } from 'vitest';
import { refusalText } from '../../../main/cli/dial-command';
import { cliWords } from '../../../main/cli/text';
import { checkDial, checkPlan, DEFAULT_DIAL_POLICY, policyFrom, quietUntil, type DialPolicy } from '../../../main/dial/limits';

const M = '13800138000';
/** Local wall-clock time on a fixed day. */
const at = (h: number, m = 0, s = 0, day = 10) => new Date(2026, 10, day, h, m, s).getTime();
const NO_QUIET: DialPolicy = { ...DEFAULT_DIAL_POLICY, quietHours: null };

describe('per-number limits', () => {
  it('allows a first call, refuses a second within the minute and says when it frees up', () => {
    expect(checkDial(NO_QUIET, M, [], at(12))).toEqual([]);
    const [r, ...rest] = checkDial(NO_QUIET, M, [at(11, 59, 30)], at(12));
    expect(rest).toEqual([]);
    expect(r).toMatchObject({ limit: 'per-minute', count: 1, max: 1, freesAt: at(12, 0, 30) });
    expect(refusalText(cliWords('en'), r!, at(12))).toBe('At most 1 call a minute to 13800138000 (1 counted). Allowed again at 12:00:30 (in 1 minute).');
    expect(checkDial(NO_QUIET, M, [at(11, 59)], at(12))).toEqual([]);
  });

  it('counts five an hour and twenty a day over rolling windows, freeing when the oldest call leaves', () => {
    const hour = [at(11, 5), at(11, 15), at(11, 25), at(11, 35), at(11, 45)];
    const r = checkDial(NO_QUIET, M, hour, at(12));
    expect(r.map((x) => [x.limit, x.count, x.max, x.freesAt])).toEqual([['per-hour', 5, 5, at(12, 5)]]);
    expect(checkDial(NO_QUIET, M, hour, at(12, 5, 1))).toEqual([]);
    const day = Array.from({ length: 20 }, (_, i) => at(0, 0) - i * 3_600_000 + 3_600_000 * 11); // 20 calls over the last 20 hours
    const d = checkDial(NO_QUIET, M, day, at(12));
    expect(d.map((x) => x.limit)).toEqual(['per-day']);
    expect(d[0]!.freesAt).toBe(Math.min(...day) + 86_400_000);
  });

  it('with a limit of 0 never allows, and null means no limit', () => {
    expect(checkDial({ ...NO_QUIET, perMinute: 0 }, M, [], at(12))[0]).toMatchObject({ limit: 'per-minute', freesAt: Number.POSITIVE_INFINITY });
    expect(checkDial({ perMinute: null, perHour: null, perDay: null, quietHours: null }, M, Array(50).fill(at(11, 59)), at(12))).toEqual([]);
  });
});

describe('quiet hours', () => {
  it('refuse calls overnight (22:00–08:00 local) until the morning', () => {
    const r = checkDial(DEFAULT_DIAL_POLICY, M, [], at(23, 30));
    expect(r).toEqual([expect.objectContaining({ limit: 'quiet-hours', freesAt: at(8, 0, 0, 11) })]);
    expect(refusalText(cliWords('zh-CN'), r[0]!, at(23, 30))).toBe('免打扰时段：此时不呼叫 13800138000。2026-11-11 08:00:00 起可再次呼叫（510 分钟后）。');
    expect(quietUntil(DEFAULT_DIAL_POLICY.quietHours, at(7, 59))).toBe(at(8));
    expect(quietUntil(DEFAULT_DIAL_POLICY.quietHours, at(8, 0))).toBeNull();
    expect(quietUntil(DEFAULT_DIAL_POLICY.quietHours, at(21, 59))).toBeNull();
  });

  it('work within one day too (12:00–14:00), and are off when start equals end or unset', () => {
    expect(quietUntil({ start: '12:00', end: '14:00' }, at(13))).toBe(at(14));
    expect(quietUntil({ start: '12:00', end: '14:00' }, at(14))).toBeNull();
    expect(policyFrom({ scope: '*', perMinute: 1, perHour: 5, perDay: 20, quietStart: '09:00', quietEnd: '09:00', updatedAt: 0 }).quietHours).toBeNull();
    expect(policyFrom({ scope: '*', perMinute: 1, perHour: 5, perDay: 20, quietStart: null, quietEnd: null, updatedAt: 0 }).quietHours).toBeNull();
  });
});

describe('call-until-answered plans', () => {
  it('refuse up front a run that would break the hourly limit half way, not one that only waits for the minute', () => {
    expect(checkPlan(NO_QUIET, M, [], at(12), 5, 30_000)).toEqual([]);
    const six = checkPlan(NO_QUIET, M, [], at(12), 6, 60_000);
    expect(six.map((r) => r.limit)).toEqual(['per-hour']);
    expect(six[0]).toMatchObject({ max: 5, plan: { attempts: 6, call: 6 } });
    expect(refusalText(cliWords('en'), six[0]!, at(12))).toMatch(/up to 6 times; call 6 would break this limit/);
    expect(checkPlan(NO_QUIET, M, [at(11, 30)], at(12), 5, 60_000).map((r) => r.limit)).toEqual(['per-hour']);
    // A long pause lets older calls leave the hour.
    expect(checkPlan(NO_QUIET, M, [], at(12), 6, 15 * 60_000)).toEqual([]);
  });

  it("report the first call's own refusals first", () => {
    expect(checkPlan(DEFAULT_DIAL_POLICY, M, [], at(23), 3, 60_000).map((r) => r.limit)).toEqual(['quiet-hours']);
  });
});
