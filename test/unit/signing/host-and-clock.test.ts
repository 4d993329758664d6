import { describe, expect, it } from 'vitest';
import { CLOCK_WINDOW_SECONDS, clockSkewSeconds, formatHttpDate, hostOf, parseHttpDate, withinWindow } from '../../../main/signing';

describe('hostOf', () => {
  it.each([
    ['http://api.example.com/voice/vm', 'api.example.com'],
    ['http://api.example.com:80/voice/vm', 'api.example.com'],
    ['https://api.example.com:443/voice/vm', 'api.example.com'],
    ['http://api.example.com:443/', 'api.example.com:443'],
    ['https://api.example.com:80/', 'api.example.com:80'],
    ['https://api.example.com:8443/', 'api.example.com:8443'],
    ['http://127.0.0.1:5123/voice/vm', '127.0.0.1:5123'],
    ['http://[::1]/', '[::1]'],
    ['http://[::1]:9000/', '[::1]:9000'],
    ['https://[2001:db8::1]:443/', '[2001:db8::1]'],
    ['https://[2001:db8::1]:8443/', '[2001:db8::1]:8443'],
    ['https://API.Example.COM/', 'api.example.com'],
  ])('%s -> %s', (url, host) => {
    expect(hostOf(new URL(url))).toBe(host);
  });
});

describe('HTTP-date', () => {
  it('formats IMF-fixdate with zero padding', () => {
    expect(formatHttpDate(new Date(Date.UTC(2026, 10, 21, 22, 36, 54, 789)))).toBe('Sat, 21 Nov 2026 22:36:54 GMT');
    expect(formatHttpDate(new Date(Date.UTC(2026, 1, 2, 8, 0, 5)))).toBe('Mon, 02 Feb 2026 08:00:05 GMT');
  });

  it('refuses to format an invalid Date', () => {
    expect(() => formatHttpDate(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('parses what it formats', () => {
    const d = new Date(Date.UTC(2026, 10, 21, 22, 36, 54));
    expect(parseHttpDate(formatHttpDate(d))?.getTime()).toBe(d.getTime());
  });

  it('reads the obsolete RFC 850 and asctime forms as the same instant', () => {
    const t = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')?.getTime()).toBe(t);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', new Date(Date.UTC(2026, 0, 1)))?.getTime()).toBe(t);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')?.getTime()).toBe(t);
  });

  it.each([
    '',
    'garbage',
    'yesterday',
    '2026-11-21T22:36:54Z',
    '1763764614',
    'Sat, 21 Nov 2026 22:36:54 UTC',
    'Sat, 21 Nov 2026 22:36:54',
    'sat, 21 nov 2026 22:36:54 GMT',
    'Sat, 21 Nov 26 22:36:54 GMT',
    'Sat,21 Nov 2026 22:36:54 GMT',
    'Sun, 21 Nov 2026 22:36:54 GMT', // wrong weekday
    'Tue, 31 Feb 2026 10:00:00 GMT', // no such day
    'Sat, 21 Nov 2026 24:00:00 GMT',
    'Sat, 21 Nov 2026 22:60:00 GMT',
    'Sat, 21 Nov 2026 22:36:54 GMT\nhost: evil',
  ])('rejects %j', (s) => {
    expect(parseHttpDate(s)).toBeNull();
  });
});

describe('clock window', () => {
  const now = new Date(Date.UTC(2026, 10, 21, 22, 36, 54));

  it('is 300 seconds', () => {
    expect(CLOCK_WINDOW_SECONDS).toBe(300);
  });

  it('skew is date minus now in whole seconds, positive when the requester is ahead', () => {
    expect(clockSkewSeconds('Sat, 21 Nov 2026 22:41:54 GMT', now)).toBe(300);
    expect(clockSkewSeconds('Sat, 21 Nov 2026 22:31:53 GMT', now)).toBe(-301);
    expect(clockSkewSeconds('Sat, 21 Nov 2026 22:36:54 GMT', now)).toBe(0);
    expect(clockSkewSeconds('not a date', now)).toBeNull();
  });

  it('the window is inclusive', () => {
    expect(withinWindow(300)).toBe(true);
    expect(withinWindow(-300)).toBe(true);
    expect(withinWindow(0)).toBe(true);
    expect(withinWindow(301)).toBe(false);
    expect(withinWindow(-301)).toBe(false);
    expect(withinWindow(null)).toBe(false);
    expect(withinWindow(10, 5)).toBe(false);
    expect(withinWindow(5, 5)).toBe(true);
  });
});
