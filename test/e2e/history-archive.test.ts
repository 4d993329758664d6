// End to end (Chromium through `callout ui`), in both languages at 1024×700: History → Storage →
// Archive old months. The person picks the first month to keep, sees what would move, archives it
// (confirmed) while a bar says how far it is, finds the archive listed, opens it in the Exchanges tab
// (read-only: a banner says so), finds an old exchange there by a word of its body, inspects it, and
// goes back to the live store, which no longer holds it but still holds every message; an old
// message lists its exchanges under the archive they moved to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { formatBytes, formatCount, monthLabel, monthRange } from '../../renderer/src/features/history/history-model';
import { openStore } from '../../main/store';
import { monthStart } from '../../main/store/archive';
import type { Exchange } from '../../common/records';
import { tempHome } from '../helpers/temp-home';
import { launchChromium, startApp } from './bridge';
import { settled, translator } from './page-helpers';

const TIMEOUT = 120_000;
const DAY = 86_400_000;
/** Old exchanges enough for the archive to take a few seconds (its bar is seen). */
const PER_DAY = 300;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** "2026-07" of the month `back` months before this one, on this machine's wall clock. */
function monthBack(back: number): string {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth() - back, 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

function exchange(startedAt: number, n: number): Exchange {
  return {
    operation: 'send',
    method: 'POST',
    url: 'http://127.0.0.1:8080/voice/vm',
    requestHeaders: [['Content-Type', 'application/json; charset=utf-8']],
    requestBody: JSON.stringify({ account: 'demo', password: '[REDACTED]', mobile: '13800138000', content: `机房告警 工单 TICKET${n}` }),
    status: 200,
    statusText: 'OK',
    responseHeaders: [['Content-Type', 'application/json']],
    responseBody: `{"code":2,"msg":"提交成功","smsid":"SID${n}"}`,
    error: null,
    startedAt,
    timings: { dnsMs: null, connectMs: 1, tlsMs: null, firstByteMs: 2, totalMs: 3 },
  };
}

/** A message a day for the last 150 days, each with its send and PER_DAY - 1 status checks; the times of the exchanges. */
function seed(dir: string): number[] {
  const times: number[] = [];
  const store = openStore(dir);
  const now = Date.now();
  let n = 0;
  try {
    store.db.transaction(() => {
      for (let d = 150; d >= 1; d--) {
        const at = now - d * DAY;
        const m = store.messages.insertPending({
          profile: 'sandbox',
          baseUrl: 'http://127.0.0.1:8080',
          apiId: 'demo',
          mobile: '13800138000',
          content: `第${d}天`,
          units: 1,
        });
        store.db.prepare('UPDATE messages SET created_at = ?, updated_at = ? WHERE id = ?').run(at, at, m.id);
        for (let i = 0; i < PER_DAY; i++) {
          times.push(at + i * 1000);
          store.exchanges.insert(exchange(at + i * 1000, ++n), { messageId: m.id });
        }
      }
    })();
  } finally {
    store.close();
  }
  return times;
}

describe.each([
  { locale: 'en-US', lang: 'en', suffix: 'en' },
  { locale: 'zh-CN', lang: 'zh-CN', suffix: 'zh-CN' },
] as const)('History → Storage → Archive old months ($suffix)', ({ locale, lang, suffix }) => {
  it(
    'archives the months before the one picked with a bar, lists the file, opens it read-only and searches it',
    async () => {
      const t = translator(lang);
      const home = tempHome('callout-e2e-archive-');
      const times = seed(home.dir);
      const app = await startApp({ locale, browser, home: home.dir, onboarding: false, packExchanges: false });
      try {
        const { page, handlers } = app;
        await page.setViewportSize({ width: 1024, height: 700 });
        const before = monthBack(3);
        const offset = -new Date().getTimezoneOffset();
        const plan = await handlers['store.previewArchive']({ before, utcOffsetMinutes: offset });
        // Every exchange before the month picked: a month or more of days (how many depends on today's date).
        const moved = times.filter((at) => at < monthStart(before, offset)).length;
        expect(moved).toBeGreaterThanOrEqual(PER_DAY * 28);
        expect(plan.exchanges).toBe(moved);
        const live = (await handlers['store.status'](undefined)).usage.exchanges;
        const messages = (await handlers['history.page']({ filter: {}, withTotal: true })).total;

        await page.getByRole('menuitem', { name: t('nav.history') }).click();
        await page.getByTestId('open-store').click();
        const drawer = page.getByTestId('store-drawer');
        const section = drawer.getByTestId('archive-section');
        await section.scrollIntoViewIfNeeded();
        // The first month kept is three months back: what would move is said before anything moves.
        expect(await section.getByTestId('archive-before').innerText()).toContain(monthLabel(lang, before));
        const planText = t('history.store.archive.plan', {
          count: plan.exchanges,
          n: formatCount(lang, plan.exchanges),
          bytes: formatBytes(plan.bytes),
          months: monthRange(lang, plan.from, plan.to),
        });
        await expect.poll(() => section.getByTestId('archive-plan').innerText()).toBe(planText);
        expect(await section.innerText()).toContain(t('msg:archive.none'));
        await settled(page);
        await app.screenshot(`history-archive-plan-${suffix}`);

        await section.getByTestId('archive-start').click();
        const confirm = page.locator('.ant-modal-confirm');
        await confirm.waitFor();
        expect(await confirm.innerText()).toContain(t('history.store.archive.confirm', { count: plan.exchanges, n: formatCount(lang, plan.exchanges) }));
        await confirm.locator('.ant-btn-primary').click();
        // While it runs, a bar and what it is doing.
        const running = section.getByTestId('archive-running');
        await running.waitFor({ timeout: 10_000 });
        await running.scrollIntoViewIfNeeded();
        await app.screenshot(`history-archive-running-${suffix}`);
        const result = section.getByTestId('archive-result');
        await result.waitFor({ timeout: 60_000 });
        const status = await handlers['store.status'](undefined);
        const last = status.archive.last!;
        expect(last).toMatchObject({ exchanges: plan.exchanges, removed: plan.exchanges, from: plan.from, to: plan.to });
        // Nothing before the month is left live; what is left is the rest (and any exchange the app
        // itself stored meanwhile, such as a balance query: CI once saw one).
        expect((await handlers['store.previewArchive']({ before, utcOffsetMinutes: offset })).exchanges).toBe(0);
        expect(status.usage.exchanges - (live - plan.exchanges)).toBeGreaterThanOrEqual(0);
        expect(status.usage.exchanges - (live - plan.exchanges)).toBeLessThanOrEqual(3);
        expect(await result.innerText()).toContain(
          t('history.store.archive.done', {
            count: last.exchanges,
            n: formatCount(lang, last.exchanges),
            months: monthRange(lang, last.from, last.to),
            name: last.name,
            size: formatBytes(last.archiveBytes),
          }),
        );
        const item = section.getByTestId('archive-item');
        await item.waitFor();
        expect(await item.getAttribute('data-archive')).toBe(last.name);
        // Nothing is left to move before that month.
        await expect.poll(() => section.getByTestId('archive-plan').innerText()).toBe(t('history.store.archive.planNone', { month: monthLabel(lang, before) }));
        await item.scrollIntoViewIfNeeded();
        await settled(page);
        await app.screenshot(`history-archive-done-${suffix}`);

        // Opened, read-only, in the Exchanges tab; an old exchange found by a word of its body.
        await item.getByTestId('archive-open').click();
        const banner = page.getByTestId('archive-banner');
        await banner.waitFor();
        expect(await banner.innerText()).toContain(t('history.exchanges.archiveBanner', { name: last.name, months: monthRange(lang, last.from, last.to) }));
        await page.getByTestId('exchanges-search').locator('input').fill('TICKET7"');
        await page.getByTestId('exchanges-search').locator('input').press('Enter');
        await expect.poll(() => page.getByTestId('exchange-row').count(), { timeout: 10_000 }).toBe(1);
        await settled(page);
        await app.screenshot(`history-archive-open-${suffix}`);
        await page.getByTestId('exchange-row').first().click();
        const inspector = page.locator('.ant-drawer-open').filter({ hasText: 'TICKET7"' });
        await inspector.waitFor({ timeout: 10_000 });
        expect(await inspector.innerText()).toContain('SID7');
        expect(await inspector.getByTestId('inspector-archive').innerText()).toBe(t('history.exchanges.fromArchive', { name: last.name }));
        // The archive took the space of what it moved: the live store's file is smaller (the search index merged).
        expect(last.storeBytesAfter).toBeLessThan(last.storeBytesBefore);
        await settled(page);
        await app.screenshot(`history-archive-inspector-${suffix}`);
        await page.keyboard.press('Escape');

        // Back to the live store: the old exchange is not there; every message still is.
        await page.getByTestId('archive-close').click();
        await banner.waitFor({ state: 'detached' });
        await expect.poll(() => page.getByTestId('exchange-row').count(), { timeout: 10_000 }).toBe(0);
        expect((await handlers['history.page']({ filter: {}, withTotal: true })).total).toBe(messages);

        // An old message still shows its exchanges, under the archive they moved to; one opens in the inspector.
        await page.getByRole('tab', { name: t('history.tabs.messages') }).click();
        const search = page.locator('input[data-testid="history-search"], [data-testid="history-search"] input').first();
        await search.fill('第150天');
        await search.press('Enter');
        await expect.poll(() => page.getByTestId('history-row').count(), { timeout: 10_000 }).toBe(1);
        await page
          .getByTestId('history-row')
          .first()
          .click({ position: { x: 60, y: 20 } });
        const group = page.getByTestId('message-panel').getByTestId('message-archived-exchanges');
        await group.waitFor({ timeout: 10_000 });
        expect(await group.getAttribute('data-archive')).toBe(last.name);
        const groupText = await group.innerText();
        expect(groupText).toContain(t('history.detail.archivedExchanges', { count: PER_DAY }));
        expect(groupText).toContain(t('history.detail.archivedIn', { name: last.name }));
        expect(await page.getByTestId('message-panel').innerText()).not.toContain(t('history.exchanges.none'));
        await settled(page);
        await app.screenshot(`history-archive-message-${suffix}`);
        await group.getByTestId('exchange-open').first().click();
        const tag = page.getByTestId('inspector-archive');
        await tag.waitFor({ timeout: 10_000 });
        expect(await tag.innerText()).toBe(t('history.exchanges.fromArchive', { name: last.name }));
      } finally {
        await app.close();
        home.cleanup();
      }
    },
    TIMEOUT,
  );
});
