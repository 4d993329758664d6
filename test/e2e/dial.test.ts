// End to end, through `callout ui`'s own transport (bridge.ts): Quick dial in Chromium, its window.callout routed to
// the real handlers (real SQLite, the dialer, the embedded sandbox over HTTP, main following calls).
// Run after `npx electron-vite build`. Both languages; screenshots under test-results/screens/.
// Dial limits and quiet hours are set explicitly, so that results never depend on the clock.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, startApp, type AppUnderTest } from './bridge';
import { bodyText, collectProblems, settled, spokenTexts, stubSpeech, translator } from './page-helpers';

const TIMEOUT = 90_000;
const CJK = /[\u3400-\u9fff]/;
/** A dictionary key (the screen's, or the message catalog's) that leaked onto the screen instead of its text. */
const RAW_KEY = /\b(common|errors|dial|dialResult|refusal|state)\.[a-z][\w-]*(\.[\w-]+)*\b/;
/** The on-call template (registered and approved at the sandbox's provider). */
const ALERT = '【变量】告警：【变量】，请立即处理。';
const VALUES = { en: ['DB', 'disk full'], 'zh-CN': ['数据库', '磁盘已满'] } as const;

/** Last digit scripts the sandbox: 0 never answers (after the provider's redials), 8 answers, 5 answers on the provider's redial. */
const PEOPLE = {
  en: {
    never: { name: 'Zhang Wei', mobile: '13900000000', typed: 'zh' },
    answers: { name: 'Li Na', mobile: '13900000008', typed: 'li' },
    redial: { name: 'Wang Fang', mobile: '13900000005', typed: 'wf' },
  },
  'zh-CN': {
    never: { name: '张伟', mobile: '13700000000', typed: '张' },
    answers: { name: '李娜', mobile: '13700000008', typed: '李' },
    redial: { name: '王芳', mobile: '13700000005', typed: '王芳' },
  },
} as const;

const LOCALES = [
  { locale: 'en-US', lang: 'en', suffix: 'en', full: true },
  { locale: 'zh-CN', lang: 'zh-CN', suffix: 'zh-CN', full: false },
] as const;

interface PageGlobals {
  location: { hash: string };
  document: {
    body: { innerText: string };
    activeElement: { getAttribute(name: string): string | null; tagName: string } | null;
    getAnimations(): { playState: string; effect: { getComputedTiming(): { iterations: number } } | null }[];
  };
}

/** The test id of the focused element (or its tag). */
async function focused(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const el = (globalThis as unknown as PageGlobals).document.activeElement;
    return el ? (el.getAttribute('data-testid') ?? el.tagName.toLowerCase()) : null;
  });
}

describe.each(LOCALES)('Quick dial ($suffix)', ({ locale, lang, suffix, full }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  const problems: string[] = [];
  const people = PEOPLE[lang];
  const t = translator(lang);
  const sendsTo = (mobile: string) => app.services.sandbox!.requests().filter((r) => r.op === 'send' && r.body?.mobile === mobile);
  const palette = () => page.getByTestId('palette-body');
  const stage = () =>
    palette()
      .getAttribute('data-stage', { timeout: 2_000 })
      .catch(() => null);
  const card = () => page.getByTestId('run-card').first();
  const snap = async (name: string, top: string | null = '#dial-title') => {
    await page
      .locator('.ant-message-notice')
      .first()
      .waitFor({ state: 'detached', timeout: 5_000 })
      .catch(() => undefined);
    if (top)
      await page
        .locator(top)
        .first()
        .evaluate((el) => (el as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'start' }));
    await settled(page);
    await app.screenshot(name);
  };
  const setLimits = (perMinute: number | null) =>
    app.handlers['dial.saveSettings']({ scope: '*', perMinute, perHour: 100, perDay: 500, quietStart: null, quietEnd: null });

  /**
   * Ctrl+K, a few letters, Enter (the person), Enter (call): the keyboard only. The very first call
   * with the template needs its values (typed, Tab between them); later ones are prefilled.
   */
  const quickDial = async (typed: string, expectedTarget: string, values?: readonly string[], screenshot?: string) => {
    await page.keyboard.press('Control+k');
    await expect.poll(stage).toBe('search');
    await expect.poll(() => focused(page)).toBe('palette-search');
    await page.keyboard.type(typed);
    await expect.poll(() => palette().getByTestId('palette-options').getAttribute('data-fresh')).toBe('true');
    await expect.poll(() => palette().getByTestId('palette-option').first().innerText()).toContain(expectedTarget);
    await page.keyboard.press('Enter');
    await expect.poll(stage).toBe('confirm');
    expect(await palette().getByTestId('palette-target').innerText()).toContain(expectedTarget);
    if (values) {
      await expect.poll(() => focused(page)).toBe('palette-value');
      for (const [i, v] of values.entries()) {
        if (i > 0) await page.keyboard.press('Tab');
        await page.keyboard.type(v);
      }
    } else await expect.poll(() => focused(page)).toBe('palette-call');
    if (screenshot) await snap(screenshot, null);
    await page.keyboard.press('Enter');
  };

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ locale, browser });
    page = app.page;
    collectProblems(page, problems);
    app.services.sandbox!.setBalance('sandbox-demo', 1_000);
    // Limits set explicitly: the default quiet hours (22:00–08:00 local) would make the results depend on the clock.
    await setLimits(10);
    await app.handlers['templates.save']({
      name: '告警通知',
      content: ALERT,
      approved: true,
      markerNames: lang === 'en' ? ['System', 'Problem'] : ['系统', '问题'],
    });
    await page.goto(page.url().replace(/#.*$/, '') + '#/dial');
    await page.reload();
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it(
    'adds contacts: the number is checked and normalised, favourites come first',
    async () => {
      await page.getByRole('heading', { name: t('dial.title') }).waitFor();
      await page.getByTestId('dial-runs-empty').waitFor();
      expect(await page.getByTestId('contacts-tab').innerText()).toContain(t('dial.contacts.empty'));

      // With no contact yet, the palette says where contacts are added and takes the person there.
      await page.goto(page.url().replace(/#.*$/, '') + '#/send');
      await page.locator('main h3').first().waitFor();
      await page.keyboard.press('Control+k');
      // The palette's code loads after the first screen has settled: allow a busy machine its time.
      await expect.poll(stage, { timeout: 15_000 }).toBe('search');
      await expect
        .poll(
          () =>
            palette()
              .getByTestId('palette-empty')
              .innerText()
              .catch(() => ''),
          { timeout: 10_000 },
        )
        .toContain(t('dial.palette.noContacts'));
      if (full) await snap(`dial-palette-empty-${suffix}`, null);
      await palette().getByTestId('palette-add-contacts').click();
      await expect.poll(() => palette().count(), { timeout: 10_000 }).toBe(0);
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).location.hash), { timeout: 10_000 }).toBe('#/dial');
      await page.getByTestId('contacts-tab').waitFor();

      await page.getByTestId('add-contact').first().click();
      const form = page.getByTestId('contact-form');
      await form.waitFor();
      await settled(page);
      await page.locator('#contact_name').fill(people.never.name);
      await page.locator('#contact_mobile').fill('139 0000');
      await page.locator('#contact_note').fill(lang === 'en' ? 'Database on-call' : '数据库值班');
      await page.locator('#contact_favourite').check();
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.locator('.ant-form-item:has(#contact_mobile) .ant-form-item-explain-error').allInnerTexts())
        .toEqual([t('msg:mobile.wrong-length')]);
      // A landline is named as one, not as a number with the wrong count of digits.
      await page.locator('#contact_mobile').fill('0755-12345678');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.locator('.ant-form-item:has(#contact_mobile) .ant-form-item-explain-error').allInnerTexts(), { timeout: 10_000 })
        .toEqual([t('msg:mobile.landline')]);
      await page.locator('#contact_mobile').fill(`+86 ${people.never.mobile.slice(0, 3)}-${people.never.mobile.slice(3, 7)}-${people.never.mobile.slice(7)}`);
      await page.keyboard.press('Enter');
      const row = page.getByTestId('contact-row');
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.first().innerText()).toContain(people.never.mobile);
      expect(await row.first().getAttribute('data-favourite')).toBe('true');

      // The others through main, as if added on another day; the screen shows them after a reload.
      const answers = await app.handlers['contacts.save']({
        name: people.answers.name,
        mobile: people.answers.mobile,
        note: lang === 'en' ? 'Network, second line' : '网络二线',
      });
      await app.handlers['contacts.save']({ name: people.redial.name, mobile: people.redial.mobile });
      const never = (await app.handlers['contacts.list'](undefined)).find((c) => c.mobile === people.never.mobile)!;
      await app.handlers['contacts.saveGroup']({ name: lang === 'en' ? 'Database escalation' : '数据库升级', memberIds: [never.id, answers.id] });
      await page.reload();
      // After a reload the screen's code and its lists load again: on a busy machine that took over 5 s.
      await expect.poll(() => row.count(), { timeout: 20_000 }).toBe(3);
      expect(await row.first().innerText()).toContain(people.never.name); // favourite first
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      if (lang === 'zh-CN') expect(await bodyText(page)).toMatch(CJK);
      if (full) await snap(`dial-contacts-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    'opens the palette with the keyboard shortcut from another screen; a few letters find the person, favourites first',
    async () => {
      await page.goto(page.url().replace(/#.*$/, '') + '#/send');
      await page.locator('main h3').first().waitFor();
      await page.keyboard.press('Control+k');
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).location.hash)).toBe('#/dial');
      await expect.poll(stage).toBe('search');
      await expect.poll(() => focused(page)).toBe('palette-search');
      // A dialog closing behind the palette (a send confirmed just before Ctrl+K) hands the focus back
      // to what opened it: the palette keeps it, so what is typed next still goes to its search.
      const thrown = await page.evaluate(() => {
        const behind = (globalThis as unknown as { document: { querySelector(s: string): { focus(): void } | null } }).document.querySelector('main button');
        behind?.focus();
        return behind !== null;
      });
      expect(thrown).toBe(true);
      await expect.poll(() => focused(page)).toBe('palette-search');
      await settled(page); // the opening animation has ended: the dialog frame did not take the focus either
      expect(await focused(page)).toBe('palette-search');
      // Every contact (favourites first), then the escalation list.
      const options = palette().getByTestId('palette-option');
      await expect.poll(() => options.count()).toBe(4);
      expect(await options.first().innerText()).toContain(people.never.name);
      expect(await options.last().getAttribute('data-kind')).toBe('group');
      await page.keyboard.type(people.never.typed);
      await expect.poll(() => options.first().innerText()).toContain(people.never.name);
      expect(await options.first().getAttribute('aria-selected')).toBe('true');
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      await snap(`dial-palette-${suffix}`, null);
      // Escape closes it without calling anyone.
      await page.keyboard.press('Escape');
      await expect.poll(() => palette().count()).toBe(0);
    },
    TIMEOUT,
  );

  it.runIf(full)(
    '"call until answered" with 3 attempts to a number that never answers: attempts progress, with a wait between them, and stop at the maximum',
    async () => {
      await quickDial(people.never.typed, people.never.name, VALUES[lang], `dial-palette-confirm-${suffix}`);
      await expect.poll(() => palette().count()).toBe(0);
      await card().waitFor();
      expect(await card().getAttribute('data-max-attempts')).toBe('3');
      const seen = new Set<string>();
      let snapped = false;
      // Main waits on the system clock here: the two pauses of 60 s between the attempts are real.
      const deadline = Date.now() + 170_000;
      while (Date.now() < deadline) {
        const phase = await card().getAttribute('data-phase');
        const attempt = await card().getAttribute('data-attempt');
        seen.add(`${phase}:${attempt}`);
        if (phase === 'waiting' && !snapped && attempt === '2') {
          snapped = true;
          expect(await page.getByTestId('run-line').innerText()).toContain(t('dial.run.attempt', { attempt: 2, max: 3 }));
          await snap(`dial-progress-${suffix}`);
        }
        if (phase === 'done') break;
        // Real time: a poll interval over Chromium's page while main waits on the system clock; bounded by the deadline.
        await new Promise((r) => setTimeout(r, 40));
      }
      expect(await card().getAttribute('data-status')).toBe('not-answered');
      expect([...seen]).toEqual(expect.arrayContaining(['waiting:2', 'calling:2', 'waiting:3', 'calling:3', 'done:0']));
      const attempts = card().getByTestId('run-attempt');
      expect(await attempts.count()).toBe(3);
      expect(await attempts.evaluateAll((els) => els.map((e) => e.getAttribute('data-state')))).toEqual(['no_answer', 'no_answer', 'no_answer']);
      expect(await card().getByTestId('run-result').innerText()).toContain(t('msg:dialResult.not-answered', { count: 3 }));
      expect(sendsTo(people.never.mobile)).toHaveLength(3);
      expect(sendsTo(people.never.mobile).every((r) => r.body?.content === `${VALUES[lang][0]}告警：${VALUES[lang][1]}，请立即处理。`)).toBe(true);
      const start = app.calls.find((c) => c.channel === 'dial.start')!.input as Record<string, unknown>;
      expect(start).toMatchObject({ attempts: 3, pauseSeconds: 60, targets: [{ contactId: expect.any(Number) }] });
      expect(start.override).toBeUndefined();
    },
    200_000,
  );

  it(
    "calls until answered, and stops at the first answer (8: answers; 5: answers on the provider's redial)",
    async () => {
      for (const person of full ? [people.answers, people.redial] : [people.answers]) {
        const before = sendsTo(person.mobile).length;
        // The values typed for the first call are prefilled (in the short run this is the first call).
        await quickDial(person.typed, person.name, full ? undefined : VALUES[lang]);
        await expect.poll(() => palette().count()).toBe(0);
        const run = page.getByTestId('run-card').filter({ hasText: person.name }).first();
        await expect.poll(() => run.getAttribute('data-status'), { timeout: 30_000 }).toBe('answered');
        expect(await run.getByTestId('run-attempt').count()).toBe(1);
        const who = lang === 'zh-CN' ? `${person.name}（${person.mobile}）` : `${person.name} (${person.mobile})`;
        expect(await run.getByTestId('run-result').innerText()).toContain(t('msg:dialResult.answered', { who, attempt: 1 }));
        // Answered: the card no longer says "Calling …".
        const title = await run.locator('.ant-card-head-title').innerText();
        expect(title).toContain(t('dial.run.titleCalled', { who: `${person.name} · ${person.mobile}` }));
        expect(title).not.toContain(t('dial.run.title', { who: `${person.name} · ${person.mobile}` }));
        if (person === people.answers) {
          await page.setViewportSize({ width: 1024, height: 700 });
          await run.scrollIntoViewIfNeeded();
          await snap(`dial-run-answered-1024-${suffix}`, null);
          await page.setViewportSize({ width: 1280, height: 800 });
        }
        expect(sendsTo(person.mobile).length - before).toBe(1);
        expect(sendsTo(person.mobile).at(-1)!.body?.content).toBe(`${VALUES[lang][0]}告警：${VALUES[lang][1]}，请立即处理。`);
      }
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      if (lang === 'zh-CN') expect(await bodyText(page)).toMatch(CJK);
      // The contact remembers the template it was called with.
      const answered = (await app.handlers['contacts.list'](undefined)).find((c) => c.mobile === people.answers.mobile)!;
      expect(answered.lastTemplateId).not.toBeNull();
    },
    TIMEOUT,
  );

  it(
    'hear it first: the palette plays the exact filled-in text with a Chinese voice, and calls nobody for it',
    async () => {
      const person = people.answers;
      const before = sendsTo(person.mobile).length;
      await page.keyboard.press('Control+k');
      await expect.poll(stage).toBe('search');
      // Chinese comes through an input method, which needs the field: wait for its focus.
      await expect.poll(() => focused(page)).toBe('palette-search');
      await page.keyboard.type(person.typed);
      await expect.poll(() => palette().getByTestId('palette-options').getAttribute('data-fresh')).toBe('true');
      await expect.poll(() => palette().getByTestId('palette-option').first().innerText()).toContain(person.name);
      await page.keyboard.press('Enter');
      await expect.poll(stage).toBe('confirm');
      // The contact's own last values come back (the previous case called them with these).
      await stubSpeech(page);
      await palette().getByTestId('palette-hear-button').click();
      await expect.poll(() => spokenTexts(page)).toEqual([`${VALUES[lang][0]}告警：${VALUES[lang][1]}，请立即处理。`]);
      await snap(`dial-palette-hear-${suffix}`, null);
      await page.keyboard.press('Escape');
      if (await palette().count()) await page.keyboard.press('Escape');
      await expect.poll(() => palette().count()).toBe(0);
      expect(sendsTo(person.mobile).length).toBe(before);
    },
    TIMEOUT,
  );

  it(
    'typed ahead: on the Send screen, Ctrl+K then letters and Enter at once, before the palette is there, choose the person those letters find',
    async () => {
      const person = people.answers;
      await page.goto(page.url().replace(/#.*$/, '') + '#/send');
      await page.locator('#send_mobile').click();
      // No wait between the keys: the palette (and the Quick dial screen's code) arrive after them.
      await page.keyboard.press('Control+k');
      await page.keyboard.type(lang === 'en' ? 'li' : 'ln'); // 李娜 by the initials of her name's pinyin
      await page.keyboard.press('Enter');
      await expect.poll(stage, { timeout: 15_000 }).toBe('confirm');
      expect(await palette().getByTestId('palette-target').innerText()).toContain(person.name);
      await page.keyboard.press('Escape');
      if (await palette().count()) await page.keyboard.press('Escape');
      await expect.poll(() => palette().count()).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'an escalation list calls the next person when nobody answers, and says what it does next and when',
    async () => {
      await page.keyboard.press('Control+k');
      await expect.poll(stage).toBe('search');
      await expect.poll(() => focused(page)).toBe('palette-search');
      await page.keyboard.type(lang === 'en' ? 'escalation' : '升级');
      await expect.poll(() => palette().getByTestId('palette-options').getAttribute('data-fresh')).toBe('true');
      await expect.poll(() => palette().getByTestId('palette-option').first().getAttribute('data-kind')).toBe('group');
      await page.keyboard.press('Enter');
      await expect.poll(stage).toBe('confirm');
      // A list's default: one call each, the next person at once (common/domain/dial-defaults.ts).
      expect(await palette().getByTestId('palette-until-answered').getAttribute('aria-checked')).toBe('false');
      await palette().getByTestId('palette-until-answered').click(); // 2 calls each, 20 s apart
      expect(await palette().getByTestId('palette-attempts').inputValue()).toBe('2');
      expect(await palette().getByTestId('palette-pause').inputValue()).toBe('20');
      await palette().getByTestId('palette-call').click();
      await expect.poll(() => palette().count()).toBe(0);
      const run = card();
      const never = `${people.never.name} · ${people.never.mobile}`;
      const answers = `${people.answers.name} · ${people.answers.mobile}`;
      // While the first call rings: what follows if nobody answers.
      await expect
        .poll(
          () =>
            run
              .getByTestId('run-next')
              .innerText()
              .catch(() => ''),
          { timeout: 20_000 },
        )
        .toBe(t('dial.run.ifNoAnswerAgain', { who: never, seconds: 20, attempt: 2, max: 2 }));
      // While it waits: who, and at what time (the time the card shows is the one the run announced).
      await expect.poll(() => run.getAttribute('data-phase'), { timeout: 20_000 }).toBe('waiting');
      const nextText = await run.getByTestId('run-next').innerText();
      expect(nextText).toMatch(new RegExp(`${people.never.name}.*\\d\\d:\\d\\d:\\d\\d|\\d\\d:\\d\\d:\\d\\d.*${people.never.name}`));
      expect(nextText.startsWith(t('dial.run.nextAgain', { who: never, time: '§', attempt: 2, max: 2 }).split('§')[0]!)).toBe(true);
      await snap(`dial-next-${suffix}`);
      // The pause is 20 s of real time (main runs on the system clock here), then the second call
      // starts: on a loaded machine that is more than 20 s after the wait began.
      await expect
        .poll(
          () =>
            run
              .getByTestId('run-next')
              .innerText()
              .catch(() => ''),
          { timeout: 40_000 },
        )
        .toBe(t('dial.run.ifNoAnswer', { who: answers }));
      await expect.poll(() => run.getAttribute('data-status'), { timeout: 40_000 }).toBe('answered');
      const states = await run.getByTestId('run-attempt').evaluateAll((els) => els.map((e) => [e.getAttribute('data-target'), e.getAttribute('data-state')]));
      expect(states).toEqual([
        ['0', 'no_answer'],
        ['0', 'no_answer'],
        ['1', 'answered'],
      ]);
      expect(await run.getByTestId('run-result').innerText()).toContain(people.answers.name);
    },
    TIMEOUT,
  );

  it.runIf(full)(
    'a second immediate call to the same number is refused by the per-minute limit, and goes only after the override confirmation',
    async () => {
      // One call a minute per number, set on the limits tab.
      await page.getByRole('tab', { name: t('dial.tabs.settings') }).click();
      const perMinute = page.getByTestId('settings-perMinute');
      await perMinute.waitFor();
      await expect.poll(() => perMinute.inputValue()).toBe('10');
      await perMinute.fill('1');
      await page.getByTestId('settings-save').click();
      await expect.poll(async () => (await app.handlers['dial.settings'](undefined)).perMinute).toBe(1);
      await page.getByRole('tab', { name: t('dial.tabs.contacts', { count: 3 }) }).click();

      // Called once a moment ago (the previous test).
      const person = people.redial;
      const before = sendsTo(person.mobile).length;
      expect(before).toBe(1);
      await quickDial(person.typed, person.name);
      await expect.poll(stage).toBe('refused');
      const refusal = palette().getByTestId('refusal');
      expect(await refusal.count()).toBe(1);
      expect(await refusal.getAttribute('data-limit')).toBe('per-minute');
      const text = await refusal.innerText();
      // Named as the person is known, with the number.
      expect(text).toContain(
        t('msg:refusal.per-minute', {
          mobile: lang === 'zh-CN' ? `${person.name}（${person.mobile}）` : `${person.name} (${person.mobile})`,
          count: 1,
          max: 1,
        }),
      );
      expect(text).toMatch(/\d{2}:\d{2}:\d{2}/); // when it frees up, as a local time
      await snap(`dial-refusal-${suffix}`, null);
      const freesAt = Number(await refusal.getAttribute('data-frees-at'));
      // Wall clock: main runs on the system clock under Chromium here, so the per-minute window is read against it (a minute wide, no tight bound).
      expect(freesAt).toBeGreaterThan(Date.now());
      expect(freesAt).toBeLessThanOrEqual(Date.now() + 60_000);
      // Nothing left; the override needs the explicit confirmation (keyboard: Space on the box, then Tab to the button).
      expect(sendsTo(person.mobile).length).toBe(before);
      const call = palette().getByTestId('override-call');
      expect(await call.isDisabled()).toBe(true);
      await expect.poll(() => focused(page)).toBe('override-check');
      await page.keyboard.press('Space');
      await expect.poll(() => call.isDisabled()).toBe(false);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await expect.poll(() => focused(page)).toBe('override-call');
      await page.keyboard.press('Enter');
      await expect.poll(() => palette().count()).toBe(0);
      const run = page.getByTestId('run-card').filter({ hasText: person.name }).first();
      await expect.poll(() => run.getAttribute('data-status'), { timeout: 30_000 }).toBe('answered');
      expect(sendsTo(person.mobile).length).toBe(before + 1);
      const overridden = app.calls.filter((c) => c.channel === 'dial.start').at(-1)!.input as Record<string, unknown>;
      expect(overridden.override).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'the palette prefills the template last used with the person, else the one last used in quick dial; never simply the first (a shipping notice)',
    async () => {
      // A shipping notice joins the library before the on-call template (it would come first).
      const shipping = await app.handlers['templates.save']({
        name: lang === 'en' ? 'A shipping notice' : '发货通知（示例）',
        content: '您好，【变量】，您的订单【变量】已发货，请注意查收。',
        approved: true,
      });
      const fresh = await app.handlers['contacts.save']({
        name: lang === 'en' ? 'New colleague' : '新同事',
        mobile: lang === 'en' ? '13900000018' : '13700000018',
      });
      await page.setViewportSize({ width: 1024, height: 700 });
      try {
        // A reload forgets this session's memory: what remains is what each contact was called with.
        await page.reload();
        await page.locator('main h3').first().waitFor();
        await settled(page);
        const templateShown = () => palette().getByTestId('palette-template').innerText();
        for (const [typed, name] of [
          [people.answers.typed, people.answers.name],
          [fresh.name, fresh.name],
        ] as const) {
          await page.keyboard.press('Control+k');
          await expect.poll(() => focused(page)).toBe('palette-search');
          await page.keyboard.type(typed);
          await expect.poll(() => palette().getByTestId('palette-option').first().innerText()).toContain(name);
          await page.keyboard.press('Enter');
          await expect.poll(stage).toBe('confirm');
          // The on-call template: Li Na's last call; for a new contact, the last one used in quick dial.
          expect(await templateShown()).toContain('告警通知');
          expect(await templateShown()).not.toContain(shipping.name);
          if (name === fresh.name) await snap(`dial-palette-template-1024-${suffix}`, null);
          await page.keyboard.press('Escape');
          await expect.poll(() => palette().count()).toBe(0);
        }
      } finally {
        await app.handlers['templates.remove']({ id: shipping.id }).catch(() => undefined);
        await page.setViewportSize({ width: 1280, height: 800 });
        await page.reload();
        await page.locator('main h3').first().waitFor();
        await settled(page);
      }
    },
    TIMEOUT,
  );

  it(
    'in quiet hours the palette refuses a call, says until when, and places nothing',
    async () => {
      // Quiet hours set around this machine's own clock, so the test means the same at any hour.
      const hhmm = (ms: number) => new Date(ms).toTimeString().slice(0, 5);
      await app.handlers['dial.saveSettings']({
        scope: '*',
        perMinute: null,
        perHour: null,
        perDay: null,
        quietStart: hhmm(Date.now() - 3_600_000),
        quietEnd: hhmm(Date.now() + 3_600_000),
      });
      onTestFinished(async () => void (await setLimits(10)));
      const person = people.answers;
      const before = sendsTo(person.mobile).length;
      await page.keyboard.press('Control+k');
      await expect.poll(() => focused(page)).toBe('palette-search');
      await page.keyboard.type(person.typed);
      await expect.poll(() => palette().getByTestId('palette-option').first().innerText()).toContain(person.name);
      await page.keyboard.press('Enter');
      await expect.poll(stage).toBe('confirm');
      // The first call with the template asks for its values; a later one has them prefilled.
      await expect.poll(async () => ['palette-value', 'palette-call'].includes((await focused(page)) ?? '')).toBe(true);
      if ((await focused(page)) === 'palette-value') {
        for (const [i, v] of VALUES[lang].entries()) {
          if (i > 0) await page.keyboard.press('Tab');
          await page.keyboard.type(v);
        }
      }
      await page.keyboard.press('Enter');
      await expect.poll(stage).toBe('refused');
      const refusal = palette().getByTestId('refusal');
      expect(await refusal.getAttribute('data-limit')).toBe('quiet-hours');
      const text = await refusal.innerText();
      // Who was refused: the contact's name with the number.
      expect(text).toContain(t('msg:refusal.quiet', { mobile: lang === 'zh-CN' ? `${person.name}（${person.mobile}）` : `${person.name} (${person.mobile})` }));
      expect(text).toContain(new Date(Number(await refusal.getAttribute('data-frees-at'))).toTimeString().slice(0, 5));
      // Wall clock: main runs on the system clock under Chromium here; quiet hours end an hour from now (5 min of slack).
      expect(Number(await refusal.getAttribute('data-frees-at'))).toBeGreaterThan(Date.now() + 55 * 60_000);
      await snap(`dial-quiet-${suffix}`, null);
      expect(sendsTo(person.mobile).length).toBe(before);
      await page.keyboard.press('Escape');
      await expect.poll(() => palette().count()).toBe(0);
      expect(sendsTo(person.mobile).length).toBe(before);
    },
    TIMEOUT,
  );

  it('shows no console error or page error', () => {
    expect(problems).toEqual([]);
  });
});
