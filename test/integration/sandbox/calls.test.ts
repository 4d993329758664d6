// The sandbox runs on a manual clock here (timeScale 1: sandbox seconds are clock seconds): every
// duration below is exact, whatever the machine's load.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../main/clock';
import { advanceUntil, balance, finalOn, post, sandbox, send, status, TEXT } from './helpers';

/** A sandbox on a manual clock of its own. */
async function onClock(options: Parameters<typeof sandbox>[0] = {}) {
  const clock = new ManualClock();
  const sb = await sandbox({ ...options, clock, timeScale: 1 });
  return { sb, clock };
}

const seconds = (a: unknown, b: unknown): number => (Date.parse(String(b)) - Date.parse(String(a))) / 1000;

describe('sandbox calls: outcome scripted by the last digit, observed through /voice/status', () => {
  const cases = [
    { digit: '0', state: 'no_answer', attempts: 3, answered: false },
    { digit: '1', state: 'busy', attempts: 1, answered: false },
    { digit: '2', state: 'powered_off', attempts: 1, answered: false },
    { digit: '3', state: 'unreachable', attempts: 1, answered: false },
    { digit: '4', state: 'rejected', attempts: 1, answered: false },
    { digit: '5', state: 'answered', attempts: 2, answered: true },
    { digit: '6', state: 'invalid_number', attempts: 1, answered: false },
    { digit: '7', state: 'answered', attempts: 1, answered: true },
    { digit: '8', state: 'answered', attempts: 1, answered: true },
    { digit: '9', state: 'answered', attempts: 1, answered: true },
  ] as const;

  it('every digit reaches its final state with the right attempts and duration; only answered calls are billed', async () => {
    const { sb, clock } = await onClock({ random: () => 0.5 });
    expect(await balance(sb)).toBe(10);
    const sent = [];
    for (const c of cases) {
      const r = await send(sb, `1380013800${c.digit}`, TEXT.code);
      expect(r.json?.code, c.digit).toBe(2);
      sent.push({ ...c, smsid: r.json?.smsid as string });
    }
    for (const c of sent) {
      const s = await finalOn(clock, sb, c.smsid);
      expect({ digit: c.digit, state: s.state, attempts: s.attempts }).toEqual({ digit: c.digit, state: c.state, attempts: c.attempts });
      expect(s.endedAt).toEqual(expect.any(String));
      expect(s.calledAt).toEqual(expect.any(String));
      if (c.answered) {
        // 18 characters / 3.5 per second → 6 s of speech.
        expect(s.duration).toBe(6);
        expect(s.status).toBe('已接听');
        expect(seconds(s.answeredAt, s.endedAt)).toBe(6);
      } else {
        expect(s.duration).toBe(0);
        expect(s.answeredAt).toBeNull();
      }
    }
    // 4 answered calls of 1 unit each; the 6 failed ones cost nothing.
    expect(await balance(sb)).toBe(6);
    const billed = sb
      .calls()
      .filter((c) => c.billed)
      .map((c) => c.mobile.slice(-1));
    expect(billed).toEqual(['5', '7', '8', '9']);
  });

  it('no answer: two automatic redials about 10 s apart, on the call clock', async () => {
    const { sb, clock } = await onClock({ random: () => 0 });
    const smsid = (await send(sb, '13900000000')).json?.smsid as string;
    await finalOn(clock, sb, smsid);
    const call = sb.calls()[0];
    expect(call?.timeline.map((e) => `${e.event}:${e.state}:${e.attempt}`)).toEqual([
      'submitted:pending:0',
      'dialing:calling:1',
      'no_answer:pending:1',
      'dialing:calling:2',
      'no_answer:pending:2',
      'dialing:calling:3',
      'no_answer:no_answer:3',
    ]);
    const t = call?.timeline ?? [];
    expect(seconds(t[1]?.at, t[2]?.at)).toBe(5); // rings 5 s with random() = 0
    expect(seconds(t[2]?.at, t[3]?.at)).toBe(10); // redial 10 s later
  });

  it('answered on the first redial: the status says attempts 2 and the answer comes after a redial', async () => {
    const { sb, clock } = await onClock({ random: () => 1 });
    const smsid = (await send(sb, '13900000005')).json?.smsid as string;
    const s = await finalOn(clock, sb, smsid);
    expect(s).toMatchObject({ state: 'answered', attempts: 2, duration: 6 });
    // first dial (1 s after submission) → 7 s ring → 10 s wait → 7 s ring → answered
    expect(seconds(s.calledAt, s.answeredAt)).toBe(24);
    expect(seconds(s.submittedAt, s.calledAt)).toBe(1);
  });

  it('speech lasts about length/3.5 s (70 characters ≈ 20 s), at least 3 s; a multi-unit call charges all its units', async () => {
    const { sb, clock } = await onClock({ accounts: [{ apiId: 'acme', apiKey: 'acme-secret-key', balance: 20 }] });
    sb.addTemplate('acme', '好【变量】');
    const short = await post(sb, '/voice/vm', { account: 'acme', password: 'acme-secret-key', mobile: '13700000007', content: '好的' });
    const detail = '磁'.repeat(140 - TEXT.alarm('').length);
    const long = await post(sb, '/voice/vm', { account: 'acme', password: 'acme-secret-key', mobile: '13700000008', content: TEXT.alarm(detail) });
    expect(long.json?.count).toBe(2);
    const st = async (smsid: unknown) => {
      await advanceUntil(clock, () => sb.calls().find((c) => c.smsid === smsid)?.state === 'answered', `call ${String(smsid)} answered`);
      return (await post(sb, '/voice/status', { account: 'acme', password: 'acme-secret-key', smsid })).json;
    };
    expect((await st(short.json?.smsid))?.duration).toBe(3);
    expect((await st(long.json?.smsid))?.duration).toBe(40);
    const r = await post(sb, '/voice/balance', { account: 'acme', password: 'acme-secret-key' });
    expect(r.json?.num).toBe(20 - 1 - 2);
  });

  it('while the callee listens: state calling, status 通话中, answeredAt set, units already charged', async () => {
    const { sb, clock } = await onClock();
    const sent = await send(sb, '13800138007', TEXT.alarm('磁盘'.repeat(30)));
    const smsid = sent.json?.smsid as string;
    await advanceUntil(clock, () => sb.calls()[0]?.answeredAt != null, 'answer');
    const s = await status(sb, smsid);
    expect(s).toMatchObject({ state: 'calling', status: '通话中', endedAt: null, attempts: 1 });
    expect(s.answeredAt).toEqual(expect.any(String));
    expect(sent.json?.count).toBe(2);
    expect(await balance(sb)).toBe(10 - 2);
    expect(sb.stats().activeCalls).toBe(1);
  });
});

describe('sandbox billing and balance', () => {
  it('10 free debug units, then 402 (units of calls in progress are reserved)', async () => {
    const { sb, clock } = await onClock({ accounts: [{ apiId: 'newbie', apiKey: 'newbie-secret-key' }] });
    const cred = { account: 'newbie', password: 'newbie-secret-key' };
    const smsids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await post(sb, '/voice/vm', { ...cred, mobile: '13800138007', content: TEXT.code });
      expect(r.json?.code).toBe(2);
      smsids.push(r.json?.smsid as string);
    }
    const eleventh = await post(sb, '/voice/vm', { ...cred, mobile: '13800138007', content: TEXT.code });
    expect(eleventh.json?.code).toBe(402);
    await advanceUntil(clock, () => sb.calls().every((c) => c.state === 'answered'), 'all answered');
    expect((await post(sb, '/voice/balance', cred)).json?.num).toBe(0);
    expect((await post(sb, '/voice/vm', { ...cred, mobile: '13800138007', content: TEXT.code })).json?.code).toBe(402);
  });

  it('a failed call releases its reserved units without charging them', async () => {
    const { sb, clock } = await onClock();
    sb.setBalance(sb.demo.apiId, 1);
    const busy = await send(sb, '13800138001');
    expect(busy.json?.code).toBe(2);
    expect((await send(sb, '13800138007')).json?.code).toBe(402); // the one unit is reserved
    const s = await finalOn(clock, sb, busy.json?.smsid as string);
    expect(s.state).toBe('busy');
    expect(await balance(sb)).toBe(1);
    expect((await send(sb, '13800138007')).json?.code).toBe(2);
  });
});

describe('sandbox concurrency: 20 calls per line', () => {
  it('25 long calls on a 1-line account: at most 20 at once, the rest wait as pending, then all complete', async () => {
    const { sb, clock } = await onClock({ random: () => 0 });
    sb.setBalance(sb.demo.apiId, 1000);
    const content = TEXT.alarm('磁'.repeat(210 - TEXT.alarm('').length)); // 210 characters: 3 units, 60 s
    const replies = await Promise.all(Array.from({ length: 25 }, (_, i) => send(sb, `1380013${String(8000 + i * 10 + 7)}`, content)));
    expect(replies.every((r) => r.json?.code === 2)).toBe(true);

    await advanceUntil(clock, () => sb.stats().activeCalls === 20, '20 active calls');
    const during = sb.stats();
    expect(during).toMatchObject({ activeCalls: 20, queuedCalls: 5, sendsAccepted: 25 });
    const queued = sb
      .calls()
      .filter((c) => c.state === 'pending' && c.attempts === 0)
      .map((c) => c.smsid);
    expect(queued).toHaveLength(5);
    expect((await status(sb, queued[0]!)).state).toBe('pending');

    await advanceUntil(clock, () => sb.calls().every((c) => c.state === 'answered'), 'all answered');
    // The 5 that waited were dialled later, once lines were free, and were answered like the others.
    // (How long they waited depends on when their sends arrived, so it is not asserted.)
    for (const smsid of queued) {
      const call = sb.calls().find((c) => c.smsid === smsid)!;
      expect(call.timeline.map((e) => e.event)).toEqual(['submitted', 'dialing', 'answered', 'hung_up']);
    }
    const after = sb.stats();
    expect(after).toMatchObject({ peakConcurrency: 20, activeCalls: 0, queuedCalls: 0 });
    expect(await balance(sb)).toBe(1000 - 25 * 3);
  });

  it('a 2-line account takes all 25 at once', async () => {
    const { sb, clock } = await onClock({ accounts: [{ apiId: 'big', apiKey: 'big-secret-key', balance: 100, lines: 2 }] });
    await Promise.all(
      Array.from({ length: 25 }, () =>
        post(sb, '/voice/vm', { account: 'big', password: 'big-secret-key', mobile: '13800138007', content: TEXT.alarm('磁盘'.repeat(20)) }),
      ),
    );
    await advanceUntil(clock, () => sb.stats().activeCalls === 25, '25 active calls');
    expect(sb.stats().queuedCalls).toBe(0);
  });
});
