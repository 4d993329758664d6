// The desktop app's upgrade window (main/upgrade-window.ts) as Chromium draws it, at its own size
// (480×220), in both languages: the step, its share as a bar and a number, a step that does not say
// how far (a moving bar), and the wait for another process. Its page is main's HTML string, loaded
// here as Electron loads it; its texts come from main (upgrade-text.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { UpgradeProgress } from '../../main/store/database';
import { upgradePage } from '../../main/upgrade-window';
import { NAMED_STEPS, upgradeTexts } from '../../main/upgrade-text';
import { launchChromium, SCREENS_DIR } from './bridge';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

const step: UpgradeProgress = { kind: 'step', from: 4, to: 23, step: 8, steps: 19, version: 12, name: 'exchange-search', share: 0.42 };

async function open(lang: 'en' | 'zh-CN'): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 480, height: 220 }, locale: lang === 'zh-CN' ? 'zh-CN' : 'en-US' });
  // Reduced motion: the bar's fill is drawn at its width at once (no transition to wait for).
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`data:text/html;charset=utf-8,${encodeURIComponent(upgradePage(lang))}`);
  return page;
}

async function show(page: Page, lang: 'en' | 'zh-CN', p: UpgradeProgress): Promise<void> {
  await page.evaluate((t) => (globalThis as unknown as { showUpgrade(t: unknown): void }).showUpgrade(t), upgradeTexts(p, lang));
}

/** Nothing drawn past the window's edges (a long Chinese line wraps, it is not cut). */
async function fits(page: Page): Promise<void> {
  const over: string[] = [];
  for (const id of ['title', 'versions', 'step', 'percent', 'track', 'note']) {
    const box = await page.locator(`#${id}`).boundingBox();
    if (box && (box.x + box.width > 480.5 || box.y + box.height > 220.5)) over.push(id);
  }
  expect(over).toEqual([]);
}

describe.each(['en', 'zh-CN'] as const)('the upgrade window (%s)', (lang) => {
  it('shows the step, its share as a bar and in percent, and that closing loses nothing', async () => {
    const page = await open(lang);
    try {
      const texts = upgradeTexts(step, lang);
      await show(page, lang, step);
      expect(await page.locator('#title').innerText()).toBe(texts.title);
      expect(await page.locator('#step').innerText()).toBe(texts.step);
      expect(await page.locator('#percent').innerText()).toBe('42%');
      expect(await page.locator('#note').innerText()).toBe(texts.note);
      expect(await page.title()).toBe(texts.title);
      const bar = page.getByRole('progressbar');
      expect(await bar.getAttribute('aria-valuenow')).toBe('42');
      // The bar's fill is 42% of its track.
      const [track, fill] = await Promise.all([page.locator('#track').boundingBox(), page.locator('#fill').boundingBox()]);
      expect(fill!.width / track!.width).toBeCloseTo(0.42, 2);
      await fits(page);
      mkdirSync(SCREENS_DIR, { recursive: true });
      await page.screenshot({ path: join(SCREENS_DIR, `upgrade-window-${lang}.png`) });

      // A step that does not say how far: no number, a moving bar without a value.
      await show(page, lang, { ...step, step: 9, name: 'captured-exchanges', version: 13, share: null });
      expect(await page.locator('#percent').innerText()).toBe('');
      expect(await bar.getAttribute('aria-valuenow')).toBeNull();
      expect(await page.locator('#track').getAttribute('class')).toContain('unknown');

      // Every step's name, the longest among them, at the end of the upgrade: whole, inside the window.
      for (const name of NAMED_STEPS) {
        const last = { ...step, step: 27, steps: 27, to: 31, version: 31, name, share: 0.5 };
        await show(page, lang, last);
        expect(await page.locator('#step').innerText()).toBe(upgradeTexts(last, lang).step);
        await fits(page);
      }
      await page.screenshot({ path: join(SCREENS_DIR, `upgrade-window-last-step-${lang}.png`) });

      // Another process upgrading the same store: said as waiting.
      await show(page, lang, { ...step, kind: 'waiting' });
      expect(await page.locator('#step').innerText()).toBe(upgradeTexts({ ...step, kind: 'waiting' }, lang).step);
      await fits(page);
      await page.screenshot({ path: join(SCREENS_DIR, `upgrade-window-waiting-${lang}.png`) });
    } finally {
      await page.close();
    }
  });
});
