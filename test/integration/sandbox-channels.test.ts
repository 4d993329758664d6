// The Sandbox screen's operations through the handler table (as the window, the browser transport
// and the CLI reach them): a template of the user's own library goes from 403 to an answered call,
// a drained balance gives 402 until it is topped up, settings and faults change the sandbox, and
// the request log never carries the key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageRecord } from '../../common/records';
import type { SandboxView, SendView, TemplateView } from '../../common/contract';
import { dispatch } from '../../main/dispatch';
import { createHandlers } from '../../main/handlers';
import { SessionSecretStore } from '../../main/secrets';
import { createServices, type Services } from '../../main/services';
import { tempHome } from '../helpers/temp-home';

let services: Services;
const home = tempHome();
const call = async <T>(channel: string, input?: unknown): Promise<T> => {
  const r = await dispatch(createHandlers(services), channel, input);
  if (!r.ok) throw Object.assign(new Error(r.error.code), { code: r.error.code, params: r.error.params, issues: r.error.issues });
  return r.value as T;
};

const MINE = '王工您好，机房【变量】温度过高，请到现场查看。';
const SENT = '王工您好，机房A3温度过高，请到现场查看。';

async function untilEnded(id: number): Promise<MessageRecord> {
  for (let i = 0; i < 400; i++) {
    const m = (await call<{ message: MessageRecord }>('messages.get', { id })).message;
    if (m.endedAt !== null) return m;
    // Real time: a poll interval for work done over real HTTP against the sandbox on the system clock (a manual clock would need to wait for that I/O before moving).
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`message ${id} did not end`);
}

beforeAll(async () => {
  services = await createServices({
    home: home.dir,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 't' } },
    // The system clock (the test reads the sandbox's own time scale): a call is first looked at about 2 s after its send.
    sandbox: { timeScale: 0.002 },
  });
  await call('templates.save', { id: 'room', name: '机房告警', content: MINE, approved: true });
});
afterAll(async () => {
  await services.close();
  home.cleanup();
});

describe('the Sandbox screen, through the handler table', () => {
  it('shows the account, the settings, the demo templates and where each library template stands', async () => {
    const v = await call<SandboxView>('sandbox.state');
    expect(v).toMatchObject({
      profileId: 'sandbox',
      apiId: 'sandbox-demo',
      account: { balance: 10 },
      settings: { signatureMode: 'off', dialect: 'spec', timeScale: 0.002 },
    });
    // The reply shapes offered: the built-in dialects, the documented one first.
    expect(v.dialects).toEqual(['spec', 'voiceid-push', 'numeric-states', 'digit-states', 'ihuyi']);
    expect(v.templates.filter((t) => t.status === 'approved')).toHaveLength(3);
    expect(v.library).toEqual([expect.objectContaining({ templateId: 'room', approvedInLibrary: true, sandbox: null })]);
    expect(JSON.stringify(v)).not.toContain(await services.secrets.get('profile:sandbox'));
  });

  it('a library template answers 403 until it is registered; registered for review it waits; approved now it is answered', async () => {
    const before = await call<SendView>('messages.send', { profileId: 'sandbox', mobile: '13800138007', content: SENT, templateId: 'room' });
    expect(before.message).toMatchObject({ outcome: 'rejected', code: 403 });

    await call('sandbox.setSettings', { reviewDelayMs: 3_600_000 });
    let v = await call<SandboxView>('sandbox.registerTemplates', { templateIds: ['room'], approve: 'review' });
    const entry = v.library.find((l) => l.templateId === 'room')!;
    expect(entry.sandbox).toMatchObject({ status: 'pending' });
    expect(entry.sandbox!.reviewDueAt).toBeGreaterThan(Date.now());
    const pending = await call<SendView>('messages.send', { profileId: 'sandbox', mobile: '13800138007', content: SENT, templateId: 'room' });
    expect(pending.message).toMatchObject({ outcome: 'rejected', code: 403 });

    v = await call<SandboxView>('sandbox.approveTemplate', { templateId: entry.sandbox!.id });
    expect(v.library.find((l) => l.templateId === 'room')!.sandbox).toMatchObject({ status: 'approved', reviewDueAt: null });
    // Registering again does not add the text a second time.
    v = await call<SandboxView>('sandbox.registerTemplates', { templateIds: ['room'], approve: 'now' });
    expect(v.templates.filter((t) => t.content === MINE)).toHaveLength(1);

    const sent = await call<SendView>('messages.send', { profileId: 'sandbox', mobile: '13800138007', content: SENT, templateId: 'room' });
    expect(sent.message.outcome).toBe('accepted');
    expect(await untilEnded(sent.message.id)).toMatchObject({ state: 'answered' });
  });

  it('a library template still pending there: approved in the Sandbox (now, or when its review ends), the library and Send offer it as approved', async () => {
    const pendingNow = '张经理您好，仓库【变量】门禁告警，请到现场查看。';
    const pendingReview = '张经理您好，仓库【变量】温度告警，请到现场查看。';
    await call('templates.save', { id: 'gate', name: '仓库门禁', content: pendingNow, approved: false });
    await call('templates.save', { id: 'heat', name: '仓库温度', content: pendingReview, approved: false });
    const approvedIn = async () => Object.fromEntries((await call<TemplateView[]>('templates.list')).map((t) => [t.id, t.approved]));
    expect(await approvedIn()).toMatchObject({ gate: false, heat: false });

    // Register and approve: the library says approved at once.
    let v = await call<SandboxView>('sandbox.registerTemplates', { templateIds: ['gate'], approve: 'now' });
    expect(v.library.find((l) => l.templateId === 'gate')).toMatchObject({ approvedInLibrary: true, sandbox: { status: 'approved' } });
    expect(await approvedIn()).toMatchObject({ gate: true, heat: false });

    // Registered for review: pending in the library until the review ends, then approved without opening the Sandbox screen.
    await call('sandbox.setSettings', { reviewDelayMs: 3_600_000 });
    v = await call<SandboxView>('sandbox.registerTemplates', { templateIds: ['heat'], approve: 'review' });
    const heat = v.library.find((l) => l.templateId === 'heat')!;
    expect(heat).toMatchObject({ approvedInLibrary: false, sandbox: { status: 'pending' } });
    expect(await approvedIn()).toMatchObject({ heat: false });
    // The review ends inside the Sandbox (not through its screen).
    services.sandbox!.approveTemplate('sandbox-demo', heat.sandbox!.id);
    expect(await approvedIn()).toMatchObject({ heat: true });

    await call('templates.remove', { id: 'gate' });
    await call('templates.remove', { id: 'heat' });
  });

  it('a drained balance answers 402 until it is topped up', async () => {
    let v = await call<SandboxView>('sandbox.setBalance', { set: 0 });
    expect(v.account.balance).toBe(0);
    const refused = await call<SendView>('messages.send', { profileId: 'sandbox', mobile: '13800138009', content: SENT, templateId: 'room' });
    expect(refused.message).toMatchObject({ outcome: 'rejected', code: 402 });
    v = await call<SandboxView>('sandbox.setBalance', { add: 5 });
    expect(v.account.balance).toBe(5);
    const sent = await call<SendView>('messages.send', { profileId: 'sandbox', mobile: '13800138009', content: SENT, templateId: 'room' });
    expect(sent.message.outcome).toBe('accepted');
    await untilEnded(sent.message.id);
    expect((await call<SandboxView>('sandbox.state')).account.balance).toBe(4);
  });

  it('checks what it is given: units, fault shapes, unknown templates and dialects', async () => {
    await expect(call('sandbox.setBalance', { add: 0 })).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(call('sandbox.setBalance', { add: 1, set: 1 })).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(call('sandbox.setBalance', { add: 1.5 })).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(call('sandbox.setFault', { fault: { kind: 'code' } })).rejects.toMatchObject({
      code: 'invalid-input',
      issues: [expect.objectContaining({ path: 'fault.code' })],
    });
    await expect(call('sandbox.setFault', { fault: { kind: 'explode' } })).rejects.toMatchObject({ code: 'invalid-input' });
    await expect(call('sandbox.approveTemplate', { templateId: 'tpl-999' })).rejects.toMatchObject({ code: 'not-found', params: { kind: 'template' } });
    await expect(call('sandbox.registerTemplates', { templateIds: ['nope'], approve: 'now' })).rejects.toMatchObject({ code: 'not-found' });
    await expect(call('sandbox.setSettings', { dialect: 'klingon' })).rejects.toMatchObject({
      code: 'invalid-input',
      issues: [{ path: 'dialect', message: 'dialect-unknown' }],
    });
    await expect(call('sandbox.state', { profileId: 'nobody' })).rejects.toMatchObject({ code: 'not-found', params: { kind: 'profile' } });
  });

  it('fault switches, signature mode and time scale change what the sandbox answers; the log shows it, without the key', async () => {
    let v = await call<SandboxView>('sandbox.setFault', { fault: { kind: 'code', code: 500, op: 'send', times: 1 } });
    expect(v.faults).toEqual([{ kind: 'code', code: 500, op: 'send', times: 1, remaining: 1 }]);
    const r = await call<SendView>('messages.send', { profileId: 'sandbox', mobile: '13800138017', content: SENT, templateId: 'room' });
    expect(r.message.outcome).toBe('unknown');
    v = await call<SandboxView>('sandbox.state');
    expect(v.faults).toEqual([]);

    v = await call<SandboxView>('sandbox.setSettings', { signatureMode: 'spec', timeScale: 0.01, clockOffsetSeconds: 30 });
    expect(v.settings).toMatchObject({ signatureMode: 'spec', timeScale: 0.01, clockOffsetSeconds: 30 });
    const balance = await call<{ failure: { kind: string } | null }>('balance.query', { profileId: 'sandbox' });
    expect(balance.failure?.kind).toBe('signature-rejected');
    await call('sandbox.setSettings', { signatureMode: 'off', timeScale: 0.002, clockOffsetSeconds: 0 });

    // Another reply shape: the Sandbox answers as that provider does (the message ID as `voiceid`);
    // the Sandbox profile still reads by the spec, so the accepted call has no ID it can follow.
    v = await call<SandboxView>('sandbox.setSettings', { dialect: 'voiceid-push' });
    expect(v.settings.dialect).toBe('voiceid-push');
    const other = await call<SendView>('messages.send', { profileId: 'sandbox', mobile: '13800138018', content: SENT, templateId: 'room' });
    expect(other.message).toMatchObject({ outcome: 'accepted', smsid: null, state: 'unknown' });
    expect(other.message.reason).toMatchObject({ code: 'no-message-id' });
    expect((await call<SandboxView>('sandbox.setSettings', { dialect: 'spec' })).settings.dialect).toBe('spec');

    const log = await call<{
      total: number;
      requests: { seq: number; op: string; signature: { valid: boolean } | null; fault: string | null; response: { code: number | null } | null }[];
    }>('sandbox.requests', { limit: 3 });
    expect(log.requests).toHaveLength(3);
    expect(log.requests[0]!.seq).toBe(log.total);
    expect(log.requests.map((x) => x.seq)).toEqual([log.total, log.total - 1, log.total - 2]);
    const all = await call<{ requests: { signature: { valid: boolean } | null; fault: string | null; response: { code: number | null } | null }[] }>(
      'sandbox.requests',
      { limit: 500 },
    );
    expect(all.requests.some((x) => x.signature?.valid === false)).toBe(true);
    expect(all.requests.some((x) => x.fault === 'code' && x.response?.code === 500)).toBe(true);
    expect(JSON.stringify(all)).not.toContain(await services.secrets.get('profile:sandbox'));
    expect(JSON.stringify(all)).toContain('[REDACTED]');
  });
});

describe("a profile's key check, kept once in main", () => {
  it('a 401 marks the key rejected everywhere (list and push) until a good reply; a new key forgets it', async () => {
    const pushed: { channel: string; payload: unknown }[] = [];
    const off = services.subscribe((channel, payload) => pushed.push({ channel, payload }));
    const sandboxUrl = services.sandbox!.baseUrl;
    const p = await call<{ id: string }>('profiles.save', { name: 'Wrong key', baseUrl: sandboxUrl, apiId: 'sandbox-demo' });
    await call('profiles.setKey', { id: p.id, apiKey: 'not-the-key' });
    const b = await call<{ providerCode: number }>('balance.query', { profileId: p.id });
    expect(b.providerCode).toBe(401);
    const listed = (await call<{ id: string; keyCheck: unknown }[]>('profiles.list')).find((x) => x.id === p.id)!;
    expect(listed.keyCheck).toMatchObject({ result: 'rejected', code: 401, kind: 'credentials' });
    expect(pushed.filter((e) => e.channel === 'main:profile-updated').map((e) => (e.payload as { keyCheck: unknown }).keyCheck)).toEqual([
      expect.objectContaining({ result: 'rejected' }),
    ]);

    // A send with the same key says the same, and is not pushed again (nothing changed).
    await call('messages.send', { profileId: p.id, mobile: '13800138007', content: '您的验证码是1234，5分钟内有效。' });
    expect(pushed.filter((e) => e.channel === 'main:profile-updated')).toHaveLength(1);

    const right = await services.secrets.get('profile:sandbox');
    const replaced = await call<{ keyCheck: unknown }>('profiles.setKey', { id: p.id, apiKey: right });
    expect(replaced.keyCheck).toBeNull();
    await call('balance.query', { profileId: p.id });
    const now = (await call<{ id: string; keyCheck: unknown }[]>('profiles.list')).find((x) => x.id === p.id)!;
    expect(now.keyCheck).toMatchObject({ result: 'ok', code: 2 });
    off();
  });
});
