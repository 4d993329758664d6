// End to end, through `callout ui`'s own transport (bridge.ts): the History screen in Chromium, its window.callout
// routed to the real handlers (real SQLite, the embedded sandbox provider over HTTP, main's status
// polling; copy-with-key refused in the browser). Run after `npx electron-vite build`. Both languages;
// screenshots under test-results/screens/; UI figures in test-results/history-ui.json.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Download, Locator, Page } from 'playwright-core';
import type { ProfileView } from '../../common/contract';
import type { CallState, Outcome } from '../../common/domain/status';
import { errorArgs, reasonArgs } from '../../common/messages';
import type { MessageRecord } from '../../common/records';
import { harValidator } from '../helpers/har-validator';
import { launchChromium, ROOT, startApp, type AppUnderTest } from './bridge';
import { formatCount, timeParts } from '../../renderer/src/features/history/history-model';
import { bodyText, catalogText, collectProblems, NOWHERE, pickOption, settled, translator, whereSecretAppears } from './page-helpers';
import { closeStored, storedIn } from '../helpers/stored';

const TIMEOUT = 60_000;
const CJK = /[\u3400-\u9fff]/;
/** A dictionary key (the screen's, or the message catalog's) that leaked onto the screen instead of its text. */
const RAW_KEY = /\bhistory\.[a-z][\w-]*\.[\w-]+\b|\b(reason|transport|state|outcome|provider)\.[a-z][\w-]*\b/;

const LOCALES = [
  { locale: 'en-US', lang: 'en', suffix: 'en' },
  { locale: 'zh-CN', lang: 'zh-CN', suffix: 'zh-CN' },
] as const;

/** The sandbox's approved demo templates. */
const CODE = (v: string) => `您的验证码是${v}，5分钟内有效。`;
const SHIPPING = (name: string, order: string) => `您好，${name}，您的订单${order}已发货，请注意查收。`;

/** Numbers: the sandbox scripts a call by the last digit (5: no answer, answered on the redial). */
const NUMBERS = { answered: '13800138005', auth: '13911112227', timeout: '13722223338', html: '13633334449' } as const;

/** A button's name as antd renders it: two Chinese characters get a space between them ("取 消"). */
function buttonName(text: string): RegExp {
  const chars = [...text].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^\\s*${chars.join('\\s*')}\\s*$`);
}

/** The DOM as seen from page.evaluate (the Node-side type config has no DOM library). */
interface PageGlobals {
  document: {
    body: { innerText: string };
    documentElement: { lang: string; outerHTML: string };
    querySelector(selector: string): { scrollTop: number; scrollHeight: number; clientHeight: number; getAttribute(n: string): string | null } | null;
    querySelectorAll(selector: string): ArrayLike<{ value: string }>;
    getAnimations(): { playState: string; effect: { getComputedTiming(): { iterations: number } } | null }[];
  };
  navigator: { clipboard: { writeText(text: string): Promise<void> } };
  __copied?: string[];
  location: { hash: string };
}

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = (await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), click()])) as [Download, void];
  const path = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

describe.each(LOCALES)('History screen ($suffix)', ({ locale, lang, suffix }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let apiKey = '';
  const problems: string[] = [];
  const ids: Record<keyof typeof NUMBERS, number> = { answered: 0, auth: 0, timeout: 0, html: 0 };
  const t = translator(lang);
  const formatted = (n: number) => formatCount(lang, n);
  /** A timeline title without its time ("Redial (attempt 2)"). */
  const titled = (path: string, vars: Record<string, string | number> = {}) => t(path, { ...vars, time: '' }).replace(/\s*·\s*$/, '');
  const rows = () => page.getByTestId('history-row');
  /** The list's pages asked of main (the Send screen and the guide ask for the newest message too). */
  const listPages = () => app.calls.filter((c) => c.channel === 'history.page' && 'order' in (c.input as object));
  const row = (id: number) => page.locator(`[data-testid="history-row"][data-message-id="${id}"]`);
  const shownIds = async () => (await rows().evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-message-id'))))).sort((a, b) => a - b);
  const panel = () => page.getByTestId('message-panel');
  const inspector = () => page.getByTestId('inspector');
  const stateText = (s: CallState) => t(`msg:state.${s}`);
  /** Why a message's outcome is what it is, as main recorded it, in words. */
  const reasonText = (m: MessageRecord) => catalogText(t, reasonArgs(m.reason!));
  const outcomeText = (o: Outcome) => t(`history.outcome.${o}`);
  const snap = async (name: string) => {
    // Let earlier toasts go so each screenshot shows its own screen.
    await page
      .locator('.ant-message-notice')
      .first()
      .waitFor({ state: 'detached', timeout: 6_000 })
      .catch(() => undefined);
    // No tooltip from wherever the pointer was last.
    await page.mouse.move(600, 28);
    await page
      .locator('.ant-tooltip:not(.ant-tooltip-hidden)')
      .first()
      .waitFor({ state: 'hidden', timeout: 2_000 })
      .catch(() => undefined);
    await settled(page);
    await app.screenshot(name);
  };
  const tab = (key: 'messages' | 'exchanges' | 'overview' | 'runs') => page.getByRole('tab', { name: t(`history.tabs.${key}`) }).click();
  /** The <input> of an antd field: antd puts data-testid on the input itself or on its wrapper. */
  const field = (id: string, within: Locator | Page = page) => within.locator(`input[data-testid="${id}"], [data-testid="${id}"] input`).first();
  const search = async (text: string) => {
    await field('history-search').fill(text);
    await field('history-search').press('Enter');
  };
  const closeDrawers = async () => {
    for (let i = 0; i < 3 && (await page.locator('.ant-drawer-open').count()); i++) {
      await page.locator('.ant-drawer-open .ant-drawer-close').last().click();
      await settled(page);
    }
  };
  const openMessage = async (id: number) => {
    // The left part of the row: the panel covers the right part of the list while it is open.
    await row(id).click({ position: { x: 60, y: 20 } });
    await expect
      .poll(() =>
        panel()
          .getAttribute('data-message-id')
          .catch(() => null),
      )
      .toBe(String(id));
    await settled(page);
  };
  const send = async (key: keyof typeof NUMBERS, content: string, templateId: string | null) => {
    const r = await app.handlers['messages.send']({ profileId: 'sandbox', mobile: NUMBERS[key], content, templateId });
    ids[key] = r.message.id;
    return r;
  };

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ locale, browser });
    page = app.page;
    collectProblems(page, problems);
    app.services.sandbox!.setBalance('sandbox-demo', 100);
    apiKey = (await app.services.profiles.endpoint('sandbox')).apiKey;
    expect(apiKey.length).toBeGreaterThan(4);
    // A short total timeout, so a request the sandbox never answers ends as "unknown" in 1.5 s.
    const sandbox = (await app.handlers['profiles.list'](undefined)).find((p: ProfileView) => p.id === 'sandbox')!;
    const {
      id: _id,
      builtin: _b,
      hasKey: _k,
      keyCheck: _kc,
      createdAt: _c,
      updatedAt: _u,
      dialect: _d,
      dialectId: _di,
      follow: _f,
      receipts: _r,
      ...input
    } = sandbox;
    const saved = await app.handlers['profiles.save']({ ...input, id: 'sandbox', connectTimeoutMs: 1_000, totalTimeoutMs: 1_500 });
    expect(saved.totalTimeoutMs).toBe(1_500);
    await app.handlers['templates.save']({ name: lang === 'en' ? 'Verification code' : '验证码', content: CODE('【变量】'), approved: true });
    await page.reload();
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it(
    'lists the sends live as they happen, each with its outcome and call state in words',
    async () => {
      await page.getByRole('menuitem', { name: t('nav.history') }).click();
      await page.getByTestId('history-empty').waitFor();
      expect(await bodyText(page)).toContain(t('history.list.empty'));

      const templates = await app.handlers['templates.list'](undefined);
      const codeTemplate = templates.find((x) => x.content === CODE('【变量】'))!.id;
      // Answered (after a redial), a 401, a timeout and an HTML page from a "proxy".
      expect((await send('answered', CODE('246810'), codeTemplate)).message.outcome).toBe('accepted');
      app.services.sandbox!.setFault({ kind: 'code', code: 401, op: 'send', times: 1 });
      expect((await send('auth', CODE('135790'), codeTemplate)).message.outcome).toBe('rejected');
      app.services.sandbox!.setFault({ kind: 'timeout', op: 'send', times: 1 });
      expect((await send('timeout', SHIPPING('王先生', 'A1234'), null)).message.outcome).toBe('unknown');
      app.services.sandbox!.setFault({ kind: 'html', op: 'send', times: 1 });
      expect((await send('html', SHIPPING('李女士', 'B5678'), null)).message.outcome).toBe('unknown');

      // The rows arrived through main's pushes, without reloading the list.
      await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(4);
      expect(listPages()).toHaveLength(1);
      // Main follows the answered call to its end; the row follows.
      await expect.poll(async () => (await app.handlers['messages.get']({ id: ids.answered })).message.state, { timeout: 15_000 }).toBe('answered');
      await expect.poll(() => row(ids.answered).getAttribute('data-state'), { timeout: 10_000 }).toBe('answered');

      const expectations: [keyof typeof NUMBERS, Outcome, CallState][] = [
        ['answered', 'accepted', 'answered'],
        ['auth', 'rejected', 'failed'],
        ['timeout', 'unknown', 'unknown'],
        ['html', 'unknown', 'unknown'],
      ];
      for (const [key, outcome, state] of expectations) {
        const r = row(ids[key]);
        expect(await r.getAttribute('data-outcome'), key).toBe(outcome);
        expect(await r.getByTestId('row-outcome').innerText(), key).toBe(outcomeText(outcome));
        expect(await r.getByTestId('row-state').innerText(), key).toBe(stateText(state));
        expect(await r.getByTestId('row-mobile').innerText(), key).toBe(NUMBERS[key]);
      }
      const answered = (await app.handlers['messages.get']({ id: ids.answered })).message;
      expect(await row(ids.answered).innerText()).toContain(lang === 'en' ? 'Verification code' : '验证码');
      expect(answered.duration).not.toBeNull();
      // Newest first; the sort toggle turns it around.
      expect(await rows().first().getAttribute('data-message-id')).toBe(String(ids.html));
      await page.getByTestId('history-sort').click();
      await expect.poll(() => rows().first().getAttribute('data-message-id')).toBe(String(ids.answered));
      await page.getByTestId('history-sort').click();
      await expect.poll(() => rows().first().getAttribute('data-message-id')).toBe(String(ids.html));
      expect(await page.getByTestId('history-total').innerText()).toBe(t('history.list.total', { count: 4, n: 4 }));

      const text = await bodyText(page);
      expect(text).not.toMatch(RAW_KEY);
      if (lang === 'zh-CN') expect(text).toMatch(CJK);
      await snap(`history-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    'filters by outcome and state, searches any part of a number and words of the text',
    async () => {
      await pickOption(page, page.getByTestId('history-filter-outcome'), outcomeText('unknown'), { close: true });
      await expect.poll(shownIds).toEqual([ids.timeout, ids.html].sort((a, b) => a - b));
      const outcomeCall = listPages().at(-1)!.input as { filter: Record<string, unknown> };
      expect(outcomeCall.filter).toEqual({ outcomes: ['unknown'] });
      await page.getByTestId('history-clear-filters').click();
      await expect.poll(() => rows().count()).toBe(4);

      await pickOption(page, page.getByTestId('history-filter-state'), stateText('answered'), { close: true });
      await expect.poll(shownIds).toEqual([ids.answered]);
      await page.getByTestId('history-clear-filters').click();
      await expect.poll(() => rows().count()).toBe(4);

      // Part of a number, from its middle.
      await search('2222333');
      await expect.poll(shownIds).toEqual([ids.timeout]);
      // Words of the text (one Chinese run, one Latin): each finds only its message.
      await search('A1234');
      await expect.poll(shownIds).toEqual([ids.timeout]);
      await search('李女士');
      await expect.poll(shownIds).toEqual([ids.html]);
      // Typing settles before the list asks main (debounced): one request for the whole word.
      const before = listPages().length;
      await field('history-search').fill('');
      await field('history-search').pressSequentially('13911', { delay: 30 });
      await expect.poll(shownIds).toEqual([ids.auth]);
      const searches = listPages().slice(before);
      expect(searches.length).toBeLessThanOrEqual(2);
      expect((searches.at(-1)!.input as { filter: { search?: string } }).filter.search).toBe('13911');
      // Nothing matches: an empty state that offers to clear the filters.
      await search('99999999');
      await page.getByTestId('history-empty').waitFor();
      expect(await bodyText(page)).toContain(t('history.list.noMatch'));
      await page.getByTestId('history-clear-filters').click();
      await expect.poll(() => rows().count()).toBe(4);
      expect(await field('history-search').inputValue()).toBe('');
    },
    TIMEOUT,
  );

  it(
    'shows a message with its timeline: created, submitted, the redial, answered with its duration; unknowns say why and "Send again" asks first',
    async () => {
      // Keyboard: focus the list, move with the arrows, open with Enter.
      await page.getByTestId('history-list').focus();
      await page.keyboard.press('Home');
      await page.keyboard.press('End');
      await expect.poll(() => page.locator('[data-testid="history-row"][aria-selected="true"]').getAttribute('data-message-id')).toBe(String(ids.answered));
      await page.keyboard.press('Enter');
      await expect
        .poll(() =>
          panel()
            .getAttribute('data-message-id')
            .catch(() => null),
        )
        .toBe(String(ids.answered));
      await settled(page);
      const { message } = await app.handlers['messages.get']({ id: ids.answered });
      const timeline = panel().getByTestId('message-timeline');
      await expect.poll(() => timeline.innerText()).toContain(titled('history.timeline.answered'));
      const text = await timeline.innerText();
      for (const title of [titled('history.timeline.created'), titled('history.timeline.submitted'), titled('history.timeline.redial', { n: 2 })])
        expect(text).toContain(title);
      const s = message.duration!;
      const duration = s < 60 ? t('history.duration.seconds', { s }) : t('history.duration.minutes', { m: Math.floor(s / 60), s: s % 60 });
      expect(text).toContain(t('history.timeline.talked', { duration }));
      expect(await panel().getByTestId('panel-text').innerText()).toBe(CODE('246810'));
      expect(await panel().getByTestId('exchange-item').count()).toBeGreaterThanOrEqual(2);
      await snap(`history-message-timeline-${suffix}`);

      // Arrow up moves to the next newer message and the panel follows.
      await page.getByTestId('history-list').focus();
      await page.keyboard.press('ArrowUp');
      await expect
        .poll(() =>
          panel()
            .getAttribute('data-message-id')
            .catch(() => null),
        )
        .toBe(String(ids.auth));
      await expect.poll(() => panel().getByTestId('message-timeline').innerText()).toContain(t('msg:provider.401.meaning'));

      // The timeout: why it is unknown, and a "Send again" that asks first.
      await openMessage(ids.timeout);
      const unknown = panel().getByTestId('timeline-unknown');
      await unknown.waitFor();
      const timedOut = (await app.handlers['messages.get']({ id: ids.timeout })).message;
      expect(timedOut.reason).toMatchObject({ code: 'transport', params: { kind: 'timeout' } });
      expect(await unknown.innerText()).toContain(reasonText(timedOut));
      await openMessage(ids.html);
      const unreadable = (await app.handlers['messages.get']({ id: ids.html })).message;
      expect(unreadable.reason).toMatchObject({ code: 'unreadable-reply' });
      await expect.poll(() => panel().getByTestId('timeline-unknown').innerText()).toContain(reasonText(unreadable));
      const sendsBefore = app.services.sandbox!.requests().filter((r) => r.op === 'send').length;
      await panel().getByTestId('send-again').click();
      const confirm = page.getByTestId('send-again-confirm');
      await confirm.waitFor();
      await settled(page);
      expect(await confirm.innerText()).toContain(t('history.again.bodyUnknown'));
      await page.getByRole('button', { name: buttonName(t('common.cancel')) }).click();
      await confirm.waitFor({ state: 'hidden' });
      // Real time: a check that nothing more happens; the app runs on the system clock with Chromium and the sandbox over HTTP, and no event says "nothing came".
      await new Promise((r) => setTimeout(r, 300));
      expect(app.calls.filter((c) => c.channel === 'messages.sendAgain')).toHaveLength(0);
      expect(app.services.sandbox!.requests().filter((r) => r.op === 'send').length).toBe(sendsBefore);
      // Confirmed: one new send, shown at the top and in the panel, pointing back to the first.
      await panel().getByTestId('send-again').click();
      await confirm.waitFor();
      await settled(page);
      await page.getByRole('button', { name: buttonName(t('history.again.ok')) }).click();
      await expect.poll(() => rows().count(), { timeout: 10_000 }).toBe(5);
      const again = Number(await rows().first().getAttribute('data-message-id'));
      expect((await app.handlers['messages.get']({ id: again })).message.resendOf).toBe(ids.html);
      await expect
        .poll(() =>
          panel()
            .getAttribute('data-message-id')
            .catch(() => null),
        )
        .toBe(String(again));
      expect(app.calls.filter((c) => c.channel === 'messages.sendAgain')).toEqual([{ channel: 'messages.sendAgain', input: { id: ids.html, confirm: true } }]);
      await closeDrawers();
    },
    TIMEOUT,
  );

  it(
    'the inspector shows both halves: the request with the password [REDACTED], the reply (JSON or the HTML page), timings as a bar',
    async () => {
      // The 401: request and the provider's reply.
      await openMessage(ids.auth);
      await panel().getByTestId('exchange-open').first().click();
      await inspector().waitFor();
      await settled(page);
      const request = await inspector().getByTestId('request-body').innerText();
      expect(request).toContain('"password": "[REDACTED]"');
      expect(request).toContain(NUMBERS.auth);
      expect(await inspector().getByTestId('redacted').count()).toBeGreaterThanOrEqual(1);
      expect(await inspector().getByTestId('response-body').innerText()).toMatch(/"code":\s*401/);
      expect(await inspector().getByTestId('inspector-status').innerText()).toMatch(/^200/);
      // Raw view: the bytes as stored.
      await inspector().getByTestId('request-body-view').getByText(t('history.inspector.raw')).click();
      expect(await inspector().getByTestId('request-body').innerText()).toContain('"password":"[REDACTED]"');
      expect(await inspector().getByTestId('timing-bar').locator('[data-phase]').count()).toBeGreaterThanOrEqual(2);
      await closeDrawers();

      // The HTML page a proxy sent.
      await openMessage(ids.html);
      await panel().getByTestId('exchange-open').first().click();
      await inspector().waitFor();
      expect(await inspector().getByTestId('inspector-status').innerText()).toMatch(/^502/);
      expect((await inspector().getByTestId('response-body').innerText()).toLowerCase()).toContain('<html');
      expect(await inspector().innerText()).toContain(t('history.inspector.htmlReply'));
      await closeDrawers();

      // The timeout: the request, and no reply.
      await openMessage(ids.timeout);
      await panel().getByTestId('exchange-open').first().click();
      await inspector().waitFor();
      expect(await inspector().getByTestId('inspector-response').innerText()).toContain(t('history.inspector.noReply'));
      // Said in words: the failure's kind, and how long it waited.
      const error = await inspector().getByTestId('inspector-error').innerText();
      expect(error).toContain(t('history.inspector.transportError', { what: t('msg:transportShort.timeout') }));
      expect(error).toMatch(/1500/);
      expect(await inspector().getByTestId('request-body').innerText()).toContain('[REDACTED]');
      await closeDrawers();

      // The answered send, for the picture.
      await openMessage(ids.answered);
      const detail = await app.handlers['messages.get']({ id: ids.answered });
      const sent = detail.exchanges.find((e) => e.operation === 'send')!;
      await panel().locator(`[data-testid="exchange-item"][data-exchange-id="${sent.id}"]`).getByTestId('exchange-open').click();
      await inspector().waitFor();
      expect(await inspector().getAttribute('data-exchange-id')).toBe(String(sent.id));
      expect(await inspector().getByTestId('response-body').innerText()).toMatch(/"code":\s*2\b/);
      expect(await whereSecretAppears(page, apiKey)).toEqual(NOWHERE);
      await snap(`history-inspector-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    'copies cURL redacted; with the real key only in the desktop app (refused here, saying why); that command, with the key put in by hand, reproduces the request',
    async () => {
      const detail = await app.handlers['messages.get']({ id: ids.answered });
      const sent = detail.exchanges.find((e) => e.operation === 'send')!;
      expect(await inspector().getAttribute('data-exchange-id')).toBe(String(sent.id));

      // Redacted, through the page's clipboard.
      await page.evaluate(() => {
        const w = globalThis as unknown as PageGlobals;
        w.__copied = [];
        w.navigator.clipboard.writeText = async (text: string) => void w.__copied!.push(text);
      });
      await inspector().getByTestId('copy-curl').click();
      await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).__copied?.length ?? 0)).toBe(1);
      const redacted = (await page.evaluate(() => (globalThis as unknown as PageGlobals).__copied![0]!)) as string;
      expect(redacted).toMatch(/^curl /);
      expect(redacted).toContain('[REDACTED]');
      expect(redacted).not.toContain(apiKey);

      // With the key: main's clipboard belongs to the machine `callout ui` runs on, so in a browser
      // the button is off, and says why; a call made anyway is refused, and nothing is copied.
      const keyButton = inspector().getByTestId('copy-curl-key');
      expect(await keyButton.isDisabled()).toBe(true);
      expect(await keyButton.getAttribute('data-desktop-only')).toBe('true');
      await keyButton.hover({ force: true });
      const why = catalogText(t, errorArgs({ code: 'unavailable', params: { kind: 'browser-key-copy' } }));
      await expect.poll(() => bodyText(page)).toContain(why);
      await settled(page);
      await app.screenshot(`history-curl-key-browser-${suffix}`);
      const forged = await page.evaluate(
        (id) =>
          (globalThis as unknown as { callout: { exchanges: { copyCurlWithKey(i: unknown): Promise<unknown> } } }).callout.exchanges.copyCurlWithKey({
            id,
            confirm: true,
          }),
        sent.id,
      );
      expect(forged).toEqual({ ok: false, error: { code: 'unavailable', params: { kind: 'browser-key-copy' } } });
      expect(app.clipboard).toEqual([]);
      expect(await whereSecretAppears(page, apiKey)).toEqual(NOWHERE);
      const withKey = redacted.split('[REDACTED]').join(apiKey);

      // Run it with curl (asynchronously: the sandbox answering it runs in this process).
      const sends = () => app.services.sandbox!.requests().filter((r) => r.op === 'send');
      const original = sends().find((r) => r.mobile === NUMBERS.answered)!;
      const before = sends().length;
      const command = withKey.replace(/^curl\s/, '/usr/bin/curl --silent --show-error ');
      const run = await promisify(execFile)('/bin/sh', ['-c', command], { encoding: 'utf8', timeout: 15_000 });
      expect(JSON.parse(run.stdout)).toMatchObject({ code: 2 });
      expect(sends().length).toBe(before + 1);
      const replayed = sends().at(-1)!;
      expect(replayed.body).toEqual(original.body);
      expect(replayed.body).toMatchObject({ account: 'sandbox-demo', mobile: NUMBERS.answered, content: CODE('246810') });
      await closeDrawers();
    },
    TIMEOUT,
  );

  it(
    'exports a selection of exchanges as a valid HAR 1.2 file without the API Key, and the filtered history as CSV',
    async () => {
      await tab('exchanges');
      await page.getByTestId('exchange-row').first().waitFor();
      const listed = await app.handlers['exchanges.list']({ limit: 200 });
      // Select the send exchanges of the 401, the timeout and the HTML reply.
      const wanted = listed.rows.filter((e) => e.operation === 'send' && [ids.auth, ids.timeout, ids.html].includes(e.messageId ?? -1));
      expect(wanted).toHaveLength(3);
      await pickOption(page, page.getByTestId('exchanges-operation'), t('history.operation.send'), { close: true });
      for (const e of wanted) {
        const r = page.locator(`[data-testid="exchange-row"][data-exchange-id="${e.id}"]`);
        await r.waitFor();
        await r.locator('.ant-checkbox-input').check();
      }
      const har = await downloaded(page, () => page.getByTestId('exchanges-tab').getByTestId('export-har').click());
      expect(har.name).toMatch(/\.har$/);
      expect(har.text).not.toContain(apiKey);
      const parsed = JSON.parse(har.text);
      const validate = harValidator();
      expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
      expect(parsed.log.version).toBe('1.2');
      expect(parsed.log.entries).toHaveLength(3);
      expect(har.text).toContain('[REDACTED]');
      expect(har.text).toContain(NUMBERS.auth);
      expect(app.calls.filter((c) => c.channel === 'exchanges.exportHar').at(-1)!.input).toEqual({ ids: expect.arrayContaining(wanted.map((e) => e.id)) });
      if (suffix === 'en') await snap('history-exchanges-en');

      // CSV of the filtered list (outcome unknown: the two unknowns).
      await tab('messages');
      await pickOption(page, page.getByTestId('history-filter-outcome'), outcomeText('unknown'), { close: true });
      await expect.poll(shownIds).toEqual([ids.timeout, ids.html].sort((a, b) => a - b));
      const csv = await downloaded(page, () => page.getByTestId('export-csv').click());
      expect(csv.name).toMatch(/\.csv$/);
      expect(csv.text.charCodeAt(0)).toBe(0xfeff);
      expect(csv.text).toContain(NUMBERS.timeout);
      expect(csv.text).toContain(NUMBERS.html);
      expect(csv.text).not.toContain(NUMBERS.answered);
      expect(csv.text).not.toContain(apiKey);
      expect(app.calls.filter((c) => c.channel === 'history.exportCsv').at(-1)!.input).toMatchObject({ filter: { outcomes: ['unknown'] }, lang });
      await page.getByTestId('history-clear-filters').click();
      await expect.poll(() => rows().count()).toBe(5);
    },
    TIMEOUT,
  );

  it(
    'draws the overview: calls per day by outcome and units, with the totals of main',
    async () => {
      await tab('overview');
      const chart = page.getByTestId('overview-chart');
      await chart.locator('canvas').waitFor();
      const call = app.calls.filter((c) => c.channel === 'history.overview').at(-1)!.input as { from: number; to: number; utcOffsetMinutes: number };
      // + 0: in UTC the page's offset is -0, which JSON (the console's WebSocket) carries as 0.
      expect(call.utcOffsetMinutes + 0).toBe((await page.evaluate(() => -new Date().getTimezoneOffset())) + 0);
      expect(call.to - call.from).toBeGreaterThanOrEqual(30 * 86_400_000 - 3_600_000);
      const expected = await app.handlers['history.overview']({ from: call.from, to: call.to, utcOffsetMinutes: call.utcOffsetMinutes });
      expect(expected.totals.total).toBe(5);
      await expect.poll(() => page.getByTestId('overview-total-total').innerText()).toBe(String(expected.totals.total));
      for (const key of ['answered', 'unknown', 'rejected', 'units'] as const) {
        expect(await page.getByTestId(`overview-total-${key}`).innerText(), key).toBe(String(expected.totals[key]));
      }
      expect(expected.totals.unknown).toBe(2);
      expect(expected.totals.rejected).toBe(1);
      const box = await chart.boundingBox();
      expect(box!.width).toBeGreaterThan(600);
      expect(box!.height).toBeGreaterThan(240);
      await snap(`history-overview-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    'shows storage use; as retention is typed, says what it would delete (by age, then by size) and keep; saves, applies it and vacuums with the sizes before and after',
    async () => {
      // Exchanges from earlier weeks: 30 from 60 days ago, and 40 of 30 KB from 10 days ago.
      const old = (daysAgo: number, body: string) =>
        app.services.exchanges.insert({
          operation: 'status',
          method: 'POST',
          url: `${app.services.sandbox!.baseUrl}/voice/status`,
          requestHeaders: [['Content-Type', 'application/json; charset=utf-8']],
          requestBody: '{"account":"sandbox-demo","smsid":"S-OLD"}',
          status: 200,
          statusText: 'OK',
          responseHeaders: [['Content-Type', 'application/json']],
          responseBody: body,
          error: null,
          startedAt: Date.now() - daysAgo * 86_400_000,
          timings: { dnsMs: null, connectMs: 1, tlsMs: null, firstByteMs: 2, totalMs: 3 },
        });
      for (let i = 0; i < 30; i++) old(60, '{"code":2,"msg":"ok","state":"calling"}');
      for (let i = 0; i < 40; i++) old(10, JSON.stringify({ code: 2, msg: 'ok', state: 'calling', note: 'x'.repeat(30_000) }));

      await page.setViewportSize({ width: 1024, height: 700 });
      await page.getByTestId('open-store').click();
      const drawer = page.getByTestId('store-drawer');
      await drawer.getByTestId('store-count').waitFor();
      const status = await app.handlers['store.status'](undefined);
      expect(await drawer.getByTestId('store-count').innerText()).toBe(formatted(status.usage.exchanges));
      // Nothing set: nothing would go.
      const preview = drawer.getByTestId('retention-preview');
      await expect.poll(() => preview.getAttribute('data-deletes')).toBe('0');
      expect(await preview.innerText()).toContain(t('history.store.preview.nothing'));

      // 30 days: the 30 from 60 days ago would go, nothing yet deleted.
      await field('retention-days-on', drawer).check();
      await field('retention-days', drawer).fill('30');
      await expect.poll(() => preview.getAttribute('data-deletes')).toBe('30');
      expect(await drawer.getByTestId('retention-preview-bySize').count()).toBe(0);
      expect((await app.handlers['store.status'](undefined)).usage.exchanges).toBe(status.usage.exchanges);

      // And at most 1 MB: the oldest of the rest go too, as the preview computed by main says.
      await field('retention-size-on', drawer).check();
      await field('retention-size', drawer).fill('1');
      const settings = { exchangeDays: 30, exchangeMaxBytes: 1024 * 1024 };
      const expected = await app.handlers['store.previewRetention'](settings);
      expect(expected.bySize.exchanges).toBeGreaterThan(0);
      await expect.poll(() => preview.getAttribute('data-deletes')).toBe(String(expected.byAge.exchanges + expected.bySize.exchanges));
      expect(await drawer.getByTestId('retention-preview-bySize').innerText()).toContain(formatted(expected.bySize.exchanges));
      expect(await drawer.getByTestId('retention-preview-remaining').innerText()).toContain(formatted(expected.remaining.exchanges));
      expect(await drawer.getByTestId('retention-preview-bar').locator('[data-part]').count()).toBe(3);
      await snap(`history-store-preview-${suffix}`);

      await drawer.getByTestId('retention-save').click();
      await expect.poll(async () => (await app.handlers['store.status'](undefined)).retention).toEqual(settings);
      await expect.poll(() => drawer.getByTestId('retention-apply').isDisabled()).toBe(false);
      await drawer.getByTestId('retention-apply').click();
      await drawer.getByTestId('retention-result').waitFor();
      expect(await drawer.getByTestId('retention-result').innerText()).toContain(
        t('history.store.applied', { age: formatted(expected.byAge.exchanges), size: formatted(expected.bySize.exchanges) }),
      );
      // A new store gives the space back at once: the file is smaller after.
      expect(await drawer.getByTestId('retention-file').innerText()).toMatch(/\d/);
      await snap(`history-store-applied-${suffix}`);
      await expect.poll(() => preview.getAttribute('data-deletes')).toBe('0');
      await app.handlers['store.setRetention']({ exchangeDays: null, exchangeMaxBytes: null });
      await page.setViewportSize({ width: 1280, height: 800 });
      await drawer.getByTestId('vacuum').click();
      await drawer.getByTestId('vacuum-result').waitFor({ timeout: 20_000 });
      expect(await drawer.getByTestId('vacuum-result').innerText()).toMatch(/\d/);
      if (suffix === 'en') await snap('history-store-en');
      await closeDrawers();
    },
    TIMEOUT,
  );

  it(
    'a send refused with 402 is billed 0 in its row and its detail; once the same text went to the same number and was answered, its detail says so and leads there',
    async () => {
      await page.setViewportSize({ width: 1024, height: 700 });
      await tab('messages');
      const templates = await app.handlers['templates.list'](undefined);
      const codeTemplate = templates.find((x) => x.content === CODE('【变量】'))!.id;
      const mobile = '13700137005';
      app.services.sandbox!.setFault({ kind: 'code', code: 402, op: 'send', times: 1 });
      const refused = (await app.handlers['messages.send']({ profileId: 'sandbox', mobile, content: CODE('402402'), templateId: codeTemplate })).message;
      expect(refused).toMatchObject({ outcome: 'rejected', code: 402, units: 1 });
      await expect.poll(() => row(refused.id).count(), { timeout: 10_000 }).toBe(1);
      // The row appears as soon as the send is written (pending), then reads its outcome.
      await expect.poll(() => row(refused.id).getByTestId('row-units').getAttribute('data-units')).toBe('0');
      await openMessage(refused.id);
      // One rule for what it cost: 0 in the detail too, with why.
      const units = panel().getByTestId('panel-units');
      expect(await units.getAttribute('data-units')).toBe('0');
      expect(await units.innerText()).toContain(t('history.units.refused'));
      expect(await panel().getByTestId('later-send').count()).toBe(0);
      expect(await panel().getByTestId('send-again').count()).toBe(1);
      await snap(`history-refused-402-${suffix}`);
      await closeDrawers();

      // The same text sent to the same number again (after a top-up), answered.
      const later = (await app.handlers['messages.send']({ profileId: 'sandbox', mobile, content: CODE('402402'), templateId: codeTemplate })).message;
      expect(later.outcome).toBe('accepted');
      await expect.poll(async () => (await app.handlers['messages.get']({ id: later.id })).message.state, { timeout: 20_000 }).toBe('answered');
      const { later: found } = await app.handlers['messages.get']({ id: refused.id });
      expect(found?.id).toBe(later.id);
      await openMessage(refused.id);
      const note = panel().getByTestId('later-send');
      await expect.poll(() => note.innerText().catch(() => '')).toContain(stateText('answered'));
      expect((await note.innerText()).trim()).toContain(
        t('history.later.said', { time: timeParts(lang, later.createdAt).time, result: stateText('answered') }),
      );
      // The way forward is the later send, not another call.
      expect(await panel().getByTestId('send-again').count()).toBe(0);
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      await snap(`history-refused-sent-later-${suffix}`);
      await note.getByTestId('open-later-send').click();
      await expect
        .poll(() =>
          panel()
            .getAttribute('data-message-id')
            .catch(() => null),
        )
        .toBe(String(later.id));
      expect(await panel().getByTestId('later-send').count()).toBe(0);
      const billed = (await app.handlers['messages.get']({ id: later.id })).message;
      expect(await panel().getByTestId('panel-units').getAttribute('data-units')).toBe(String(billed.billedUnits ?? billed.units));
      await closeDrawers();
      await page.setViewportSize({ width: 1280, height: 800 });
    },
    TIMEOUT,
  );

  it('never shows the API Key, raw keys or page errors', async () => {
    await tab('messages');
    expect(await whereSecretAppears(page, apiKey)).toEqual(NOWHERE);
    expect(await bodyText(page)).not.toMatch(RAW_KEY);
    expect(problems).toEqual([]);
  });
});

describe('History at 100,000 rows (Chromium through callout ui)', () => {
  const ROWS = 100_000;
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ locale: 'en-US', browser });
    page = app.page;
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it('shows the first page at once and keeps fewer than 200 row elements while scrolling all of them', async () => {
    // Generate the store in this process, through a connection of the test's own on the app's data
    // directory: one prepared statement, one transaction.
    const seed = storedIn(app.services.home);
    const db = seed.db;
    const insert = db.prepare(
      `INSERT INTO messages (profile, base_url, api_id, mobile, content, template_id, units, outcome, code, smsid, billed_units, state, duration, created_at, updated_at, ended_at)
         VALUES ('sandbox', 'http://127.0.0.1:1', 'sandbox-demo', ?, ?, NULL, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const states: CallState[] = ['answered', 'answered', 'answered', 'no_answer', 'busy', 'powered_off'];
    const now = Date.now() - 3_600_000;
    db.transaction(() => {
      for (let i = 0; i < ROWS; i++) {
        const at = now - i * 30_000;
        const mobile = `13${String(800_000_000 + i * 7).padStart(9, '0')}`;
        const kind = i % 50;
        if (kind === 7) insert.run(mobile, CODE(String(100_000 + i)), 'rejected', 401, null, null, 'failed', null, at, at, at);
        else if (kind === 13) insert.run(mobile, CODE(String(100_000 + i)), 'unknown', null, null, null, 'unknown', null, at, at, null);
        else {
          const state = states[i % states.length]!;
          insert.run(
            mobile,
            CODE(String(100_000 + i)),
            'accepted',
            2,
            `s${i}`,
            state === 'answered' ? 1 : 0,
            state,
            state === 'answered' ? 20 + (i % 40) : null,
            at,
            at,
            at + 60_000,
          );
        }
      }
    })();
    closeStored();
    // Open the app afresh once the store is written (the test process, which runs main, was busy).
    await page.reload();
    await page.getByRole('menuitem', { name: translator('en')('nav.history') }).waitFor();
    // Real time: lets Chromium finish loading after the reload, so that the timed click below measures History alone (figures are recorded, not asserted).
    await new Promise((r) => setTimeout(r, 1_000));

    // The first page: from the click on History to the first row on screen, timed in the page
    // (a MutationObserver notes when the screen and then the first row enter the DOM).
    await page.evaluate(() => {
      const w = globalThis as unknown as PageGlobals & {
        __marks: Record<string, number>;
        MutationObserver: new (cb: () => void) => { observe(n: unknown, o: unknown): void; disconnect(): void };
        performance: { now(): number };
      };
      w.__marks = {};
      const observer = new w.MutationObserver(() => {
        const d = w.document;
        if (!w.__marks.screen && d.querySelector('[data-testid="history-screen"]')) w.__marks.screen = w.performance.now();
        if (!w.__marks.row && d.querySelector('[data-testid="history-row"]')) {
          w.__marks.row = w.performance.now();
          observer.disconnect();
        }
      });
      observer.observe(w.document.body, { childList: true, subtree: true });
      w.__marks.click = w.performance.now();
    });
    const t0 = Date.now();
    await page.getByRole('menuitem', { name: translator('en')('nav.history') }).click();
    await page.getByTestId('history-row').first().waitFor();
    // A figure for test-results/history-ui.json, not an assertion (Chromium's time, measured on the wall clock).
    const waitedMs = Date.now() - t0;
    const marks = await page.evaluate(() => (globalThis as unknown as { __marks: Record<string, number> }).__marks);
    const firstPageMs = Math.round(marks.row! - marks.click!);
    const screenMs = Math.round(marks.screen! - marks.click!);
    const fetchMs = Number(await page.getByTestId('history-list').getAttribute('data-first-page-ms'));
    await expect.poll(() => page.getByTestId('history-total').innerText()).toMatch(/100,000/);

    // Scroll to the end again and again: each time the next page loads; count the row elements.
    const domRows = () => page.evaluate(() => (globalThis as unknown as PageGlobals).document.querySelectorAll('[data-testid="history-row"]').length);
    const loaded = async () => Number(await page.getByTestId('history-list').getAttribute('data-loaded'));
    let maxRows = await domRows();
    const samples: number[] = [];
    const scrollStarted = Date.now();
    for (let i = 0; i < 400 && (await loaded()) < ROWS; i++) {
      const before = await loaded();
      await page.evaluate(() => {
        const el = (globalThis as unknown as PageGlobals).document.querySelector('[data-testid="history-scroll"]')!;
        el.scrollTop = el.scrollHeight;
      });
      await page.waitForFunction(
        (n) => Number((globalThis as unknown as PageGlobals).document.querySelector('[data-testid="history-list"]')!.getAttribute('data-loaded')) > n,
        before,
        { timeout: 10_000 },
      );
      const n = await domRows();
      samples.push(n);
      maxRows = Math.max(maxRows, n);
      if (i % 20 === 0) {
        // And somewhere in the middle.
        await page.evaluate(() => {
          const el = (globalThis as unknown as PageGlobals).document.querySelector('[data-testid="history-scroll"]')!;
          el.scrollTop = Math.floor(el.scrollHeight * Math.random());
        });
        // Real time: lets Chromium render after a scroll before the row elements are counted.
        await new Promise((r) => setTimeout(r, 50));
        maxRows = Math.max(maxRows, await domRows());
      }
    }
    // A figure for test-results/history-ui.json, not an assertion.
    const scrollMs = Date.now() - scrollStarted;
    expect(await loaded()).toBe(ROWS);
    await page.evaluate(() => {
      const el = (globalThis as unknown as PageGlobals).document.querySelector('[data-testid="history-scroll"]')!;
      el.scrollTop = el.scrollHeight;
    });
    await page.getByTestId('history-footer').waitFor();
    expect(await page.getByTestId('history-footer').innerText()).toContain('100,000');
    maxRows = Math.max(maxRows, await domRows());
    expect(maxRows).toBeGreaterThan(5);
    expect(maxRows).toBeLessThan(200);

    // Keyboard at the end: End selects the last row, which is the oldest message.
    await page.getByTestId('history-list').focus();
    await page.keyboard.press('End');
    const oldest = (await app.handlers['history.page']({ filter: {}, order: 'oldest', limit: 1 })).rows[0]!;
    await expect.poll(() => page.locator('[data-testid="history-row"][aria-selected="true"]').getAttribute('data-message-id')).toBe(String(oldest.id));

    const figures = {
      rows: ROWS,
      firstPageOnScreenMs: firstPageMs,
      screenMountedMs: screenMs,
      firstPageFetchMs: fetchMs,
      firstPageSeenByTestMs: waitedMs,
      maxDomRowsWhileScrolling: maxRows,
      scrolledRows: await loaded(),
      scrollAllMs: scrollMs,
      pagesLoaded: samples.length + 1,
      measuredAt: new Date().toISOString(),
    };
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    writeFileSync(join(ROOT, 'test-results/history-ui.json'), `${JSON.stringify(figures, null, 2)}\n`);
    console.log('history-ui', figures);
  }, 180_000);
});

describe('History after a damaged database', () => {
  it(
    'says that the damaged file was kept aside, and where',
    async () => {
      const home = mkdtempSync(join(tmpdir(), 'callout-e2e-damaged-'));
      writeFileSync(join(home, 'callout.db'), 'this is not a database '.repeat(500));
      const browser = await launchChromium();
      const app = await startApp({ locale: 'en-US', browser, home });
      try {
        const recovered = (await app.handlers['app.info'](undefined)).databaseRecovered;
        expect(recovered).not.toBeNull();
        await app.page.getByRole('menuitem', { name: translator('en')('nav.history') }).click();
        const notice = app.page.getByTestId('database-recovered').first();
        await notice.waitFor();
        expect(await notice.innerText()).toContain(translator('en')('history.recovered.title'));
        // Main's own words about the damage are for its log, not for the screen.
        expect(await notice.innerText()).not.toContain(recovered!.reason);
        expect(await notice.getByTestId('database-recovered-path').innerText()).toBe(recovered!.movedTo);
        expect(readFileSync(recovered!.movedTo, 'utf8')).toContain('this is not a database');
        await app.page.mouse.move(600, 28);
        await app.screenshot('history-recovered-en');
      } finally {
        await app.close();
        await browser.close();
        rmSync(home, { recursive: true, force: true });
      }
    },
    TIMEOUT,
  );
});
