// End to end, through `callout ui`'s own transport (bridge.ts): the template library in Chromium, its window.callout
// routed to the real handlers (real SQLite). Run after `npx electron-vite build`. Both languages;
// screenshots under test-results/screens/.
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Download, Locator, Page } from 'playwright-core';
import type { TemplateView } from '../../common/contract';
import { textLength } from '../../common/domain/units';
import { launchChromium, startApp, type AppUnderTest } from './bridge';
import { bodyText, collectProblems, settled, translator } from './page-helpers';

const TIMEOUT = 60_000;
const MARKER = '【变量】';
/** A dictionary key that leaked onto the screen instead of its text. */
const RAW_KEY = /\b(app|nav|common|errors|templates|onboarding)\.[a-z][\w-]*(\.[\w-]+)*\b/;
/** Where the onboarding guide remembers that it was dismissed (it would otherwise open on this fresh start). */
const ONBOARDING_DISMISSED_KEY = 'callout.onboarding.dismissed';

const LOCALES = [
  {
    locale: 'en-US',
    lang: 'en',
    suffix: 'en',
    name: 'Parcel arrived',
    renamed: 'Parcel waiting',
    labels: ['Customer', 'Parcel number'],
    csvHeader: ['name', 'content', 'approved'],
  },
  {
    locale: 'zh-CN',
    lang: 'zh-CN',
    suffix: 'zh-CN',
    name: '快递到达',
    renamed: '快递待取',
    labels: ['客户称呼', '快递单号'],
    // Chinese headers, as a spreadsheet made in Chinese would have them.
    csvHeader: ['名称', '内容', '已审核'],
  },
] as const;

const CONTENT = `尊敬的${MARKER}，您的快递${MARKER}已到达，请及时领取。`;
const LENGTH = textLength(CONTENT); // each marker counts as its 4 characters

interface PageGlobals {
  document: {
    body: { innerText: string };
    activeElement: { getAttribute(name: string): string | null } | null;
    getAnimations(): { playState: string; effect: { getComputedTiming(): { iterations: number } } | null }[];
  };
  localStorage: { setItem(k: string, v: string): void };
}

/** The error text antd shows under the form item that holds the field with this id. */
function fieldError(page: Page, id: string): Locator {
  return page.locator(`.ant-form-item:has(#${id}) .ant-form-item-explain-error`);
}

async function downloadedText(download: Download): Promise<string> {
  return readFileSync(await download.path()).toString('utf8');
}

describe.each(LOCALES)('Template library ($suffix)', ({ locale, lang, suffix, name, renamed, labels, csvHeader }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  const problems: string[] = [];
  let templateId = '';
  const t = translator(lang);
  const list = async () => (await app.handlers['templates.list'](undefined)) as TemplateView[];
  const row = (id: string) => page.locator(`tr[data-template-id="${id}"]`);
  const rows = () => page.getByTestId('template-row');
  const drawer = () => page.locator('.ant-drawer-content-wrapper:visible');
  const importDialog = () => page.getByRole('dialog').filter({ has: page.getByTestId('import-dialog') });
  const snap = async (file: string) => {
    // Let earlier toasts go (they last 3 s) so each screenshot shows its own screen.
    await page
      .locator('.ant-message-notice')
      .first()
      .waitFor({ state: 'detached', timeout: 5_000 })
      .catch(() => undefined);
    await settled(page);
    await app.screenshot(file);
  };

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ locale, browser });
    page = app.page;
    collectProblems(page, problems);
    // This suite is about the library: the first-start guide (tested in onboarding.test.ts) stays closed.
    await app.context.addInitScript(([key]) => (globalThis as unknown as PageGlobals).localStorage.setItem(key, '1'), [ONBOARDING_DISMISSED_KEY] as const);
    await page.goto(page.url().replace(/#.*$/, '') + '#/templates');
    await page.reload();
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it(
    'starts empty, with every way to add templates at hand',
    async () => {
      await page.getByRole('heading', { name: t('templates.title') }).waitFor();
      await page.getByTestId('templates-empty').waitFor();
      const empty = await page.getByTestId('templates-empty').innerText();
      expect(empty).toContain(t('templates.empty'));
      expect(empty).toContain(t('templates.emptyDemo'));
      expect(await page.getByTestId('onboarding').count()).toBe(0);
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
    },
    TIMEOUT,
  );

  it(
    'adds a template with two markers and their labels; problems are shown in place',
    async () => {
      await page.getByTestId('add-template').click();
      await page.getByRole('dialog', { name: t('templates.form.addTitle') }).waitFor();
      await settled(page);

      // Nothing typed: the text's own problem, in words, under the field; nothing saved.
      const saves = () => app.calls.filter((c) => c.channel === 'templates.save').length;
      await page.getByTestId('template-save').click();
      await expect.poll(() => fieldError(page, 'template_content').allInnerTexts()).toEqual([t('templates.problem.empty', { max: 500 })]);

      // 501 characters: how many, and how many too many.
      await page.locator('#template_content').fill('长'.repeat(501));
      await expect
        .poll(() => fieldError(page, 'template_content').allInnerTexts())
        .toEqual([t('templates.problem.too-long', { length: 501, over: 1, max: 500, marker: MARKER })]);
      expect(await page.getByTestId('template-counter').innerText()).toContain('501 / 500');
      await page.getByTestId('template-save').click();
      expect(saves()).toBe(0);

      // The text, with the markers put in by the button at the cursor.
      await page.locator('#template_name').fill(name);
      await page.locator('#template_content').fill('尊敬的');
      // The button puts the marker at the cursor and gives the focus back to the text, after the marker.
      const focusedId = () => page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.getAttribute('id') ?? null);
      await page.getByTestId('insert-marker').click();
      await expect.poll(focusedId).toBe('template_content');
      await page.keyboard.type('，您的快递');
      await page.getByTestId('insert-marker').click();
      await expect.poll(focusedId).toBe('template_content');
      await page.keyboard.type('已到达，请及时领取。');
      expect(await page.locator('#template_content').inputValue()).toBe(CONTENT);
      await expect.poll(() => fieldError(page, 'template_content').count()).toBe(0);
      expect(await page.getByTestId('template-counter').innerText()).toBe(
        `${t('templates.form.counter', { length: LENGTH, max: 500, units: t('templates.units', { count: 1 }) })} · ${t('templates.markers', { count: 2 })}`,
      );

      // One label field per marker; the preview shows them on the chips.
      await page.locator('#template_labels_0').fill(labels[0]);
      await page.locator('#template_labels_1').fill(labels[1]);
      await expect.poll(() => page.getByTestId('template-preview').getByTestId('marker-chip').allInnerTexts()).toEqual([...labels]);
      expect(await drawer().innerText()).toContain(t('templates.approval.body', { path: t('templates.approval.path') }));
      await snap(`templates-form-${suffix}`);

      await page.getByTestId('template-save').click();
      await page.getByRole('dialog', { name: t('templates.form.addTitle') }).waitFor({ state: 'hidden' });
      const saved = (await list()).find((x) => x.name === name)!;
      expect(saved).toMatchObject({ content: CONTENT, approved: false, markerNames: [...labels], markerCount: 2 });
      templateId = saved.id;

      const listed = row(templateId);
      await listed.waitFor();
      expect(await listed.getByTestId('template-name').innerText()).toBe(name);
      expect(await listed.getByTestId('marker-chip').allInnerTexts()).toEqual([...labels]);
      const size = listed.getByTestId('template-size');
      expect(await size.getAttribute('data-markers')).toBe('2');
      expect(await size.getAttribute('data-length')).toBe(String(LENGTH));
      expect(await size.getAttribute('data-units')).toBe('1');
      expect(await size.innerText()).toContain(t('templates.length', { length: LENGTH, units: t('templates.units', { count: 1 }) }));
      expect(await listed.getByTestId('template-status').getAttribute('data-approved')).toBe('false');
      expect(await listed.getByTestId('template-status').innerText()).toBe(t('templates.status.pending'));
    },
    TIMEOUT,
  );

  it(
    'edits it and marks it approved',
    async () => {
      await row(templateId)
        .getByRole('button', { name: t('templates.actionLabel.edit', { name }) })
        .click();
      await page.getByRole('dialog', { name: t('templates.form.editTitle', { name }) }).waitFor();
      await settled(page);
      expect(await page.locator('#template_content').inputValue()).toBe(CONTENT);
      expect(await page.locator('#template_labels_1').inputValue()).toBe(labels[1]);
      await page.locator('#template_name').fill(renamed);
      await page.getByTestId('template-approved').check();
      await page.getByTestId('template-save').click();
      await page.getByRole('dialog', { name: t('templates.form.editTitle', { name }) }).waitFor({ state: 'hidden' });
      await expect.poll(() => row(templateId).getByTestId('template-status').getAttribute('data-approved')).toBe('true');
      expect(await row(templateId).getByTestId('template-status').innerText()).toBe(t('templates.status.approved'));
      expect(await row(templateId).getByTestId('template-name').innerText()).toBe(renamed);
      expect((await list()).find((x) => x.id === templateId)).toMatchObject({ name: renamed, approved: true, content: CONTENT, markerNames: [...labels] });

      // Changing the text of an approved template warns that the provider approved the old text.
      await row(templateId)
        .getByRole('button', { name: t('templates.actionLabel.edit', { name: renamed }) })
        .click();
      await page.getByRole('dialog', { name: t('templates.form.editTitle', { name: renamed }) }).waitFor();
      await page.locator('#template_content').fill(`${CONTENT}谢谢。`);
      await page.getByTestId('template-changed-approved').waitFor();
      // Escape with unsaved changes asks first; "Keep editing" keeps what was typed.
      await page.keyboard.press('Escape');
      const ask = page.getByTestId('template-discard-body');
      await ask.waitFor();
      expect(await ask.innerText()).toBe(t('templates.form.discardBody'));
      await page.setViewportSize({ width: 1024, height: 700 });
      await snap(`templates-discard-ask-1024-${suffix}`);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByTestId('template-keep-editing').click();
      await ask.waitFor({ state: 'detached' });
      expect(await page.getByRole('dialog', { name: t('templates.form.editTitle', { name: renamed }) }).isVisible()).toBe(true);
      expect(await page.locator('#template_content').inputValue()).toBe(`${CONTENT}谢谢。`);
      // Asked again, "Discard" closes it and nothing is saved.
      await page.keyboard.press('Escape');
      await page.getByTestId('template-discard').click();
      await page.getByRole('dialog', { name: t('templates.form.editTitle', { name: renamed }) }).waitFor({ state: 'hidden' });
      expect((await list()).find((x) => x.id === templateId)?.content).toBe(CONTENT);
    },
    TIMEOUT,
  );

  it(
    'imports a CSV: a report names each bad row before anything is saved, then the good rows are saved',
    async () => {
      const tooLong = '长'.repeat(501);
      const csv = Papa.unparse([
        [...csvHeader],
        [`${name} 2`, `您好，${MARKER}，会议改到${MARKER}。`, 'yes'],
        ['', '', 'no'], // row 3: no text
        ['Long', tooLong, 'no'], // row 4: 501 characters
        ['Same', CONTENT, 'yes'], // row 5: already in the library
        ['Maybe', `第三条${MARKER}`, 'maybe'], // row 6: "approved" unreadable
        [`${name} 3`, `请回电${MARKER}。`, ''], // row 7: pending
      ]);
      await page.getByTestId('import-templates').click();
      await importDialog().waitFor();
      await importDialog()
        .locator('input[type=file]')
        .setInputFiles({ name: 'from-console.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${csv}\r\n`, 'utf8') });
      const report = page.getByTestId('import-report');
      await report.waitFor();

      const summary = t('templates.importer.summary', { total: 6, new: 2, update: 0, skipped: 4 });
      expect(await report.innerText()).toContain(summary);
      const problem = (where: string) => page.locator(`[data-testid="import-problem"][data-where="${where}"]`);
      const rowText = (n: number) => t('templates.importer.where.row', { n });
      const sep = t('templates.importer.separator');
      expect(await problem('row-3').innerText()).toBe(`${rowText(3)}${sep}${t('templates.problem.empty', { max: 500 })}`);
      expect(await problem('row-4').innerText()).toBe(
        `${rowText(4)}${sep}${t('templates.problem.too-long', { length: 501, over: 1, max: 500, marker: MARKER })}`,
      );
      expect(await problem('row-5').innerText()).toBe(`${rowText(5)}${sep}${t('templates.importer.duplicateOfTemplate', { name: renamed })}`);
      expect(await problem('row-6').innerText()).toContain(rowText(6));
      expect(await problem('row-6').innerText()).toContain('maybe');
      expect(await page.getByTestId('import-problem').count()).toBe(4);
      expect(await page.getByTestId('import-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')))).toEqual([
        'new',
        'error',
        'error',
        'duplicate',
        'error',
        'new',
      ]);
      // Nothing saved yet.
      expect(app.calls.filter((c) => c.channel === 'templates.import')).toHaveLength(0);
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      await snap(`templates-import-report-${suffix}`);

      await page.getByTestId('import-submit').click();
      await importDialog().waitFor({ state: 'hidden' });
      const sent = app.calls.filter((c) => c.channel === 'templates.import');
      expect(sent).toHaveLength(1);
      expect((sent[0]!.input as { templates: unknown[] }).templates).toEqual([
        { name: `${name} 2`, content: `您好，${MARKER}，会议改到${MARKER}。`, approved: true },
        { name: `${name} 3`, content: `请回电${MARKER}。` },
      ]);
      const after = await list();
      expect(after).toHaveLength(3);
      expect(after.find((x) => x.name === `${name} 2`)).toMatchObject({ approved: true, markerCount: 2 });
      expect(after.find((x) => x.name === `${name} 3`)).toMatchObject({ approved: false, markerCount: 1 });
      await expect.poll(() => rows().count()).toBe(3);
    },
    TIMEOUT,
  );

  it(
    'adds pasted templates, one per line',
    async () => {
      await page.getByTestId('paste-templates').click();
      await importDialog().waitFor();
      await page.getByTestId('paste-input').fill(`您的预约${MARKER}已确认。\n\n   \n您的账单${MARKER}元已出。\n`);
      await page.getByTestId('paste-approved').check();
      await expect.poll(() => page.getByTestId('import-row').count()).toBe(2);
      expect(await page.getByTestId('import-submit').innerText()).toBe(t('templates.importer.submit', { count: 2 }));
      await page.getByTestId('import-submit').click();
      await importDialog().waitFor({ state: 'hidden' });
      const added = (await list()).filter((x) => x.content === `您的预约${MARKER}已确认。` || x.content === `您的账单${MARKER}元已出。`);
      expect(added.map((x) => x.approved)).toEqual([true, true]);
      await expect.poll(() => rows().count()).toBe(5);
    },
    TIMEOUT,
  );

  it(
    'searches by name or text and filters by status',
    async () => {
      await page.getByTestId('template-search').fill('领取');
      await expect.poll(() => rows().count()).toBe(1);
      expect(await rows().first().getAttribute('data-template-id')).toBe(templateId);
      await page.getByTestId('template-search').fill('no such template');
      await page.getByTestId('templates-no-match').waitFor();
      await page.getByTestId('template-search').fill('');
      await page
        .getByTestId('template-filter')
        .getByText(t('templates.filter.pending', { count: 1 }))
        .click();
      await expect.poll(() => rows().count()).toBe(1);
      expect(await rows().first().getByTestId('template-name').innerText()).toBe(`${name} 3`);
      await page
        .getByTestId('template-filter')
        .getByText(t('templates.filter.all', { count: 5 }))
        .click();
      await expect.poll(() => rows().count()).toBe(5);
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      await snap(`templates-library-${suffix}`);
    },
    TIMEOUT,
  );

  it(
    'exports JSON and CSV files with the whole library, and reads its own export back as updates',
    async () => {
      const library = await list();
      const byId = <T extends { id: string }>(xs: T[]) => [...xs].sort((a, b) => a.id.localeCompare(b.id));
      const exportAs = async (label: string): Promise<Download> => {
        await page.getByTestId('export-templates').click();
        const item = page.getByRole('menuitem', { name: label });
        await item.waitFor();
        const [download] = await Promise.all([page.waitForEvent('download'), item.click()]);
        return download;
      };

      const json = await exportAs(t('templates.exportJson'));
      expect(json.suggestedFilename()).toMatch(/^callout-templates-\d{4}-\d{2}-\d{2}\.json$/);
      const file = JSON.parse(await downloadedText(json)) as {
        format: string;
        version: number;
        templates: Pick<TemplateView, 'id' | 'name' | 'content' | 'approved' | 'markerNames'>[];
      };
      expect(file.format).toBe('callout.templates');
      expect(file.version).toBe(1);
      expect(byId(file.templates)).toEqual(
        byId(library).map(({ id, name: n, content, approved, markerNames }) => ({ id, name: n, content, approved, markerNames })),
      );

      const csv = await exportAs(t('templates.exportCsv'));
      expect(csv.suggestedFilename()).toMatch(/^callout-templates-\d{4}-\d{2}-\d{2}\.csv$/);
      const text = await downloadedText(csv);
      expect(text.startsWith('\uFEFF')).toBe(true); // so that Excel reads it as UTF-8
      const parsed = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true });
      expect(parsed.meta.fields).toEqual(['name', 'content', 'approved', 'labels', 'id']);
      expect(byId(parsed.data as unknown as { id: string }[])).toEqual(
        byId(library).map((x) => ({ name: x.name, content: x.content, approved: x.approved ? 'yes' : 'no', labels: x.markerNames.join('|'), id: x.id })),
      );

      // The JSON export, imported again, updates the same templates (by id) and adds nothing.
      await page.getByTestId('import-templates').click();
      await importDialog().waitFor();
      await importDialog()
        .locator('input[type=file]')
        .setInputFiles({ name: 'export.json', mimeType: 'application/json', buffer: readFileSync(await json.path()) });
      await page.getByTestId('import-report').waitFor();
      expect(await page.getByTestId('import-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')))).toEqual(library.map(() => 'update'));
      await page.getByTestId('import-cancel').click();
      await importDialog().waitFor({ state: 'hidden' });
    },
    TIMEOUT,
  );

  it(
    'says what is wrong with a file that cannot be imported',
    async () => {
      await page.getByTestId('import-templates').click();
      await importDialog().waitFor();
      await importDialog()
        .locator('input[type=file]')
        .setInputFiles({ name: 'list.csv', mimeType: 'text/csv', buffer: Buffer.from('title,text2\nA,B\n', 'utf8') });
      await page.getByTestId('import-file-problem').waitFor();
      expect(await page.getByTestId('import-file-problem').innerText()).toContain(t('templates.importer.fileProblemTitle'));
      expect(await page.getByTestId('import-file-problem').innerText()).toContain('content / 内容');
      expect(await page.getByTestId('import-submit').isDisabled()).toBe(true);
      await page.getByRole('button', { name: t('templates.importer.chooseAnother') }).click();
      await importDialog()
        .locator('input[type=file]')
        .setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('[{"content": "a",}]', 'utf8') });
      await expect.poll(() => page.getByTestId('import-file-problem').innerText()).toContain(t('templates.fileProblem.not-json'));
      await page.getByTestId('import-cancel').click();
      await importDialog().waitFor({ state: 'hidden' });
    },
    TIMEOUT,
  );

  it(
    'deletes a template after confirmation',
    async () => {
      await row(templateId)
        .getByRole('button', { name: t('templates.actionLabel.delete', { name: renamed }) })
        .click();
      const confirm = page.getByRole('dialog').filter({ hasText: t('templates.confirmDelete.title', { name: renamed }) });
      await confirm.waitFor();
      await settled(page);
      expect(await confirm.innerText()).toContain(t('templates.confirmDelete.body'));
      await confirm.getByRole('button', { name: t('templates.confirmDelete.ok') }).click();
      await row(templateId).waitFor({ state: 'detached' });
      expect((await list()).some((x) => x.id === templateId)).toBe(false);
      expect(await rows().count()).toBe(4);
    },
    TIMEOUT,
  );

  it(
    'can be driven from the keyboard: Tab to "Add template", Enter opens the form, Escape closes it',
    async () => {
      await page.locator('body').click({ position: { x: 5, y: 790 } });
      const focused = () => page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.getAttribute('data-testid') ?? null);
      let reached = false;
      for (let i = 0; i < 30 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = (await focused()) === 'add-template';
      }
      expect(reached).toBe(true);
      await page.keyboard.press('Enter');
      const form = page.getByRole('dialog', { name: t('templates.form.addTitle') });
      await form.waitFor();
      await settled(page);
      // Nothing typed: Escape closes it at once.
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'hidden' });
      expect(await page.getByTestId('template-discard-body').count()).toBe(0);
      await page.getByTestId('add-template').focus();
      await page.keyboard.press('Enter');
      await form.waitFor();
      await settled(page);
      await page.keyboard.type('Typed');
      expect(await page.locator('#template_name').inputValue()).toBe('Typed');
      // Something typed: Escape asks first, and Enter on the question discards it.
      await page.keyboard.press('Escape');
      await page.getByTestId('template-discard-body').waitFor();
      await settled(page);
      await page.keyboard.press('Enter');
      await form.waitFor({ state: 'hidden' });
    },
    TIMEOUT,
  );

  it('logged no errors or warnings in the page', () => {
    expect(problems).toEqual([]);
  });
});
