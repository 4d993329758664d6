// `npm run bench -- --json --only history-screen [--messages N]`: the History screen in Chromium on
// the real-shaped history store (history.ts; a million messages, or N: ten million are grown from the
// million), served by `callout ui`'s server as the end-to-end tests serve it (test/e2e/bridge.ts).
//
// - historyScreenColdMs: from the click on History to its first row on screen, the app started
//   afresh on the store with the file evicted from the page cache first (as after a reboot); median
//   of 5, and the slowest (historyScreenColdMaxMs).
// - historyScreenWarmMs: the same after a reload of the page, the file in the page cache; median of 5.
// - historyScreenSettledColdMs: the file evicted again and the page reloaded, the click 2 s after the
//   first screen is on screen (as a person reads it first: the console loads History's code when idle);
//   median of 5.
// - historyScreenFetchColdMs: the first page's request itself as the screen timed it (cold), median.
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { DATABASE_FILE } from '../../main/store/paths';
import { launchChromium, startApp } from '../../test/e2e/bridge';
import { ensureBuilt, median } from './console';
import { dropFromPageCache, HISTORY_ROWS, prepareHistoryStore } from './history';

const RUNS = 5;
/** How long a person looks at the first screen before clicking History, in the settled figure. */
const SETTLE_MS = 2000;

interface Marks {
  click?: number;
  row?: number;
}

/** Clicks History and returns the time to its first row on screen, timed in the page, and the fetch's own time. */
async function openHistory(page: Page): Promise<{ ms: number; fetchMs: number }> {
  await page.evaluate(() => {
    const w = globalThis as unknown as {
      __marks: Marks;
      document: { body: unknown; querySelector(s: string): object | null };
      MutationObserver: new (cb: () => void) => { observe(n: unknown, o: unknown): void; disconnect(): void };
      performance: { now(): number };
    };
    w.__marks = {};
    const observer = new w.MutationObserver(() => {
      if (!w.__marks.row && w.document.querySelector('[data-testid="history-row"]')) {
        w.__marks.row = w.performance.now();
        observer.disconnect();
      }
    });
    observer.observe(w.document.body, { childList: true, subtree: true });
    w.__marks.click = w.performance.now();
  });
  await page.getByRole('menuitem', { name: 'History' }).click();
  await page.getByTestId('history-row').first().waitFor({ timeout: 120_000 });
  const marks = await page.evaluate(() => (globalThis as unknown as { __marks: Marks }).__marks);
  const fetchMs = Number(await page.getByTestId('history-list').getAttribute('data-first-page-ms'));
  return { ms: Math.round(marks.row! - marks.click!), fetchMs };
}

export async function historyScreen(opts: { quick: boolean; messages?: number }): Promise<Record<string, number>> {
  ensureBuilt();
  const rows = opts.messages ?? (opts.quick ? 20_000 : HISTORY_ROWS);
  const prepared = prepareHistoryStore(rows, 'real');
  // The app opens the cached store through a link in a data folder of its own.
  const home = mkdtempSync(join(tmpdir(), 'callout-bench-screen-'));
  symlinkSync(prepared.file, join(home, DATABASE_FILE));
  const browser = await launchChromium();
  try {
    const cold: number[] = [];
    const fetchCold: number[] = [];
    const warm: number[] = [];
    const settled: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      dropFromPageCache(prepared.file);
      const app = await startApp({ browser, home, onboarding: false, screen: 'send', locale: 'en-US', packExchanges: false });
      try {
        await app.page.getByRole('menuitem', { name: 'History' }).waitFor();
        const c = await openHistory(app.page);
        cold.push(c.ms);
        fetchCold.push(c.fetchMs);
        // Again on a fresh page (nothing cached in it), the file now in the page cache.
        await app.page.goto(app.page.url().replace(/#.*$/, '#/send'));
        await app.page.reload();
        await app.page.getByRole('menuitem', { name: 'History' }).waitFor();
        warm.push((await openHistory(app.page)).ms);
        // Cold again, clicked once the console has settled.
        await app.page.goto(app.page.url().replace(/#.*$/, '#/send'));
        dropFromPageCache(prepared.file);
        await app.page.reload();
        await app.page.getByRole('menuitem', { name: 'History' }).waitFor();
        await app.page.waitForTimeout(SETTLE_MS);
        settled.push((await openHistory(app.page)).ms);
      } finally {
        await app.close();
      }
    }
    return {
      historyScreenMessages: rows,
      historyScreenColdMs: median(cold),
      historyScreenColdMaxMs: Math.max(...cold),
      historyScreenFetchColdMs: median(fetchCold),
      historyScreenWarmMs: median(warm),
      historyScreenSettledColdMs: median(settled),
    };
  } finally {
    await browser.close();
    rmSync(home, { recursive: true, force: true });
  }
}
