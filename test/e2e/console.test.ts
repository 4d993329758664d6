// End to end, the console in a browser as `callout ui` serves it: the link's token leaves the address
// bar and cannot be used twice, the session cookie is out of the page's reach, what differs from the
// desktop app is said (notifications with the browser's permission, the shortcut, copy-with-key),
// a call's end is notified with the desktop app's words, no WebSocket frame carries the API Key
// (recorded in Chromium), and a lost connection is said. Run after `npx electron-vite build`. Both
// languages; screenshots under test-results/screens/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { maskMobile } from '../../common/domain/mobile';
import { launchChromium, SCREENS_DIR, startApp, type AppUnderTest } from './bridge';
import { bodyText, settled, translator } from './page-helpers';

const TIMEOUT = 60_000;
const CODE = (n: string) => `您的验证码是${n}，5分钟内有效。`;

const LOCALES = [
  { locale: 'en-US', lang: 'en', suffix: 'en' },
  { locale: 'zh-CN', lang: 'zh-CN', suffix: 'zh-CN' },
] as const;

interface Frame {
  dir: 'sent' | 'received';
  text: string;
}

interface PageGlobals {
  document: { cookie: string; referrer: string };
  history: { length: number };
  location: { hash: string };
  __notices?: { title: string; body?: string }[];
  callout: {
    messages: { send(i: unknown): Promise<{ ok: boolean; value?: { message: { id: number } } }> };
    profiles: { save(i: unknown): Promise<{ ok: boolean; value?: { id: string } }>; setKey(i: unknown): Promise<{ ok: boolean }> };
  };
}

/** Records what window.Notification is asked to show (the real one still runs). */
const RECORD_NOTICES = `(() => {
  const Real = window.Notification;
  if (!Real) return;
  window.__notices = [];
  class Recorded extends Real {
    constructor(title, options) {
      super(title, options);
      window.__notices.push({ title, body: options && options.body });
    }
  }
  window.Notification = Recorded;
})();`;

describe.each(LOCALES)('The console in a browser ($suffix)', ({ locale, lang, suffix }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  const t = translator(lang);
  const banner = () => page.getByTestId('console-banner');

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ browser, locale, consoleNote: true, onboarding: false });
    page = app.page;
    await banner().waitFor();
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  it(
    'opens from its link with the token out of the address bar, the cookie out of the page, and the link spent',
    async () => {
      expect(page.url()).toBe(`${app.server.origin}/`);
      expect(page.url()).not.toContain('token');
      expect(
        await page.evaluate(() => ({
          cookie: (globalThis as unknown as PageGlobals).document.cookie,
          referrer: (globalThis as unknown as PageGlobals).document.referrer,
        })),
      ).toEqual({ cookie: '', referrer: '' });

      // A link for a screen lands on that screen, token-free too.
      const other = await app.context.newPage();
      await other.goto(app.server.link('/#/history'));
      expect(other.url()).toBe(`${app.server.origin}/#/history`);
      // Nor is it in the tab's history: back goes to the blank page the tab started on, forward to the console.
      expect(await other.evaluate(() => (globalThis as unknown as PageGlobals).history.length)).toBe(2);
      await other.goBack();
      expect(other.url()).toBe('about:blank');
      await other.goForward();
      expect(other.url()).toBe(`${app.server.origin}/#/history`);

      // The same link in another browser (another profile, no cookie): refused, saying why.
      const link = app.server.link();
      const used = await app.context.newPage();
      await used.goto(link);
      await used.close();
      const stranger = await browser.newContext({ locale });
      const refused = await stranger.newPage();
      const response = await refused.goto(link);
      expect(response?.status()).toBe(401);
      expect(await bodyText(refused)).toContain(t('msg:console.unauthorized.title'));
      expect(await bodyText(refused)).toContain(t('msg:console.unauthorized.body').replace(/`/g, ''));
      expect(await refused.evaluate(() => 'callout' in globalThis)).toBe(false);
      mkdirSync(SCREENS_DIR, { recursive: true });
      await refused.screenshot({ path: join(SCREENS_DIR, `console-link-used-${suffix}.png`) });
      await stranger.close();
      await other.close();
    },
    TIMEOUT,
  );

  it(
    'says what differs from the desktop app, and asks for notifications only on a click',
    async () => {
      const text = await banner().innerText();
      expect(text).toContain(t('console.title'));
      expect(text).toContain(t('console.notifications.default'));
      expect(text).toContain(t('console.shortcut', { keys: 'Ctrl+Shift+K', pageKeys: 'Ctrl+K' }));
      expect(text).toContain(t('console.keyCopy'));
      await settled(page);
      await app.screenshot(`console-note-${suffix}`);

      // Headless Chromium answers the browser's question with "no": the page says how to allow them.
      // The browser is asked only on a click (headless Chromium dismisses its prompt: still "default").
      await page.evaluate(() => {
        const w = globalThis as unknown as { __asked: number; Notification: { requestPermission(): Promise<string> } };
        const ask = w.Notification.requestPermission.bind(w.Notification);
        w.__asked = 0;
        w.Notification.requestPermission = () => (w.__asked++, ask());
      });
      await page.getByTestId('allow-notifications').click();
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as { __asked: number }).__asked)).toBe(1);
      expect(await banner().innerText()).toContain(t('console.notifications.default'));
    },
    TIMEOUT,
  );

  it(
    'once allowed, notifies when a call ends, with the desktop app’s words',
    async () => {
      await app.context.grantPermissions(['notifications'], { origin: app.server.origin });
      await app.context.addInitScript({ content: RECORD_NOTICES });
      await page.reload();
      await banner().waitFor();
      await expect.poll(() => banner().innerText()).toContain(t('console.notifications.granted'));
      await settled(page);
      await app.screenshot(`console-note-allowed-${suffix}`);
      const sent = await page.evaluate(
        (content) => (globalThis as unknown as PageGlobals).callout.messages.send({ profileId: 'sandbox', mobile: '13800138008', content }),
        CODE('2468'),
      );
      expect(sent.ok).toBe(true);
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).__notices?.length ?? 0), { timeout: 20_000 }).toBe(1);
      const [notice] = await page.evaluate(() => (globalThis as unknown as PageGlobals).__notices!);
      const state = t('msg:state.answered');
      expect(notice!.title).toBe(t('msg:notice.ended.title', { state }));
      expect(notice!.body).toMatch(new RegExp(`^${maskMobile('13800138008').replace(/\*/g, '\\*')}`));
    },
    TIMEOUT,
  );

  it(
    'no WebSocket frame carries an API Key from main; one the person types crosses once, towards main',
    async () => {
      const sandboxKey = (await app.services.secrets.get('profile:sandbox'))!;
      expect(sandboxKey).toBeTruthy();
      const frames: Frame[] = [];
      const recorded = await app.context.newPage();
      recorded.on('websocket', (ws) => {
        ws.on('framesent', (f) => frames.push({ dir: 'sent', text: String(f.payload) }));
        ws.on('framereceived', (f) => frames.push({ dir: 'received', text: String(f.payload) }));
      });
      await recorded.goto(app.server.link('/#/profiles'));
      await recorded.getByText(t('profiles.title')).first().waitFor();
      const typed = `typed-${Date.now()}-SECRET`;
      const saved = await recorded.evaluate(
        async ({ baseUrl, typed: key }) => {
          const own = await (globalThis as unknown as PageGlobals).callout.profiles.save({ name: 'Mine', baseUrl, apiId: 'sandbox-demo' });
          await (globalThis as unknown as PageGlobals).callout.profiles.setKey({ id: own.value!.id, apiKey: key });
          return own.value!.id;
        },
        { baseUrl: app.services.sandbox!.baseUrl, typed },
      );
      await recorded.evaluate(
        async ({ id, content }) =>
          (await (globalThis as unknown as PageGlobals).callout.messages.send({ profileId: id, mobile: '13800138005', content })).value!.message.id,
        { id: saved, content: CODE('1357') },
      );
      // The screens that show exchanges, profiles and the signature steps load what they need.
      for (const screen of ['history', 'profiles', 'signature', 'send']) {
        await recorded.evaluate((s) => ((globalThis as unknown as PageGlobals).location.hash = `#/${s}`), screen);
        await settled(recorded);
      }
      await expect
        .poll(() => frames.filter((f) => f.dir === 'received' && f.text.includes('"main:message-updated"')).length, { timeout: 20_000 })
        .toBeGreaterThan(1);
      await settled(recorded);
      expect(frames.filter((f) => f.dir === 'sent').length).toBeGreaterThan(5);
      const all = frames.map((f) => f.text).join('\n');
      expect(all).not.toContain(sandboxKey);
      expect(frames.filter((f) => f.text.includes(typed)).map((f) => f.dir)).toEqual(['sent']);
      await recorded.close();
    },
    TIMEOUT,
  );

  it(
    'says when the connection to callout ui is lost, and how to get back',
    async () => {
      await app.server.close();
      const lost = page.getByTestId('console-lost');
      await lost.waitFor();
      expect(await lost.innerText()).toContain(t('console.lostTitle'));
      expect(await lost.innerText()).toContain(t('console.lostBody'));
      await settled(page);
      await app.screenshot(`console-lost-${suffix}`);
    },
    TIMEOUT,
  );
});
