// End to end, through the browser test bridge: the guide's "try it in the Sandbox" for a user's own
// template. A template made in the library is refused by the Sandbox (403) until it is registered on
// the Sandbox screen; registered and approved there, it is answered. A drained balance answers 402
// until it is topped up there. Faults, the speed and the request log are driven from the same
// screen, through main (never the sandbox's HTTP admin endpoints). Both languages; screenshots
// under test-results/screens/ (sandbox-*.png).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, startApp, type AppUnderTest } from './bridge';
import { bodyText, choose, collectProblems, settled, translator } from './page-helpers';

const TIMEOUT = 90_000;
const CJK = /[\u3400-\u9fff]/;
const RAW_KEY = /\b(sandbox|send|nav|msg)\.[a-z][\w-]*(\.[\w-]+)+\b/;
/** ASCII ? or : right after a Chinese character: a Chinese sentence uses ？ and ：. */
const ASCII_IN_CHINESE = /[\u4e00-\u9fff][?:]/;

const MINE = '王工您好，机房【变量】温度过高，请到现场查看。';
const PENDING = '王工您好，机房【变量】湿度过高，请到现场查看。';
const LOCALES = [
  { locale: 'en-US', lang: 'en', suffix: 'en', name: 'Machine room alarm', label: 'Room', pendingName: 'Humidity alarm' },
  { locale: 'zh-CN', lang: 'zh-CN', suffix: 'zh-CN', name: '机房告警', label: '机房', pendingName: '湿度告警' },
] as const;

describe.each(LOCALES)('Sandbox screen ($suffix)', ({ locale, lang, suffix, name, label, pendingName }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  const problems: string[] = [];
  const t = translator(lang);
  const sends = () => app.services.sandbox!.requests().filter((r) => r.op === 'send');
  const card = () => page.getByTestId('call-card');
  const cardAttr = async (attr: string) =>
    (await card().count())
      ? card()
          .first()
          .getAttribute(attr, { timeout: 1_000 })
          .catch(() => null)
      : null;
  const snap = async (shot: string) => {
    await page
      .locator('.ant-message-notice')
      .first()
      .waitFor({ state: 'detached', timeout: 6_000 })
      .catch(() => undefined);
    await page.mouse.move(5, 795);
    await settled(page);
    await app.screenshot(shot);
  };
  const go = async (screen: 'send' | 'sandbox' | 'templates') => {
    await page
      .getByRole('menuitem')
      .filter({ hasText: new RegExp(`^\\s*${t(`nav.${screen}`)}\\s*$`) })
      .click();
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash)).toBe(`#/${screen}`);
  };
  const libraryRow = () => page.locator('[data-testid="sandbox-library-row"]').filter({ hasText: name });
  const libraryStatus = () => libraryRow().getByTestId('sandbox-template-status').getAttribute('data-status');

  /** Fills the Send screen with the user's template and a number, sends, confirms; returns the call card's outcome once settled. */
  const sendMine = async (mobile: string, template: string = name): Promise<string | null> => {
    const before = await cardAttr('data-message-id');
    await page.locator('#send_templateId').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: template }).first().click();
    await page.getByLabel(label, { exact: true }).fill('A3');
    await page.locator('#send_mobile').fill(mobile);
    await page.keyboard.press('Escape');
    await page.getByTestId('send-button').click();
    await page.getByTestId('confirm-body').waitFor();
    await settled(page);
    await page.getByTestId('confirm-send').click();
    // The new call's card (while the card is being replaced it may be absent: no id at all).
    await expect.poll(async () => ((id) => id !== null && id !== before)(await cardAttr('data-message-id')), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => cardAttr('data-phase'), { timeout: 20_000 }).not.toBe('sending');
    return cardAttr('data-outcome');
  };

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ locale, browser, onboarding: false, screen: 'templates', sandbox: { timeScale: 0.01 } });
    page = app.page;
    collectProblems(page, problems);
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it(
    'a template made in the library, marked approved there, is refused by the Sandbox (403): the call card says so and points to the Sandbox screen',
    async () => {
      // The user adds their own template in the library, marked approved (as they believe it is).
      await page.getByTestId('add-template').click();
      await page.locator('#template_name').fill(name);
      await page.locator('#template_content').fill(MINE);
      await page.locator('#template_labels_0').fill(label);
      await page.getByTestId('template-approved').click();
      await page.getByTestId('template-save').click();
      await page.locator('.ant-drawer-content').waitFor({ state: 'hidden' });

      await go('send');
      expect(await sendMine('13800138007')).toBe('rejected');
      expect(sends().at(-1)?.response?.code).toBe(403);
      const outcome = await page.getByTestId('call-outcome').innerText();
      expect(outcome).toContain(t('msg:provider.403.meaning'));
      // The Sandbox's own advice, not "register it in the provider console".
      expect(outcome).toContain(t('msg:provider.403.action', { context: 'sandbox' }));
      expect(outcome).not.toContain(t('msg:provider.403.action'));
      expect(await page.getByTestId('open-sandbox').innerText()).toMatch(new RegExp(t('sandbox.links.register').replace(/\s/g, '\\s*')));
      await snap(`sandbox-send-403-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    'on the Sandbox screen the template is "not registered"; registered for review it waits; approved now it is answered',
    async () => {
      await page.getByTestId('open-sandbox').click();
      await page.getByTestId('sandbox-screen').waitFor();
      await libraryRow().waitFor();
      expect(await libraryStatus()).toBe('none');
      expect(await page.getByTestId('sandbox-balance').getAttribute('data-units')).toBe('10');
      const text = await bodyText(page);
      expect(text).toContain(t('sandbox.intro'));
      expect(text).toContain(t('sandbox.templates.help'));
      expect(text).not.toMatch(RAW_KEY);
      if (lang === 'zh-CN') expect(text).not.toMatch(ASCII_IN_CHINESE);
      else expect(text.replace('中文', '').replace(/[\u4e00-\u9fff【】，。（）]+/g, '')).not.toMatch(CJK);
      await snap(`sandbox-${suffix}`);

      // Registered for review: it waits (the review delay is 2 hours of the Sandbox's time).
      await libraryRow().getByTestId('sandbox-register-review').click();
      await expect.poll(libraryStatus).toBe('pending');
      expect(await libraryRow().getByTestId('sandbox-template-status').innerText()).toMatch(/\d\d:\d\d/);
      await snap(`sandbox-template-pending-${suffix}`);
      // Approved now.
      await libraryRow().getByTestId('sandbox-approve').click();
      await expect.poll(libraryStatus).toBe('approved');
      await snap(`sandbox-template-approved-${suffix}`);

      await go('send');
      expect(await sendMine('13800138007')).toBe('accepted');
      await expect.poll(() => cardAttr('data-phase'), { timeout: 30_000 }).toBe('answered');
      expect(sends().at(-1)?.body).toMatchObject({ mobile: '13800138007', content: '王工您好，机房A3温度过高，请到现场查看。' });
      await snap(`sandbox-send-answered-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    "a drained balance answers 402 with the Sandbox's own advice; topped up on the Sandbox screen, the next call is answered",
    async () => {
      await go('sandbox');
      await page.getByTestId('sandbox-empty').click();
      await expect.poll(() => page.getByTestId('sandbox-balance').getAttribute('data-units')).toBe('0');

      await go('send');
      expect(await sendMine('13800138008')).toBe('rejected');
      expect(sends().at(-1)?.response?.code).toBe(402);
      const outcome = await page.getByTestId('call-outcome').innerText();
      expect(outcome).toContain(t('msg:provider.402.action', { context: 'sandbox' }));
      expect(outcome).not.toContain(t('msg:provider.402.action'));
      await snap(`sandbox-send-402-${suffix}`);

      await page.getByTestId('open-sandbox').click();
      await page.getByTestId('sandbox-topup-amount').fill('20');
      await page.getByTestId('sandbox-topup').click();
      await expect.poll(() => page.getByTestId('sandbox-balance').getAttribute('data-units')).toBe('20');
      expect(await page.getByTestId('sandbox-balance').innerText()).toContain(t('sandbox.balance.value', { count: 20 }));
      await snap(`sandbox-topped-up-${suffix}`);

      await go('send');
      expect(await sendMine('13800138009')).toBe('accepted');
      await expect.poll(() => cardAttr('data-phase'), { timeout: 30_000 }).toBe('answered');
      await go('sandbox');
      await expect.poll(() => page.getByTestId('sandbox-balance').getAttribute('data-units'), { timeout: 10_000 }).toBe('19');
    },
    TIMEOUT,
  );

  it(
    'fault switches, the speed and the signature gateway change the Sandbox; the request log shows each request without the key',
    async () => {
      // A provider code 500 for the next send: switched on, listed, used up by one send.
      await choose(page, page.getByTestId('sandbox-fault-kind'), t('sandbox.faults.kindName.code'));
      await page.getByTestId('sandbox-fault-add').click();
      await expect.poll(() => page.getByTestId('sandbox-fault').count()).toBe(1);
      expect(app.services.sandbox!.faults()).toEqual([{ kind: 'code', code: 500, op: 'send', times: 1, remaining: 1 }]);
      await snap(`sandbox-fault-${suffix}`);

      await page.getByTestId('sandbox-time-scale').getByText(t('sandbox.settings.scale.1'), { exact: true }).click();
      await expect.poll(() => app.services.sandbox!.settings().timeScale).toBe(1);
      await page.getByTestId('sandbox-time-scale').getByText(t('sandbox.settings.scale.0.01'), { exact: true }).click();
      await expect.poll(() => app.services.sandbox!.settings().timeScale).toBe(0.01);

      await go('send');
      expect(await sendMine('13800138017')).toBe('unknown');
      await go('sandbox');
      await expect.poll(() => page.getByTestId('sandbox-fault').count()).toBe(0);
      // The request log: newest first (balance checks came after it), the fault shown, the key redacted.
      const first = page.locator('[data-testid="sandbox-request"][data-op="send"]').first();
      await expect.poll(() => first.getAttribute('data-code')).toBe('500');
      expect(await first.innerText()).toContain(t('sandbox.faults.kindName.code'));
      await first.locator('.ant-table-row-expand-icon').click();
      const expanded = await page.locator('.sandbox-pre').first().innerText();
      expect(expanded).toContain('[REDACTED]');
      const key = (await app.services.secrets.get('profile:sandbox'))!;
      expect(await bodyText(page)).not.toContain(key);
      expect(await page.content()).not.toContain(key);
      await snap(`sandbox-requests-${suffix}`);

      // The signature gateway on: the Sandbox profile does not sign, so its balance check is refused.
      await page.getByTestId('sandbox-signature').click();
      await page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
        .filter({ hasText: t('sandbox.settings.signatureMode.spec') })
        .click();
      await expect.poll(() => app.services.sandbox!.settings().signatureMode).toBe('spec');
      const b = await app.handlers['balance.query']({ profileId: 'sandbox' });
      expect(b.failure?.kind).toBe('signature-rejected');
      await page.getByTestId('sandbox-signature').click();
      await page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
        .filter({ hasText: t('sandbox.settings.signatureMode.off') })
        .click();
      await expect.poll(() => app.services.sandbox!.settings().signatureMode).toBe('off');
      // The renderer never called the sandbox's admin endpoints: only the sandbox.* operations.
      expect(app.calls.filter((c) => c.channel.startsWith('sandbox.')).length).toBeGreaterThan(5);
      expect(app.services.sandbox!.requests().some((r) => r.path.startsWith('/__sandbox'))).toBe(false);
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );
  it(
    'at 1024×700, a template pending in the library, registered and approved in the Sandbox: the advice names Send, the library says approved, and Send sends it',
    async () => {
      await page.setViewportSize({ width: 1024, height: 700 });
      await go('templates');
      await page.getByTestId('add-template').click();
      await page.locator('#template_name').fill(pendingName);
      await page.locator('#template_content').fill(PENDING);
      await page.locator('#template_labels_0').fill(label);
      await page.getByTestId('template-save').click();
      await page.locator('.ant-drawer-content').waitFor({ state: 'hidden' });
      const libraryApproved = () =>
        page.locator('[data-testid="template-row"]').filter({ hasText: pendingName }).getByTestId('template-status').getAttribute('data-approved');
      await expect.poll(libraryApproved).toBe('false');

      await go('sandbox');
      const row = page.locator('[data-testid="sandbox-library-row"]').filter({ hasText: pendingName });
      await row.getByTestId('sandbox-register').click();
      await expect.poll(() => row.getByTestId('sandbox-template-status').getAttribute('data-status')).toBe('approved');
      // The advice says where to go next: Send, where the template is now offered.
      const advice = t('sandbox.templates.registered', { name: pendingName });
      await page.locator('.ant-message-notice').filter({ hasText: advice }).waitFor();
      expect(advice).toContain(t('nav.send'));
      await row.scrollIntoViewIfNeeded();
      await settled(page);
      await app.screenshot(`sandbox-registered-advice-1024-${suffix}`);

      // The library sees the approval.
      await go('templates');
      await expect.poll(libraryApproved).toBe('true');
      await page.locator('[data-testid="template-row"]').filter({ hasText: pendingName }).scrollIntoViewIfNeeded();
      await snap(`sandbox-registered-library-1024-${suffix}`);

      // "Send with it" on the Sandbox screen opens Send, which offers and sends it.
      await go('sandbox');
      await row.getByTestId('sandbox-open-send').click();
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash)).toBe('#/send');
      expect(await sendMine('13800138027', pendingName)).toBe('accepted');
      expect(sends().at(-1)?.body).toMatchObject({ mobile: '13800138027', content: '王工您好，机房A3湿度过高，请到现场查看。' });
      await snap(`sandbox-registered-send-1024-${suffix}`);
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'opened directly at 1024×700, the templates table says its variables in words; the settings and the request log fit their cards',
    async () => {
      // A template whose variables have no label shows "Variable n" (the templates feature's words).
      await app.handlers['templates.save']({ name: 'Unlabelled', content: '【变量】告警：【变量】，请处理。', approved: true });
      await page.setViewportSize({ width: 1024, height: 700 });
      // Opened directly: the Sandbox's own address, loaded afresh (the test before ends on Send).
      await page.goto(page.url().replace(/#.*$/, '') + '#/sandbox');
      await page.reload();
      await page.getByTestId('sandbox-screen').waitFor();
      const unlabelled = page.locator('[data-testid="sandbox-library-row"]').filter({ hasText: 'Unlabelled' });
      await unlabelled.waitFor();
      expect(await unlabelled.getByTestId('marker-chip').allInnerTexts()).toEqual([t('templates.marker', { n: 1 }), t('templates.marker', { n: 2 })]);
      const chip = libraryRow().getByTestId('marker-chip').first();
      expect(await chip.getAttribute('aria-label')).toBe(t('templates.markerTitle', { marker: '【变量】', n: 1 }));
      const text = await bodyText(page);
      expect(text).not.toMatch(/\btemplates\.[a-z]/);
      expect(text).not.toMatch(RAW_KEY);
      await page.getByTestId('sandbox-templates').scrollIntoViewIfNeeded();
      await snap(`sandbox-templates-1024-${suffix}`);

      // The settings card holds its controls: the reply shape's select ends inside it.
      const inside = async (inner: string, outer: string) => {
        const a = (await page.getByTestId(inner).boundingBox())!;
        const b = (await page.getByTestId(outer).boundingBox())!;
        return a.x >= b.x && a.x + a.width <= b.x + b.width;
      };
      await page.getByTestId('sandbox-settings').scrollIntoViewIfNeeded();
      expect(await inside('sandbox-dialect', 'sandbox-settings')).toBe(true);
      expect(await inside('sandbox-time-scale', 'sandbox-settings')).toBe(true);
      expect(await inside('sandbox-signature', 'sandbox-settings')).toBe(true);
      await snap(`sandbox-settings-1024-${suffix}`);

      // The request log: every column on screen, the answer readable on one line, rows of one or two lines.
      await page.getByTestId('sandbox-requests').scrollIntoViewIfNeeded();
      await page.getByTestId('sandbox-request').first().waitFor();
      const table = page.getByTestId('sandbox-requests').locator('.ant-table-content, .ant-table-body').first();
      expect(await table.evaluate((el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth <= el.clientWidth)).toBe(true);
      const answer = (await page.getByTestId('sandbox-request-answer').first().boundingBox())!;
      expect(answer.width).toBeGreaterThanOrEqual(140);
      expect(answer.x + answer.width).toBeLessThanOrEqual(1024);
      await page.getByTestId('sandbox-requests').evaluate((el: { scrollIntoView(o: unknown): void }) => el.scrollIntoView({ block: 'start' }));
      await snap(`sandbox-requests-1024-${suffix}`);
      // At most three short lines a row (a rejected signature's reason may wrap), not a column a few characters wide.
      const heights = await page
        .getByTestId('sandbox-request')
        .evaluateAll((rows) => rows.map((r) => (r as unknown as { getBoundingClientRect(): { height: number } }).getBoundingClientRect().height));
      expect(Math.max(...heights)).toBeLessThanOrEqual(90);
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );
});
