// Page helpers shared by the end-to-end tests.
import type { Page } from 'playwright-core';

interface PageDocument {
  document: {
    body: { innerText: string };
    getAnimations(): { playState: string; effect: { getComputedTiming(): { iterations: number } } | null }[];
  };
}

/** The text a person sees on the page. */
export async function bodyText(page: Page): Promise<string> {
  return page.evaluate(() => (globalThis as unknown as PageDocument).document.body.innerText);
}

/** Waits until antd's open/close animations have finished (at most 3 s), so a screenshot shows a settled screen. */
export async function settled(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        (globalThis as unknown as PageDocument).document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      undefined,
      { timeout: 3_000 },
    )
    .catch(() => undefined);
}
