// End to end, both languages, on the Send screen's call card: a state value the profile's dialect
// does not map is shown while the call goes on (never a silent "accepted"), and "Call again…" for
// a call the provider accepted is a secondary action, still asking first. Run after `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { builtinDialect, type Dialect } from '../../common/dialects';
import { reasonArgs } from '../../common/messages';
import type { MessageRecord } from '../../common/records';
import { SANDBOX_API_ID } from '../../main/profiles/profile-service';
import { launchChromium, startApp, type AppUnderTest } from './bridge';
import { catalogText, collectProblems, pickOption, settled, translator } from './page-helpers';

const LOCALES = [
  { locale: 'en-US', lang: 'en', suffix: 'en' },
  { locale: 'zh-CN', lang: 'zh-CN', suffix: 'zh-CN' },
] as const;
const TIMEOUT = 60_000;
const ALERT = '【变量】告警：【变量】，请立即处理。';

describe.each(LOCALES)('the call card never leaves a call silently unread ($suffix)', ({ locale, lang, suffix }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let strictId = '';
  const problems: string[] = [];
  const t = translator(lang);
  const card = () => page.getByTestId('call-card');
  const cardAttr = async (name: string) =>
    (await card().count())
      ? card()
          .first()
          .getAttribute(name, { timeout: 1_000 })
          .catch(() => null)
      : null;

  /** Sends the alert template to `mobile` with `profile` from the form; returns the new message's id. */
  const sendFromForm = async (profile: string, mobile: string): Promise<number> => {
    await pickOption(page, page.locator('#send_profileId'), profile);
    await pickOption(page, page.locator('#send_templateId'), '告警通知');
    await page.getByLabel(t('send.field.variable', { n: 1 }), { exact: true }).fill('db1');
    await page.getByLabel(t('send.field.variable', { n: 2 }), { exact: true }).fill('主库宕机');
    await page.locator('#send_mobile').fill(mobile);
    await page.keyboard.press('Escape');
    const before = await cardAttr('data-message-id');
    await page.getByTestId('send-button').click();
    await page.getByTestId('confirm-body').waitFor();
    await settled(page);
    await page.getByTestId('confirm-send').click();
    // The new call's card (while the card is being replaced it may be absent: no id at all).
    let id: string | null = null;
    await expect.poll(async () => (id = await cardAttr('data-message-id')) !== null && id !== before, { timeout: 20_000 }).toBe(true);
    return Number(id);
  };

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ locale, browser, onboarding: false, sandbox: { timeScale: 0.01 } });
    page = app.page;
    collectProblems(page, problems);
    const sandbox = app.services.sandbox!;
    // A profile whose dialect maps only "answered": every other state the sandbox says is not recognised.
    const spec = builtinDialect('spec')!;
    const strict: Dialect = { ...spec, id: undefined, name: 'Strict', words: false, status: { ...spec.status!, states: { answered: 'answered' } } };
    const saved = await app.handlers['profiles.save']({
      name: 'Strict',
      baseUrl: sandbox.baseUrl,
      apiId: SANDBOX_API_ID,
      signing: 'off',
      format: 'json',
      connectTimeoutMs: 5000,
      totalTimeoutMs: 15000,
      lowBalanceThreshold: null,
      sendKeyUnencrypted: false,
    });
    await app.handlers['profiles.setKey']({ id: saved.id, apiKey: sandbox.demo.apiKey });
    await app.handlers['profiles.setDialect']({ id: saved.id, dialect: { custom: strict } });
    strictId = saved.id;
    await app.handlers['templates.save']({ name: '告警通知', content: ALERT, approved: true });
    await page.reload();
    await page.getByTestId('send-form-card').waitFor();
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it(
    'a state value the dialect does not map is shown on the card, with the value',
    async () => {
      const id = await sendFromForm('Strict', '13800138000');
      let m: MessageRecord | undefined;
      await expect.poll(() => (m = app.services.sent.detail(id).message)?.reason?.code, { timeout: 20_000 }).toBe('unmapped-state');
      expect(m!.profile).toBe(strictId);
      const said = catalogText(t, reasonArgs(m!.reason!));
      await expect.poll(() => card().getByTestId('call-outcome').innerText(), { timeout: 10_000 }).toContain(said);
      expect(await card().getByTestId('call-outcome').getAttribute('data-type')).toBe('warning');
      await app.screenshot(`unread-card-unmapped-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    '"Call again…" for an accepted call that nobody answered is secondary, and still asks first',
    async () => {
      const id = await sendFromForm('Sandbox', '13800138000');
      await expect.poll(() => cardAttr('data-phase'), { timeout: 30_000 }).toBe('ended');
      expect(app.services.sent.detail(id).message).toMatchObject({ outcome: 'accepted', state: 'no_answer' });
      const again = card().getByTestId('send-again');
      expect(await again.innerText()).toContain(t('send.again.callAgain'));
      expect(await again.getAttribute('data-emphasis')).toBe('secondary');
      expect(await again.getAttribute('class')).not.toContain('ant-btn-dangerous');
      expect(await again.getAttribute('class')).not.toContain('ant-btn-primary');
      const sends = app.services.sandbox!.requests().filter((r) => r.op === 'send').length;
      await again.click();
      const confirm = page.getByTestId('send-again-confirm');
      await confirm.waitFor();
      await settled(page);
      expect(await confirm.innerText()).toContain(t('send.again.callAgainBody'));
      await app.screenshot(`unread-call-again-${suffix}`);
      await page.getByRole('button', { name: t('send.again.cancel') }).click();
      await confirm.waitFor({ state: 'hidden' });
      expect(app.services.sandbox!.requests().filter((r) => r.op === 'send').length).toBe(sends);
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );
});
