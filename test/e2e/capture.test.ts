// End to end, through `callout ui`'s own transport (bridge.ts): the capture proxy from the History
// screen in Chromium — the switch starts it in front of the embedded sandbox (its gateway checking
// signatures), a script acting as a backend sends requests through it (good ones, one signed with
// the wrong key, one with a bad number, one through the reverse proxy), and the Exchanges tab lists
// them as captured with their verdicts; the inspector explains each. Both languages; screenshots
// under test-results/screens/ (capture-*.png). Run after `npx electron-vite build`.
import { rawPost as post } from '../helpers/raw-post';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { codedArgs } from '../../common/messages';
import type { CaptureStatus } from '../../common/capture';
import { signRequest } from '../../main/signing';
import { launchChromium, startApp, type AppUnderTest } from './bridge';
import { bodyText, catalogText, collectProblems, settled, translator } from './page-helpers';

const TIMEOUT = 90_000;
const CODE = (v: string) => `您的验证码是${v}，5分钟内有效。`;
/** A dictionary key that leaked onto the screen instead of its text. */
const RAW_KEY = /\b(history\.capture|capture\.(check|rule|verdict|checkName|mode|answeredBy))\.[\w-]+/;

const LOCALES = [
  { locale: 'en-US', lang: 'en', suffix: 'en' },
  { locale: 'zh-CN', lang: 'zh-CN', suffix: 'zh-CN' },
] as const;

type Kind = 'good' | 'good2' | 'wrong-key' | 'bad-number' | 'reverse';
const KINDS: Kind[] = ['good', 'good2', 'wrong-key', 'bad-number', 'reverse'];

describe.each(LOCALES)('Capture proxy on the History screen ($suffix)', ({ locale, lang, suffix }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let apiKey = '';
  const problems: string[] = [];
  const t = translator(lang);
  const rows = () => page.getByTestId('exchange-row');
  const snap = async (name: string) => {
    await page.mouse.move(600, 28);
    await settled(page);
    await app.screenshot(name);
  };
  /** The source filter (all exchanges, the captured ones, those with problems). */
  const pickSource = async (key: 'all' | 'captured' | 'problems') => {
    await page
      .getByTestId('exchanges-source')
      .getByText(t(`history.capture.source.${key}`), { exact: true })
      .click();
    await settled(page);
  };

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ locale, browser, onboarding: false, sandbox: { signature: 'spec' } });
    page = app.page;
    collectProblems(page, problems);
    apiKey = (await app.services.profiles.endpoint('sandbox')).apiKey;
    await app.handlers['templates.save']({ name: lang === 'en' ? 'Verification code' : '验证码', content: CODE('【变量】'), approved: true });
    await page.reload();
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it(
    'starts the proxy from its switch, lists what a backend sent as captured with verdicts, and explains each',
    async () => {
      await page.getByRole('menuitem', { name: t('nav.history') }).click();
      await page.getByRole('tab', { name: t('history.tabs.exchanges') }).click();
      await page.getByTestId('capture-open').click();
      const drawer = page.getByTestId('capture-drawer');
      await drawer.waitFor();
      const base = app.services.sandbox!.baseUrl;
      await expect.poll(() => page.locator('input[data-testid="capture-target"], [data-testid="capture-target"] input').first().inputValue()).toBe(base);
      // The Sandbox's key is generated and hidden: the drawer offers its demo account to copy into the backend.
      const account = drawer.getByTestId('capture-sandbox-account');
      await account.waitFor();
      expect(await account.innerText()).toContain(t('history.capture.sandboxHint'));
      expect(await drawer.getByTestId('capture-sandbox-api-id').innerText()).toBe('sandbox-demo');
      expect(await drawer.getByTestId('capture-sandbox-api-key').innerText()).toBe(apiKey);
      expect(await account.locator('.ant-typography-copy').count()).toBe(2);
      await page.setViewportSize({ width: 1024, height: 700 });
      await account.scrollIntoViewIfNeeded();
      await snap(`capture-sandbox-account-1024-${suffix}`);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByTestId('capture-switch').click();
      await page.getByTestId('capture-howto').waitFor();
      const status = (await app.handlers['capture.status'](undefined)) as CaptureStatus;
      expect(status).toMatchObject({ running: true, profileId: 'sandbox', key: 'profile', target: base });
      expect(await drawer.innerText()).toContain(status.url!);
      await snap(`capture-drawer-${suffix}`);

      // The backend: its requests go through the proxy to the sandbox.
      const url = `${base}/voice/vm`;
      const replies: Record<string, number> = {};
      for (const [i, kind] of KINDS.entries()) {
        const signedUrl = kind === 'reverse' ? `${status.url}/voice/vm` : url;
        const h = signRequest({ apiId: 'sandbox-demo', apiKey: kind === 'wrong-key' ? 'not-the-key-123' : apiKey, method: 'POST', url: signedUrl }).headers;
        const body = JSON.stringify({
          account: 'sandbox-demo',
          password: apiKey,
          mobile: kind === 'bad-number' ? '1380013800' : '13800138008',
          content: CODE(String(200000 + i)),
        });
        replies[kind] = await post(status.port!, kind === 'reverse' ? '/voice/vm' : url, { Host: h.Host, Date: h.Date, Authorization: h.Authorization }, body);
      }
      expect(replies).toEqual({ good: 200, good2: 200, 'wrong-key': 401, 'bad-number': 200, reverse: 401 });
      // The switch counts them as they land.
      await expect.poll(() => page.getByTestId('capture-open').innerText(), { timeout: 10_000 }).toContain('5');
      await page.locator('.ant-drawer-open .ant-drawer-close').click();
      await settled(page);

      await pickSource('captured');
      await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(5);
      const verdicts = await rows()
        .getByTestId('capture-verdict')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-verdict')));
      expect(verdicts.sort()).toEqual(['fail', 'fail', 'fail', 'pass', 'pass']);
      const listText = await page.getByTestId('exchanges-list').innerText();
      expect(listText).toContain(t('msg:capture.verdict.pass'));
      expect(listText).toContain(t('msg:capture.verdict.fail'));
      await snap(`capture-list-${suffix}`);

      await pickSource('problems');
      await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(3);

      // The bad number: the rule it broke and the provider's refusal, in words.
      const captured = (await app.handlers['exchanges.list']({ captured: true })).rows;
      const byKind = (k: Kind) => captured.find((e) => e.requestBody?.includes(String(200000 + KINDS.indexOf(k))))!;
      const bad = byKind('bad-number');
      await page.locator(`[data-testid="exchange-row"][data-exchange-id="${bad.id}"]`).click();
      const checks = page.getByTestId('capture-checks');
      await checks.waitFor();
      const rule = bad.capture!.checks.find((c) => c.check === 'rules')!.issues![0]!;
      expect(rule.code).toBe('mobile');
      const checksText = await checks.innerText();
      expect(checksText).toContain(catalogText(t, codedArgs('capture.rule', rule)));
      expect(checksText).toContain(
        catalogText(
          t,
          codedArgs(
            'capture.check',
            bad.capture!.checks.find((c) => c.check === 'reply')!,
          ),
        ),
      );
      expect(await checks.locator('[data-check="signature"]').getAttribute('data-verdict')).toBe('pass');
      await snap(`capture-inspector-number-${suffix}`);
      await page.locator('.ant-drawer-open .ant-drawer-close').click();
      await settled(page);

      // The wrong key: the signature check fails, with the diagnosis' likely causes.
      const wrong = byKind('wrong-key');
      await page.locator(`[data-testid="exchange-row"][data-exchange-id="${wrong.id}"]`).click();
      await checks.waitFor();
      expect(await checks.locator('[data-check="signature"]').getAttribute('data-verdict')).toBe('fail');
      expect(await checks.innerText()).toContain(t('msg:capture.check.signature-invalid_signature-mismatch'));
      await page.getByTestId('request-body').waitFor();
      expect(await page.getByTestId('request-body').innerText()).toContain('[REDACTED]');
      await snap(`capture-inspector-signature-${suffix}`);
      await page.locator('.ant-drawer-open .ant-drawer-close').click();
      await settled(page);

      // The reverse proxy: valid, but for the proxy's host — said as a warning.
      const reverse = byKind('reverse');
      await page.locator(`[data-testid="exchange-row"][data-exchange-id="${reverse.id}"]`).click();
      await checks.waitFor();
      expect(await checks.locator('[data-check="signature"]').getAttribute('data-verdict')).toBe('warn');
      await page.locator('.ant-drawer-open .ant-drawer-close').click();
      await settled(page);

      // At 1024×700 the toolbar wraps and the verdicts stay visible.
      await page.setViewportSize({ width: 1024, height: 700 });
      await pickSource('captured');
      await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(5);
      await expect.poll(async () => (await rows().getByTestId('capture-verdict').first().boundingBox())!.x + 40).toBeLessThan(1024);
      await snap(`capture-list-narrow-${suffix}`);

      // The switch stops it.
      await page.getByTestId('capture-open').click();
      await page.getByTestId('capture-switch').click();
      await expect.poll(async () => ((await app.handlers['capture.status'](undefined)) as CaptureStatus).running).toBe(false);
      await page.locator('.ant-drawer-open .ant-drawer-close').click();
      // The drawer shows the Sandbox's demo account to copy; once it is closed the key is nowhere on the page.
      await page.getByTestId('capture-drawer').waitFor({ state: 'detached' });

      const text = await bodyText(page);
      expect(text).not.toMatch(RAW_KEY);
      expect(text.includes(apiKey)).toBe(false);
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );
});
