// End to end, through the browser test bridge: the Requests screen (the raw client, collections,
// environments, runs) and History's exchange filters, comparison and replay, in Chromium, against
// the embedded sandbox over real HTTP; `callout run` on the same data directory. Both languages;
// screenshots under test-results/screens/ (workbench-*).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { CollectionView, RunView } from '../../common/contract';
import { cli } from '../integration/cli/run-cli';
import { launchChromium, startApp, type AppUnderTest } from './bridge';
import { errorArgs } from '../../common/messages';
import { bodyText, catalogText, collectProblems, pickOption, settled, translator } from './page-helpers';

const TIMEOUT = 90_000;
const LOCALES = [
  { locale: 'en-US', lang: 'en', suffix: 'en' },
  { locale: 'zh-CN', lang: 'zh-CN', suffix: 'zh-CN' },
] as const;
/** A JSON body broken on purpose: it must arrive, and be shown, exactly as typed. */
const MALFORMED = '{"mobile": "13800138000", "content": "测试",';
/** A dictionary key that leaked onto the screen instead of its text. */
const RAW_KEY = /\b(workbench|history)\.[a-z][\w-]*\.[\w-]+\b/;

interface PageGlobals {
  document: { documentElement: { outerHTML: string }; querySelectorAll(s: string): ArrayLike<{ value: string }> };
}

describe.each(LOCALES)("the tester's workbench ($suffix)", ({ locale, lang, suffix }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let apiKey = '';
  const problems: string[] = [];
  const t = translator(lang);
  const screen = () => page.getByTestId('workbench-screen');
  const result = () => page.getByTestId('wb-result');
  const snap = async (name: string) => {
    await page
      .locator('.ant-message-notice')
      .first()
      .waitFor({ state: 'detached', timeout: 6_000 })
      .catch(() => undefined);
    await page.mouse.move(5, 5);
    await settled(page);
    await app.screenshot(name);
  };
  /** An antd input by its data-testid (on the input or on its wrapper). */
  const field = (id: string, within: Locator | Page = page) =>
    within.locator(`input[data-testid="${id}"], [data-testid="${id}"] input, textarea[data-testid="${id}"]`).first();
  const secretShown = () =>
    page.evaluate((s) => {
      const d = (globalThis as unknown as PageGlobals).document;
      return d.documentElement.outerHTML.includes(s) || Array.from(d.querySelectorAll('input, textarea')).some((i) => i.value.includes(s));
    }, apiKey);
  const goTo = async (key: string) => {
    await page.getByRole('menuitem', { name: t(`nav.${key}`) }).click();
    await settled(page);
  };
  const lastCall = (channel: string) => app.calls.filter((c) => c.channel === channel).at(-1)?.input as Record<string, unknown> | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ locale, browser, onboarding: false, screen: 'requests' });
    page = app.page;
    collectProblems(page, problems);
    apiKey = (await app.services.profiles.endpoint('sandbox')).apiKey;
    await screen().waitFor();
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it(
    'builds a GET with headers of its own and a malformed JSON body, and shows the exact bytes in the inspector',
    async () => {
      await field('wb-method').fill('GET');
      await field('wb-path').fill('/voice/balance?probe=1');
      // Callout's parameters are written by hand here: none added.
      await page.getByTestId('wb-tab-options').click();
      await page.getByTestId('wb-credentials-none').click();
      await page.getByTestId('wb-tab-headers').click();
      for (const [name, value] of [
        ['X-Trace', 'e2e-trace-7'],
        ['X-Tester', 'caf\u00e9; q=1'],
      ] as [string, string][]) {
        await page.getByTestId('wb-add-header').click();
        await field('wb-header-name', page.getByTestId('wb-headers').locator('.wb-row').last()).fill(name);
        await field('wb-header-value', page.getByTestId('wb-headers').locator('.wb-row').last()).fill(value);
      }
      await page.getByTestId('wb-tab-body').click();
      await page.getByTestId('wb-body-json').click();
      await field('wb-body-text').fill(MALFORMED);
      await page.getByTestId('wb-json-invalid').waitFor();

      // The preview says exactly what will go out.
      await page.getByTestId('wb-tab-preview').click();
      await expect
        .poll(
          () =>
            page
              .getByTestId('wb-preview-text')
              .innerText()
              .catch(() => ''),
          { timeout: 10_000 },
        )
        .toContain('GET /voice/balance?probe=1 HTTP/1.1');
      const preview = await page.getByTestId('wb-preview-text').innerText();
      expect(preview).toContain('X-Trace: e2e-trace-7');
      expect(preview).toContain(MALFORMED);
      if (suffix === 'en') await snap('workbench-preview-en');

      await page.getByTestId('wb-send').click();
      await result().getByTestId('inspector').waitFor({ timeout: 15_000 });
      const sent = lastCall('raw.send')!;
      expect(sent.request).toMatchObject({ method: 'GET', path: '/voice/balance?probe=1', credentials: 'none', body: { kind: 'json', text: MALFORMED } });
      // The sandbox received those bytes.
      const received = app.services.sandbox!.requests().at(-1)!;
      expect(received).toMatchObject({ method: 'GET', bodyError: 'malformed' });
      // The inspector, raw view: byte for byte, with the headers as they went on the wire.
      const body = result().getByTestId('request-body');
      expect(await body.getAttribute('data-view')).toBe('raw');
      expect(await body.innerText()).toBe(MALFORMED);
      const headers = await result().getByTestId('request-headers').innerText();
      for (const h of ['X-Trace', 'e2e-trace-7', 'X-Tester', 'caf\u00e9; q=1', 'Host', 'Content-Length', String(Buffer.byteLength(MALFORMED))])
        expect(headers).toContain(h);
      expect(await result().getByTestId('inspector-status').innerText()).toContain('405');
      expect(await secretShown()).toBe(false);
      await snap(`workbench-get-malformed-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    'imports a pasted cURL command as a request on the profile, the key becoming a variable',
    async () => {
      const base = app.services.sandbox!.baseUrl;
      await page.getByTestId('wb-import').click();
      await field('wb-import-text').fill(
        `curl '${base}/voice/balance' -H 'X-From-Curl: yes' -H 'Content-Type: application/json' --data-raw '{"account":"sandbox-demo","password":"[REDACTED]","note":"pasted"}'`,
      );
      // Under load a click just as the dialog opens can be lost (CI saw it): "Read" is clicked again while the dialog stays.
      const read = page.getByTestId('wb-import-read');
      for (let i = 0; i < 5 && (await read.isVisible()); i++) {
        await read.click({ timeout: 2_000 }).catch(() => undefined);
        await read.waitFor({ state: 'hidden', timeout: 3_000 }).catch(() => undefined);
      }
      await expect.poll(() => field('wb-path').inputValue(), { timeout: 10_000 }).toBe('/voice/balance');
      expect(await field('wb-method').inputValue()).toBe('POST');
      await page.getByTestId('wb-tab-body').click();
      expect(await field('wb-body-text').inputValue()).toBe('{"account":"{{account}}","password":"{{password}}","note":"pasted"}');
      await page.getByTestId('wb-tab-headers').click();
      expect(await field('wb-header-name').inputValue()).toBe('X-From-Curl');
      await page.getByTestId('wb-send').click();
      await expect
        .poll(
          () =>
            page
              .getByTestId('wb-result-code')
              .innerText()
              .catch(() => ''),
          { timeout: 15_000 },
        )
        .toContain('2');
      expect(await result().getByTestId('request-body').innerText()).toContain('[REDACTED]');
      expect(await secretShown()).toBe(false);

      // A command that cannot be read is said so, in words.
      await page.getByTestId('wb-import').click();
      await field('wb-import-text').fill("curl 'http://unterminated");
      // Once the dialog has stopped zooming in (a click while it moved was lost under load).
      await settled(page);
      await page.getByTestId('wb-import-read').click();
      await page.getByTestId('wb-import-error').waitFor();
      expect(await page.getByTestId('wb-import-error').innerText()).not.toMatch(RAW_KEY);
      await snap(`workbench-import-error-${suffix}`);
      await page.keyboard.press('Escape');
      await settled(page);
    },
    TIMEOUT,
  );

  it(
    'saves a collection with a variable and an assertion, runs it from the app and from callout run (its exit status follows the assertion)',
    async () => {
      // The request: a balance query whose code must equal {{expected}}.
      await page.getByTestId('wb-new').click();
      await field('wb-path').fill('/voice/balance');
      await page.getByTestId('wb-tab-assertions').click();
      await page.getByTestId('wb-add-assertion').click();
      await pickOption(page, page.getByTestId('wb-assertion-kind'), t('workbench.assert.kind_json-equals'), { close: true });
      await field('wb-assertion-path').fill('code');
      await field('wb-assertion-equals').fill('{{expected}}');
      await page.getByTestId('wb-save').click();
      await pickOption(page, page.getByTestId('wb-save-collection'), t('workbench.save.newCollection'), { close: true });
      await field('wb-save-new-collection').fill('Smoke');
      await field('wb-save-name').fill('Balance code');
      await page.getByTestId('wb-save-ok').click();
      await page.getByTestId('wb-collection').filter({ hasText: 'Smoke' }).waitFor();
      const [summary] = await app.handlers['collections.list'](undefined);
      expect(summary).toMatchObject({ name: 'Smoke', requests: 1 });

      // Its variable, in the collection's own editor.
      await page.getByTestId('wb-collection-menu').first().click();
      await page.getByText(t('workbench.collections.editMenu')).click();
      // The editor may be drawn again once the collection has loaded, losing a click made before: click
      // until a row is there (an extra empty row is not saved).
      for (let i = 0; ; i++) {
        await page.getByTestId('wb-add-var').click();
        const shown = await page
          .getByTestId('wb-var-name')
          .first()
          .waitFor({ timeout: 3_000 })
          .then(() => true)
          .catch(() => false);
        if (shown || i >= 5) break;
      }
      await field('wb-var-name').fill('expected');
      await field('wb-var-value').fill('2');
      await page.getByTestId('wb-collection-ok').click();
      await expect.poll(async () => (await app.handlers['collections.get']({ id: summary!.id })).variables).toEqual([{ name: 'expected', value: '2' }]);
      const saved: CollectionView = await app.handlers['collections.get']({ id: summary!.id });
      expect(saved.requests[0]!.assertions).toEqual([{ kind: 'json-equals', path: 'code', equals: '{{expected}}' }]);

      // Run it from the app.
      if (!(await page.getByTestId('wb-run-collection').isVisible())) await page.getByTestId('wb-collection').filter({ hasText: 'Smoke' }).click();
      await page.getByTestId('wb-run-collection').click();
      const drawer = page.getByTestId('wb-run-drawer');
      await drawer.getByTestId('run-result').first().waitFor({ timeout: 15_000 });
      expect(await drawer.getByTestId('run-result').first().getAttribute('data-outcome')).toBe('passed');
      expect(await drawer.getByTestId('assertion-result').first().getAttribute('data-passed')).toBe('true');
      expect(await drawer.innerText()).toContain(t('msg:workbench.assertion.equals', { path: 'code', value: '2' }));
      await snap(`workbench-run-${suffix}`);
      await drawer.locator('.ant-drawer-close').click();
      await settled(page);

      // And from `callout run`, on the same data directory, against the same sandbox.
      const env = {
        CALLOUT_HOME: app.home,
        CALLOUT_BASE_URL: app.services.sandbox!.baseUrl,
        CALLOUT_API_ID: 'sandbox-demo',
        CALLOUT_API_KEY: apiKey,
        LANG: lang === 'en' ? 'en_US.UTF-8' : 'zh_CN.UTF-8',
      };
      const ok = await cli(['--json', 'run', 'Smoke'], env);
      expect(ok.code, ok.stderr).toBe(0);
      expect((ok.json as RunView).results[0]).toMatchObject({ name: 'Balance code', outcome: 'passed' });
      const failed = await cli(['run', 'Smoke', '--var', 'expected=3'], env);
      expect(failed.code).toBe(1);
      expect(failed.stdout).toContain('Balance code');
      expect(failed.stdout + failed.stderr).not.toContain(apiKey);

      // Both CLI runs are in History, with the app's.
      await goTo('history');
      await page.getByRole('tab', { name: t('history.tabs.runs') }).click();
      await expect.poll(() => page.getByTestId('run-row').count(), { timeout: 10_000 }).toBe(3);
      await page.getByTestId('run-row').first().click();
      await page.getByTestId('run-detail').getByTestId('run-result').waitFor();
      expect(await page.getByTestId('run-detail').getByTestId('run-result').getAttribute('data-outcome')).toBe('failed');
      expect(await page.getByTestId('run-detail').innerText()).toContain(t('workbench.assert.found', { actual: '2' }));
      await snap(`workbench-history-runs-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    'finds exchanges by status and by a word in a body, compares two side by side, and replays one in the raw client',
    async () => {
      await page.getByRole('tab', { name: t('history.tabs.exchanges') }).click();
      await page.getByTestId('exchange-row').first().waitFor();
      // Status 405: the GET of the first test.
      await pickOption(page, page.getByTestId('exchanges-status'), '4xx', { close: true });
      await expect.poll(async () => (await page.getByTestId('exchange-row').allInnerTexts()).every((r) => r.includes('405')), { timeout: 10_000 }).toBe(true);
      expect(await page.getByTestId('exchange-row').count()).toBe(1);
      expect(lastCall('exchanges.list')).toMatchObject({ statuses: ['4xx'] });
      await snap(`workbench-filter-status-${suffix}`);
      await page.getByText(t('history.exchanges.clear')).click();

      // A word of a request body.
      await field('exchanges-search').fill('pasted');
      await field('exchanges-search').press('Enter');
      await expect.poll(() => page.getByTestId('exchange-row').count(), { timeout: 10_000 }).toBe(1);
      expect(lastCall('exchanges.list')).toMatchObject({ search: 'pasted' });
      await page.getByText(t('history.exchanges.clear')).click();
      await expect.poll(() => page.getByTestId('exchange-row').count(), { timeout: 10_000 }).toBeGreaterThan(3);

      // Two balance queries of the runs (codes equal, smsids none, numbers differ): compared.
      const raws = (await app.handlers['exchanges.list']({ operations: ['raw'], statuses: [200], limit: 10 })).rows;
      const [a, b] = [raws[0]!, raws[1]!];
      for (const e of [a, b]) await page.locator(`[data-testid="exchange-row"][data-exchange-id="${e.id}"] .ant-checkbox-input`).check();
      await page.getByTestId('exchanges-compare').click();
      const diff = page.getByTestId('exchange-diff');
      await diff.waitFor();
      await page.getByTestId('diff-request').click();
      const requestHeaders = await diff.getByTestId('diff-headers').innerText();
      expect(requestHeaders).toContain('Content-Length');
      await page.getByTestId('diff-response').click();
      // The JSON bodies are compared by value: same code, same message; only what differs is marked.
      const changed = await diff.locator('[data-testid="diff-body"] [data-kind="changed"][data-side="left"]').allInnerTexts();
      expect(changed.every((l) => !/"code"/.test(l))).toBe(true);
      expect(await diff.getByTestId('diff-body').innerText()).toContain('"code": 2');
      await snap(`workbench-diff-${suffix}`);
      await page.locator('.ant-drawer-open .ant-drawer-close').last().click();
      await settled(page);

      // Replay the first GET in the raw client.
      const gets = (await app.handlers['exchanges.list']({ statuses: [405], limit: 5 })).rows;
      await page.locator(`[data-testid="exchange-row"][data-exchange-id="${gets[0]!.id}"]`).click({ position: { x: 200, y: 15 } });
      await page.getByTestId('inspector-drawer').getByTestId('replay').click();
      await screen().waitFor();
      await expect.poll(() => field('wb-method').inputValue()).toBe('GET');
      expect(await field('wb-path').inputValue()).toBe('/voice/balance?probe=1');
      await page.getByTestId('wb-tab-body').click();
      expect(await field('wb-body-text').inputValue()).toBe(MALFORMED);
      await page.getByTestId('wb-send').click();
      await expect
        .poll(
          () =>
            result()
              .getByTestId('request-body')
              .innerText()
              .catch(() => ''),
          { timeout: 15_000 },
        )
        .toBe(MALFORMED);
      expect(await secretShown()).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'copies a request as code, redacted; with the key only in the desktop app (off in a browser, saying why)',
    async () => {
      // The replayed GET, now with Callout's parameters in its (still malformed) JSON body.
      await page.getByTestId('wb-tab-options').click();
      await page.getByTestId('wb-credentials-body').click();
      await page.getByTestId('wb-code').click();
      await page.getByTestId('wb-code-python').click();
      await expect.poll(() => lastCall('raw.code')?.target).toBe('python');
      // With the key: main's clipboard belongs to the machine `callout ui` runs on, so in a browser the
      // items are off and say why (raw-client.test.ts covers the desktop path, key to main's clipboard).
      await page.getByTestId('wb-code').click();
      const withKey = page.getByRole('menuitem', { name: t('workbench.code.copyWithKey', { language: 'Go' }) });
      expect(await withKey.getAttribute('aria-disabled')).toBe('true');
      await settled(page);
      await withKey.locator('[data-desktop-only]').hover();
      await expect.poll(() => bodyText(page)).toContain(catalogText(t, errorArgs({ code: 'unavailable', params: { kind: 'browser-key-copy' } })));
      await withKey.click({ force: true });
      // Real time: a check that Chromium opens no dialog after the click; no event says "nothing opened".
      await new Promise((r) => setTimeout(r, 300));
      expect(await page.getByTestId('wb-key-confirm').count()).toBe(0);
      expect(app.calls.filter((c) => c.channel === 'raw.copyCodeWithKey')).toHaveLength(0);
      expect(app.clipboard).toEqual([]);
      await page.keyboard.press('Escape');
      expect(await secretShown()).toBe(false);
    },
    TIMEOUT,
  );

  it('says everything in the chosen language, with no key leaking, and no page error', async () => {
    const text = await bodyText(page);
    expect(text).not.toMatch(RAW_KEY);
    expect(problems).toEqual([]);
  });
});
