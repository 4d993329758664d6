// One send-and-follow path: when the provider answers a status query with 400 (it does not know
// the message) or 401 (it refuses the credentials), following the call ends the same way whoever
// placed it — the Send screen, quick dial or a bulk batch.
import { afterEach, describe, expect, it } from 'vitest';
import type { Channel, OutputOf } from '../../../common/contract';
import { EVENT_CHANNELS } from '../../../common/contract';
import type { MessageRecord } from '../../../common/records';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services } from '../../../main/services';
import { FASTEST_SCALE, ScaledClock } from '../../helpers/scaled-clock';
import { tempHome } from '../../helpers/temp-home';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const TEMPLATE = '您的验证码是【变量】，5分钟内有效。';
const text = (code: string) => TEMPLATE.replace('【变量】', code);

async function start() {
  const home = tempHome();
  const services = await createServices({
    home: home.dir,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'test' } },
    // Callout on a clock twenty times faster; the embedded sandbox runs on it, half as fast again (0.01).
    clock: new ScaledClock(FASTEST_SCALE),
    sandbox: { timeScale: 0.01 / FASTEST_SCALE },
  });
  cleanups.push(home.cleanup, () => services.close());
  const handlers = createHandlers(services);
  const call = async <C extends Channel>(channel: C, input?: unknown): Promise<OutputOf<C>> => {
    const r = await dispatch(handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(r.error.code), r.error);
    return r.value as OutputOf<C>;
  };
  await call('templates.save', { id: 'otp', content: TEMPLATE, approved: true });
  await call('dial.saveSettings', { scope: '*', perMinute: null, perHour: null, perDay: null, quietStart: null, quietEnd: null });
  return { services, call };
}

/** Resolves with the first pushed message update that matches. */
function pushed(services: Services, pred: (m: MessageRecord) => boolean): Promise<MessageRecord> {
  return new Promise((resolve) => {
    const off = services.subscribe((channel, payload) => {
      if (channel !== EVENT_CHANNELS.messageUpdated || !pred(payload as MessageRecord)) return;
      off();
      resolve(payload as MessageRecord);
    });
  });
}

type Caller = 'send' | 'dial' | 'bulk';

/** Places one call to 13800138008 as `caller` does; resolves with its message id and, for dial and bulk, what they made of it. */
async function place(caller: Caller, s: Awaited<ReturnType<typeof start>>): Promise<{ id: number; done: Promise<unknown> }> {
  const { services, call } = s;
  if (caller === 'send') {
    const r = await call('messages.send', { profileId: 'sandbox', mobile: '13800138008', content: text('1111'), templateId: 'otp' });
    return { id: r.message.id, done: Promise.resolve(null) };
  }
  if (caller === 'dial') {
    const result = new Promise((resolve) => {
      services.subscribe((channel, p) => {
        const progress = p as { phase: string; result: unknown };
        if (channel === EVENT_CHANNELS.dialProgress && progress.phase === 'done') resolve(progress.result);
      });
    });
    const started = await call('dial.start', { profileId: 'sandbox', targets: [{ mobile: '13800138008' }], templateId: 'otp', values: ['2222'] });
    expect(started.started).toBe(true);
    const m = await pushed(services, (x) => x.outcome === 'accepted');
    return { id: m.id, done: result };
  }
  const csv = `手机,验证码\n13800138008,3333\n`;
  const view = await call('bulk.open', { templateId: 'otp', file: { name: 'one.csv', base64: Buffer.from(csv).toString('base64') } });
  const batch = await call('bulk.create', { importId: view.importId, profileId: 'sandbox', duplicates: 'none' });
  await call('bulk.start', { batchId: batch.id });
  const m = await pushed(services, (x) => x.outcome === 'accepted');
  const done = (async () => {
    for (;;) {
      const p = await call('bulk.progress', { batchId: batch.id });
      if (p.status === 'done' && p.calling === 0) return p;
      // Real time: a poll interval for work done over real HTTP against the sandbox on the system clock (a manual clock would need to wait for that I/O before moving).
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return { id: m.id, done };
}

describe('following a call ends the same way for every caller', () => {
  const cases: [number, string][] = [
    [400, 'tracking-unknown-message'],
    [401, 'tracking-credentials'],
  ];
  for (const [code, reason] of cases) {
    it(`a ${code} on a status query stops following, says why, and frees the caller (send, dial, bulk alike)`, async () => {
      const seen: Record<Caller, { message: MessageRecord; lastEvent: unknown; outcome: unknown }> = {} as never;
      for (const caller of ['send', 'dial', 'bulk'] as const) {
        const s = await start();
        s.services.sandbox!.setFault({ kind: 'code', code: code as 400 | 401, op: 'status' });
        const ended = pushed(s.services, (m) => m.endedAt !== null);
        const { id, done } = await place(caller, s);
        const message = await ended;
        expect(message.id).toBe(id);
        const outcome = await done;
        const { events } = await s.call('messages.get', { id });
        seen[caller] = { message, lastEvent: events.at(-1), outcome };
        // Nothing follows it any more: no further status query for this message.
        expect(s.services.calls.following()).toEqual([]);
      }
      for (const caller of ['send', 'dial', 'bulk'] as const) {
        const { message, lastEvent } = seen[caller];
        expect(message, caller).toMatchObject({ outcome: 'accepted', reason: { code: reason, params: { code } } });
        expect(message.state, caller).not.toBe('answered');
        expect(lastEvent, caller).toMatchObject({ kind: 'error', reason: { code: reason, params: { code } } });
      }
      // The dial run and the batch go on from there instead of waiting for an end that never comes. Nobody
      // knows how the call ended (it may have been answered): the run ends unknown, calling nobody else.
      expect(seen.dial.outcome).toMatchObject({ status: 'unknown' });
      expect(seen.bulk.outcome).toMatchObject({ status: 'done', accepted: 1, notAnswered: 1, answered: 0 });
    });
  }
});
