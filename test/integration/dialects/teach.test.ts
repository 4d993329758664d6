// A value the dialect does not map is shown, never guessed; mapping it (the teach flow's channels:
// the reply as a tree, the preview over every captured reply, saving) makes the open calls read it.
import { describe, expect, it } from 'vitest';
import { builtinDialect, type Dialect } from '../../../common/dialects';
import { ended, OTP, pushed, rehearsal } from './helpers';
import { withStore } from '../../helpers/stored';

const numeric = builtinDialect('numeric-states')!;

describe('an unmapped state value, shown and then mapped', () => {
  it('polling: "200002" is shown on the message; the preview counts what now resolves; saving ends the call as busy', async () => {
    // The sandbox rehearsing numeric-states says 200002 for a busy line, a value the built-in dialect does not know.
    const { services, call } = await rehearsal({ sandboxDialect: numeric, profileDialect: { builtin: 'numeric-states' }, follow: 'poll' });
    const profile = (await call('profiles.list')).find((p) => p.name === 'Rehearsal')!;
    const answered = await call('messages.send', { profileId: profile.id, mobile: '13800138008', content: OTP });
    await ended(services, answered.message.id);
    const sent = await call('messages.send', { profileId: profile.id, mobile: '13800138001', content: OTP });
    const unmapped = await pushed(services, (m) => m.id === sent.message.id && m.reason?.code === 'unmapped-state');
    expect(unmapped).toMatchObject({ state: 'unknown', endedAt: null, reason: { code: 'unmapped-state', params: { value: '200002' } } });
    // Still followed: nothing is guessed, nothing ends.
    expect(services.calls.following()).toContain(sent.message.id);
    const detail = await call('messages.get', { id: sent.message.id });
    expect(detail.events.filter((e) => e.reason?.code === 'unmapped-state')).toHaveLength(1);
    // The next status reply says the same: nothing changes on the call, but a panel showing it is
    // told (its new exchange is listed there), with no new event.
    const seen = detail.exchanges.filter((e) => e.operation === 'status').length;
    await pushed(services, (m) => m.id === sent.message.id && services.sent.detail(m.id).exchanges.filter((e) => e.operation === 'status').length > seen);
    expect((await call('messages.get', { id: sent.message.id })).events.filter((e) => e.reason?.code === 'unmapped-state')).toHaveLength(1);

    // The teach flow: the captured status reply as a tree, with the dialect the profile reads with.
    const status = detail.exchanges.filter((e) => e.operation === 'status').at(-1)!;
    const tree = await call('dialects.reply', { exchangeId: status.id });
    expect(tree).toMatchObject({ operation: 'status', profileId: profile.id, dialect: { id: 'numeric-states' } });
    expect(JSON.parse((tree.body as { data: string }).data)).toMatchObject({ callId: sent.message.smsid, state: '200002' });

    // The preview: every captured reply of the profile, read again.
    const taught: Dialect = {
      ...numeric,
      id: undefined,
      name: 'numeric-states (taught)',
      status: { ...numeric.status!, states: { ...numeric.status!.states, '200002': 'busy' } },
    };
    const before = await call('dialects.preview', { profileId: profile.id, dialect: numeric });
    const after = await call('dialects.preview', { profileId: profile.id, dialect: taught });
    expect(before.status.resolved).toBe(before.status.before);
    expect(after.status.total).toBe(before.status.total);
    expect(after.status.resolved).toBeGreaterThan(before.status.resolved);
    expect(after.values.find((v) => v.value === '200002')).toMatchObject({ state: 'busy', path: 'state' });
    expect(before.values.find((v) => v.value === '200002')).toMatchObject({ state: 'unknown' });
    expect(after.values.find((v) => v.value === '200000')).toMatchObject({ state: 'answered' });

    // Saving re-reads the open calls from what was captured: the call ends as busy at once.
    const saved = await call('profiles.setDialect', { id: profile.id, dialect: { custom: taught } });
    expect(saved).toMatchObject({ reread: 1, profile: { dialectId: null, dialect: { name: 'numeric-states (taught)' } } });
    const now = services.sent.detail(sent.message.id).message;
    expect(now).toMatchObject({ state: 'busy', endedAt: expect.any(Number), reason: null });
    // Stored with the profile: a restart reads with it too.
    expect(withStore(services.home, (s) => s.profiles.get(profile.id))!.dialect.status!.states['200002']).toBe('busy');
  });

  it('receipts: an unmapped value in a receipt is shown; mapping it re-reads the receipt already kept', async () => {
    const shown: Dialect = { ...numeric, shape: { ...numeric.shape!, values: { state: { ...numeric.shape!.values!.state, powered_off: '200099' } } } };
    const { services, call } = await rehearsal({ sandboxDialect: shown, profileDialect: { builtin: 'numeric-states' }, follow: 'receipts' });
    const profile = (await call('profiles.list')).find((p) => p.name === 'Rehearsal')!;
    const sent = await call('messages.send', { profileId: profile.id, mobile: '13800138002', content: OTP });
    const m = await pushed(services, (x) => x.id === sent.message.id && x.reason?.code === 'unmapped-state');
    expect(m.reason).toEqual({ code: 'unmapped-state', params: { value: '200099' } });
    const preview = await call('dialects.preview', { profileId: profile.id, dialect: numeric });
    expect(preview.receipts).toMatchObject({ total: 1, resolved: 0, before: 0 });
    const taught: Dialect = {
      ...numeric,
      id: undefined,
      name: 'mine',
      status: { ...numeric.status!, states: { ...numeric.status!.states, '200099': 'powered_off' } },
    };
    expect((await call('dialects.preview', { profileId: profile.id, dialect: taught })).receipts).toMatchObject({ total: 1, resolved: 1, before: 0 });
    await call('profiles.setDialect', { id: profile.id, dialect: { custom: taught } });
    expect(services.sent.detail(sent.message.id).message).toMatchObject({ state: 'powered_off', endedAt: expect.any(Number) });
  });

  it('a send reply: its message ID taught, the call that could not be followed is followed to its end', async () => {
    // A reading that looks for the ID in the wrong place: the provider accepts, nothing can follow the call.
    const lost: Dialect = { ...numeric, id: undefined, name: 'lost', send: { ...numeric.send, id: 'data.messageId' } };
    const { services, call } = await rehearsal({ sandboxDialect: numeric, profileDialect: { custom: lost }, follow: 'poll' });
    const profile = (await call('profiles.list')).find((p) => p.name === 'Rehearsal')!;
    const sent = await call('messages.send', { profileId: profile.id, mobile: '13800138008', content: OTP });
    expect(sent.message).toMatchObject({ outcome: 'accepted', smsid: null, state: 'unknown', reason: { code: 'no-message-id' }, endedAt: expect.any(Number) });
    const send = (await call('messages.get', { id: sent.message.id })).exchanges.find((e) => e.operation === 'send')!;

    // The send reply as a tree, read with the profile's reading.
    const tree = await call('dialects.reply', { exchangeId: send.id });
    expect(tree).toMatchObject({ operation: 'send', profileId: profile.id, dialect: { name: 'lost' } });
    expect(JSON.parse((tree.body as { data: string }).data)).toHaveProperty('callId');
    const taught: Dialect = { ...lost, name: 'found', send: { ...lost.send, id: 'data.callId' } };
    expect((await call('dialects.preview', { profileId: profile.id, dialect: taught })).sends).toEqual({ total: 1, resolved: 1, before: 0 });
    expect((await call('dialects.preview', { profileId: profile.id, dialect: lost })).sends).toEqual({ total: 1, resolved: 0, before: 0 });

    // Saved: the ID is read from the reply already captured, and the call is followed to its end.
    const saved = await call('profiles.setDialect', { id: profile.id, dialect: { custom: taught } });
    expect(saved.reread).toBe(1);
    const open = services.sent.detail(sent.message.id).message;
    expect(open).toMatchObject({ smsid: expect.any(String), endedAt: null, reason: null });
    const end = await ended(services, sent.message.id);
    expect(end).toMatchObject({ state: 'answered', smsid: open.smsid });
    const events = (await call('messages.get', { id: sent.message.id })).events;
    expect(events.find((e) => e.reason?.code === 'message-id-read')).toMatchObject({ detail: open.smsid });
    // Nothing was sent again.
    expect((await call('messages.get', { id: sent.message.id })).exchanges.filter((e) => e.operation === 'send')).toHaveLength(1);
  });

  it('a field that reads the same value from every send reply is not taken as their message ID: nothing is followed by it', async () => {
    const lost: Dialect = { ...numeric, id: undefined, name: 'lost', send: { ...numeric.send, id: 'data.messageId' } };
    const { services, call } = await rehearsal({ sandboxDialect: numeric, profileDialect: { custom: lost }, follow: 'poll' });
    const profile = (await call('profiles.list')).find((p) => p.name === 'Rehearsal')!;
    const a = await call('messages.send', { profileId: profile.id, mobile: '13800138008', content: OTP });
    const b = await call('messages.send', { profileId: profile.id, mobile: '13800138001', content: OTP });
    // "msg" says the same words in both replies: a wrong pick for the ID.
    const wrong: Dialect = { ...lost, name: 'wrong', send: { ...lost.send, id: 'msg' } };
    // The preview says so before it is saved: both replies give an ID the other gives too.
    expect(await call('dialects.preview', { profileId: profile.id, dialect: wrong })).toMatchObject({ sends: { total: 2, resolved: 2 }, sendIdsShared: 2 });
    const right: Dialect = { ...lost, name: 'right', send: { ...lost.send, id: 'data.callId' } };
    expect(await call('dialects.preview', { profileId: profile.id, dialect: right })).toMatchObject({ sends: { total: 2, resolved: 2 }, sendIdsShared: 0 });
    expect((await call('profiles.setDialect', { id: profile.id, dialect: { custom: wrong } })).reread).toBe(0);
    for (const m of [a, b]) expect(services.sent.detail(m.message.id).message).toMatchObject({ smsid: null, reason: { code: 'no-message-id' } });
  });

  it('refuses to teach from what is not a reply, and a candidate dialect that is not valid', async () => {
    const { call } = await rehearsal({});
    const profile = (await call('profiles.list')).find((p) => p.name === 'Rehearsal')!;
    // A request of the raw client: not a reply any dialect reads.
    const raw = await call('raw.send', { profileId: profile.id, request: { path: '/voice/nothing' } });
    expect(raw.exchange.operation).toBe('raw');
    await expect(call('dialects.reply', { exchangeId: raw.exchange.id })).rejects.toMatchObject({
      code: 'invalid-input',
      issues: [{ path: 'exchangeId', message: 'teach-operation' }],
    });
    const bad = { ...numeric, status: { ...numeric.status!, states: { x: 'answred' } } } as unknown as Dialect;
    await expect(call('dialects.preview', { profileId: profile.id, dialect: bad })).rejects.toMatchObject({
      code: 'invalid-input',
      issues: [{ path: 'dialect.status.states.x', message: 'dialect-state' }],
    });
    await expect(call('dialects.check', { text: '{"name":"x","send":{"id":"a"},"status":null,"sned":1}' })).rejects.toMatchObject({
      code: 'dialect-invalid',
      issues: [{ path: 'sned', message: 'dialect-unknown-field' }],
    });
    expect(await call('dialects.check', { text: JSON.stringify(numeric) })).toEqual(numeric);
  });
});
