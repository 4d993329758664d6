import { describe, expect, it } from 'vitest';
import { balanceReply, parseBody, sendReply, statusReply } from '../../../main/voice/replies';

describe('provider replies', () => {
  it('reads the send reply of the spec from JSON and from XML', () => {
    expect(sendReply(parseBody('{"code":2,"msg":"提交成功","smsid":"16565614329364584","count":1}')!)).toMatchObject({
      code: 2,
      msg: '提交成功',
      smsid: '16565614329364584',
      count: 1,
    });
    const xml = '<?xml version="1.0" encoding="utf-8"?><SubmitResult><code>2</code><msg>提交成功</msg><smsid>00123</smsid><count>2</count></SubmitResult>';
    expect(sendReply(parseBody(xml)!)).toMatchObject({ code: 2, smsid: '00123', count: 2 });
  });

  it('treats an HTML page or garbage as unreadable', () => {
    expect(parseBody('<!DOCTYPE html><html><body>502 Bad Gateway</body></html>')).toBeNull();
    expect(parseBody('{"code": 2,')).toBeNull();
    expect(parseBody('')).toBeNull();
  });

  it('normalises call states and reads durations under common field names, nested or flat', () => {
    expect(statusReply({ code: 2, state: 'answered', duration: 18 })).toMatchObject({ state: 'answered', duration: 18 });
    expect(statusReply({ code: '2', data: { status: '未接听', call_duration: '0' } })).toMatchObject({ code: 2, state: 'no_answer', duration: 0 });
    expect(statusReply({ code: 2, list: [{ callState: 'BUSY' }] })).toMatchObject({ state: 'busy' });
    expect(statusReply({ code: 2 })).toMatchObject({ state: 'unknown', duration: null });
  });

  it('reads the balance from num or other common names, and says null rather than guessing', () => {
    expect(balanceReply({ code: 2, msg: 'ok', num: 9 }).units).toBe(9);
    expect(balanceReply({ code: 2, balance: '120' }).units).toBe(120);
    expect(balanceReply({ code: 2, msg: 'ok', whatever: 5 }).units).toBeNull();
  });
});
