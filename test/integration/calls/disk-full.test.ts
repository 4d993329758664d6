// A full disk right after a send reached the provider: the call must be placed exactly once, the
// send end `unknown` with the provider's smsid (never `internal`), the same number and text be
// refused until the result is stored, the problem be said (storageProblem), and nothing already
// stored be lost. On a real 3 MB tmpfs that the provider fills while it answers.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tempHome } from '../../helpers/temp-home';
import { join } from 'node:path';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services } from '../../../main/services';
import type { StorageProblem } from '../../../common/contract';
import { cli } from '../cli/run-cli';
import { scriptedServer } from '../../helpers/scripted-server';
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk';
import { readFileSync } from 'node:fs';
import { KeptAnswers } from '../../../main/store/kept-answers';
import type { Store } from '../../../main/store';

const KEY = 'disk-full-test-key-1';
const TEXT = '您的验证码是2468，5分钟内有效。';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const disk = mountSmallDisk(3);
const refused = 'refused' in disk ? disk.refused : null;
if (refused) console.warn(`full-disk tests skipped: ${refused}`);

/** A provider that accepts every send; with `fillOnSend`, it fills the disk before it answers. */
async function provider(d: SmallDisk, fillOnSend: () => boolean) {
  let n = 0;
  const s = await scriptedServer((req, _body, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url?.endsWith('/voice/vm')) {
      n++;
      if (fillOnSend()) d.fill();
      res.end(JSON.stringify({ code: 2, msg: '提交成功', smsid: `SMS-${n}`, count: 1 }));
    } else if (req.url?.endsWith('/voice/status')) res.end(JSON.stringify({ code: 2, msg: 'ok', state: 'calling' }));
    else res.end(JSON.stringify({ code: 2, msg: 'ok', num: 5 }));
  });
  cleanups.push(s.close);
  return { ...s, sends: () => s.received.filter((r) => r.url?.endsWith('/voice/vm')) };
}

describe.skipIf(refused !== null)('a full disk after the provider answered (3 MB tmpfs)', () => {
  const d = disk as SmallDisk;
  afterEach(() => d.free());

  it('places exactly one call, ends unknown with its smsid, refuses the same call until stored, then stores it', async () => {
    let fill = false;
    const server = await provider(d, () => fill);
    const home = join(d.dir, 'home-app');
    const services: Services = await createServices({
      home,
      secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'test' } },
      sandbox: false,
      storeRetry: { delaysMs: [20, 20], intervalMs: 100 },
      follow: { resume: false },
    });
    cleanups.push(() => services.close());
    const problems: (StorageProblem | null)[] = [];
    services.subscribe((channel, payload) => channel === 'main:storage-problem' && problems.push(payload as StorageProblem | null));
    const handlers = createHandlers(services);
    const call = (channel: string, input?: unknown) => dispatch(handlers, channel, input, () => undefined);
    const profile = (await call('profiles.save', { name: 'P', baseUrl: server.baseUrl, apiId: 'acct' })) as { ok: true; value: { id: string } };
    await call('profiles.setKey', { id: profile.value.id, apiKey: KEY });

    // One call stored normally, before the disk fills.
    const before = await call('messages.send', { profileId: profile.value.id, mobile: '13900000001', content: TEXT });
    expect(before).toMatchObject({ ok: true, value: { message: { outcome: 'accepted', smsid: 'SMS-1' } } });
    const beforeId = (before as { value: { message: { id: number } } }).value.message.id;

    fill = true;
    const sent = await call('messages.send', { profileId: profile.value.id, mobile: '13900000002', content: TEXT });
    fill = false;
    expect(sent.ok).toBe(true);
    const m = (sent as { value: { message: { id: number; outcome: string; smsid: string; reason: unknown }; providerCode: number } }).value;
    expect(m.message).toMatchObject({ outcome: 'unknown', smsid: 'SMS-2', reason: { code: 'store-incomplete', params: { smsid: 'SMS-2', kind: 'accepted' } } });
    expect(m.providerCode).toBe(2);
    expect(services.storageProblem).toMatchObject({ kind: 'disk-full', unstored: 1, dataDirectory: home });
    expect(problems.at(-1)).toMatchObject({ kind: 'disk-full' });
    expect((await services.info()).storageProblem).toMatchObject({ kind: 'disk-full', unstored: 1 });

    // The same number and text at once: refused, nothing sent. Another number: the full disk is said, nothing sent.
    const again = await call('messages.send', { profileId: profile.value.id, mobile: '139 0000 0002', content: TEXT });
    expect(again).toMatchObject({ ok: false, error: { code: 'result-not-stored', params: { id: m.message.id, smsid: 'SMS-2' } } });
    const other = await call('messages.send', { profileId: profile.value.id, mobile: '13900000003', content: TEXT });
    expect(other).toMatchObject({ ok: false, error: { code: 'disk-full' } });
    expect(server.sends()).toHaveLength(2);
    expect(server.sends().filter((r) => r.body.includes('13900000002'))).toHaveLength(1);

    // Space again: the kept answer is stored, with its smsid, and the problem clears.
    d.free();
    await expect.poll(() => services.sent.detail(m.message.id).message?.outcome, { timeout: 5000 }).toBe('accepted');
    expect(services.sent.detail(m.message.id).message).toMatchObject({ smsid: 'SMS-2', code: 2 });
    expect(services.sent.detail(m.message.id).exchanges.length).toBeGreaterThan(0);
    await expect.poll(() => services.storageProblem, { timeout: 5000 }).toBeNull();
    expect(problems.at(-1)).toBeNull();
    // Nothing stored before was lost.
    expect(services.sent.detail(beforeId).message).toMatchObject({ outcome: 'accepted', smsid: 'SMS-1' });
    expect(server.sends()).toHaveLength(2);
  });

  it('the CLI: exit 4, one line saying the state is incomplete, the smsid in --json, no stack trace; nothing lost', async () => {
    let fill = false;
    const server = await provider(d, () => fill);
    const home = join(d.dir, 'home-cli');
    const env = { CALLOUT_HOME: home, CALLOUT_BASE_URL: server.baseUrl, CALLOUT_API_ID: 'acct', CALLOUT_API_KEY: KEY, LANG: 'en_US.UTF-8' };
    expect((await cli(['send', '--to', '13900000011', '--content', TEXT], env)).code).toBe(0);
    fill = true;
    const r = await cli(['--json', 'send', '--to', '13900000012', '--content', TEXT], env);
    fill = false;
    expect(r.code).toBe(4);
    expect(r.json).toMatchObject({ outcome: 'unknown', smsid: 'SMS-2', code: 2 });
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/Stored state incomplete — the call was probably placed \(smsid SMS-2\)/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(server.sends()).toHaveLength(2);
    // Still full (the closed database gave some space back: take it too): the next send is refused before anything leaves, in words.
    d.fill();
    const full = await cli(['send', '--to', '13900000013', '--content', TEXT], env);
    expect(full.code).toBe(2);
    expect(full.stderr.trim().split('\n')).toHaveLength(1);
    expect(full.stderr).toMatch(
      /^callout: The disk holding Callout's data is full: Callout could not open its data, so nothing was done and nothing was sent\./,
    );
    expect(server.sends()).toHaveLength(2);
    // The answer that invocation could not write outlived it: kept in a file — in the OS temp folder,
    // since the data directory is full — never with the key.
    const kept = new KeptAnswers({ home });
    expect(kept.list().map((f) => [f.path.startsWith(kept.folders[1]!), f.answer.reply?.smsid])).toEqual([[true, 'SMS-2']]);
    expect(readFileSync(kept.list()[0]!.path, 'utf8')).not.toContain(KEY);
    d.free();
    // Space again: the next start writes it. The first call is still in the history; the second has
    // its smsid and is accepted — never resent.
    const history = await cli(['--json', 'history'], env);
    expect(history.code).toBe(0);
    expect((history.json as { mobile: string; outcome: string; smsid: string | null }[]).map((x) => [x.mobile, x.outcome, x.smsid])).toEqual([
      ['13900000012', 'accepted', 'SMS-2'],
      ['13900000011', 'accepted', 'SMS-1'],
    ]);
    expect(kept.list()).toEqual([]);
    expect(server.sends()).toHaveLength(2);
  });
});

afterAll(() => {
  if (!('refused' in disk)) disk.unmount();
});

describe('a write that fails after the provider answered (injected, any machine)', () => {
  it('is retried; while it fails the same call is refused; the answer is stored once it works', async () => {
    const home = tempHome();
    cleanups.push(home.cleanup);
    const server = await scriptedServer((_req, _body, res) => res.end(JSON.stringify({ code: 2, msg: 'ok', smsid: 'SMS-X', count: 1 })));
    cleanups.push(server.close);
    let store!: Store;
    const services = await createServices({
      home: home.dir,
      secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'test' } },
      sandbox: false,
      storeRetry: { delaysMs: [5], intervalMs: 50 },
      follow: { resume: false },
      testOnlyWrapStore: (opened) => void (store = opened),
    });
    cleanups.push(() => services.close());
    const handlers = createHandlers(services);
    const call = (channel: string, input?: unknown) => dispatch(handlers, channel, input, () => undefined);
    const p = (await call('profiles.save', { name: 'P', baseUrl: server.baseUrl, apiId: 'acct' })) as { value: { id: string } };
    await call('profiles.setKey', { id: p.value.id, apiKey: KEY });
    const messages = store.messages;
    const real = messages.markAccepted.bind(messages);
    let failing = true;
    messages.markAccepted = (...args) => {
      if (failing) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      return real(...args);
    };
    const sent = await call('messages.send', { profileId: p.value.id, mobile: '13900000021', content: TEXT });
    expect(sent).toMatchObject({ ok: true, value: { message: { outcome: 'unknown', smsid: 'SMS-X', reason: { code: 'store-incomplete' } } } });
    expect(await call('messages.send', { profileId: p.value.id, mobile: '13900000021', content: TEXT })).toMatchObject({
      ok: false,
      error: { code: 'result-not-stored' },
    });
    expect(services.storageProblem).toMatchObject({ kind: 'disk-full', unstored: 1 });
    failing = false;
    const id = (sent as { value: { message: { id: number } } }).value.message.id;
    await expect.poll(() => services.sent.detail(id).message.outcome, { timeout: 3000 }).toBe('accepted');
    expect(services.storageProblem).toBeNull();
    // Written here, its kept copy is gone (nothing is written twice at the next start).
    expect(new KeptAnswers({ home: home.dir }).list()).toEqual([]);
    expect(server.received).toHaveLength(1);
  });
});
