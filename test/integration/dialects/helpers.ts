// Services with the embedded sandbox speaking a dialect, and a profile ("Rehearsal") that calls it
// and reads it with a dialect of its own, by polling or by receipts pushed to its listener.
import { onTestFinished } from 'vitest';
import type { Channel, InputOf, OutputOf } from '../../../common/contract';
import { EVENT_CHANNELS } from '../../../common/contract';
import type { Dialect } from '../../../common/dialects';
import type { MessageRecord } from '../../../common/records';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { SANDBOX_API_ID } from '../../../main/profiles/profile-service';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services, type ServicesOptions } from '../../../main/services';
import { FASTEST_SCALE, ScaledClock } from '../../helpers/scaled-clock';
import { tempHome } from '../../helpers/temp-home';

export const SCALE = 0.01;
/** 20 characters: a call answered talks for ceil(20 / 3.5) = 6 seconds. */
export const OTP = '您的验证码是123456，5分钟内有效。';
export const OTP_SECONDS = 6;

export type Call = <C extends Channel>(channel: C, input?: InputOf<C>) => Promise<OutputOf<C>>;

export async function rehearsal(opts: {
  sandboxDialect?: Dialect;
  profileDialect?: { builtin: string } | { custom: Dialect };
  follow?: 'poll' | 'receipts' | 'both';
  home?: string;
  /** Fault injection: see ServicesOptions.testOnlyWrapStore. */
  testOnlyWrapStore?: ServicesOptions['testOnlyWrapStore'];
}) {
  const home = opts.home ? null : tempHome();
  const services = await createServices({
    home: opts.home ?? home!.dir,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'test' } },
    // Callout on a clock twenty times faster; the embedded sandbox runs on it, its calls at SCALE.
    clock: new ScaledClock(FASTEST_SCALE),
    sandbox: { timeScale: SCALE / FASTEST_SCALE, ...(opts.sandboxDialect ? { dialect: opts.sandboxDialect } : {}) },
    testOnlyWrapStore: opts.testOnlyWrapStore,
  });
  onTestFinished(async () => {
    await services.close();
    home?.cleanup();
  });
  const handlers = createHandlers(services);
  const call: Call = async (channel, input) => {
    const r = await dispatch(handlers, channel, input);
    if (!r.ok) throw Object.assign(new Error(`${r.error.code} ${JSON.stringify(r.error.issues ?? r.error.params)}`), r.error);
    return r.value as never;
  };
  const sandbox = services.sandbox!;
  const existing = (await call('profiles.list')).find((p) => p.name === 'Rehearsal');
  let profile = existing ?? (await call('profiles.save', { name: 'Rehearsal', baseUrl: sandbox.baseUrl, apiId: SANDBOX_API_ID }));
  if (!existing) profile = await call('profiles.setKey', { id: profile.id, apiKey: sandbox.demo.apiKey });
  if (opts.profileDialect) profile = (await call('profiles.setDialect', { id: profile.id, dialect: opts.profileDialect })).profile;
  if (opts.follow && opts.follow !== profile.follow) profile = await call('profiles.setFollow', { id: profile.id, follow: opts.follow });
  if (profile.receipts.url) sandbox.setReceiptsUrl(profile.receipts.url);
  return { services, call, sandbox, profile, home: opts.home ?? home!.dir };
}

/** Resolves with the message once it is settled (final, stopped, or never followable). */
export function ended(services: Services, id: number, timeoutMs = 15_000): Promise<MessageRecord> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    services.calls.awaitEnd(id),
    new Promise<never>((_, reject) => {
      // Real time: a hang guard (fails, never waits) for a call run over HTTP on the sandbox's system clock.
      timer = setTimeout(
        () => reject(new Error(`message ${id} did not end in ${timeoutMs} ms: ${JSON.stringify(services.sent.detail(id).message)}`)),
        timeoutMs,
      ).unref();
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Resolves with the first pushed update of this message that matches. */
export function pushed(services: Services, pred: (m: MessageRecord) => boolean, timeoutMs = 10_000): Promise<MessageRecord> {
  return new Promise((resolve, reject) => {
    // Real time: a hang guard (fails, never waits) for pushes from services on the system clock.
    const timer = setTimeout(() => {
      off();
      reject(new Error('no such update'));
    }, timeoutMs);
    const off = services.subscribe((channel, payload) => {
      if (channel !== EVENT_CHANNELS.messageUpdated || !pred(payload as MessageRecord)) return;
      clearTimeout(timer);
      off();
      resolve(payload as MessageRecord);
    });
  });
}
