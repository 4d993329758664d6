// End to end: History at the app's minimum window (1024 × 700) and at 1280 × 800, in both
// languages. Every column of the message list and of the exchange list is within the list's
// visible width (nothing hidden without a way to reach it), the state and the duration included;
// units are what a message cost (a refused send: 0). Screenshots: history-<width>x<height>-<lang>.png.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, startApp, type AppUnderTest } from './bridge';
import { settled, translator } from './page-helpers';

const TIMEOUT = 90_000;
const SIZES = [
  { width: 1024, height: 700 },
  { width: 1280, height: 800 },
] as const;
const LOCALES = [
  { locale: 'en-US', lang: 'en', suffix: 'en' },
  { locale: 'zh-CN', lang: 'zh-CN', suffix: 'zh-CN' },
] as const;

interface Box {
  left: number;
  right: number;
  text: string;
}

/** The DOM as page.evaluate sees it (the Node-side type config has no DOM library). */
interface PageDocument {
  document: {
    querySelector(s: string): { getBoundingClientRect(): Box; scrollWidth: number; clientWidth: number } | null;
    querySelectorAll(s: string): ArrayLike<{ getBoundingClientRect(): Box; textContent: string | null; scrollWidth: number; clientWidth: number }>;
  };
}

/** Where each column header and each cell of the first rows is, against the visible part of the list. */
async function layout(page: Page, list: string, row: string) {
  return page.evaluate(
    ([listSel, rowSel]) => {
      const d = (globalThis as unknown as PageDocument).document;
      const body = d.querySelector(`${listSel} .history-body`)!;
      const view = body.getBoundingClientRect();
      const visibleRight = view.left + body.clientWidth;
      const cells = (sel: string) =>
        Array.from(d.querySelectorAll(sel)).map((c) => {
          const r = c.getBoundingClientRect();
          return { text: (c.textContent ?? '').trim(), left: Math.round(r.left), right: Math.round(r.right), clipped: c.scrollWidth > c.clientWidth + 1 };
        });
      return {
        visibleLeft: Math.round(view.left),
        visibleRight: Math.round(visibleRight),
        scrollsSideways: body.scrollWidth > body.clientWidth + 1,
        headers: cells(`${listSel} .history-head [role="columnheader"]`),
        firstRow: cells(`${listSel} ${rowSel}:not(.history-head) [role="gridcell"]`).slice(0, 12),
      };
    },
    [list, row] as const,
  );
}

describe.each(LOCALES)('History at every window size ($suffix)', ({ locale, lang, suffix }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  const t = translator(lang);

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ locale, browser, onboarding: false, screen: 'history', sandbox: { timeScale: 0.002 } });
    page = app.page;
    // Messages of every kind: answered, refused (402), an unknown outcome, a number that does not exist.
    const send = (mobile: string, content = '您好，王工，您的订单A1001已发货，请注意查收。') =>
      app.handlers['messages.send']({ profileId: 'sandbox', mobile, content });
    await send('13800138008');
    await send('13800138006');
    app.services.sandbox!.setFault({ kind: 'code', code: 500, op: 'send', times: 1 });
    await send('13800138018');
    app.services.sandbox!.setBalance('sandbox-demo', 0);
    await send('13800138028');
    app.services.sandbox!.setBalance('sandbox-demo', 10);
    // The calls end before the page is loaded (the sandbox runs on the system clock, sped up): waited for, not slept.
    await vi.waitFor(() => expect(app.services.sandbox!.calls().every((c) => c.endedAt !== null)).toBe(true), { timeout: 15_000, interval: 20 });
    await page.reload();
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it.each(SIZES)(
    'at $width × $height every column of both lists is within reach, state and duration included',
    async ({ width, height }) => {
      await page.setViewportSize({ width, height });
      await page.getByRole('tab', { name: t('history.tabs.messages') }).click();
      await expect.poll(() => page.getByTestId('history-row').count(), { timeout: 15_000 }).toBe(4);
      await settled(page);
      const messages = await layout(page, '[data-testid="history-list"]', '.history-row');
      expect(messages.headers.map((h) => h.text)).toEqual(
        ['created', 'mobile', 'text', 'template', 'profile', 'units', 'outcome', 'state', 'duration'].map((k) => t(`history.column.${k}`)),
      );
      // Every column fits in the visible width: no sideways scrolling needed at these sizes.
      expect(messages.scrollsSideways).toBe(false);
      for (const h of messages.headers) {
        expect(h.right, h.text).toBeLessThanOrEqual(messages.visibleRight);
        expect(h.left, h.text).toBeGreaterThanOrEqual(messages.visibleLeft);
      }
      // The header names are whole (none cut with an ellipsis).
      for (const h of messages.headers) expect(h.clipped, h.text).toBe(false);
      for (const c of messages.firstRow) expect(c.right).toBeLessThanOrEqual(messages.visibleRight);
      const states = await page.getByTestId('row-state').allInnerTexts();
      expect(states.length).toBe(4);
      await app.screenshot(`history-${width}x${height}-${suffix}`);

      // Units are what a message cost: the refused send (402) cost nothing.
      const refused = page.locator('[data-testid="history-row"][data-outcome="rejected"]');
      expect(await refused.getByTestId('row-units').getAttribute('data-units')).toBe('0');

      await page.getByRole('tab', { name: t('history.tabs.exchanges') }).click();
      await expect.poll(() => page.getByTestId('exchange-row').count(), { timeout: 15_000 }).toBeGreaterThan(3);
      await settled(page);
      const exchanges = await layout(page, '[data-testid="exchanges-list"]', '.history-xrow');
      expect(exchanges.scrollsSideways).toBe(false);
      for (const h of exchanges.headers) expect(h.right, h.text).toBeLessThanOrEqual(exchanges.visibleRight);
      await app.screenshot(`history-exchanges-${width}x${height}-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    'narrower than the narrowest layout (a panel or a zoomed window), the list scrolls sideways to its last column instead of hiding it',
    async () => {
      // Narrower than the app lets its window be: the same list, less room.
      await page.setViewportSize({ width: 860, height: 700 });
      await page.getByRole('tab', { name: t('history.tabs.messages') }).click();
      await page.getByTestId('history-row').first().waitFor();
      await settled(page);
      const narrow = await layout(page, '[data-testid="history-list"]', '.history-row');
      expect(narrow.scrollsSideways).toBe(true);
      await page.evaluate(() => {
        const body = (globalThis as unknown as { document: { querySelector(s: string): { scrollLeft: number; scrollWidth: number } } }).document.querySelector(
          '[data-testid="history-list"] .history-body',
        );
        body.scrollLeft = body.scrollWidth;
      });
      const scrolled = await layout(page, '[data-testid="history-list"]', '.history-row');
      const duration = scrolled.headers.at(-1)!;
      expect(duration.text).toBe(t('history.column.duration'));
      expect(duration.right).toBeLessThanOrEqual(scrolled.visibleRight + 1);
      expect(duration.left).toBeGreaterThanOrEqual(scrolled.visibleLeft);
      await app.screenshot(`history-narrow-scrolled-${suffix}`);
    },
    TIMEOUT,
  );
});
