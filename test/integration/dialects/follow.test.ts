// Every built-in dialect end to end: the sandbox speaks it, a profile reads it, and each call is
// followed to its end with the right state and duration — by polling, by receipts pushed to the
// profile's listener, or both. A receipt replayed, or one of an earlier state, changes nothing.
import { describe, expect, it } from 'vitest';
import { builtinDialect, type Dialect } from '../../../common/dialects';
import { renderReceipts } from '../../../main/sandbox';
import { ended, OTP, OTP_SECONDS, rehearsal } from './helpers';

/** The last digit picks the sandbox's script: 8 answered, 0 no answer (after two redials), 2 powered off, 3 unreachable. */
const CALLS = [
  { mobile: '13800138008', state: 'answered', duration: OTP_SECONDS },
  { mobile: '13800138000', state: 'no_answer', duration: 0 },
  { mobile: '13800138002', state: 'powered_off', duration: 0 },
  { mobile: '13800138003', state: 'unreachable', duration: 0 },
] as const;

const MODES: Record<string, Array<'poll' | 'receipts' | 'both'>> = {
  spec: ['poll', 'receipts', 'both'],
  'voiceid-push': ['receipts'],
  'numeric-states': ['poll', 'receipts'],
  'digit-states': ['poll', 'receipts'],
  ihuyi: ['receipts'],
};

describe.each(Object.entries(MODES).flatMap(([id, modes]) => modes.map((follow) => ({ id, follow }))))('dialect $id, followed by $follow', ({ id, follow }) => {
  it('follows every call to its end with the right state and duration', async () => {
    const dialect = builtinDialect(id)!;
    const { services, call, sandbox } = await rehearsal({ sandboxDialect: dialect, profileDialect: { builtin: id }, follow });
    const profile = (await call('profiles.list')).find((p) => p.name === 'Rehearsal')!;
    expect(profile).toMatchObject({ dialectId: id, follow, receipts: { state: follow === 'poll' ? 'off' : 'listening' } });
    const sent = await Promise.all(CALLS.map((c) => call('messages.send', { profileId: profile.id, mobile: c.mobile, content: OTP })));
    for (const s of sent) expect(s.message).toMatchObject({ outcome: 'accepted', smsid: expect.any(String) });
    const done = await Promise.all(sent.map((s) => ended(services, s.message.id)));
    expect(done.map((m) => [m.mobile, m.state, m.duration])).toEqual(CALLS.map((c) => [c.mobile, c.state, c.duration]));
    for (const m of done) expect(m.reason).toBeNull();

    const statusQueries = sandbox.requests().filter((r) => r.op === 'status').length;
    if (follow === 'poll') {
      expect(statusQueries).toBeGreaterThan(0);
      expect(sandbox.pushedReceipts()).toHaveLength(0);
    } else {
      const receipts = sandbox.pushedReceipts();
      expect(receipts.flatMap((r) => r.smsids).sort()).toEqual(sent.map((s) => s.message.smsid).sort());
      // Each acknowledged as the dialect says (the sandbox reads the answer just after the call is recorded).
      await expect.poll(() => sandbox.pushedReceipts().map((r) => r.status)).toEqual(receipts.map(() => 200));
      if (follow === 'receipts') expect(statusQueries).toBe(0);
      // Every receipt is kept as an exchange, linked to its message.
      for (const s of sent) {
        const { exchanges } = await call('messages.get', { id: s.message.id });
        expect(exchanges.filter((e) => e.operation === 'receipt')).toHaveLength(1);
      }
    }
  });
});

describe('receipts never move a call backwards', () => {
  for (const id of ['spec', 'digit-states', 'numeric-states', 'voiceid-push', 'ihuyi']) {
    it(`${id}: a replayed receipt and receipts of earlier or other states change nothing`, async () => {
      const dialect: Dialect = builtinDialect(id)!;
      const { services, call, sandbox } = await rehearsal({ sandboxDialect: dialect, profileDialect: { builtin: id }, follow: 'receipts' });
      const profile = (await call('profiles.list')).find((p) => p.name === 'Rehearsal')!;
      const sent = await call('messages.send', { profileId: profile.id, mobile: '13800138008', content: OTP });
      const answered = await ended(services, sent.message.id);
      expect(answered).toMatchObject({ state: 'answered', duration: OTP_SECONDS });
      const before = await call('messages.get', { id: answered.id });

      const post = async (body: Buffer | string, contentType: string) => {
        const r = await fetch(profile.receipts.url!, { method: 'POST', headers: { 'Content-Type': contentType }, body });
        return { status: r.status, text: await r.text() };
      };
      // The same post again, as a provider retrying it.
      const original = sandbox.pushedReceipts().find((r) => r.smsids.includes(answered.smsid!))!;
      const replay = renderReceipts(dialect, [{ smsid: answered.smsid!, state: 'answered', duration: OTP_SECONDS }]);
      // Acknowledged in the form the dialect names.
      expect(await post(replay.body, replay.contentType)).toEqual({ status: dialect.receipt!.ack.status, text: dialect.receipt!.ack.body });
      expect((await post(original.body, original.contentType)).status).toBe(200);
      // Late receipts of earlier states, and one that contradicts the end, with another duration.
      for (const state of ['calling', 'pending', 'no_answer'] as const) {
        const late = renderReceipts(dialect, [{ smsid: answered.smsid!, state, duration: 0 }]);
        expect((await post(late.body, late.contentType)).status).toBe(200);
      }
      const after = await call('messages.get', { id: answered.id });
      expect(after.message).toEqual(before.message);
      expect(after.events).toEqual(before.events);
      // Each post is still kept, as the provider sent it.
      expect(after.exchanges.filter((e) => e.operation === 'receipt')).toHaveLength(1 + 5);
    });
  }

  it('receipts arriving before the end, out of order, leave the call at its furthest state', async () => {
    const dialect = builtinDialect('digit-states')!;
    const { services, call } = await rehearsal({ sandboxDialect: dialect, profileDialect: { builtin: 'digit-states' }, follow: 'receipts' });
    const profile = (await call('profiles.list')).find((p) => p.name === 'Rehearsal')!;
    // A number whose call is not placed by this sandbox: the receipts are the only news.
    services.sandbox!.setReceiptsUrl(null);
    const sent = await call('messages.send', { profileId: profile.id, mobile: '13800138008', content: OTP });
    const smsid = sent.message.smsid!;
    const post = async (state: 'calling' | 'pending' | 'busy' | 'answered') => {
      const r = renderReceipts(dialect, [{ smsid, state, duration: state === 'answered' ? 9 : 0 }]);
      return (await fetch(profile.receipts.url!, { method: 'POST', headers: { 'Content-Type': r.contentType }, body: r.body })).status;
    };
    expect(await post('calling')).toBe(200);
    expect(services.sent.detail(sent.message.id).message).toMatchObject({ state: 'calling', endedAt: null });
    expect(await post('pending')).toBe(200);
    expect(services.sent.detail(sent.message.id).message).toMatchObject({ state: 'calling' });
    expect(await post('busy')).toBe(200);
    expect(await post('answered')).toBe(200);
    expect(services.sent.detail(sent.message.id).message).toMatchObject({ state: 'busy', endedAt: expect.any(Number) });
  });
});
