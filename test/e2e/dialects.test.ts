// End to end, both languages: a profile that reads a provider speaking numeric call states (the
// embedded sandbox rehearses it), chosen in "Replies & receipts" with a receipt listener; a busy
// call whose value (200002) the dialect does not know is shown on the message; "Map it…" opens the
// reply as a tree, the value is mapped, the preview says how many replies now resolve, and saving
// ends the call as busy. Screenshots under test-results/screens/.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { builtinDialect, type Dialect } from '../../common/dialects';
import { reasonArgs } from '../../common/messages';
import type { MessageRecord } from '../../common/records';
import { SANDBOX_API_ID } from '../../main/profiles/profile-service';
import { launchChromium, startApp, type AppUnderTest } from './bridge';
import { bodyText, catalogText, choose, pickOption, settled, translator } from './page-helpers';
import { withStore } from '../helpers/stored';

const LOCALES = [
  { locale: 'en-US', lang: 'en', suffix: 'en' },
  { locale: 'zh-CN', lang: 'zh-CN', suffix: 'zh-CN' },
] as const;

const TIMEOUT = 60_000;
const OTP = '您的验证码是123456，5分钟内有效。';
const RAW_KEY = /\b(dialects|profiles|history|common)\.[a-z][\w-]*(\.[\w-]+)+\b/;

describe.each(LOCALES)('Dialects and the teach flow ($suffix)', ({ locale, lang, suffix }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let profileId = '';
  let busy: MessageRecord;
  const problems: string[] = [];
  const t = translator(lang);
  const numeric = builtinDialect('numeric-states')!;
  const snap = async (name: string) => {
    await page
      .locator('.ant-message-notice')
      .first()
      .waitFor({ state: 'detached', timeout: 6_000 })
      .catch(() => undefined);
    await page.mouse.move(600, 28);
    await settled(page);
    await app.screenshot(name);
  };
  // The first pushed update that matches; after 20 s, a failure that says which wait it was.
  const update = (pred: (m: MessageRecord) => boolean, what = 'a message update') =>
    new Promise<MessageRecord>((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new Error(`no ${what} in 20 s`));
      }, 20_000);
      const off = app.services.subscribe((channel, payload) => {
        if (channel === 'main:message-updated' && pred(payload as MessageRecord)) {
          clearTimeout(timer);
          off();
          resolve(payload as MessageRecord);
        }
      });
    });

  beforeAll(async () => {
    browser = await launchChromium();
    // The sandbox rehearses a provider with numeric states; its busy line says 200002.
    app = await startApp({ locale, browser, screen: 'profiles', onboarding: false, sandbox: { dialect: numeric } });
    page = app.page;
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${m.type()}: ${m.text()}`);
    });
    const sandbox = app.services.sandbox!;
    const saved = await app.handlers['profiles.save']({
      name: 'Rehearsal',
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
    profileId = saved.id;
    await page.reload();
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it(
    'chooses a built-in dialect and a receipt listener in “Replies & receipts”',
    async () => {
      const row = page.locator(`tr[data-profile-id="${profileId}"]`);
      await row.waitFor();
      expect(await row.getByTestId('profile-reading').getAttribute('data-dialect')).toBe('spec');
      await row.getByTestId('reading-action').click();
      const drawer = page.getByTestId('reading-drawer');
      await drawer.getByTestId('reading-drawer-body').waitFor();
      // Each dialect's requests, as a tester compares them with the provider's documentation.
      await choose(page, drawer.getByTestId('dialect-select'), t('msg:dialect.ihuyi.name'));
      const requests = drawer.getByTestId('dialect-requests');
      await expect.poll(() => requests.getByTestId('dialect-request-send').innerText()).toContain('POST /webservice/voice.php?method=Submit');
      expect(await requests.getByTestId('dialect-request-send').innerText()).toContain(t('dialects.drawer.requestBody.form'));
      expect(await requests.getByTestId('dialect-request-status').innerText()).toContain(t('dialects.drawer.requestNone'));
      expect(await requests.innerText()).toContain(t('dialects.drawer.keyField', { name: 'password' }));
      // Read in the smallest window the app supports: within it, nothing cut.
      await page.setViewportSize({ width: 1024, height: 700 });
      await requests.scrollIntoViewIfNeeded();
      const box = (await requests.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(1024);
      expect(box.y + box.height).toBeLessThanOrEqual(700);
      await snap(`dialects-requests-${suffix}`);
      await page.setViewportSize({ width: 1280, height: 800 });
      await choose(page, drawer.getByTestId('dialect-select'), t('msg:dialect.numeric-states.name'));
      await drawer.getByTestId('dialect-apply').click();
      await expect.poll(() => row.getByTestId('profile-reading').getAttribute('data-dialect')).toBe('numeric-states');
      expect(withStore(app.services.home, (s) => s.profiles.get(profileId))!.dialectId).toBe('numeric-states');

      // Follow by status queries and receipts: the listener starts, its address is shown with its secret.
      await drawer.getByTestId('follow-mode').getByText(t('dialects.follow.both')).click();
      await drawer.getByTestId('follow-save').click();
      await drawer.getByTestId('receipt-address').waitFor();
      expect(await drawer.getByTestId('listener-state').getAttribute('data-state')).toBe('listening');
      const url = await drawer.getByTestId('receipt-url').innerText();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]{32}/);
      expect(await drawer.innerText()).toContain(t('dialects.drawer.addressHelp'));
      // The sandbox pushes its receipts there.
      app.services.sandbox!.setReceiptsUrl(app.services.receipts.status(profileId).url);
      await drawer.getByTestId('receipt-address').scrollIntoViewIfNeeded();
      await snap(`dialects-reading-${suffix}`);
      expect(await bodyText(page)).not.toMatch(RAW_KEY);

      // A file that is not a dialect says what is wrong, field by field.
      await drawer.locator('input[type="file"]').setInputFiles({
        name: 'bad.json',
        mimeType: 'application/json',
        buffer: Buffer.from('{"name":"x","send":{"id":"a"},"status":{"state":"s","states":{"1":"answred"}},"extra":1}'),
      });
      const problemsList = drawer.getByTestId('dialect-problems');
      await problemsList.waitFor();
      const said = await problemsList.innerText();
      expect(said).toContain('status.states.1');
      expect(said).toContain(t('msg:issue.dialect-state'));
      expect(said).toContain(t('msg:issue.dialect-unknown-field'));
      expect(withStore(app.services.home, (s) => s.profiles.get(profileId))!.dialectId).toBe('numeric-states');
      await page.locator('.ant-drawer-open .ant-drawer-close').last().click();
      await page
        .locator('.ant-drawer-open')
        .waitFor({ state: 'detached' })
        .catch(() => undefined);
      expect(await row.getByTestId('profile-reading').innerText()).toContain(t('dialects.follow.both'));
      await snap(`dialects-profiles-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    'shows a state value the dialect does not map on the message, never a guess',
    async () => {
      const shown = update((m) => m.reason?.code === 'unmapped-state');
      const sent = await app.handlers['messages.send']({ profileId, mobile: '13800138001', content: OTP, templateId: null });
      busy = await shown;
      expect(busy).toMatchObject({ id: sent.message.id, state: 'unknown', endedAt: null });
      await page.goto(page.url().replace(/#.*$/, '#/history'));
      const row = page.locator(`[data-testid="history-row"][data-message-id="${busy.id}"]`);
      await row.click({ position: { x: 60, y: 20 } });
      const alert = page.getByTestId('unmapped-alert');
      await alert.waitFor();
      expect(await alert.innerText()).toContain(catalogText(t, reasonArgs(busy.reason!)));
      expect(await page.getByTestId('panel-state').innerText()).toBe(t('msg:state.unknown'));
      // The timeline says it too, where the value arrived.
      expect(await page.getByTestId('message-timeline').innerText()).toContain(catalogText(t, reasonArgs(busy.reason!)));
      await snap(`dialects-unmapped-${suffix}`);

      // The same reply from its exchange, in the inspector: "Map this reply…" is there (on the send too).
      // The value may first have come in a receipt (pushed); the follower's first status reply comes
      // about 2 s after the send (main follows on the system clock), and the panel lists it.
      let exchanges: Awaited<ReturnType<(typeof app.handlers)['messages.get']>>['exchanges'] = [];
      await expect
        .poll(async () => (exchanges = (await app.handlers['messages.get']({ id: busy.id })).exchanges).some((e) => e.operation === 'status'), {
          timeout: 20_000,
        })
        .toBe(true);
      // One the panel already lists (the call is still followed: newer ones keep coming).
      const status = exchanges.find((e) => e.operation === 'status')!;
      await page.locator(`[data-testid="exchange-item"][data-exchange-id="${status.id}"]`).waitFor();
      const send = exchanges.find((e) => e.operation === 'send')!;
      await page.locator(`[data-testid="exchange-item"][data-exchange-id="${send.id}"] [data-testid="exchange-open"]`).click();
      await page.getByTestId('inspector').waitFor();
      expect(await page.getByTestId('inspector').getByTestId('map-reply').count()).toBe(1);
      await page.keyboard.press('Escape');
      await page.getByTestId('inspector').waitFor({ state: 'detached' });
      await page.locator(`[data-testid="exchange-item"][data-exchange-id="${status.id}"] [data-testid="exchange-open"]`).click();
      await expect.poll(() => page.getByTestId('inspector').getAttribute('data-exchange-id')).toBe(String(status.id));
      expect(await page.getByTestId('inspector').getByTestId('map-reply').innerText()).toBe(t('dialects.teach.button'));
      await snap(`dialects-inspector-${suffix}`);
      await page.keyboard.press('Escape');
      await page.getByTestId('inspector').waitFor({ state: 'detached' });
      await settled(page);
    },
    TIMEOUT,
  );

  it('maps it from the reply: the tree, the values seen, the preview, and saving ends the call as busy', async () => {
    // An answered call first: its replies are ones the profile's dialect reads today.
    const answered = update((m) => m.endedAt !== null && m.state === 'answered', 'answered call');
    await app.handlers['messages.send']({ profileId, mobile: '13800138008', content: OTP, templateId: null });
    await answered;
    await page.getByTestId('map-unmapped').click();
    const drawer = page.getByTestId('teach-drawer');
    await drawer.getByTestId('teach').waitFor();
    // The reply as a tree: data is a JSON text, opened; the state's value is there.
    const stateNode = drawer.locator('[data-testid="teach-node"][data-path="data.state"]');
    await stateNode.waitFor();
    expect(await stateNode.innerText()).toContain('200002');
    expect(await drawer.getByTestId('teach-tree').innerText()).toContain(t('dialects.teach.jsonText'));
    expect(await drawer.getByTestId('teach-reading-state').getAttribute('data-state')).toBe('unknown');
    // Picking the state field (the dialect already reads it there, relative to its record).
    await stateNode.click();
    expect(await drawer.getByTestId('teach-picked').innerText()).toContain(
      t('dialects.teach.picked', { target: t('dialects.teach.target.state'), path: 'state' }),
    );

    const value = drawer.locator('[data-testid="teach-value"][data-value="200002"]');
    await value.waitFor();
    const before = withStore(app.services.home, (s) => s.exchanges.recentForProfile(profileId, ['status'], 5000).length);
    expect(before).toBeGreaterThan(0);
    const preview = drawer.getByTestId('teach-resolve-status');
    await preview.waitFor();
    const first = await preview.innerText();

    // Taking away a mapping the profile reads with today reads fewer captured replies: said in the
    // preview, and saving asks first (Cancel keeps everything as it was).
    const mapped = drawer.locator('[data-testid="teach-value"]:not([data-value="200002"])').first();
    await mapped.waitFor();
    const was = (await mapped.getByTestId('teach-map').innerText()).trim();
    expect(was).not.toBe(t('dialects.teach.notMapped'));
    await choose(page, mapped.getByTestId('teach-map'), t('dialects.teach.notMapped'));
    const fewer = drawer.getByTestId('teach-fewer');
    await fewer.waitFor();
    expect(await fewer.innerText()).toContain(t('dialects.teach.fewer'));
    const counts = await drawer
      .locator('[data-testid^="teach-resolve-"]')
      .evaluateAll((items) => items.map((i) => Number(i.getAttribute('data-before')) - Number(i.getAttribute('data-resolved'))));
    expect(Math.max(...counts)).toBeGreaterThan(0);
    // In the smallest window the app supports, the warning is there to read, within the window.
    await page.setViewportSize({ width: 1024, height: 700 });
    onTestFinished(() => page.setViewportSize({ width: 1280, height: 800 }));
    await fewer.scrollIntoViewIfNeeded();
    const box = (await fewer.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(1024);
    expect(box.y + box.height).toBeLessThanOrEqual(700);
    await snap(`dialects-fewer-${suffix}`);
    await drawer.getByTestId('teach-save').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain(t('dialects.teach.fewerConfirm'));
    // (antd spaces out a two-character Chinese label: 取 消)
    await confirm.getByRole('button', { name: new RegExp(`^${[...t('common.cancel')].join('\\s*')}$`) }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(withStore(app.services.home, (s) => s.profiles.get(profileId))!.dialectId).toBe('numeric-states');
    await choose(page, mapped.getByTestId('teach-map'), was);
    await fewer.waitFor({ state: 'detached' });
    await expect.poll(() => preview.innerText()).toBe(first);

    await choose(page, value.getByTestId('teach-map'), t('msg:state.busy'));
    await expect.poll(() => drawer.getByTestId('teach-reading-state').getAttribute('data-state')).toBe('busy');
    await expect.poll(() => preview.innerText()).not.toBe(first);
    // "N of M now resolve (before: K)": more now than before, and said in words.
    const count = async (name: string) => Number(await preview.getAttribute(`data-${name}`));
    const [now, of, earlier] = [await count('resolved'), await count('total'), await count('before')];
    expect(now).toBeGreaterThan(earlier);
    expect(now).toBeLessThanOrEqual(of);
    expect(await preview.innerText()).toBe(t('dialects.teach.resolve', { resolved: now, total: of, before: earlier }));
    await snap(`dialects-teach-${suffix}`);
    expect(await bodyText(page)).not.toMatch(RAW_KEY);

    const ended = update((m) => m.id === busy.id && m.endedAt !== null);
    await drawer.getByTestId('teach-save').click();
    const m = await ended;
    expect(m).toMatchObject({ state: 'busy', reason: null });
    await expect.poll(() => page.getByTestId('panel-state').innerText()).toBe(t('msg:state.busy'));
    expect(await page.getByTestId('unmapped-alert').count()).toBe(0);
    const stored = withStore(app.services.home, (s) => s.profiles.get(profileId))!;
    expect(stored).toMatchObject({
      dialectId: null,
      dialect: { name: `${t('msg:dialect.numeric-states.name')}${lang === 'en' ? ' ' : ''}${t('dialects.teach.nameSuffix')}` },
    });
    expect(stored.dialect.status!.states['200002']).toBe('busy');
    await snap(`dialects-mapped-${suffix}`);
  }, 90_000);

  it(
    'lists receipts among the exchanges, with the path secret redacted',
    async () => {
      await page
        .locator('.ant-drawer-open .ant-drawer-close')
        .last()
        .click()
        .catch(() => undefined);
      const shown = update((m) => m.endedAt !== null && m.state === 'answered');
      await app.handlers['messages.send']({ profileId, mobile: '13800138008', content: OTP, templateId: null });
      await shown;
      await expect.poll(() => withStore(app.services.home, (s) => s.exchanges.recentForProfile(profileId, ['receipt'], 10).length)).toBeGreaterThan(0);
      await page.getByRole('tab', { name: t('history.tabs.exchanges') }).click();
      await pickOption(page, page.getByTestId('exchanges-operation'), t('history.operation.receipt'), { close: true });
      const list = page.getByTestId('exchanges-list');
      // In a URL the placeholder is percent-encoded (%5BREDACTED%5D), so that copy as cURL still works.
      await expect.poll(async () => (await list.innerText()).includes('%5BREDACTED%5D')).toBe(true);
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "teaches a send reply's message ID: the call that could not be followed is followed to its end",
    async () => {
      // The profile reads the message ID at a place the provider does not write it.
      const lost: Dialect = { ...numeric, id: undefined, name: 'lost', send: { ...numeric.send, id: 'data.messageId' } };
      await app.handlers['profiles.setDialect']({ id: profileId, dialect: { custom: lost } });
      const sent = await app.handlers['messages.send']({ profileId, mobile: '13800138008', content: OTP, templateId: null });
      expect(sent.message).toMatchObject({ outcome: 'accepted', smsid: null, state: 'unknown', reason: { code: 'no-message-id' } });
      await page.goto(page.url().replace(/#.*$/, '#/history'));
      await page.getByRole('tab', { name: t('history.tabs.messages') }).click();
      const row = page.locator(`[data-testid="history-row"][data-message-id="${sent.message.id}"]`);
      await row.click({ position: { x: 60, y: 20 } });
      const send = (await app.handlers['messages.get']({ id: sent.message.id })).exchanges.find((e) => e.operation === 'send')!;
      await page.locator(`[data-testid="exchange-item"][data-exchange-id="${send.id}"] [data-testid="exchange-open"]`).click();
      await page.getByTestId('inspector').getByTestId('map-reply').click();
      const drawer = page.getByTestId('teach-drawer');
      await drawer.getByTestId('teach').waitFor();
      // The message ID is what to pick first; the reply reads none yet.
      expect(await drawer.getByTestId('teach-reading-id').getAttribute('data-id')).toBe('');
      const sends = drawer.getByTestId('teach-resolve-sends');
      await sends.waitFor();
      expect(await sends.getAttribute('data-before')).toBe('0');
      // A wrong pick first: "msg" says the same words in every send reply of the profile, so it is no call's own ID.
      await drawer.locator('[data-testid="teach-node"][data-path="msg"]').click();
      const shared = drawer.getByTestId('teach-shared-ids');
      await shared.waitFor();
      const count = Number(await shared.getAttribute('data-count'));
      expect(count).toBeGreaterThanOrEqual(2);
      expect(await shared.innerText()).toContain(t('dialects.teach.sharedIds', { count }));
      await snap(`dialects-teach-shared-ids-${suffix}`);
      await drawer.locator('[data-testid="teach-node"][data-path="data.callId"]').click();
      await expect.poll(() => drawer.getByTestId('teach-reading-id').getAttribute('data-id')).not.toBe('');
      await shared.waitFor({ state: 'detached' });
      expect(await drawer.getByTestId('teach-picked').innerText()).toContain(
        t('dialects.teach.picked', { target: t('dialects.teach.target.id'), path: 'data.callId' }),
      );
      await expect.poll(async () => Number(await sends.getAttribute('data-resolved'))).toBeGreaterThan(0);
      await snap(`dialects-teach-send-${suffix}`);
      expect(await bodyText(page)).not.toMatch(RAW_KEY);

      // Saved: the ID is read from the reply already captured; the call is followed to its end, sent once.
      const ended = update((m) => m.id === sent.message.id && m.endedAt !== null && m.state === 'answered');
      await drawer.getByTestId('teach-save').click();
      const m = await ended;
      expect(m.smsid).toMatch(/\S/);
      await page.getByTestId('inspector').waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByTestId('panel-state').innerText()).toBe(t('msg:state.answered'));
      expect(await page.getByTestId('message-timeline').innerText()).toContain(m.smsid!);
      expect((await app.handlers['messages.get']({ id: m.id })).exchanges.filter((e) => e.operation === 'send')).toHaveLength(1);
      await snap(`dialects-send-followed-${suffix}`);
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );
});
