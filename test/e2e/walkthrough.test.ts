// End to end, through the browser test bridge: the rough edges a walkthrough by each kind of user
// found, in both languages. A wrong key shows as rejected everywhere until a good check (item 4);
// a batch's counts match History and a refused send costs nothing, topped up from the batch on the
// Sandbox (3, 6); pinyin finds 王工 in the palette, contacts, templates and History (8); Enter
// confirms, a checkbox ticks with Enter, and the quickest call is counted key by key (9); template
// import accounts for every row (10); texts say things once, in one name (11). Screenshots:
// walkthrough-*.png.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { BatchProgress } from '../../common/bulk-types';
import { launchChromium, startApp, type AppUnderTest } from './bridge';
import { bodyText, collectProblems, settled, translator } from './page-helpers';

const TIMEOUT = 90_000;
const SHIPPING = '您好，【变量】，您的订单【变量】已发货，请注意查收。';
/** ASCII ? or : right after a Chinese character: a Chinese sentence uses ？ and ：. */
const ASCII_IN_CHINESE = /[\u4e00-\u9fff][?:]/;
const LOCALES = [
  { locale: 'en-US', lang: 'en', suffix: 'en', markers: ['Customer', 'Order number'] },
  { locale: 'zh-CN', lang: 'zh-CN', suffix: 'zh-CN', markers: ['客户称呼', '订单号'] },
] as const;

interface PageGlobals {
  document: { activeElement: { getAttribute(n: string): string | null } | null };
  location: { hash: string };
}

describe.each(LOCALES)('Walkthrough ($suffix)', ({ locale, lang, suffix, markers }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  const problems: string[] = [];
  const t = translator(lang);
  const sends = () => app.services.sandbox!.requests().filter((r) => r.op === 'send');
  const go = async (screen: string) => {
    await page
      .getByRole('menuitem')
      .filter({ hasText: new RegExp(`^\\s*${t(`nav.${screen}`)}\\s*$`) })
      .click();
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).location.hash)).toBe(`#/${screen}`);
  };
  const snap = async (shot: string) => {
    await page
      .locator('.ant-message-notice')
      .first()
      .waitFor({ state: 'detached', timeout: 6_000 })
      .catch(() => undefined);
    await settled(page);
    await app.screenshot(`walkthrough-${shot}-${suffix}`);
  };
  const focused = () => page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.getAttribute('data-testid') ?? null);
  const option = (text: string) =>
    page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: text }).first();
  let wangId = 0;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ locale, browser, onboarding: false, sandbox: { timeScale: 0.01 } });
    page = app.page;
    collectProblems(page, problems);
    app.services.sandbox!.setBalance('sandbox-demo', 1000);
    // The default limits without the default quiet hours (22:00–08:00 local): a quick dial's result
    // must not depend on the hour the tests run at. Quiet hours are tested with hours set around the
    // test's own clock (test/unit/dial/dialer.test.ts, test/integration/bulk-channels.test.ts).
    await app.handlers['dial.saveSettings']({ scope: '*', perMinute: 1, perHour: 5, perDay: 20, quietStart: null, quietEnd: null });
    await app.handlers['templates.save']({ id: 'ship', name: '发货通知', content: SHIPPING, approved: true, markerNames: [...markers] });
    wangId = (await app.handlers['contacts.save']({ name: '王工', mobile: '13800138008', favourite: true })).id;
    await app.handlers['contacts.save']({ name: '李雷', mobile: '13800138018' });
    // 王工 was called before: the palette remembers his template and values.
    app.services.contacts.rememberTemplate(wangId, 'ship', ['王工', 'A1001']);
    await page.reload();
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it(
    'the quickest call from the app just opened is counted key by key, and the Quick dial screen states that number',
    async () => {
      await page.getByTestId('send-form-card').waitFor();
      const before = sends().length;
      let presses = 0;
      const press = async (key: string) => {
        presses += key.split('+').length;
        await page.keyboard.press(key);
      };
      // Without waiting for the palette: the Enter typed before it is there is kept for it.
      await press('Control+K');
      await press('Enter'); // the favourite at the top
      await page.getByTestId('palette-confirm').waitFor();
      await expect.poll(focused).toBe('palette-call');
      await press('Enter'); // call, with the remembered template and values
      await expect.poll(() => sends().length, { timeout: 10_000 }).toBe(before + 1);
      expect(sends().at(-1)!.body).toMatchObject({ mobile: '13800138008', content: '您好，王工，您的订单A1001已发货，请注意查收。' });
      expect(presses).toBe(4);
      await go('dial');
      const intro = t('dial.intro', { count: presses, shortcut: 'Ctrl+K' });
      expect(await bodyText(page)).toContain(intro);
      await snap('dial-intro');
    },
    TIMEOUT,
  );

  it(
    'pinyin finds 王工: the palette by "wg", contacts by "wang", templates by "fh", History by his name',
    async () => {
      await page.keyboard.press('Control+K');
      await page.getByTestId('palette-search').fill('wg');
      // The whole list is waited for: 王工 may lead it before the filter has dropped 李雷.
      const filtered = async () => {
        const options = await page.getByTestId('palette-option').allInnerTexts();
        return { first: options[0] ?? '', withLiLei: options.filter((text) => text.includes('李雷')) };
      };
      await expect.poll(filtered, { timeout: 5_000 }).toEqual({ first: expect.stringContaining('王工'), withLiLei: [] });
      await snap('palette-pinyin');
      await page.keyboard.press('Escape');

      await page.getByTestId('contacts-tab').getByPlaceholder(t('dial.contacts.filter')).fill('wang');
      await expect.poll(() => page.getByTestId('contact-row').count()).toBe(1);
      expect(await page.getByTestId('contact-row').innerText()).toContain('王工');

      await go('templates');
      await page.getByTestId('template-search').locator('input').or(page.locator('input[data-testid="template-search"]')).first().fill('fh');
      await expect.poll(() => page.getByTestId('template-row').count()).toBe(1);
      await page.getByTestId('template-search').locator('input').or(page.locator('input[data-testid="template-search"]')).first().fill('');

      await go('history');
      const search = page.locator('input[data-testid="history-search"], [data-testid="history-search"] input').first();
      await search.fill('wg');
      const suggestion = page.getByTestId('history-suggestion').filter({ hasText: '王工' });
      await suggestion.first().waitFor();
      await snap('history-pinyin');
      await suggestion.first().click();
      await expect.poll(() => search.inputValue()).toBe('13800138008');
      await expect.poll(() => page.getByTestId('history-row').count(), { timeout: 10_000 }).toBe(1);
      expect(await page.getByTestId('row-mobile').first().innerText()).toBe('13800138008');
      await page.getByTestId('history-clear-filters').click();
    },
    TIMEOUT,
  );

  it(
    'Enter confirms: a send\'s confirmation starts on "Call", a deletion\'s on its button; Enter ticks the override box',
    async () => {
      await go('send');
      await page.locator('#send_templateId').click();
      await option('发货通知').click();
      await page.getByLabel(markers[0], { exact: true }).fill('李雷');
      await page.getByLabel(markers[1], { exact: true }).fill('B2002');
      await page.locator('#send_mobile').fill('13800138027');
      await page.keyboard.press('Escape');
      const before = sends().length;
      await page.getByTestId('send-button').click();
      await page.getByTestId('confirm-body').waitFor();
      await expect.poll(focused).toBe('confirm-send');
      await snap('send-confirm-focus');
      await page.keyboard.press('Enter');
      await expect.poll(() => sends().length, { timeout: 10_000 }).toBe(before + 1);

      // A second call to 王工 within the minute: refused by the per-number limit; Enter ticks the override.
      await page.keyboard.press('Control+K');
      await page.getByTestId('palette-search').waitFor();
      await page.keyboard.press('Enter');
      await expect.poll(focused).toBe('palette-call');
      await page.keyboard.press('Enter');
      await page.getByTestId('palette-refused').waitFor();
      // antd puts data-testid on the input itself or on its wrapper.
      const box = page.locator('input[data-testid="override-check"], [data-testid="override-check"] input').first();
      await expect.poll(() => box.evaluate((el) => el === (el.ownerDocument as unknown as { activeElement: unknown }).activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      expect(await box.isChecked()).toBe(true);
      await page.keyboard.press('Space');
      expect(await box.isChecked()).toBe(false);
      await page.keyboard.press('Enter');
      expect(await page.getByTestId('override-call').isDisabled()).toBe(false);
      await snap('palette-override');
      await page.keyboard.press('Escape');

      // A deletion: Enter confirms the focused primary button.
      await app.handlers['templates.save']({ id: 'gone', name: '临时模板', content: '临时【变量】', approved: false });
      await go('templates');
      await page.getByRole('button', { name: t('templates.actionLabel.delete', { name: '临时模板' }) }).click();
      await page.locator('.ant-modal-confirm').waitFor();
      await settled(page);
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await app.handlers['templates.list'](undefined)).some((x) => x.id === 'gone')).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'template import: five pasted rows, one with a name and no text, are five rows read, the fifth skipped with why',
    async () => {
      await page.getByTestId('paste-templates').click();
      const pasted = [
        `${t('templates.importer.column.name')}\t${t('templates.importer.column.content')}`,
        '甲\t测试一【变量】',
        '乙\t测试二【变量】',
        '丙\t',
        '丁\t测试四【变量】',
        '戊\t测试五【变量】',
      ].join('\n');
      // The header names the columns in either language (名称/内容 or name/content).
      await page.getByTestId('paste-input').fill(pasted.replace(/^[^\n]*/, lang === 'zh-CN' ? '名称\t内容' : 'name\tcontent'));
      const report = page.getByTestId('import-report');
      await report.waitFor();
      expect(await report.innerText()).toContain(t('templates.importer.summary', { total: 5, new: 4, update: 0, skipped: 1 }));
      const problem = page.locator('[data-testid="import-problem"][data-where="row-4"]');
      expect(await problem.innerText()).toBe(
        `${t('templates.importer.where.row', { n: 4 })}${t('templates.importer.separator')}${t('templates.problem.empty', { max: 500 })}`,
      );
      await snap('template-import-report');
      await page.getByTestId('import-cancel').click();
    },
    TIMEOUT,
  );

  it(
    'a wrong key shows as rejected everywhere (the list, the key dialog, the Send screen) until a good check',
    async () => {
      const p = await app.handlers['profiles.save']({
        name: 'Staging',
        baseUrl: app.services.sandbox!.baseUrl,
        apiId: 'sandbox-demo',
        signing: 'off',
        format: 'json',
        connectTimeoutMs: 5000,
        totalTimeoutMs: 15000,
        lowBalanceThreshold: null,
        sendKeyUnencrypted: false,
      });
      await go('profiles');
      const row = page.locator(`[data-testid="profile-row"][data-profile-id="${p.id}"]`);
      await row.getByTestId('key-action').click();
      const modal = page.getByTestId('key-modal-body');
      await page.getByTestId('api-key-input').fill('definitely-not-the-key');
      await page.getByTestId('api-key-save').click();
      await modal.getByTestId('balance-result').waitFor();
      expect(await modal.getByTestId('balance-result').getAttribute('data-outcome')).toBe('error');
      // Never a green "set" above the red "authentication failed".
      await expect.poll(() => modal.getByTestId('key-state').getAttribute('data-standing')).toBe('rejected');
      expect(await modal.getByTestId('key-state').innerText()).toContain(t('key.rejected'));
      await expect.poll(() => row.getByTestId('key-status').getAttribute('data-standing')).toBe('rejected');
      await snap('key-rejected');
      await page.keyboard.press('Escape');
      expect(await row.getByTestId('key-status').innerText()).toBe(t('profiles.keyStatus.rejected'));

      await go('send');
      await page.locator('#send_profileId').click();
      expect(await option('Staging').innerText()).toContain(t('profiles.keyStatus.rejected'));
      await option('Staging').click();
      await page.getByTestId('balance-problem').waitFor();
      await snap('send-key-rejected');

      // A good key and a good check: shown as working everywhere.
      await go('profiles');
      await row.getByTestId('key-action').click();
      await page.getByTestId('api-key-replace').click();
      await page.getByTestId('api-key-input').fill((await app.services.secrets.get('profile:sandbox'))!);
      await page.getByTestId('api-key-save').click();
      await expect.poll(() => page.getByTestId('key-modal-body').getByTestId('key-state').getAttribute('data-standing')).toBe('works');
      await page.keyboard.press('Escape');
      await expect.poll(() => row.getByTestId('key-status').getAttribute('data-standing')).toBe('works');
    },
    TIMEOUT,
  );

  it(
    "a batch refused for balance: its refused sends match History's rejections, cost nothing, and the Sandbox is topped up from the batch",
    async () => {
      app.services.sandbox!.setBalance('sandbox-demo', 2);
      const csv = ['mobile,a,b', '13800138037,甲,A1', '13800138047,乙,A2', '13800138057,丙,A3', '13800138067,丁,A4'].join('\n');
      const view = await app.handlers['bulk.open']({
        templateId: 'ship',
        file: { name: 'four.csv', base64: Buffer.from(csv).toString('base64') },
        mapping: { mobile: 'mobile', a: '1', b: '2' },
      });
      const batch = await app.handlers['bulk.create']({ importId: view.importId, profileId: 'sandbox', duplicates: 'none' });
      await app.handlers['bulk.start']({ batchId: batch.id });
      await app.services.queue.whenStopped(batch.id);
      const p: BatchProgress = app.services.queue.progress(batch.id);
      expect(p).toMatchObject({ status: 'paused', pausedReason: 'insufficient-balance', rejected: 0 });
      const rejectedInHistory = (await app.handlers['history.page']({ filter: { outcomes: ['rejected'], mobile: '138001380' } })).rows.filter(
        (m) => m.batchItemId !== null,
      );
      expect(p.refusedSends).toBe(rejectedInHistory.length);
      expect(p.refusedSends).toBeGreaterThan(0);

      await go('bulk');
      const open = page
        .locator(`[data-testid="batch-row"][data-batch-id="${batch.id}"]`)
        .getByRole('button', { name: t('bulk.list.openLabel', { name: 'four.csv' }) });
      if (await open.isEnabled()) await open.click();
      await page.locator(`[data-testid="batch-view"][data-batch-id="${batch.id}"]`).waitFor();
      const figure = page.getByTestId('figure-refused');
      await expect.poll(() => figure.getAttribute('data-value')).toBe(String(rejectedInHistory.length));
      const banner = page.getByTestId('stop-banner');
      expect(await banner.innerText()).toContain(t('bulk.stop.sandboxTopUp'));
      await snap('batch-402');
      await page.getByTestId('stop-sandbox-topup').click();
      await expect.poll(() => app.services.sandbox!.accounts()[0]!.balance).toBeGreaterThanOrEqual(10);
      await page.getByTestId('batch-resume').click();
      await expect.poll(() => page.getByTestId('batch-view').getAttribute('data-status'), { timeout: 30_000 }).toBe('done');

      // History: the refused sends are there, rejected, and billed nothing.
      await go('history');
      const refused = page.locator('[data-testid="history-row"][data-outcome="rejected"]');
      await expect.poll(() => refused.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(rejectedInHistory.length);
      for (const units of await refused.getByTestId('row-units').evaluateAll((els) => els.map((e) => e.getAttribute('data-units')))) expect(units).toBe('0');
    },
    TIMEOUT,
  );

  it(
    'texts: the navigation and the title name History alike, the no-keychain banner says its advice once, the inspector says when redaction changed the size',
    async () => {
      await go('history');
      const nav = await page
        .getByRole('menuitem')
        .filter({ hasText: t('nav.history') })
        .innerText();
      expect(nav.trim()).toBe(t('history.title'));
      const banner = page.getByTestId('secret-store-banner');
      if (await banner.count()) {
        const text = await banner.innerText();
        // The consequence is said once (in the title), the cause and the fix once (below).
        expect(text.split(lang === 'zh-CN' ? '退出' : 'quit').length - 1).toBe(1);
      }
      // A send's request: its body as stored has the key replaced, so its size differs from Content-Length.
      await page.getByTestId('history-row').first().click();
      await page.getByTestId('exchange-open').first().click();
      const note = page.getByTestId('request-body-redaction-note');
      await note.waitFor();
      expect(await note.innerText()).toMatch(/Content-Length/);
      await snap('inspector-redaction');
      const text = await bodyText(page);
      if (lang === 'zh-CN') expect(text).not.toMatch(ASCII_IN_CHINESE);
      await page.keyboard.press('Escape');
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );
});
