// End to end (Chromium through `callout ui`): a store written by the version before exchanges were
// packed (migration 0020). History → Storage says how far packing them is, in both languages at
// 1024×700, while another process packs them a batch at a time (as the app's job does), then indexes
// them for search a call at a time (migration 0021); the exchanges read and are found the same in the
// inspector's list meanwhile, and the notice goes once all are done.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { formatBytes, formatCount } from '../../renderer/src/features/history/history-model';
import { openDatabase } from '../../main/store/database';
import { systemClock } from '../../main/clock';
import { PACK_BATCH, packBatch, packingProgress, startPacking } from '../../main/store/exchange-packing';
import { tempHome } from '../helpers/temp-home';
import { seedV19 } from '../helpers/v19-store';
import { launchChromium, startApp } from './bridge';
import { settled, translator } from './page-helpers';

const TIMEOUT = 90_000;
const CALLS = 600;
const TOTAL = CALLS * 4 + 5;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

describe.each([
  { locale: 'en-US', lang: 'en', suffix: 'en' },
  { locale: 'zh-CN', lang: 'zh-CN', suffix: 'zh-CN' },
] as const)('History → Storage after an upgrade ($suffix)', ({ locale, lang, suffix }) => {
  it(
    'says how far packing older exchanges is, as it goes, and nothing once they are all packed',
    async () => {
      const t = translator(lang);
      const home = tempHome('callout-e2e-upgrade-');
      const file = join(home.dir, 'callout.db');
      const v19 = openDatabase(file, { targetVersion: 19 });
      seedV19(v19, CALLS);
      v19.close();
      // The app's own job is off: the test packs from a connection of its own, batch by batch.
      const app = await startApp({ locale, browser, home: home.dir, packExchanges: false, onboarding: false });
      const other = openDatabase(file);
      try {
        const { page } = app;
        await page.setViewportSize({ width: 1024, height: 700 });
        await page.getByRole('menuitem', { name: t('nav.history') }).click();
        await page.getByTestId('open-store').click();
        const drawer = page.getByTestId('store-drawer');
        const notice = drawer.getByTestId('store-packing');
        await notice.waitFor();
        const progress = (done: number) => t('history.store.packing.progress', { done: formatCount(lang, done), total: formatCount(lang, TOTAL) });
        expect(await notice.innerText()).toContain(t('history.store.packing.title'));
        expect(await notice.innerText()).toContain(progress(0));
        const inspectorBefore = await app.handlers['exchanges.list']({ search: 'SBXMX01MCD3000007' });
        expect(inspectorBefore.rows).toHaveLength(4);

        packBatch(other);
        packBatch(other);
        await expect.poll(() => notice.innerText(), { timeout: 10_000 }).toContain(progress(2 * PACK_BATCH));
        expect(await drawer.getByTestId('store-packing-progress').getAttribute('aria-valuenow')).toBe(String(Math.floor(((2 * PACK_BATCH) / TOTAL) * 100)));
        await settled(page);
        await app.screenshot(`history-store-packing-${suffix}`);
        expect(await app.handlers['exchanges.list']({ search: 'SBXMX01MCD3000007' })).toEqual(inspectorBefore);

        // Packed, the exchanges are indexed for search a call at a time (migration 0021): the notice says so.
        while (packingProgress(other)?.step === 'packing') packBatch(other);
        const indexed = packBatch(other);
        expect(indexed?.step).toBe('indexing');
        const indexing = t('history.store.packing.indexing', { done: formatCount(lang, indexed!.done), total: formatCount(lang, TOTAL) });
        await expect.poll(() => notice.innerText(), { timeout: 10_000 }).toContain(indexing);
        expect(await app.handlers['exchanges.list']({ search: 'SBXMX01MCD3000007' })).toEqual(inspectorBefore);
        await settled(page);
        await app.screenshot(`history-store-indexing-${suffix}`);

        // The rest as the app's job does it.
        await startPacking(other, systemClock).done;
        await expect.poll(() => notice.count(), { timeout: 10_000 }).toBe(0);
        const status = await app.handlers['store.status'](undefined);
        expect(status.packing).toBeNull();
        expect(await drawer.getByTestId('store-file-bytes').innerText()).toBe(formatBytes(status.fileBytes));
        expect(await app.handlers['exchanges.list']({ search: 'SBXMX01MCD3000007' })).toEqual(inspectorBefore);
        // The rows shrank inside their pages: compacting once gives that space back, and the advice goes.
        const advice = drawer.getByTestId('compact-advised');
        await advice.scrollIntoViewIfNeeded();
        expect(await advice.innerText()).toContain(t('history.store.compactAdvised'));
        await settled(page);
        await app.screenshot(`history-store-packed-${suffix}`);
        other.close();
        await drawer.getByTestId('vacuum').click();
        await drawer.getByTestId('vacuum-result').waitFor({ timeout: 20_000 });
        expect(await advice.count()).toBe(0);
        const compacted = await app.handlers['store.status'](undefined);
        expect(compacted.compactAdvised).toBe(false);
        expect(compacted.fileBytes).toBeLessThan(status.fileBytes * 0.8);
        expect(await app.handlers['exchanges.list']({ search: 'SBXMX01MCD3000007' })).toEqual(inspectorBefore);
      } finally {
        if (other.open) other.close();
        await app.close();
        home.cleanup();
      }
    },
    TIMEOUT,
  );
});
