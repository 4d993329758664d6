// Any success and error code a provider uses (numbers, code words, success by the absence of an error
// field), and values a reply only implies (a duration from two times or in another unit): read as the
// dialect says, and what should be there but is not is reported, never guessed.
import { describe, expect, it } from 'vitest';
import { checkDialect, readBalance, readCommon, readReceipts, readSend, readStatus, SPEC_DIALECT, timeOf, type Dialect } from '../../../common/dialects';
import en from '../../../common/messages/en.json';
import zh from '../../../common/messages/zh-CN.json';

function dialect(input: Record<string, unknown>): Dialect {
  const r = checkDialect({ name: 'Test', send: { id: 'smsid' }, status: null, ...input });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.dialect;
}

describe('success and error codes', () => {
  it('success named by a string value: {"Code":"OK"} is accepted; a string error code named in the dialect is refused with its meaning', () => {
    const d = dialect({
      code: 'Code',
      message: 'Message',
      success: 'OK',
      send: { id: 'CallId' },
      codes: {
        'isv.BUSINESS_LIMIT_CONTROL': { meaning: 'too many calls to this number', outcome: 'rejected' },
        'isp.RAM_PERMISSION_DENY': { outcome: 'unknown' },
      },
    });
    expect(readSend(d, { Code: 'OK', Message: 'OK', CallId: '116012354148^10281378' })).toMatchObject({
      outcome: 'accepted',
      id: '116012354148^10281378',
      codeText: 'OK',
      code: null,
      readable: true,
    });
    expect(readSend(d, { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '触发流控' })).toMatchObject({
      outcome: 'rejected',
      codeText: 'isv.BUSINESS_LIMIT_CONTROL',
      meaning: 'too many calls to this number',
      msg: '触发流控',
      readable: true,
    });
    expect(readSend(d, { Code: 'isp.RAM_PERMISSION_DENY' })).toMatchObject({ outcome: 'unknown', codeText: 'isp.RAM_PERMISSION_DENY' });
    // A code word the dialect does not name is still a code: not success, so refused (never resent).
    expect(readSend(d, { Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: '号码格式错误' })).toMatchObject({
      outcome: 'rejected',
      codeText: 'isv.MOBILE_NUMBER_ILLEGAL',
    });
  });

  it('several success values, as written: "000000" is not 0, and a number matches its digits', () => {
    const d = dialect({ code: 'statusCode', success: ['000000', 0], send: { id: 'callSid' } });
    expect(readSend(d, { statusCode: '000000', callSid: 'c1' })).toMatchObject({ outcome: 'accepted', id: 'c1' });
    expect(readSend(d, { statusCode: 0, callSid: 'c2' })).toMatchObject({ outcome: 'accepted', id: 'c2' });
    expect(readSend(d, { statusCode: '00', callSid: 'c3' })).toMatchObject({ outcome: 'rejected', codeText: '00' });
    expect(readSend(d, { statusCode: '112300' })).toMatchObject({ outcome: 'rejected', code: 112300, codeText: '112300' });
    expect(readSend(d, { statusCode: '500' })).toMatchObject({ outcome: 'unknown' });
  });

  it('success by the absence of an error field (an envelope with no code on success)', () => {
    const d = dialect({
      code: 'Response.Error.Code',
      message: 'Response.Error.Message',
      success: { absent: 'Response.Error' },
      send: { id: 'Response.SendStatus.CallId' },
      codes: {
        'FailedOperation.InsufficientBalance': { meaning: 'the account has no balance left', outcome: 'rejected' },
        InternalError: { outcome: 'unknown' },
      },
      balance: { units: 'Response.Balance' },
    });
    expect(readSend(d, { Response: { SendStatus: { CallId: 'abc-1' }, RequestId: 'r' } })).toMatchObject({
      outcome: 'accepted',
      id: 'abc-1',
      readable: true,
      codeText: null,
    });
    expect(readSend(d, { Response: { Error: { Code: 'FailedOperation.InsufficientBalance', Message: '余额不足' }, RequestId: 'r' } })).toMatchObject({
      outcome: 'rejected',
      codeText: 'FailedOperation.InsufficientBalance',
      meaning: 'the account has no balance left',
      msg: '余额不足',
      id: null,
    });
    expect(readSend(d, { Response: { Error: { Code: 'InternalError' } } })).toMatchObject({ outcome: 'unknown', codeText: 'InternalError' });
    // An error field with no code in it is still an error.
    expect(readCommon(d, { Response: { Error: { Message: 'x' } } })).toMatchObject({ outcome: 'rejected', readable: true });
    expect(readBalance(d, { Response: { Balance: 120 } })).toMatchObject({ outcome: 'accepted', units: 120 });
  });

  it('the spec’s reading is today’s: only whole-number codes are read; a code word or no code is unreadable (unknown)', () => {
    expect(readCommon(SPEC_DIALECT, { code: 2, msg: 'ok' })).toMatchObject({ outcome: 'accepted', code: 2, codeText: '2', readable: true });
    expect(readCommon(SPEC_DIALECT, { code: '402' })).toMatchObject({ outcome: 'rejected', code: 402, readable: true });
    expect(readCommon(SPEC_DIALECT, { code: 500 })).toMatchObject({ outcome: 'unknown', readable: true });
    expect(readCommon(SPEC_DIALECT, { code: 'OK' })).toMatchObject({ outcome: 'unknown', code: null, codeText: null, readable: false });
    expect(readCommon(SPEC_DIALECT, { msg: 'no code' })).toMatchObject({ outcome: 'unknown', readable: false });
  });

  it('a dialect file with string codes and success values is accepted; bad ones are refused with a specific problem in both languages', () => {
    const ok = checkDialect({
      name: 'x',
      send: { id: 'id' },
      status: null,
      success: ['OK', 0],
      codes: { 'FailedOperation.InsufficientBalance': { outcome: 'rejected' } },
    });
    expect(ok.ok).toBe(true);
    const bad = checkDialect({ name: 'x', send: { id: 'id' }, status: null, success: { present: 'x' }, codes: { 'two words': { outcome: 'rejected' } } });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'success', message: 'dialect-success' }),
        expect.objectContaining({ path: expect.stringMatching(/^codes/), message: 'dialect-code' }),
      ]),
    );
    for (const code of ['dialect-success', 'dialect-code', 'dialect-duration', 'dialect-unit', 'dialect-time-format', 'dialect-zone']) {
      expect((en.issue as Record<string, string>)[code]).toBeTruthy();
      expect((zh.issue as Record<string, string>)[code]).toMatch(/[，。（：]/u);
    }
  });
});

describe('computed values', () => {
  const pushes = dialect({
    status: null,
    receipt: { id: 'callid', state: 'status', duration: { from: 'accept_time', to: 'end_calltime' }, states: { '1': 'answered', '0': 'no_answer' } },
  });

  it('a duration from two Unix times in strings (seconds), numbers, or milliseconds', () => {
    expect(readReceipts(pushes, { callid: 'c1', status: '1', accept_time: '1764210000', end_calltime: '1764210035' })[0]).toMatchObject({
      state: 'answered',
      duration: 35,
      missing: [],
    });
    expect(readReceipts(pushes, { callid: 'c1', status: '1', accept_time: 1764210000000, end_calltime: 1764210012500 })[0]).toMatchObject({ duration: 12 });
  });

  it('a duration from local date-time text: Asia/Shanghai by default, another zone when the dialect says', () => {
    expect(readReceipts(pushes, { callid: 'c1', status: '1', accept_time: '2026-11-27 16:59:50', end_calltime: '2026-11-27 17:00:10' })[0]).toMatchObject({
      duration: 20,
    });
    expect(timeOf('2026-11-27 08:00:00', 'auto', 'Asia/Shanghai')).toBe(Date.UTC(2026, 10, 27, 0, 0, 0));
    expect(timeOf('20261127080000', 'text', 'Asia/Shanghai')).toBe(Date.UTC(2026, 10, 27, 0, 0, 0));
    expect(timeOf('2026-07-01 08:00:00', 'text', 'Europe/Berlin')).toBe(Date.UTC(2026, 6, 1, 6, 0, 0));
    expect(timeOf('2026-11-27T08:00:00Z', 'text', 'Asia/Shanghai')).toBe(Date.UTC(2026, 10, 27, 8, 0, 0));
    expect(timeOf('1764210000', 's', 'Asia/Shanghai')).toBe(1764210000000);
    expect(timeOf('2026-02-30 08:00:00', 'text', 'Asia/Shanghai')).toBeNull();
  });

  it('a value that should be there and is not is reported (which, where, why), not guessed', () => {
    const r = readReceipts(pushes, { callid: 'c1', status: '0', accept_time: '' })[0]!;
    expect(r).toMatchObject({ state: 'no_answer', duration: null });
    expect(r.missing).toEqual([
      { value: 'from', path: 'accept_time', why: 'absent' },
      { value: 'to', path: 'end_calltime', why: 'absent' },
    ]);
    const garbled = readReceipts(pushes, { callid: 'c1', status: '1', accept_time: '1764210000', end_calltime: 'soon' })[0]!;
    expect(garbled).toMatchObject({ duration: null, missing: [{ value: 'to', path: 'end_calltime', why: 'unreadable' }] });
  });

  it('a duration in another unit: milliseconds or minutes', () => {
    const d = dialect({ status: { state: 'state', duration: { at: 'billsec', unit: 'ms' }, states: {} } });
    expect(readStatus(d, { code: 2, state: 'answered', billsec: '15400' })).toMatchObject({ state: 'answered', duration: 15, missing: [] });
    const min = dialect({ status: { state: 'state', duration: { at: 'mins', unit: 'min' }, states: {} } });
    expect(readStatus(min, { code: 2, state: 'answered', mins: 0.5 })).toMatchObject({ duration: 30 });
    expect(readStatus(min, { code: 2, state: 'answered' })).toMatchObject({ duration: null, missing: [{ value: 'duration', path: 'mins', why: 'absent' }] });
  });

  it('a duration place in seconds reads as before, and a bad duration rule is refused with its own problem', () => {
    const d = dialect({ status: { state: 'state', duration: 'duration', states: {} } });
    expect(readStatus(d, { code: 2, state: 'answered', duration: '7' })).toMatchObject({ duration: 7, missing: [] });
    const bad = checkDialect({ name: 'x', send: { id: 'id' }, status: { state: 's', duration: { at: 'd', unit: 'hours' } } });
    expect(bad.ok).toBe(false);
    const zone = checkDialect({ name: 'x', send: { id: 'id' }, status: { state: 's', duration: { from: 'a', to: 'b', zone: 'Mars/Olympus' } } });
    expect(zone.ok ? [] : zone.issues.map((i) => i.message)).toEqual(expect.arrayContaining([expect.stringMatching(/^dialect-/)]));
  });

  it('receipts of several kinds in one dialect, each with its own state map and duration', () => {
    const d = dialect({
      status: null,
      receipt: {
        id: 'callid',
        state: 'status',
        duration: 'duration',
        states: { '1': 'answered' },
        kinds: [
          // A failure callback: its own field, and "1" there means busy, not answered.
          { when: { type: 'fail' }, state: 'fail_reason', states: { '1': 'busy', '2': 'powered_off' } },
          // A result callback: two times, no duration.
          { when: { end_calltime: true }, duration: { from: 'accept_time', to: 'end_calltime' } },
        ],
      },
    });
    const [fail, result, plain] = readReceipts(d, [
      { type: 'fail', callid: 'a', fail_reason: '1' },
      { callid: 'b', status: '1', accept_time: '1764210000', end_calltime: '1764210009' },
      { callid: 'c', status: '1', duration: '4' },
    ]);
    expect(fail).toMatchObject({ id: 'a', state: 'busy', value: '1' });
    expect(result).toMatchObject({ id: 'b', state: 'answered', duration: 9 });
    expect(plain).toMatchObject({ id: 'c', state: 'answered', duration: 4 });
    const bad = checkDialect({ name: 'x', send: { id: 'id' }, status: null, receipt: { id: 'i', state: 's', kinds: [{ when: {} }] } });
    expect(bad.ok ? [] : bad.issues.map((i) => i.message)).toContain('dialect-when');
  });
});
