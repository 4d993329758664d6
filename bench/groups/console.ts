// `npm run bench -- --json --only console`: the built console in Chromium (headless, Debian's
// /usr/bin/chromium or CHROMIUM_PATH), served and wired to the services exactly as the end-to-end
// tests do it (test/e2e/bridge.ts: the same helper, so the bench follows the tests' transport).
//
// - rendererInitialJsKB: JavaScript the browser loaded (uncompressed) before the Send screen was interactive.
// - consoleFirstScreenMs: from navigation to the Send screen interactive (its form shown with the
//   profile chosen, nothing loading), median of 5.
// - blankPageMs: an empty page's load (navigation to its load event) from the same server (a copy of
//   the built renderer with an empty page beside it), in the same run, interleaved with the
//   console's: the ratio holds on a noisy machine.
// - quickDialMs: from Ctrl+K on the Send screen to the call's request leaving for the provider (the
//   message written `pending`, just before the POST), keyboard only, median of 5.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { EVENT_CHANNELS } from '../../common/contract';
import type { MessageRecord } from '../../common/records';
import { launchChromium, RENDERER_DIR, ROOT, startApp } from '../../test/e2e/bridge';

const RUNS = 5;

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The newest modification time under a folder (sources that make the renderer). */
function newest(dir: string): number {
  let latest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const s = statSync(path);
    latest = Math.max(latest, s.isDirectory() ? newest(path) : s.mtimeMs);
  }
  return latest;
}

/** The console is measured as built: build it first when the build is missing or older than its sources. */
export function ensureBuilt(): void {
  const index = join(RENDERER_DIR, 'index.html');
  const sources = Math.max(newest(join(ROOT, 'renderer')), newest(join(ROOT, 'common')));
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  process.stderr.write('bench: building the console (electron-vite build)…\n');
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error('bench: the console did not build');
}

interface PageGlobals {
  document: { querySelector(s: string): object | null };
  performance: { now(): number; getEntriesByType(t: string): { name: string; responseEnd: number; decodedBodySize: number }[] };
}

/** Milliseconds from navigation to the Send screen interactive, and the JavaScript loaded by then (bytes). */
async function openConsole(page: Page, url: string): Promise<{ ms: number; jsBytes: number }> {
  await page.goto('about:blank');
  await page.goto(url, { waitUntil: 'commit' });
  const handle = await page.waitForFunction(
    () => {
      const g = globalThis as unknown as PageGlobals;
      const ready =
        g.document.querySelector('[data-testid="mobile-input"] input:not([disabled])') !== null &&
        g.document.querySelector('[data-testid="send-loading"]') === null &&
        g.document.querySelector('[data-testid="profile-select"] .ant-select-content-has-value') !== null;
      if (!ready) return null;
      const at = g.performance.now();
      const js = g.performance
        .getEntriesByType('resource')
        .filter((e) => /\.m?js(\?|$)/.test(e.name) && e.responseEnd <= at)
        .reduce((sum, e) => sum + e.decodedBodySize, 0);
      return { ms: at, jsBytes: js };
    },
    undefined,
    { polling: 'raf', timeout: 60_000 },
  );
  return (await handle.jsonValue())!;
}

/** Milliseconds from navigation to an empty page's load event. */
async function openBlank(page: Page, url: string): Promise<number> {
  await page.goto('about:blank');
  await page.goto(url, { waitUntil: 'load' });
  return page.evaluate(() => {
    const nav = (globalThis as unknown as { performance: { getEntriesByType(t: string): { loadEventEnd: number }[] } }).performance.getEntriesByType(
      'navigation',
    )[0];
    return nav?.loadEventEnd ?? 0;
  });
}

export async function consoleGroup(): Promise<Record<string, number>> {
  ensureBuilt();
  // The built console and an empty page beside it, served by the same `callout ui` server.
  const rendererDir = mkdtempSync(join(tmpdir(), 'callout-bench-console-'));
  cpSync(RENDERER_DIR, rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'blank.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>blank</title></head><body></body></html>');
  const browser = await launchChromium();
  // A returning user (the guide dismissed), in English, on the Send screen.
  const app = await startApp({ browser, onboarding: false, screen: 'send', locale: 'en-US', rendererDir });
  try {
    const { page, services, handlers } = app;
    await page.getByTestId('mobile-input').waitFor();
    const consoleUrl = page.url();
    const blankUrl = new URL('/blank.html', app.server.origin).href;
    // Warm up both (the first navigation of a browser pays for its own start).
    await openBlank(page, blankUrl);
    await openConsole(page, consoleUrl);

    const firstScreen: number[] = [];
    const blankPage: number[] = [];
    let jsBytes = 0;
    for (let i = 0; i < RUNS; i++) {
      blankPage.push(await openBlank(page, blankUrl));
      const r = await openConsole(page, consoleUrl);
      firstScreen.push(r.ms);
      jsBytes = Math.max(jsBytes, r.jsBytes);
    }

    // Quick dial: five contacts (numbers the sandbox answers), no limits in the way, the template's values given once.
    await handlers['dial.saveSettings']({ scope: '*', perMinute: null, perHour: null, perDay: null, quietStart: null, quietEnd: null });
    await handlers['templates.save']({ name: 'On-call', content: '【变量】告警：【变量】，请立即处理。', approved: true, markerNames: ['System', 'Problem'] });
    const names = ['Avery', 'Blake', 'Casey', 'Devon', 'Emery', 'Finley'];
    for (const [i, name] of names.entries()) await handlers['contacts.save']({ name, mobile: `139000001${i}8` });
    const pending: { at: number; mobile: string }[] = [];
    const off = services.subscribe((channel, payload) => {
      const m = payload as MessageRecord;
      if (channel === EVENT_CHANNELS.messageUpdated && m.outcome === 'pending') pending.push({ at: performance.now(), mobile: m.mobile });
    });
    const dial = async (name: string, values?: readonly string[]): Promise<number> => {
      await page.goto(`${consoleUrl.replace(/#.*$/, '')}#/send`);
      await page.getByTestId('mobile-input').waitFor();
      const before = pending.length;
      const start = performance.now();
      await page.keyboard.press('Control+k');
      await page.waitForFunction(
        () =>
          (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }).document.activeElement?.getAttribute(
            'data-testid',
          ) === 'palette-search',
        undefined,
        { polling: 'raf' },
      );
      await page.keyboard.type(name.slice(0, 3).toLowerCase());
      await page.locator('[data-testid="palette-options"][data-fresh="true"] [data-testid="palette-option"]', { hasText: name }).first().waitFor();
      await page.keyboard.press('Enter');
      if (values) {
        await page.getByTestId('palette-value').first().waitFor();
        for (const [i, v] of values.entries()) {
          if (i > 0) await page.keyboard.press('Tab');
          await page.keyboard.type(v);
        }
      } else
        await page.waitForFunction(
          () =>
            (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }).document.activeElement?.getAttribute(
              'data-testid',
            ) === 'palette-call',
          undefined,
          { polling: 'raf' },
        );
      await page.keyboard.press('Enter');
      while (pending.length === before) await new Promise((r) => setTimeout(r, 2));
      return pending[before]!.at - start;
    };
    // The first call with the template needs its values (a person types them once); it is not counted.
    await dial(names[0]!, ['DB', 'disk full']);
    const quick: number[] = [];
    for (const name of names.slice(1)) quick.push(await dial(name));
    off();

    const first = median(firstScreen);
    const empty = median(blankPage);
    return {
      rendererInitialJsKB: Math.round(jsBytes / 1024),
      consoleFirstScreenMs: Math.round(first),
      blankPageMs: Math.round(empty * 10) / 10,
      consoleToBlankRatio: Math.round((first / Math.max(1, empty)) * 10) / 10,
      quickDialMs: Math.round(median(quick)),
      quickDialToBlankRatio: Math.round((median(quick) / Math.max(1, empty)) * 10) / 10,
    };
  } finally {
    await app.close();
    await browser.close();
    rmSync(rendererDir, { recursive: true, force: true });
  }
}
