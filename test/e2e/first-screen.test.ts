// The console opens with the shell, the Send screen and one language, nothing else: the other
// screens, the charts and the other language arrive when they are used. Switching language loads
// the other one and says everything in it; quick dial's screen is fetched once the first screen is
// up, so Ctrl+K answers without a fetch. Screenshots under test-results/screens/ (both languages).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, startApp, type AppUnderTest } from './bridge';
import { bodyText, collectProblems, settled, translator } from './page-helpers';

const TIMEOUT = 90_000;
/**
 * What the first screen must not load: the other screens, the tables, the charts, the guide, the
 * toasts' and confirmations' holders, the full-disk banner, the other language.
 */
const NOT_FIRST =
  /\/(HistoryScreen|BulkScreen|DialScreen|TemplatesScreen|SignatureScreen|ProfilesScreen|SandboxScreen|ProfileTable|Table|EChart|GuideCard|ConfirmSendModal|CallProgress|FeedbackHolders|StorageProblem)-|\/pack-zh-CN-/;
/**
 * The JavaScript of the first screen stays under this (uncompressed; the bench measures it as
 * `rendererInitialJsKB`). It was 2,600 KB when the console was one file, 1,067 KB with every screen
 * split off but the shell and the Send screen still on antd's Menu, Card, Typography, Skeleton and App.
 */
const FIRST_SCREEN_JS_KB = 900;
/** A dictionary key on the screen instead of its text (a feature's texts not loaded). */
const RAW_KEY = /\b(common|errors|nav|app|send|templates|history|bulk|dial|signature|onboarding|profiles|balance|msg)\.[a-z][\w-]*(\.[\w-]+)*\b/;

interface Loaded {
  name: string;
  bytes: number;
  end: number;
}

interface PageGlobals {
  document: { querySelector(s: string): object | null; documentElement: { lang: string } };
  performance: { now(): number; getEntriesByType(t: string): { name: string; responseEnd: number; decodedBodySize: number }[] };
}

/** Waits for the Send screen to be interactive; returns that moment and the scripts loaded by then. */
async function interactive(page: Page): Promise<{ at: number; scripts: Loaded[] }> {
  const handle = await page.waitForFunction(
    () => {
      const g = globalThis as unknown as PageGlobals;
      const ready =
        g.document.querySelector('[data-testid="mobile-input"] input:not([disabled])') !== null &&
        g.document.querySelector('[data-testid="send-loading"]') === null &&
        g.document.querySelector('[data-testid="profile-select"] .ant-select-content-has-value') !== null;
      return ready ? g.performance.now() : null;
    },
    undefined,
    { polling: 'raf', timeout: 60_000 },
  );
  const at = (await handle.jsonValue())!;
  return { at, scripts: await scripts(page) };
}

async function scripts(page: Page): Promise<Loaded[]> {
  return page.evaluate(() =>
    (globalThis as unknown as PageGlobals).performance
      .getEntriesByType('resource')
      .filter((e) => /\.js(\?|$)/.test(e.name))
      .map((e) => ({ name: new URL(e.name).pathname, bytes: e.decodedBodySize, end: e.responseEnd })),
  );
}

describe('the first screen', () => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ browser, locale: 'en-US', onboarding: false, screen: 'send' });
    page = app.page;
    collectProblems(page, problems);
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it(
    'loads the shell, the Send screen and English only, well under the old single file',
    async () => {
      await page.reload();
      const { at, scripts: loaded } = await interactive(page);
      const before = loaded.filter((s) => s.end <= at);
      expect(before.map((s) => s.name).filter((n) => NOT_FIRST.test(n))).toEqual([]);
      expect(before.some((s) => /\/SendScreen-/.test(s.name))).toBe(true);
      expect(before.some((s) => /\/pack-en-/.test(s.name))).toBe(true);
      const kb = before.reduce((sum, s) => sum + s.bytes, 0) / 1024;
      expect(kb).toBeLessThan(FIRST_SCREEN_JS_KB);
      expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.lang)).toBe('en');
      // Every text of the shell and the screen is there (no key shows instead of its text).
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      expect(await page.getByTestId('onboarding-open').innerText()).toBe(translator('en')('onboarding.open'));
      await settled(page);
      await app.screenshot('first-screen-en');
    },
    TIMEOUT,
  );

  it(
    'fetches quick dial once the screen is up: Ctrl+K then opens the palette without fetching it',
    async () => {
      await expect.poll(async () => (await scripts(page)).some((s) => /\/DialScreen-/.test(s.name)), { timeout: 10_000 }).toBe(true);
      const count = (await scripts(page)).length;
      await page.keyboard.press('Control+k');
      await page.getByTestId('palette-search').waitFor();
      // The dial texts came with its screen; nothing new was needed to open the palette.
      expect((await scripts(page)).filter((s) => /\/DialScreen-/.test(s.name))).toHaveLength(1);
      expect((await scripts(page)).length).toBeGreaterThanOrEqual(count);
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      await page.keyboard.press('Escape');
    },
    TIMEOUT,
  );

  it(
    'switching to Chinese loads Chinese then and says everything in it, on this screen and the next',
    async () => {
      await page.goto(page.url().replace(/#.*$/, '') + '#/send');
      await interactive(page);
      expect((await scripts(page)).some((s) => /\/pack-zh-CN-/.test(s.name))).toBe(false);
      const zh = translator('zh-CN');
      await page.locator('.callout-language').getByText('中文').click();
      await page.getByRole('heading', { name: zh('send.title') }).waitFor();
      expect((await scripts(page)).some((s) => /\/pack-zh-CN-/.test(s.name))).toBe(true);
      expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.lang)).toBe('zh-CN');
      const text = await bodyText(page);
      expect(text).toContain(zh('send.field.mobile'));
      expect(text).toContain(zh('onboarding.open'));
      expect(text).not.toMatch(RAW_KEY);
      await settled(page);
      await app.screenshot('first-screen-zh-CN');
      // A screen opened after the switch has its texts in Chinese too.
      await page.getByRole('menuitem', { name: zh('nav.history') }).click();
      await page.getByRole('heading', { name: zh('history.title') }).waitFor();
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      // Back to English for the next test (the choice is remembered).
      await page.locator('.callout-language').getByText('English').click();
      await page.getByRole('heading', { name: translator('en')('history.title') }).waitFor();
    },
    TIMEOUT,
  );

  it(
    'loads the charts only when the overview is shown',
    async () => {
      const t = translator('en');
      await page.goto(page.url().replace(/#.*$/, '') + '#/history');
      await page.reload();
      await page.getByRole('heading', { name: t('history.title') }).waitFor();
      await page.getByRole('tab', { name: t('history.tabs.messages') }).waitFor();
      expect((await scripts(page)).some((s) => /\/EChart-/.test(s.name))).toBe(false);
      await page.getByRole('tab', { name: t('history.tabs.overview') }).click();
      await page.getByTestId('overview-chart').waitFor();
      expect((await scripts(page)).some((s) => /\/EChart-/.test(s.name))).toBe(true);
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );
});

// At 1024×700, on a first visit (the guide and the browser note both open): choosing a screen shows
// that screen, the guide and the note folded to one line each.
describe.each([
  { locale: 'en-US', lang: 'en', suffix: 'en' },
  { locale: 'zh-CN', lang: 'zh-CN', suffix: 'zh-CN' },
] as const)('the first screen at 1024×700 ($suffix)', ({ locale, lang, suffix }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  const problems: string[] = [];
  const t = translator(lang);
  const inView = async (testId: string) => {
    const box = await page.getByTestId(testId).first().boundingBox();
    return box !== null && box.y >= 0 && box.y + box.height <= 700;
  };

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ browser, locale, consoleNote: true, screen: 'send' });
    page = app.page;
    await page.setViewportSize({ width: 1024, height: 700 });
    collectProblems(page, problems);
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it(
    'choosing Templates shows the template library on the first screen; the guide and the note fold to one line',
    async () => {
      await page.getByTestId('onboarding').waitFor();
      await page.getByTestId('console-banner').waitFor();
      await settled(page);
      await app.screenshot(`first-screen-1024-${suffix}`);

      await page
        .getByRole('menuitem')
        .filter({ hasText: new RegExp(`^\\s*${t('nav.templates')}\\s*$`) })
        .click();
      await page.getByTestId('add-template').waitFor();
      expect(await page.getByTestId('onboarding').getAttribute('data-compact')).toBe('true');
      expect(await page.getByTestId('console-banner').getAttribute('data-compact')).toBe('true');
      // Both are still there, one line each, and can be opened again.
      expect((await page.getByTestId('onboarding').boundingBox())!.height).toBeLessThan(64);
      expect((await page.getByTestId('console-banner').boundingBox())!.height).toBeLessThan(64);
      expect(await page.getByTestId('onboarding').innerText()).toContain(t('onboarding.steps.sandbox'));
      // The library itself on the first screen: its title and its "add" button.
      await expect.poll(() => inView('add-template')).toBe(true);
      expect(await bodyText(page)).toContain(t('templates.title'));
      const title = await page
        .getByRole('heading', { name: t('templates.title') })
        .first()
        .boundingBox();
      expect(title!.y + title!.height).toBeLessThanOrEqual(700);
      await settled(page);
      await app.screenshot(`first-screen-1024-templates-${suffix}`);

      // The guide opens again in full from its line.
      await page.getByTestId('onboarding-expand').click();
      await expect.poll(() => page.getByTestId('onboarding').getAttribute('data-compact')).toBe(null);
      await page.getByTestId('console-banner-details').click();
      await expect.poll(() => page.getByTestId('console-banner').getAttribute('data-compact')).toBe('false');
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );
});
