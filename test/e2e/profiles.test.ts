// End to end, through `callout ui`'s own transport (bridge.ts): the built renderer in Chromium, its window.callout
// routed to the real handlers (real SQLite, real secret store, the embedded sandbox over HTTP).
// Run after `npx electron-vite build`. Both languages; screenshots under test-results/screens/.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { CalloutApi, ProfileView } from '../../common/contract';
import { launchChromium, startApp, type AppUnderTest } from './bridge';
import { bodyText, NOWHERE as NOWHERE_IN_PAGE, settled, translator, whereSecretAppears as whereSecretAppearsInPage } from './page-helpers';

const LOCALES = [
  { locale: 'en-US', lang: 'en', htmlLang: 'en', suffix: 'en', profileName: 'Staging' },
  { locale: 'zh-CN', lang: 'zh-CN', htmlLang: 'zh-CN', suffix: 'zh-CN', profileName: '测试环境' },
] as const;

const TIMEOUT = 60_000;
const CJK = /[\u3400-\u9fff]/;
/** A dictionary key that leaked onto the screen instead of its text. */
const RAW_KEY = /\b(app|nav|common|secretStore|errors|profiles|key|balance|issue|error|provider|reason)\.[a-z][\w-]*(\.[\w-]+)*\b/;

/** The DOM as seen from page.evaluate (the Node-side type config has no DOM library). */
interface PageGlobals {
  document: {
    title: string;
    body: { innerText: string };
    documentElement: { lang: string; outerHTML: string };
    querySelectorAll(selector: string): ArrayLike<{ value: string }>;
    getAnimations(): { playState: string; effect: { getComputedTiming(): { iterations: number } } | null }[];
    activeElement: { getAttribute(name: string): string | null } | null;
  };
  localStorage: StorageLike;
  sessionStorage: StorageLike;
  callout: CalloutApi;
}
interface StorageLike {
  length: number;
  key(i: number): string | null;
  getItem(k: string): string | null;
}

/** Where the secret might show up in the page, or in what the page can ask main for; every entry must be false. */
async function whereSecretAppears(page: Page, secret: string) {
  const list = await page.evaluate(() => (globalThis as unknown as PageGlobals).callout.profiles.list());
  return { ...(await whereSecretAppearsInPage(page, secret)), profilesList: JSON.stringify(list).includes(secret) };
}

const NOWHERE = { ...NOWHERE_IN_PAGE, profilesList: false };

/** The error text antd shows under the form item that holds the field with this id. */
function fieldError(page: Page, id: string): Locator {
  return page.locator(`.ant-form-item:has(#${id}) .ant-form-item-explain-error`);
}

describe.each(LOCALES)('Profiles screen ($suffix)', ({ locale, lang, htmlLang, suffix, profileName }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  const problems: string[] = [];
  let createdId = '';
  const t = translator(lang);
  const snap = async (name: string) => {
    // Let earlier toasts go (they last 3 s) so each screenshot shows its own screen.
    await page
      .locator('.ant-message-notice')
      .first()
      .waitFor({ state: 'detached', timeout: 5_000 })
      .catch(() => undefined);
    await settled(page);
    await app.screenshot(name);
  };
  const row = (id: string) => page.locator(`tr[data-profile-id="${id}"]`);
  const keyModal = () => page.getByRole('dialog').filter({ has: page.getByTestId('key-modal-body') });
  const confirmDialog = (title: string) => page.getByRole('dialog').filter({ hasText: title });

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ locale, browser, screen: 'profiles', onboarding: false });
    page = app.page;
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    // Load again with the listeners attached, so problems during start-up are caught too.
    await page.reload();
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it(
    'lists the built-in Sandbox with its key set, in the OS language',
    async () => {
      const sandbox = row('sandbox');
      await sandbox.waitFor();
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.lang)).toBe(htmlLang);
      expect(await sandbox.getByTestId('builtin-tag').innerText()).toBe(t('profiles.builtin'));
      // Set; "works" once the Sandbox answered a request with it (the Send screen checks the balance).
      expect([t('profiles.keyStatus.unchecked'), t('profiles.keyStatus.works')]).toContain(await sandbox.getByTestId('key-status').innerText());
      expect(await sandbox.getByTestId('key-status').getAttribute('data-has-key')).toBe('true');
      expect(await sandbox.innerText()).toContain(app.services.sandbox!.baseUrl);
      // The built-in profile cannot be deleted: no delete action in its row.
      expect(await sandbox.getByRole('button', { name: t('profiles.actionLabel.delete', { name: 'Sandbox' }) }).count()).toBe(0);
      await expect.poll(() => page.getByRole('heading', { name: t('profiles.title') }).count()).toBe(1);

      const text = await bodyText(page);
      expect(text).toContain(t('profiles.intro'));
      expect(text).not.toMatch(RAW_KEY);
      if (lang === 'zh-CN') expect(text).toMatch(CJK);
      else expect(text.replace('中文', '')).not.toMatch(CJK); // the switch names each language in itself

      const banner = page.getByTestId('secret-store-banner');
      if ((await app.services.secretStatus()).kind === 'session') {
        await banner.waitFor();
        expect(await banner.innerText()).toContain(t('secretStore.sessionTitle'));
        if (suffix === 'en') await snap('profiles-session-store-en');
      } else {
        expect(await banner.count()).toBe(0);
      }
      await snap(`profiles-list-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    'edits the built-in Sandbox with its base URL and API ID read-only',
    async () => {
      await row('sandbox')
        .getByRole('button', { name: t('profiles.actionLabel.edit', { name: 'Sandbox' }) })
        .click();
      const drawer = page.getByRole('dialog', { name: t('profiles.form.editTitle', { name: 'Sandbox' }) });
      await drawer.waitFor();
      await settled(page);
      expect(await drawer.innerText()).toContain(t('profiles.form.builtinNote'));
      expect(await page.locator('#profile_baseUrl').getAttribute('readonly')).not.toBeNull();
      expect(await page.locator('#profile_apiId').getAttribute('readonly')).not.toBeNull();
      expect(await page.locator('#profile_baseUrl').inputValue()).toBe(app.services.sandbox!.baseUrl);
      expect(await page.locator('#profile_connectTimeoutSeconds').inputValue()).toBe('5');
      await snap(`profiles-form-builtin-${suffix}`);
      await page.locator('#profile_lowBalanceThreshold').fill('7');
      await page.getByTestId('profile-save').click();
      await drawer.waitFor({ state: 'hidden' });
      expect(app.services.profiles.record('sandbox').lowBalanceThreshold).toBe(7);
      expect(app.services.profiles.record('sandbox').builtin).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'shows field problems in place, from the client and from main, in the right language',
    async () => {
      const saves = () => app.calls.filter((c) => c.channel === 'profiles.save').length;
      const savesBefore = saves();
      await page.getByTestId('add-profile').click();
      await page.getByRole('dialog', { name: t('profiles.form.addTitle') }).waitFor();
      await settled(page);

      await page.locator('#profile_baseUrl').fill('not a url');
      await page.getByTestId('profile-save').click();
      await fieldError(page, 'profile_name').waitFor();
      expect(await fieldError(page, 'profile_name').innerText()).toBe(t('msg:issue.name-required'));
      await fieldError(page, 'profile_baseUrl').waitFor();
      expect(await fieldError(page, 'profile_baseUrl').innerText()).toBe(t('msg:issue.base-url-invalid'));
      expect(saves()).toBe(savesBefore); // stopped in the client
      await snap(`profiles-form-error-${suffix}`);

      // A problem only main can see (the name is taken) is shown on its field too.
      await page.locator('#profile_name').fill('Sandbox');
      await page.locator('#profile_baseUrl').fill(app.services.sandbox!.baseUrl);
      await page.locator('#profile_apiId').fill('sandbox-demo');
      await page.getByTestId('profile-save').click();
      await expect.poll(() => fieldError(page, 'profile_name').allInnerTexts()).toEqual([t('msg:issue.name-taken')]);
      expect(saves()).toBe(savesBefore + 1);
      await expect.poll(() => fieldError(page, 'profile_baseUrl').count()).toBe(0); // (after antd's fade-out)

      // …and it goes away once the field is changed.
      await page.locator('#profile_name').fill(profileName);
      await expect.poll(() => fieldError(page, 'profile_name').count()).toBe(0);

      // The timeouts are in seconds on screen and must be in order.
      await page.locator('#profile_connectTimeoutSeconds').fill('20');
      await page.locator('#profile_totalTimeoutSeconds').fill('10');
      await page.locator('#profile_totalTimeoutSeconds').blur();
      await expect.poll(() => fieldError(page, 'profile_totalTimeoutSeconds').allInnerTexts()).toEqual([t('msg:issue.timeout-order')]);
      await page.locator('#profile_totalTimeoutSeconds').fill('30');
      await page.locator('#profile_totalTimeoutSeconds').blur();
      await expect.poll(() => fieldError(page, 'profile_totalTimeoutSeconds').count()).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'saves the profile, sets its key, checks it with a balance query, and never shows the key',
    async () => {
      await page.getByTestId('profile-save').click();
      const modal = keyModal();
      await modal.waitFor();
      await settled(page);
      expect(await modal.innerText()).toContain(t('key.newProfileTitle', { name: profileName }));
      expect(await modal.getByTestId('key-state').getAttribute('data-has-key')).toBe('false');

      const saved = app.calls.filter((c) => c.channel === 'profiles.save').at(-1)!.input as Record<string, unknown>;
      expect(saved).toMatchObject({
        name: profileName,
        baseUrl: app.services.sandbox!.baseUrl,
        apiId: 'sandbox-demo',
        connectTimeoutMs: 20_000,
        totalTimeoutMs: 30_000,
        lowBalanceThreshold: null,
      });
      const created = (await app.services.profiles.list()).find((p) => p.name === profileName)!;
      expect(created).toBeTruthy();
      createdId = created.id;
      expect(await row(createdId).getByTestId('key-status').innerText()).toBe(t('profiles.keyStatus.missing'));

      // Where the key is kept is explained.
      const storage = (await app.services.secretStatus()).kind === 'session' ? t('key.storedSession') : t('key.storedKeychain');
      expect(await modal.getByTestId('key-storage').innerText()).toContain(storage);
      await snap(`profiles-key-new-${suffix}`);

      const apiKey = app.services.sandbox!.demo.apiKey;
      const input = page.getByTestId('api-key-input');
      await input.fill(apiKey);
      await page.getByTestId('api-key-save').click();
      // The field is emptied as soon as the key is submitted (before main has even answered).
      expect(
        await page.evaluate(
          (k) => Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll('input')).some((i) => i.value.includes(k)),
          apiKey,
        ),
      ).toBe(false);

      await modal.getByTestId('balance-result').waitFor();
      expect(await modal.getByTestId('key-state').getAttribute('data-has-key')).toBe('true');
      expect(await modal.getByTestId('key-state').innerText()).toContain(t('key.isSet'));
      const expected = await app.handlers['balance.query']({ profileId: createdId });
      expect(expected.units).toBeTypeOf('number');
      const units = t(expected.units === 1 ? 'balance.units_one' : 'balance.units_other', { count: expected.units! });
      expect(await modal.getByTestId('balance-result').getAttribute('data-outcome')).toBe('success');
      expect(await modal.getByTestId('balance-result').innerText()).toContain(t('balance.okTitle', { units }));
      // The list shows what the check found (main's one record, pushed to every screen).
      await expect.poll(() => row(createdId).getByTestId('key-status').innerText()).toBe(t('profiles.keyStatus.works'));
      expect(await app.services.secrets.get(`profile:${createdId}`)).toBe(apiKey);

      expect(await whereSecretAppears(page, apiKey)).toEqual(NOWHERE);
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      await snap(`profiles-key-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    'explains a wrong key (code 401) in words',
    async () => {
      const modal = keyModal();
      await modal.getByTestId('api-key-replace').click();
      const wrong = `wrong-${randomBytes(9).toString('hex')}`;
      await page.getByTestId('api-key-input').fill(wrong);
      await page.getByTestId('api-key-save').click();
      await expect.poll(() => modal.getByTestId('balance-result').getAttribute('data-outcome')).toBe('error');
      const text = await modal.getByTestId('balance-result').innerText();
      expect(text).toContain(t('msg:provider.401.meaning'));
      expect(text).toContain(t('msg:provider.401.action'));
      expect(text).not.toMatch(/\b401\b/);
      expect(await whereSecretAppears(page, wrong)).toEqual(NOWHERE);
      expect(await whereSecretAppears(page, app.services.sandbox!.demo.apiKey)).toEqual(NOWHERE);
      await snap(`profiles-key-wrong-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    'deletes the key after confirmation',
    async () => {
      const modal = keyModal();
      await modal.getByTestId('api-key-delete').click();
      const confirm = confirmDialog(t('key.confirmDelete.title', { name: profileName }));
      await confirm.waitFor();
      await settled(page); // click once the dialog has stopped zooming in
      await confirm.getByRole('button', { name: t('key.confirmDelete.ok') }).click();
      await expect.poll(() => modal.getByTestId('key-state').getAttribute('data-has-key')).toBe('false');
      expect(await app.services.secrets.has(`profile:${createdId}`)).toBe(false);
      await expect.poll(() => row(createdId).getByTestId('key-status').innerText()).toBe(t('profiles.keyStatus.missing'));
      await modal.getByRole('button', { name: t('common.close') }).click();
      await modal.waitFor({ state: 'hidden' });
    },
    TIMEOUT,
  );

  it(
    'deletes a profile after confirmation (never the built-in one)',
    async () => {
      await row(createdId)
        .getByRole('button', { name: t('profiles.actionLabel.delete', { name: profileName }) })
        .click();
      const confirm = confirmDialog(t('profiles.confirmDelete.title', { name: profileName }));
      await confirm.waitFor();
      await settled(page); // click once the dialog has stopped zooming in
      await confirm.getByRole('button', { name: t('profiles.confirmDelete.ok') }).click();
      await confirm.waitFor({ state: 'hidden' });
      await row(createdId).waitFor({ state: 'detached' });
      const list = (await app.handlers['profiles.list'](undefined)) as ProfileView[];
      expect(list.map((p) => p.id)).toEqual(['sandbox']);
      // A direct attempt at the built-in one is refused by main with a stable code.
      const refused = await page.evaluate(() => (globalThis as unknown as PageGlobals).callout.profiles.remove({ id: 'sandbox' }));
      expect(refused).toMatchObject({ ok: false, error: { code: 'builtin-profile' } });
    },
    TIMEOUT,
  );

  if (suffix === 'en') {
    it(
      'switches language at run time and remembers the choice',
      async () => {
        await page.getByText('中文', { exact: true }).click();
        // The Chinese texts are a chunk of their own, loaded now: on a loaded machine that can take seconds.
        await page.getByRole('heading', { name: translator('zh-CN')('profiles.title') }).waitFor();
        const state = () =>
          page.evaluate(() => {
            const g = globalThis as unknown as PageGlobals;
            return { lang: g.document.documentElement.lang, saved: g.localStorage.getItem('callout.language') };
          });
        expect(await state()).toEqual({ lang: 'zh-CN', saved: 'zh-CN' });
        // antd's own texts follow (the empty filter/pagination texts are not on screen; the table header is ours).
        expect(await bodyText(page)).toContain(translator('zh-CN')('profiles.column.name'));
        await page.reload();
        await page.getByRole('heading', { name: translator('zh-CN')('profiles.title') }).waitFor();
        await page.getByText('English', { exact: true }).click();
        await page.getByRole('heading', { name: translator('en')('profiles.title') }).waitFor();
        expect(await state()).toEqual({ lang: 'en', saved: 'en' });
      },
      TIMEOUT,
    );
  }

  it(
    'can be driven from the keyboard: Tab to "Add profile", Enter opens the form, Escape closes it',
    async () => {
      await page.locator('body').click({ position: { x: 5, y: 790 } });
      const focusedTestId = () => page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.getAttribute('data-testid') ?? null);
      let reached = false;
      for (let i = 0; i < 30 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = (await focusedTestId()) === 'add-profile';
      }
      expect(reached).toBe(true);
      await page.keyboard.press('Enter');
      const drawer = page.getByRole('dialog', { name: t('profiles.form.addTitle') });
      await drawer.waitFor();
      await settled(page);
      // The first field has the focus: type, then Escape leaves without saving.
      await page.keyboard.type('Typed');
      expect(await page.locator('#profile_name').inputValue()).toBe('Typed');
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });
    },
    TIMEOUT,
  );

  it(
    'binds the key to its address: plain http to another machine needs consent; moving a keyed profile warns and removes the key',
    async () => {
      const keyed = await app.services.profiles.save({ name: `Keyed ${suffix}`, baseUrl: 'https://voice-a.example.com/api', apiId: 'acct' });
      await app.services.profiles.setKey(keyed.id, `moving-key-${randomBytes(6).toString('hex')}`);
      await page.reload();
      await row(keyed.id)
        .getByRole('button', { name: t('profiles.actionLabel.edit', { name: keyed.name }) })
        .click();
      const drawer = page.getByRole('dialog', { name: t('profiles.form.editTitle', { name: keyed.name }) });
      await drawer.waitFor();
      await settled(page);
      // Plain http to a host that is not this machine: a warning and an explicit consent.
      await page.locator('#profile_baseUrl').fill('http://voice-b.example.com/api');
      await page.getByTestId('profile-plain-http').waitFor();
      await page.getByTestId('profile-key-moves').waitFor();
      expect(await page.getByTestId('profile-key-moves').innerText()).toContain('https://voice-a.example.com');
      await page.getByTestId('profile-save').click();
      await expect.poll(() => fieldError(page, 'profile_baseUrl').allInnerTexts()).toEqual([t('msg:issue.base-url-plain-http')]);
      await snap(`profiles-key-origin-${suffix}`);
      // https to another origin: saved; the key is removed and the person is told.
      await page.locator('#profile_baseUrl').fill('https://voice-b.example.com/api');
      await expect.poll(() => page.getByTestId('profile-plain-http').count()).toBe(0);
      await page.getByTestId('profile-save').click();
      await drawer.waitFor({ state: 'hidden' });
      await page.getByText(t('profiles.keyRemoved', { name: keyed.name })).waitFor();
      await expect.poll(() => row(keyed.id).getByTestId('key-status').getAttribute('data-has-key')).toBe('false');
      expect(await app.services.secrets.get(`profile:${keyed.id}`)).toBeNull();
    },
    TIMEOUT,
  );

  it(
    'says a full disk on every screen (the storageProblem push), and clears it when writing works again',
    async () => {
      app.services.noteStoreHealth(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
      const banner = page.getByTestId('storage-banner');
      await banner.waitFor();
      expect(await banner.innerText()).toContain(t('storage.disk-full.title'));
      expect(await banner.innerText()).toContain(app.services.home);
      await snap(`storage-disk-full-${suffix}`);
      app.services.noteStoreHealth(null);
      await banner.waitFor({ state: 'detached' });
    },
    TIMEOUT,
  );

  it('logged no errors or warnings in the page', () => {
    expect(problems).toEqual([]);
  });
});
