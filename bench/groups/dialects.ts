// Reading replies with a dialect, receipts through a real listener into SQLite, and the teach
// preview over a profile's captured replies.
import { readReceipts, readStatus, builtinDialect } from '../../common/dialects';
import { SessionSecretStore } from '../../main/secrets';
import { createServices } from '../../main/services';
import { openStore } from '../../main/store';
import { dispatch } from '../../main/dispatch';
import { createHandlers } from '../../main/handlers';
import { SANDBOX_API_ID } from '../../main/profiles/profile-service';
import { ScaledClock } from '../../test/helpers/scaled-clock';
import { tempHome } from '../../test/helpers/temp-home';

function perSecond(fn: () => unknown, ms = 700): number {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (let i = 0; i < 1000; i++) fn();
    n += 1000;
  }
  return Math.round((n * 1000) / (performance.now() - start));
}

export async function dialects(): Promise<Record<string, number>> {
  const numeric = builtinDialect('numeric-states')!;
  const digits = builtinDialect('digit-states')!;
  const statusReply = { code: '2', msg: '查询成功', data: JSON.stringify({ callId: 'SBX000001', state: '200000', duration: '12' }) };
  const receiptPost = {
    voice_status: JSON.stringify(Array.from({ length: 10 }, (_, i) => ({ msgid: `M${i}`, state: '2', desc: '被叫用户无法接通', duration: 0 }))),
  };
  const statusReadsPerSec = perSecond(() => readStatus(numeric, statusReply, 'SBX000001'));
  const receiptReadsPerSec = perSecond(() => readReceipts(digits, receiptPost)) * 10;

  // Receipts posted to a profile's listener: parsed, matched, recorded (message and exchange) in SQLite.
  const home = tempHome('callout-bench-');
  const services = await createServices({
    home: home.dir,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'bench' } },
    // Following stays idle (the bench measures receipts): on a clock a thousand times slower, the
    // first look is half an hour away; the sandbox's calls keep their pace (1e-6 × 1000 = 0.001).
    clock: new ScaledClock(1000),
    sandbox: { timeScale: 0.000001 },
  });
  try {
    const handlers = createHandlers(services);
    const call = async (channel: string, input: unknown) => {
      const r = await dispatch(handlers, channel, input);
      if (!r.ok) throw new Error(r.error.code);
      return r.value as never;
    };
    const sandbox = services.sandbox!;
    const p = (await call('profiles.save', { name: 'Bench', baseUrl: sandbox.baseUrl, apiId: SANDBOX_API_ID })) as { id: string };
    await call('profiles.setKey', { id: p.id, apiKey: sandbox.demo.apiKey });
    const view = (await call('profiles.setFollow', { id: p.id, follow: 'receipts' })) as { receipts: { url: string } };
    // Calls to post receipts for, seeded through a second connection on the same data directory.
    const seed = openStore(services.home);
    const messages = Array.from({ length: 200 }, (_, i) => {
      const m = seed.messages.insertPending({
        profile: p.id,
        baseUrl: sandbox.baseUrl,
        apiId: 'x',
        mobile: `138${String(i).padStart(8, '0')}`,
        content: 'x',
        units: 1,
      });
      return seed.messages.markAccepted(m.id, { code: 2, msg: null, smsid: `R${i}`, count: 1 });
    });
    seed.close();
    const posts = 2000;
    const t0 = performance.now();
    for (let i = 0; i < posts; i += 8) {
      await Promise.all(
        Array.from({ length: 8 }, (_, j) => {
          const m = messages[(i + j) % messages.length]!;
          const state = (i + j) % 3 === 0 ? 'answered' : 'calling';
          return fetch(view.receipts.url, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ smsid: m.smsid, state, duration: 9 }),
          }).then((r) => r.text());
        }),
      );
    }
    const receiptPostsPerSec = Math.round((posts * 1000) / (performance.now() - t0));
    // The preview over the profile's captured replies (the receipts just kept), as the teach flow asks for it.
    const t1 = performance.now();
    const preview = (await call('dialects.preview', { profileId: p.id, dialect: builtinDialect('spec') })) as { exchanges: number };
    const previewMs = Math.round(performance.now() - t1);
    return { statusReadsPerSec, receiptReadsPerSec, receiptPostsPerSec, previewExchanges: preview.exchanges, previewMs };
  } finally {
    await services.close();
    home.cleanup();
  }
}
