// End to end, through `callout ui`'s own transport (bridge.ts): the Bulk send screen in Chromium, its window.callout
// routed to the real handlers (real SQLite, the bulk queue under the governor, the embedded sandbox
// over HTTP). Run after `npx electron-vite build`. Both languages; screenshots under test-results/screens/.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { reasonArgs } from '../../common/messages';
import { workbookWithSheet } from '../helpers/hostile-files';
import { withAside } from '../../renderer/src/i18n/punctuation';
import { launchChromium, startApp, type AppUnderTest } from './bridge';
import { bodyText, catalogText, collectProblems, settled, spokenTexts, stubSpeech, translator } from './page-helpers';

const TIMEOUT = 90_000;
const CJK = /[\u3400-\u9fff]/;
/** A dictionary key (the screen's, or the message catalog's) that leaked onto the screen instead of its text. */
const RAW_KEY = /\b(common|errors|bulk)\.[a-z][\w-]*(\.[\w-]+)*\b|\b(importIssue|reason|state)\.[a-z][\w-]*\b/;
const SHIPPING = '您好，【变量】，您的订单【变量】已发货，请注意查收。';
const fill = (customer: string, order: string) => `您好，${customer}，您的订单${order}已发货，请注意查收。`;

const LOCALES = [
  { locale: 'en-US', lang: 'en', suffix: 'en', markers: ['Customer', 'Order number'], mobileHeader: 'Mobile', prefix: '139', full: true },
  { locale: 'zh-CN', lang: 'zh-CN', suffix: 'zh-CN', markers: ['客户称呼', '订单号'], mobileHeader: '手机号', prefix: '138', full: false },
] as const;

interface Row {
  mobile: string;
  customer: string;
  order: string;
}

/** A file of `good` sendable rows with, at fixed places, one row of each problem. Row numbers count the header as row 1. */
function sheet(prefix: string, good: number) {
  // Last digits 7, 8, 9 answer; 1 is busy (a failed call), so the figures show both.
  const digits = ['7', '8', '9', '1', '8'];
  const goodRows: Row[] = Array.from({ length: good }, (_, i) => ({
    mobile: `${prefix}0000${String(i).padStart(3, '0')}${digits[i % digits.length]}`,
    customer: `客户${i + 1}`,
    order: `A${1000 + i}`,
  }));
  const bad = {
    badMobile: { mobile: '138 1234', customer: '王先生', order: 'B1' },
    missingMobile: { mobile: '', customer: '李女士', order: 'B2' },
    missingValue: { mobile: `${prefix}99990007`, customer: '', order: 'B3' },
    tooLong: { mobile: `${prefix}99990017`, customer: '赵先生', order: 'X'.repeat(520) },
    duplicate: { ...goodRows[0]! },
    sameMobile: { mobile: goodRows[1]!.mobile, customer: goodRows[1]!.customer, order: 'C9' },
  };
  const rows: Row[] = [
    goodRows[0]!,
    goodRows[1]!,
    goodRows[2]!,
    bad.badMobile,
    bad.missingMobile,
    bad.missingValue,
    bad.tooLong,
    bad.duplicate,
    bad.sameMobile,
    ...goodRows.slice(3),
  ];
  const rowOf = (r: Row) => rows.indexOf(r) + 2;
  return {
    rows,
    goodRows,
    rowNumbers: {
      badMobile: rowOf(bad.badMobile),
      missingMobile: rowOf(bad.missingMobile),
      missingValue: rowOf(bad.missingValue),
      tooLong: rowOf(bad.tooLong),
      duplicate: rows.lastIndexOf(bad.duplicate) + 2,
      sameMobile: rowOf(bad.sameMobile),
    },
  };
}

function csv(header: readonly string[], rows: readonly Row[]): string {
  return Papa.unparse({ fields: [...header], data: rows.map((r) => [r.mobile, r.customer, r.order]) }, { newline: '\r\n' });
}

describe.each(LOCALES)('Bulk send ($suffix)', ({ locale, lang, suffix, markers, mobileHeader, prefix, full }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  let dir: string;
  const problems: string[] = [];
  const t = translator(lang);
  /** A label with its count, as the language writes it: "All (6)", "全部（6）". */
  const aside = (label: string, n: number) => withAside(lang, label, String(n));
  const sends = () => app.services.sandbox!.requests().filter((r) => r.op === 'send');
  const batchView = () => page.getByTestId('batch-view');
  const status = () => batchView().getAttribute('data-status');
  const figure = async (name: string) => Number(await page.getByTestId(`figure-${name}`).getAttribute('data-value'));
  const dialog = (title: string): Locator => page.getByRole('dialog').filter({ hasText: title });
  /** A screenshot that starts at `top` (the screen's title by default), below the shell's banners. */
  const snap = async (name: string, top = '#bulk-title') => {
    await page
      .locator('.ant-message-notice')
      .first()
      .waitFor({ state: 'detached', timeout: 5_000 })
      .catch(() => undefined);
    await page
      .locator(top)
      .first()
      .evaluate((el) => (el as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'start' }));
    await settled(page);
    await app.screenshot(name);
  };
  const batchId = async () => Number(await batchView().getAttribute('data-batch-id'));
  const progress = async () => app.handlers['bulk.progress']({ batchId: await batchId() });
  const file1 = sheet(prefix, 60);
  const header = [mobileHeader, ...markers];

  const chooseFile = async (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    await page.locator('.ant-upload input[type=file]').setInputFiles(path);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'callout-bulk-e2e-'));
    browser = await launchChromium();
    // Calls last about 1.5 s here: long enough to pause a running batch, short enough to finish one.
    app = await startApp({ locale, browser, sandbox: { timeScale: 0.1 } });
    page = app.page;
    collectProblems(page, problems);
    app.services.sandbox!.setBalance('sandbox-demo', 10_000);
    await app.handlers['templates.save']({ name: '发货通知', content: SHIPPING, approved: true, markerNames: [...markers] });
    await app.handlers['templates.save']({ name: '预约提醒', content: '尊敬的【变量】，您预约的【变量】服务将于【变量】开始。', approved: false });
    await page.goto(page.url().replace(/#.*$/, '') + '#/bulk');
    await page.reload();
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, TIMEOUT);

  it(
    'refuses a hostile workbook (a cell at row 1,048,576) with the limit and the file’s figure, and stays on the file step',
    async () => {
      await page.getByTestId('import-wizard').waitFor();
      expect(await page.getByTestId('import-wizard').innerText()).toContain(t('bulk.file.limits', { mb: 32, rows: 200_000, chars: 5_000 }));
      const path = join(dir, 'far.xlsx');
      writeFileSync(
        path,
        workbookWithSheet('<row r="1"><c r="A1" t="inlineStr"><is><t>手机</t></is></c></row><row r="1048576"><c r="A1048576"><v>1</v></c></row>'),
      );
      await page.locator('.ant-upload input[type=file]').setInputFiles(path);
      const said = t('msg:error.import-too-large_rows', { max: 200_000, found: 1_048_576 });
      await expect.poll(() => bodyText(page), { timeout: 15_000 }).toContain(said);
      expect(sends()).toHaveLength(0);
      await snap(`bulk-file-too-large-${suffix}`, '[data-testid=import-wizard]');
    },
    TIMEOUT,
  );

  it(
    "sets the profile's lines, and whether a line is lent while its call waits for a redial: saved in main, said in this language",
    async () => {
      const sandboxId = (await app.handlers['profiles.list'](undefined)).find((p) => p.builtin)!.id;
      const editor = page.getByTestId('lines-editor');
      await expect.poll(() => editor.getAttribute('data-lend')).toBe('true');
      // The switch is named by its label.
      expect(await page.getByRole('switch', { name: t('bulk.lines.lend') }).getAttribute('aria-checked')).toBe('true');
      expect(await editor.innerText()).toContain(t('bulk.lines.lend'));
      expect(await editor.innerText()).toContain(t('bulk.lines.lendHelp'));

      await page.locator('#bulk-lines').fill('2');
      await expect
        .poll(() => page.getByTestId('lines-limits').innerText())
        .toBe(t('bulk.lines.limits', { concurrent: '40', perHour: lang === 'zh-CN' ? '4000' : '4,000' }));
      await page.getByTestId('save-lines').click();
      await expect.poll(() => editor.getAttribute('data-lines')).toBe('2');
      expect(await app.handlers['profiles.lines']({ id: sandboxId })).toEqual({ lines: 2, lendLines: true, lendingStopped: false, lendingStoppedAt: null });

      // Off: the switch says so, main keeps it, and the governor stops lending at once.
      await page.getByTestId('lend-lines').click();
      await expect.poll(() => editor.getAttribute('data-lend')).toBe('false');
      await expect.poll(() => bodyText(page)).toContain(t('bulk.lines.lendOff'));
      expect(await app.handlers['profiles.lines']({ id: sandboxId })).toEqual({ lines: 2, lendLines: false, lendingStopped: false, lendingStoppedAt: null });
      expect(app.services.governors.for(sandboxId).snapshot().lending).toBe(false);
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      await snap(`bulk-lines-${suffix}`, '[data-testid=import-wizard]');
      // A reload reads it back from main.
      await page.reload();
      // A reload loads the screen anew: slow on a loaded machine (5 s were once not enough).
      await expect.poll(() => page.getByTestId('lines-editor').getAttribute('data-lend'), { timeout: 20_000 }).toBe('false');
      expect(await page.getByTestId('lines-editor').getAttribute('data-lines')).toBe('2');

      await page.getByTestId('lend-lines').click();
      await expect.poll(() => page.getByTestId('lines-editor').getAttribute('data-lend')).toBe('true');

      // The provider refuses a send that started on a lent line: lending stops (kept with the profile,
      // for the CLI and the next start too), and the screen says since when and why.
      const g = app.services.governors.for(sandboxId);
      const held = await g.acquire();
      held.holds(999_999);
      g.lend(999_999, Date.now() + 60_000);
      const onLent = g.tryAcquire()!;
      onLent.refused();
      onLent.release();
      held.release();
      await page.reload();
      await expect.poll(() => page.getByTestId('lines-editor').getAttribute('data-lend'), { timeout: 20_000 }).toBe('false');
      const stoppedAt = (await app.handlers['profiles.lines']({ id: sandboxId })).lendingStoppedAt;
      expect(stoppedAt).not.toBeNull();
      expect(await page.getByTestId('lend-stopped').innerText()).toBe(t('bulk.lines.lendStopped', { time: new Date(stoppedAt!).toTimeString().slice(0, 8) }));
      await snap(`bulk-lines-stopped-${suffix}`, '[data-testid=import-wizard]');
      // Turned on again by a person: lending resumes.
      await page.getByTestId('lend-lines').click();
      await expect.poll(() => page.getByTestId('lines-editor').getAttribute('data-lend')).toBe('true');
      expect(await page.getByTestId('lend-stopped').count()).toBe(0);
      expect(g.snapshot()).toMatchObject({ lending: true, inUse: 0 });
      expect((await app.handlers['profiles.lines']({ id: sandboxId })).lendingStoppedAt).toBeNull();

      // Back as it was, for the batches below: one line, lent.
      await page.locator('#bulk-lines').fill('1');
      await page.getByTestId('save-lines').click();
      await expect.poll(() => page.getByTestId('lines-editor').getAttribute('data-lines')).toBe('1');
      expect(app.services.governors.for(sandboxId).snapshot()).toMatchObject({ lending: true, limits: { concurrency: 20 } });
    },
    TIMEOUT,
  );

  it(
    'imports a CSV: the suggested mapping is preselected over the first rows, and the first texts are previewed',
    async () => {
      await page.getByRole('heading', { name: t('bulk.title') }).waitFor();
      await page.getByTestId('import-wizard').waitFor();
      expect(await page.getByTestId('batch-list').innerText()).toContain(t('bulk.list.empty'));
      // The only approved template is chosen already; the profile is the Sandbox.
      expect(await page.locator('.ant-form-item:has(#bulk-template)').innerText()).toContain('发货通知');
      expect(await page.locator('.ant-form-item:has(#bulk-profile)').innerText()).toContain('Sandbox');
      expect(await page.getByTestId('lines-limits').innerText()).toBe(
        t('bulk.lines.limits', { concurrent: '20', perHour: lang === 'zh-CN' ? '2000' : '2,000' }),
      );

      await snap(`bulk-file-${suffix}`);
      await chooseFile('customers.csv', csv(header, file1.rows));
      await page.getByTestId('mapping-step').waitFor();
      const target = (column: string) => page.locator(`[data-testid=mapping-column][data-column="${column}"]`).getAttribute('data-target');
      expect(await target(mobileHeader)).toBe('mobile');
      expect(await target(markers[0])).toBe('marker:0');
      expect(await target(markers[1])).toBe('marker:1');
      expect(await page.getByTestId('mapping-step').innerText()).toContain(t('bulk.mapping.suggestedTag'));
      // The sample shows the file's first rows as read.
      const sample = page.getByTestId('mapping-sample');
      expect(await sample.locator('tbody tr.ant-table-row').count()).toBe(5);
      expect(await sample.innerText()).toContain(file1.rows[0]!.mobile);
      // The first texts exactly as they will be read out (valid rows only).
      const preview = page.getByTestId('preview-row');
      await expect.poll(() => preview.count()).toBe(5);
      expect(await preview.first().innerText()).toContain(fill(file1.rows[0]!.customer, file1.rows[0]!.order));
      // Each row can be heard first: exactly its text, with the system's Chinese voice.
      await stubSpeech(page);
      await preview.nth(1).getByTestId('preview-hear-button').click();
      await expect.poll(() => spokenTexts(page)).toEqual([fill(file1.rows[1]!.customer, file1.rows[1]!.order)]);
      // Without a Chinese voice, the row says so instead of playing nothing.
      await stubSpeech(page, { chinese: false });
      await preview.first().getByTestId('preview-hear-button').click();
      await preview.first().getByTestId('preview-hear-problem').waitFor();
      expect(await preview.first().getByTestId('preview-hear-problem').innerText()).toBe(t('speech.no-chinese-voice'));
      expect(await spokenTexts(page)).toEqual([]);
      await snap(`bulk-preview-hear-no-voice-${suffix}`, '[data-testid=import-wizard]');
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      if (lang === 'zh-CN') expect(await bodyText(page)).toMatch(CJK);
      await snap(`bulk-import-mapping-${suffix}`, '[data-testid=import-wizard]');

      // Unmapping a marker says what is missing and holds the next step; choosing it again goes on.
      const select = page.locator(`[data-testid=mapping-column][data-column="${markers[1]}"] .ant-select`);
      await select.click();
      await page
        .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
        .filter({ hasText: t('bulk.mapping.none') })
        .click();
      await page.getByTestId('mapping-missing').waitFor();
      expect(await page.getByTestId('mapping-missing').innerText()).toContain(t('bulk.mapping.missingMarker', { label: markers[1] }));
      expect(await page.getByTestId('mapping-next').isDisabled()).toBe(true);
      await select.click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: markers[1] }).click();
      await expect.poll(() => target(markers[1])).toBe('marker:1');
      await expect.poll(() => page.getByTestId('mapping-next').isDisabled()).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'reports every problem by row before anything is sent, with the choice for repeated rows and the units against the balance',
    async () => {
      await page.getByTestId('mapping-next').click();
      await page.getByTestId('report-step').waitFor();
      const value = async (id: string) => page.getByTestId(id).getAttribute('data-value');
      expect(await value('total-rows')).toBe(String(file1.rows.length));
      expect(await value('total-invalid')).toBe('4');
      expect(await value('total-duplicates')).toBe('1');
      expect(await value('total-same-mobile')).toBe('1');
      // The issues table names the rows.
      const issueRows = page.getByTestId('issue-row');
      await expect.poll(() => issueRows.count()).toBe(6);
      const issues = await issueRows.evaluateAll((rows) => rows.map((r) => [Number(r.getAttribute('data-row')), r.getAttribute('data-kind')]));
      const n = file1.rowNumbers;
      expect(issues).toEqual([
        [n.badMobile, 'bad-mobile'],
        [n.missingMobile, 'missing-mobile'],
        [n.missingValue, 'missing-value'],
        [n.tooLong, 'too-long'],
        [n.duplicate, 'duplicate'],
        [n.sameMobile, 'same-mobile'],
      ]);
      const table = await page.getByTestId('issues-card').innerText();
      expect(table).toContain(t('msg:importIssue.duplicate', { detail: 2 }));
      expect(table).toContain(t('msg:importIssue.too-long', { detail: [...fill('赵先生', 'X'.repeat(520))].length }));
      expect(table).toContain(t('msg:importIssue.missing-value', { value: markers[0], column: markers[0] }));
      // Filtering one kind asks main for that kind only.
      await page
        .getByTestId('issue-filter')
        .getByText(aside(t('bulk.issue.kind.bad-mobile'), 1))
        .click();
      await expect.poll(() => issueRows.count()).toBe(1);
      expect(await issueRows.first().getAttribute('data-row')).toBe(String(n.badMobile));
      expect(app.calls.some((c) => c.channel === 'bulk.issues' && (c.input as { kind?: string }).kind === 'bad-mobile')).toBe(true);
      await page
        .getByTestId('issue-filter')
        .getByText(aside(t('bulk.issue.all'), 6))
        .click();
      await expect.poll(() => issueRows.count()).toBe(6);

      // Repeated rows: skipping same number and text is the default; the totals follow the choice.
      const summary = page.getByTestId('send-summary');
      const valid = file1.goodRows.length + 2; // the repeated row and the same-number row are valid
      expect(await summary.getAttribute('data-to-send')).toBe(String(valid - 1));
      await page.locator('[data-policy="same-mobile"]').click();
      await expect.poll(() => summary.getAttribute('data-to-send')).toBe(String(valid - 2));
      await page.locator('[data-policy="none"]').click();
      await expect.poll(() => summary.getAttribute('data-to-send')).toBe(String(valid));
      await page.locator('[data-policy="same-text"]').click();
      await expect.poll(() => summary.getAttribute('data-to-send')).toBe(String(valid - 1));
      expect(await summary.getAttribute('data-units')).toBe(String(valid - 1));
      expect(await summary.getAttribute('data-enough')).toBe('true');
      expect(await page.getByTestId('balance').getAttribute('data-value')).toBe('10000');
      expect(sends()).toHaveLength(0);
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      await snap(`bulk-validation-report-${suffix}`, '[data-testid=import-wizard]');
    },
    TIMEOUT,
  );

  it(
    'runs the batch live: pause holds new calls, resume goes on, and every good row is called once',
    async () => {
      const toSend = file1.goodRows.length + 1;
      await page.getByTestId('create-start').click();
      const confirm = dialog(t('bulk.confirmStart.title', { count: toSend }));
      await confirm.waitFor();
      expect(sends()).toHaveLength(0); // nothing leaves before the confirmation
      await confirm.getByRole('button', { name: t('bulk.confirmStart.ok') }).click();
      await batchView().waitFor();
      await expect.poll(status, { timeout: 10_000 }).toBe('running');
      await page.getByTestId('batch-pause').click();
      await expect.poll(status, { timeout: 10_000 }).toBe('paused');
      expect(await page.getByTestId('stop-banner').getAttribute('data-reason')).toBe('user');
      // Calls in flight finish; no new one starts while paused.
      await expect.poll(async () => (await progress()).inFlight, { timeout: 10_000 }).toBe(0);
      const during = sends().length;
      expect(during).toBeGreaterThan(0);
      expect(during).toBeLessThan(toSend);
      // Real time: a check that nothing more happens; the app runs on the system clock with Chromium and the sandbox over HTTP, and no event says "nothing came".
      await new Promise((r) => setTimeout(r, 1_000));
      expect(sends().length).toBe(during);
      expect(await figure('remaining')).toBe(toSend - during);

      await page.getByTestId('batch-resume').click();
      await expect.poll(status, { timeout: 10_000 }).toBe('running');
      await expect.poll(() => figure('sent'), { timeout: 10_000 }).toBeGreaterThan(during);
      expect(await page.getByTestId('stop-banner').count()).toBe(0);
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      await snap(`bulk-running-${suffix}`);

      await expect.poll(status, { timeout: 40_000 }).toBe('done');
      await expect.poll(async () => (await progress()).calling, { timeout: 30_000 }).toBe(0);
      await expect.poll(() => figure('remaining')).toBe(0);
      await expect.poll(() => figure('answered'), { timeout: 10_000 }).toBe((await progress()).answered);
      const p = await progress();
      expect(p).toMatchObject({ status: 'done', sent: toSend, accepted: toSend, unknown: 0, remaining: 0 });
      expect(p.answered + p.notAnswered).toBe(toSend);
      expect(p.notAnswered).toBeGreaterThan(0); // the busy numbers
      expect(p.governor.limit).toBe(20);

      // The sandbox received each good row once, and never an invalid or skipped one.
      const keys = sends().map((r) => `${String(r.body?.mobile)}\n${String(r.body?.content)}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(keys).toHaveLength(toSend);
      for (const r of file1.goodRows) expect(keys).toContain(`${r.mobile}\n${fill(r.customer, r.order)}`);
      const sentMobiles = sends().map((r) => String(r.body?.mobile));
      expect(sentMobiles).not.toContain(`${prefix}99990007`);
      expect(sentMobiles).not.toContain(`${prefix}99990017`);
      expect(app.services.sandbox!.calls()).toHaveLength(toSend);
      expect(await page.locator('[data-testid=batch-row]').count()).toBe(1);
    },
    TIMEOUT,
  );

  it(
    "exports the results as CSV: the sheet's own columns, then every row's outcome in this language and local time",
    async () => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('batch-export').click()]);
      const id = await batchId();
      expect(download.suggestedFilename()).toBe(`callout-batch-${id}.csv`);
      const text = readFileSync((await download.path())!, 'utf8');
      expect(text.charCodeAt(0)).toBe(0xfeff);
      const parsed = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true });
      const sheetColumns = new Set(header.map((h) => h.toLowerCase()));
      // A result column named like one of the sheet's own is told apart ("Mobile" → its own name here).
      const col = (k: string) => {
        const name = t(`msg:csv.result.${k}`);
        return sheetColumns.has(name.toLowerCase()) ? t('msg:csv.result.collision', { name }) : name;
      };
      const results = [
        'row',
        'mobile',
        'content',
        'status',
        'state',
        'duration',
        'units',
        'code',
        'why',
        'refusedSends',
        'sent',
        'ended',
        'smsid',
        'message',
      ].map(col);
      expect(parsed.meta.fields).toEqual([...header, ...results]);
      expect(parsed.data).toHaveLength(file1.rows.length);
      const byRow = new Map(parsed.data.map((r) => [Number(r[col('row')]), r]));
      for (const r of file1.goodRows) {
        const line = byRow.get(file1.rows.indexOf(r) + 2)!;
        // The customer's own cells come back as they were in the sheet.
        expect(line[markers[0]]).toBe(r.customer);
        expect(line[markers[1]]).toBe(r.order);
        expect(line[col('mobile')]).toBe(r.mobile);
        expect(line[col('status')]).toBe(t('msg:csv.itemStatus.accepted'));
        expect(line[col('content')]).toBe(fill(r.customer, r.order));
        expect(line[col('state')]).toBe(t(`msg:state.${r.mobile.endsWith('1') ? 'busy' : 'answered'}`));
        expect(line[col('units')]).toBe(r.mobile.endsWith('1') ? '0' : '1');
        expect(line[col('smsid')]).not.toBe('');
        // Local time, as History's CSV writes it: never UTC with a Z.
        expect(line[col('sent')]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      }
      const n = file1.rowNumbers;
      for (const row of [n.badMobile, n.missingMobile, n.missingValue, n.tooLong, n.duplicate])
        expect(byRow.get(row)![col('status')]).toBe(t('msg:csv.itemStatus.skipped'));
      expect(byRow.get(n.sameMobile)![col('status')]).toBe(t('msg:csv.itemStatus.accepted'));
      if (lang === 'zh-CN') expect(text).not.toMatch(/\baccepted\b|\bbusy\b|\bskipped\b/);

      // The same as an XLSX workbook.
      const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByTestId('batch-export-xlsx').click()]);
      expect(xlsx.suggestedFilename()).toBe(`callout-batch-${id}.xlsx`);
      const { readSheet } = await import('read-excel-file/node');
      const sheetRows = (await readSheet((await xlsx.path())!)) as unknown[][];
      expect(sheetRows[0]).toEqual([...header, ...results]);
      expect(sheetRows).toHaveLength(file1.rows.length + 1);
    },
    TIMEOUT,
  );

  it.runIf(full)(
    'a second batch: warned about the balance, paused by insufficient balance (402), resumed after recharging, then cancelled; an unknown outcome is left to a person',
    async () => {
      const file2 = sheet('137', 40);
      const callsBefore = app.services.sandbox!.calls().length;
      app.services.sandbox!.setBalance('sandbox-demo', 5);
      await page.getByTestId('new-import').click();
      await page.getByTestId('import-wizard').waitFor();
      await chooseFile('second.csv', csv(header, file2.goodRows));
      await page.getByTestId('mapping-next').click();
      await page.getByTestId('report-step').waitFor();
      const summary = page.getByTestId('send-summary');
      expect(await summary.getAttribute('data-enough')).toBe('false');
      expect(await page.getByTestId('balance-warning').innerText()).toContain(t('bulk.report.notEnoughTitle'));
      await page.getByTestId('create-start').click();
      const confirm = dialog(t('bulk.confirmStart.title', { count: 40 }));
      await confirm.getByRole('button', { name: t('bulk.confirmStart.ok') }).click();
      await batchView().waitFor();

      // The provider refuses for insufficient balance: the batch pauses and says what to do.
      await expect.poll(() => batchView().getAttribute('data-reason'), { timeout: 15_000 }).toBe('insufficient-balance');
      expect(await status()).toBe('paused');
      const banner = page.getByTestId('stop-banner');
      expect(await banner.innerText()).toContain(t('bulk.stop.title.insufficient-balance'));
      const { statusReason } = await progress();
      expect(statusReason).toMatchObject({ code: 'stop', params: { kind: 'insufficient-balance' } });
      expect(await banner.innerText()).toContain(catalogText(t, reasonArgs(statusReason!)));
      await expect.poll(async () => (await progress()).inFlight, { timeout: 10_000 }).toBe(0);
      const placedBefore = app.services.sandbox!.calls().length - callsBefore;
      await snap(`bulk-paused-balance-${suffix}`);
      expect(placedBefore).toBeGreaterThan(0);
      // Paused means paused: nothing more reaches the provider until a person resumes.
      const sendsAtPause = app.services.sandbox!.requests().filter((r) => r.op === 'send').length;
      // Real time: a check that nothing more happens; the app runs on the system clock with Chromium and the sandbox over HTTP, and no event says "nothing came".
      await new Promise((r) => setTimeout(r, 500));
      expect(app.services.sandbox!.requests().filter((r) => r.op === 'send').length).toBe(sendsAtPause);
      // Billing is on answer only: a busy call gives its unit back, so more than 5 calls may have been
      // placed; what was charged never exceeds the 5 units.
      expect(
        app.services
          .sandbox!.calls()
          .slice(callsBefore)
          .filter((c) => c.billed).length,
      ).toBeLessThanOrEqual(5);

      // Recharge, then resume; the provider fails once with a 500 (the outcome is unknown); then cancel.
      app.services.sandbox!.setBalance('sandbox-demo', 10_000);
      await page.getByTestId('stop-check-balance').click();
      await page.getByTestId('stop-balance').waitFor();
      // Sends answer slowly from now on, so that rows are still waiting when the person cancels
      // (the most recent matching fault wins: the first send gets the 500, the rest the delay). The
      // first wave of sends takes 8 s (under the 15 s request timeout): with 1.5 s, a machine busy
      // with other work once finished the whole batch before the cancel was clicked.
      app.services.sandbox!.setFault({ kind: 'delay', delayMs: 8000, op: 'send' });
      app.services.sandbox!.setFault({ kind: 'http500', op: 'send', times: 1 });
      await page.getByTestId('batch-resume').click();
      await expect.poll(status, { timeout: 10_000 }).toBe('running');
      await page.getByTestId('batch-cancel').click();
      const cancel = dialog(t('bulk.confirmCancel.title', { name: 'second' }));
      await cancel.waitFor();
      await cancel.getByRole('button', { name: t('bulk.confirmCancel.ok') }).click();
      await expect.poll(status, { timeout: 10_000 }).toBe('cancelled');
      await expect.poll(async () => (await progress()).inFlight, { timeout: 30_000 }).toBe(0);
      app.services.sandbox!.clearFaults();
      const p = await progress();
      expect(p.cancelled).toBeGreaterThan(0);
      expect(p.unknown).toBe(1);
      expect(p.cancelled + p.accepted + p.unknown + p.rejected).toBe(40);
      // Nobody was called twice; the cancelled rows were never sent.
      const placed = app.services
        .sandbox!.calls()
        .slice(callsBefore)
        .map((c) => c.mobile);
      expect(new Set(placed).size).toBe(placed.length);
      expect(placed.length).toBe(p.accepted);

      // The unknown row is listed for a person: sending it again needs an explicit confirmation.
      const unknown = page.getByTestId('unknown-items');
      await unknown.waitFor();
      const unknownRow = unknown.getByTestId('unknown-row');
      await expect.poll(() => unknownRow.count()).toBe(1);
      const unknownMobile = (await unknownRow.locator('td').nth(2).innerText()).trim();
      await unknownRow.locator('input[type=checkbox]').check();
      await page.getByTestId('unknown-requeue').click();
      const requeue = dialog(t('bulk.unknown.confirmTitle', { count: 1 }));
      await requeue.waitFor();
      expect(await requeue.innerText()).toContain(t('bulk.unknown.confirmBody'));
      const ok = requeue.getByRole('button', { name: t('bulk.unknown.confirmOk', { count: 1 }) });
      expect(await ok.isDisabled()).toBe(true);
      await requeue.getByRole('button', { name: t('common.cancel') }).click();
      await requeue.waitFor({ state: 'detached' }).catch(() => undefined);
      expect(app.calls.some((c) => c.channel === 'bulk.requeue')).toBe(false);
      // The person decides not to send it.
      await page.getByTestId('unknown-skip').click();
      await expect.poll(() => page.getByTestId('unknown-items').count(), { timeout: 10_000 }).toBe(0);
      expect((await progress()).unknown).toBe(0);
      const lastForMobile = sends()
        .filter((r) => r.body?.mobile === unknownMobile)
        .at(-1);
      expect(lastForMobile).toBeDefined();
      // Nothing was sent for it after the failed request.
      expect(sends().filter((r) => r.body?.mobile === unknownMobile && r.seq > lastForMobile!.seq)).toHaveLength(0);
      await expect.poll(() => page.locator('[data-testid=batch-row]').count()).toBe(2);
    },
    TIMEOUT,
  );

  it(
    'at 1024×700, the same list again: warned before starting; a 402 pause in view; "all sent, N calls in progress" (not done) while calls ring, marked so in the export; rejected rows sent after a top-up no longer count',
    async () => {
      await page.setViewportSize({ width: 1024, height: 700 });
      // Calls ring longer, so that they are still going on when the last row has been sent.
      app.services.sandbox!.setTimeScale(0.5);
      app.services.sandbox!.setBalance('sandbox-demo', 2);
      const again = file1.goodRows.slice(0, 6);
      await page.getByTestId('new-import').click();
      await page.getByTestId('import-wizard').waitFor();
      await chooseFile('again.csv', csv(header, again));
      await page.getByTestId('mapping-next').click();
      await page.getByTestId('report-step').waitFor();
      const sendsBefore = sends().length;
      await page.getByTestId('create-start').click();
      const confirm = dialog(t('bulk.confirmStart.title', { count: 6 }));
      await confirm.waitFor();
      // These numbers were called with this very text by the first batch, minutes ago.
      const recent = confirm.getByTestId('confirm-start-recent');
      await recent.waitFor();
      expect(await recent.getAttribute('data-rows')).toBe('6');
      expect(await recent.innerText()).toContain(t('bulk.confirmStart.recentTitle'));
      expect(await recent.innerText()).toContain(again[0]!.mobile);
      if (lang === 'zh-CN') expect(await recent.innerText()).not.toMatch(/[\u4e00-\u9fff][?:,;(]/);
      expect(sends().length).toBe(sendsBefore);
      await settled(page);
      await app.screenshot(`bulk-1024-recent-${suffix}`);
      await confirm.getByRole('button', { name: t('bulk.confirmStart.ok') }).click();
      await batchView().waitFor();

      // Refused for the balance: the batch pauses, and its banner is in view without scrolling.
      await expect.poll(() => batchView().getAttribute('data-reason'), { timeout: 15_000 }).toBe('insufficient-balance');
      const banner = page.getByTestId('stop-banner');
      await expect
        .poll(async () => {
          const box = await banner.boundingBox();
          return box !== null && box.y >= 0 && box.y + box.height <= 700;
        })
        .toBe(true);
      await expect.poll(() => figure('refused')).toBeGreaterThan(0);
      await settled(page);
      await app.screenshot(`bulk-1024-paused-402-${suffix}`);

      // Topped up and resumed: every row is sent; calls still ring, so it is not "done" yet.
      await page.getByTestId('stop-sandbox-topup').click();
      await expect.poll(() => app.services.sandbox!.accounts()[0]!.balance).toBeGreaterThanOrEqual(10);
      await page.getByTestId('batch-resume').click();
      await expect.poll(async () => (await progress()).remaining, { timeout: 20_000 }).toBe(0);
      const p = await progress();
      expect(p.calling).toBeGreaterThan(0);
      const tag = page.getByTestId('batch-status');
      await expect.poll(() => tag.getAttribute('data-standing')).toBe('calling');
      expect(await tag.innerText()).not.toBe(t('bulk.status.done'));
      expect(Number(await page.getByTestId('batch-progress').getAttribute('data-percent'))).toBeLessThan(100);
      // The list of batches reads the same figure, so it never says "Done" while calls ring either.
      const listed = (await app.handlers['bulk.list']({ limit: 10 })).find((b) => b.id === p.batchId);
      expect(listed?.calling).toBeGreaterThan(0);
      // Every refused row was sent since: none is still rejected; History keeps the refused sends.
      await expect.poll(() => figure('refused')).toBe(0);
      expect(await page.getByTestId('figure-refused-note').innerText()).toBe(t('bulk.figures.refusedInAll', { count: p.refusedSends }));
      // Exported now, the rows whose call still rings say so.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('batch-export').click()]);
      const text = readFileSync((await download.path())!, 'utf8');
      expect(text).toContain(t('msg:csv.itemStatus.calling'));
      await page.locator('#bulk-title').scrollIntoViewIfNeeded();
      await settled(page);
      await app.screenshot(`bulk-1024-calls-in-progress-${suffix}`);

      // (Done, at 100 %, once every call has ended: test/unit/domain/batches.test.ts; busy numbers redial here for minutes.)
      app.services.sandbox!.setTimeScale(0.1);
      app.services.sandbox!.setBalance('sandbox-demo', 10_000);
      await page.setViewportSize({ width: 1280, height: 800 });
    },
    TIMEOUT,
  );

  it('shows no console error or page error', () => {
    expect(problems).toEqual([]);
  });
});
