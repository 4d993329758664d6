import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorArgs } from '../../../common/messages';
import { translator } from '../../../main/i18n';
import { CHANNELS, EVENT_CHANNELS, contract } from '../../../common/contract';
import { buildCalloutApi } from '../../../common/api';
import { dispatch } from '../../../main/dispatch';
import { createHandlers } from '../../../main/handlers';
import { appUrlMatcher } from '../../../main/app-security';
import { registerIpcHandlers, trustedSender, type IpcMainLike } from '../../../main/ipc';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type Services } from '../../../main/services';
import { tempHome } from '../../helpers/temp-home';

let services: Services;
const home = tempHome();
beforeAll(async () => {
  services = await createServices({
    home: home.dir,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'test' } },
    sandbox: false,
  });
});
afterAll(async () => {
  await services.close();
  home.cleanup();
});

describe('the contract and the handler table', () => {
  it('has exactly one handler per channel of the contract', () => {
    expect(Object.keys(createHandlers(services)).sort()).toEqual([...CHANNELS].sort());
  });

  it('names channels group.method and events main:*', () => {
    for (const c of CHANNELS) expect(c).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
    for (const e of Object.values(EVENT_CHANNELS)) expect(e).toMatch(/^main:[a-z-]+$/);
  });

  it('window.callout has one named method per operation and subscriptions that unsubscribe', async () => {
    const invoked: [string, unknown][] = [];
    const listeners = new Map<string, Set<(p: unknown) => void>>();
    const api = buildCalloutApi(
      CHANNELS,
      EVENT_CHANNELS,
      async (c, i) => (invoked.push([c, i]), { ok: true, value: null }),
      (c, l) => {
        const set = listeners.get(c) ?? new Set();
        listeners.set(c, set);
        set.add(l);
        return () => set.delete(l);
      },
    ) as Record<string, Record<string, (...a: unknown[]) => unknown>>;
    const methods = Object.entries(api).flatMap(([g, m]) => (g === 'on' ? [] : Object.keys(m).map((k) => `${g}.${k}`)));
    expect(methods.sort()).toEqual([...CHANNELS].sort());
    await api.messages!.send!({ x: 1 });
    expect(invoked).toEqual([['messages.send', { x: 1 }]]);
    const got: unknown[] = [];
    const off = api.on!.messageUpdated!((p: unknown) => got.push(p)) as () => void;
    listeners.get('main:message-updated')!.forEach((l) => l('a'));
    off();
    listeners.get('main:message-updated')!.forEach((l) => l('b'));
    expect(got).toEqual(['a']);
    expect(() => (api as { invoke?: unknown }).invoke).not.toThrow();
    expect((api as { invoke?: unknown }).invoke).toBeUndefined();
    expect(Object.isFrozen(api)).toBe(true);
  });
});

/** A small seeded PRNG, so a failing payload can be reproduced. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomValue(r: () => number, depth = 0): unknown {
  const pick = Math.floor(r() * 16);
  switch (pick) {
    case 0:
      return undefined;
    case 1:
      return null;
    case 2:
      return r() * 1e6 - 5e5;
    case 3:
      return [NaN, Infinity, -Infinity, -0, 2 ** 53 + 1][Math.floor(r() * 5)];
    case 4:
      return '';
    case 5:
      return 'x'.repeat(Math.floor(r() * 5000));
    case 6:
      return ['13800138000', '【变量】', 'http://127.0.0.1:1', '../../etc/passwd', "'; DROP TABLE messages; --", '\u0000\uffff\ud800', 'sandbox'][
        Math.floor(r() * 7)
      ];
    case 7:
      return r() < 0.5;
    case 8:
      return depth > 3 ? {} : Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    case 9:
      return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}');
    case 10:
      return { id: randomValue(r, depth + 1), profileId: randomValue(r, depth + 1) };
    default: {
      if (depth > 3) return {};
      const keys = [
        'id',
        'name',
        'baseUrl',
        'apiId',
        'apiKey',
        'mobile',
        'content',
        'profileId',
        'smsid',
        'limit',
        'state',
        'url',
        'method',
        'key',
        'variant',
        'date',
        'extra',
      ];
      const o: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 5); i > 0; i--) o[keys[Math.floor(r() * keys.length)]!] = randomValue(r, depth + 1);
      return o;
    }
  }
}

describe('the IPC boundary under fuzzing', () => {
  it('answers thousands of random and malformed payloads on every channel with a clear result, never a crash', async () => {
    const handlers = createHandlers(services);
    const r = rng(20261121);
    const logged: unknown[] = [];
    let total = 0;
    for (const channel of CHANNELS) {
      for (let i = 0; i < 300; i++) {
        const payload = randomValue(r);
        const result = await dispatch(handlers, channel, payload, (e) => logged.push(e));
        total++;
        expect(result, `${channel} ${JSON.stringify(payload)?.slice(0, 200)}`).toHaveProperty('ok');
        if (!result.ok) {
          expect(result.error.code).toMatch(/^[a-z-]+$/);
          expect(typeof result.error.params).toBe('object');
          // Said in words from the catalog, in both languages, every placeholder filled.
          for (const lang of ['en', 'zh-CN'] as const) {
            const text = translator(lang)(...errorArgs(result.error)) as string;
            expect(text.length).toBeGreaterThan(3);
            expect(text).not.toMatch(/\{\{|\n\s+at /);
          }
          expect(result.error.code, `${channel} ${JSON.stringify(payload)?.slice(0, 200)}: ${JSON.stringify(result.error)}`).not.toBe('internal');
        }
      }
    }
    expect(total).toBeGreaterThanOrEqual(5000);
    expect(logged).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 120_000); // 300 payloads on each of 110+ channels, each error said in two languages: ~10 s alone, 30 s on a busy machine

  it('rejects unknown channels and non-string channels', async () => {
    const handlers = createHandlers(services);
    for (const c of ['nope', 'messages.send.extra', '__proto__', 'constructor', 42, null, {}]) {
      const r = await dispatch(handlers, c, {});
      expect(r).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    }
  });

  it('explains a bad payload field by field', async () => {
    const r = await dispatch(createHandlers(services), 'profiles.save', { name: '', baseUrl: 'ftp://x', apiId: 'a' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('invalid-input');
    expect(r.error.issues).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'name-required' },
        { path: 'baseUrl', message: 'base-url-invalid' },
      ]),
    );
  });

  it('turns an unexpected handler failure into a generic error, logged in main only', async () => {
    const handlers = {
      ...createHandlers(services),
      'app.info': async () => {
        throw new Error('secret internal detail');
      },
    };
    const logged: unknown[] = [];
    const r = await dispatch(handlers, 'app.info', undefined, (e) => logged.push(e));
    expect(r).toEqual({ ok: false, error: { code: 'internal', params: {} } });
    expect(JSON.stringify(r)).not.toContain('secret internal detail');
    expect(logged).toHaveLength(1);
  });
});

describe('ipcMain registration', () => {
  const appUrl = 'app://callout/index.html';
  const isTrusted = trustedSender(appUrlMatcher({ appScheme: true }));

  it('registers every channel and refuses frames that are not the app page', async () => {
    const registered = new Map<string, (e: never, i: unknown) => Promise<unknown>>();
    const ipcMain: IpcMainLike = { handle: (c, l) => void registered.set(c, l as never), removeHandler: (c) => void registered.delete(c) };
    const off = registerIpcHandlers(ipcMain, createHandlers(services), isTrusted);
    expect([...registered.keys()].sort()).toEqual([...CHANNELS].sort());
    const call = (url: string, parent: unknown = null) => registered.get('app.info')!({ senderFrame: { url, parent } } as never, undefined);
    await expect(call(appUrl)).resolves.toMatchObject({ ok: true });
    await expect(call(`${appUrl}#/profiles`)).resolves.toMatchObject({ ok: true });
    await expect(call('https://evil.example/')).resolves.toMatchObject({ ok: false, error: { code: 'forbidden-sender' } });
    await expect(call('file:///opt/Callout/resources/app.asar/out/renderer/index.html')).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden-sender' },
    });
    await expect(call(appUrl, {})).resolves.toMatchObject({ ok: false, error: { code: 'forbidden-sender' } });
    await expect(registered.get('app.info')!({ senderFrame: null } as never, undefined)).resolves.toMatchObject({ ok: false });
    off();
    expect(registered.size).toBe(0);
  });
});

describe('contract schemas', () => {
  it('apply defaults for a new profile', () => {
    expect(contract.channels['profiles.save'].input.parse({ name: 'P', baseUrl: 'https://api.example.com', apiId: 'a' })).toMatchObject({
      signing: 'off',
      format: 'json',
      connectTimeoutMs: 5000,
      totalTimeoutMs: 15000,
      lowBalanceThreshold: null,
    });
  });
});
