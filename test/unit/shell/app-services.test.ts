import { afterEach, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../../common/contract';
import type { MessageRecord } from '../../../common/records';
import { callEndedNotice, startAppServices, type AppServices } from '../../../main/app-services';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices } from '../../../main/services';
import { FASTEST_SCALE, ScaledClock } from '../../helpers/scaled-clock';
import { tempHome } from '../../helpers/temp-home';

const message = (over: Partial<MessageRecord>): MessageRecord => ({
  id: 1,
  profile: 'sandbox',
  baseUrl: 'http://x',
  apiId: 'a',
  mobile: '13800138008',
  content: 'c',
  templateId: null,
  units: 1,
  outcome: 'accepted',
  code: 2,
  providerMsg: null,
  smsid: 's',
  billedUnits: 1,
  state: 'answered',
  duration: 18,
  errorKind: null,
  reason: null,
  createdAt: 0,
  updatedAt: 0,
  endedAt: 1,
  attempts: 1,
  resendOf: null,
  batchItemId: null,
  ...over,
});

describe('call-ended notification text', () => {
  it('says who answered and for how long, masked, in both languages', () => {
    expect(callEndedNotice(message({}), 'en')).toEqual({ title: 'Call ended: Answered', body: '138****8008 answered; the call lasted 18 s.' });
    const zh = callEndedNotice(message({}), 'zh-CN');
    expect(zh.title).toMatch(/^通话结束：/);
    expect(zh.body).toContain('18 秒');
    expect(callEndedNotice(message({ state: 'no_answer', duration: 0 }), 'en').body).toMatch(/^138\*\*\*\*8008: /);
  });
});

describe('startAppServices', () => {
  let running: AppServices | undefined;
  const home = tempHome();
  afterEach(async () => {
    await running?.close();
    home.cleanup();
  });

  it('registers every channel for the app page only, forwards push events, shows notifications', async () => {
    const handlers = new Map<string, (e: unknown, i: unknown) => Promise<unknown>>();
    const sent: [string, unknown][] = [];
    const shown: { title: string; body: string }[] = [];
    class FakeNotification {
      constructor(private readonly o: { title: string; body: string }) {}
      static isSupported() {
        return true;
      }
      on() {
        return this;
      }
      show() {
        shown.push({ title: this.o.title, body: this.o.body });
      }
    }
    const win = { isDestroyed: () => false, webContents: { send: (c: string, p: unknown) => void sent.push([c, p]) }, show() {}, focus() {} };
    const shortcuts = new Map<string, () => void>();
    running = await startAppServices({
      globalShortcut: { register: (a, cb) => (shortcuts.set(a, cb), true), unregister: (a) => void shortcuts.delete(a) },
      ipcMain: { handle: (c, l) => void handlers.set(c, l as never), removeHandler: (c) => void handlers.delete(c) },
      Notification: FakeNotification,
      dataDir: home.dir,
      isAppUrl: (u) => u === 'app://callout/index.html',
      window: () => win,
      version: '9.9.9',
      log: () => undefined,
      create: (o) =>
        createServices({
          ...o,
          secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 't' } },
          clock: new ScaledClock(FASTEST_SCALE),
          sandbox: { timeScale: 0.002 / FASTEST_SCALE },
        }),
    });
    expect([...handlers.keys()].sort()).toEqual([...CHANNELS].sort());
    const frame = { senderFrame: { url: 'app://callout/index.html', parent: null } };
    await expect(handlers.get('app.info')!(frame, undefined)).resolves.toMatchObject({ ok: true, value: { version: '9.9.9' } });
    await expect(handlers.get('app.info')!({ senderFrame: { url: 'https://x/', parent: null } }, undefined)).resolves.toMatchObject({ ok: false });
    const r = (await handlers.get('messages.send')!(frame, { profileId: 'sandbox', mobile: '13800138008', content: '您的验证码是9，5分钟内有效。' })) as {
      ok: boolean;
    };
    expect(r.ok).toBe(true);
    // Real time: a poll interval while the call runs over HTTP on the sandbox (sped-up system clock); bounded by the count.
    for (let i = 0; i < 200 && shown.length === 0; i++) await new Promise((res) => setTimeout(res, 25));
    expect(shown).toEqual([{ title: 'Call ended: Answered', body: expect.stringContaining('138****8008 answered') }]);
    // The message's changes, the call's end (the browser console notifies from it; the desktop page
    // ignores it) and the profile's key now known to work (each pushed once).
    expect(sent.every(([c]) => c === 'main:message-updated' || c === 'main:call-ended' || c === 'main:profile-updated')).toBe(true);
    expect(sent.filter(([c]) => c === 'main:message-updated').length).toBeGreaterThanOrEqual(3);
    expect(sent.filter(([c]) => c === 'main:call-ended')).toEqual([['main:call-ended', expect.objectContaining({ state: 'answered' })]]);
    expect(sent.filter(([c]) => c === 'main:profile-updated')).toHaveLength(1);
    // A new incident is a desktop notification, once: a repeat of its alert is not another one.
    const group = {
      source: 'paste',
      key: 'g1',
      status: 'firing',
      title: 'DiskFull db-1',
      severity: 'critical',
      groupLabels: {},
      commonLabels: {},
      commonAnnotations: {},
      externalURL: null,
      truncatedAlerts: 0,
      alerts: [{ status: 'firing', labels: { alertname: 'DiskFull' }, annotations: {}, startsAt: null, endsAt: null, fingerprint: 'f1', generatorURL: null }],
    };
    await expect(handlers.get('paging.receive')!(frame, { group })).resolves.toMatchObject({ ok: true });
    await expect(handlers.get('paging.receive')!(frame, { group })).resolves.toMatchObject({ ok: true });
    expect(shown.slice(1)).toEqual([{ title: 'New incident: DiskFull db-1', body: expect.stringContaining('critical') }]);
    sent.splice(0);
    // The OS-wide quick-dial shortcut brings the window forward on the palette.
    let raised = 0;
    win.show = () => void raised++;
    shortcuts.get('CommandOrControl+Shift+K')!();
    expect(raised).toBe(1);
    expect(sent.at(-1)).toEqual(['main:quick-dial', {}]);
    await running.close();
    running = undefined;
    expect(handlers.size).toBe(0);
    expect(shortcuts.size).toBe(0);
  });
});
