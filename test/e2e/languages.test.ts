// Every screen (and every tab of it) in Chinese holds no English sentence, and in English no
// Chinese, apart from the user's own data and protocol tokens. The app is seeded first with what
// main reports in words: an unknown send, a refused one, a call whose following stopped, a batch
// paused with rows skipped and refused, a transport failure in the exchanges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, startApp, type AppUnderTest } from './bridge';
import { settled } from './page-helpers';

const SCREENS = ['send', 'templates', 'history', 'bulk', 'dial', 'profiles', 'requests', 'signature'] as const;

/** Words a Chinese sentence keeps as they are: protocol tokens, product and format names. */
const TOKENS = [
  /https?:\/\/\S+/g,
  /\b(HTTP|HTTPS|JSON|XML|CSV|XLSX|HAR|cURL|URL|API ID|API Key|Host|Date|Authorization|Content-Type|HMAC-SHA256|SHA-256|Base64|APISIX|spec|apisix|GET|POST|smsid|Callout|Sandbox|Ctrl|Cmd|Shift|Enter|Esc|Tab|UTF-8|GBK|GB18030|NTP|ID|OK|TLS|DNS|Node|Electron|Chromium|keychain|Secret Service|gnome-keyring)\b/g,
  /--?[a-z][\w-]*/g,
  /\b[A-Z][A-Z0-9_]{2,}\b/g,
];

/** Three Latin words in a row: an English sentence (or a piece of one). */
const ENGLISH = /\b[A-Za-z][a-z']+\s+[A-Za-z][a-z']+\s+[A-Za-z][a-z']+\b/;
const CHINESE = /[\u3400-\u9fff]/;

interface Leaf {
  text: string;
  where: string;
}

/** Every visible text node, with a short path to it; raw protocol views (pre, code, editors) are left out. */
async function visibleTexts(page: Page): Promise<Leaf[]> {
  return page.evaluate(() => {
    interface El {
      tagName: string;
      className: unknown;
      getAttribute(n: string): string | null;
      closest(s: string): El | null;
      getBoundingClientRect(): { width: number; height: number };
    }
    interface TextNode {
      textContent: string | null;
      parentElement: El | null;
    }
    const g = globalThis as unknown as {
      document: { body: unknown; createTreeWalker(root: unknown, what: number): { nextNode(): TextNode | null } };
      getComputedStyle(e: El): { visibility: string; display: string };
      NodeFilter: { SHOW_TEXT: number };
    };
    const out: { text: string; where: string }[] = [];
    const walker = g.document.createTreeWalker(g.document.body, g.NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? '').trim();
      const el = n.parentElement;
      if (!text || !el) continue;
      if (el.closest('pre, code, textarea, script, style, [data-raw], .ant-select-selection-search')) continue;
      const r = el.getBoundingClientRect();
      const s = g.getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || s.visibility === 'hidden' || s.display === 'none' || el.closest('[aria-hidden="true"]')) continue;
      const cls = typeof el.className === 'string' ? (el.className.split(' ')[0] ?? '') : '';
      out.push({ text, where: [el.tagName.toLowerCase(), el.getAttribute('data-testid') ?? '', cls].filter(Boolean).join('.') });
    }
    return out;
  });
}

describe.each([
  { locale: 'zh-CN' as const, lang: 'zh-CN' },
  { locale: 'en-US' as const, lang: 'en' },
])('every screen in $lang', ({ locale, lang }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let userData: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ locale, browser, onboarding: false, screen: 'send' });
    const { services } = app;
    const call = async (channel: string, input?: unknown) => {
      const r = (await app.handlers[channel as keyof typeof app.handlers](input as never)) as unknown;
      return r as never;
    };
    // What main reports in words: an unknown send (reset), a refusal (403), a call whose following stopped (400).
    services.sandbox!.setFault({ kind: 'reset', op: 'send', times: 1 });
    await call('messages.send', { profileId: 'sandbox', mobile: '13800138008', content: '您的验证码是111111，5分钟内有效。' });
    await call('messages.send', { profileId: 'sandbox', mobile: '13800138008', content: '不在模板里的一句话' });
    services.sandbox!.setFault({ kind: 'code', code: 400, op: 'status', times: 5 });
    await call('messages.send', { profileId: 'sandbox', mobile: '13800138007', content: '您的验证码是222222，5分钟内有效。' });
    // A batch with a skipped row and a pause on 402.
    await call('templates.save', { id: 'otp', content: '您的验证码是【变量】，5分钟内有效。', approved: true });
    const csv = '手机,验证码\n13800138001,1\n12345,2\n13800138002,3\n';
    const view = await call('bulk.open', { templateId: 'otp', file: { name: 'list.csv', base64: Buffer.from(csv).toString('base64') } });
    const batch = await call('bulk.create', { importId: (view as { importId: string }).importId, profileId: 'sandbox', duplicates: 'none' });
    services.sandbox!.setFault({ kind: 'code', code: 402, op: 'send', times: 1 });
    await call('bulk.start', { batchId: (batch as { id: number }).id });
    await services.queue.whenStopped((batch as { id: number }).id);
    // The user's own data, which stays as they wrote it.
    userData = [
      // A template is shown whole and also piece by piece around its 【变量】 fields.
      ...services.templates.list().flatMap((t) => [t.content, t.name, ...t.content.split('【变量】')]),
      ...services.history.page({}, { limit: 100 }).rows.map((m) => m.content),
      // What the provider said (its msg, a raw state): its values, as it sent them.
      ...services.history.page({}, { limit: 100 }).rows.flatMap((m) => [m.providerMsg ?? '', ...services.sent.detail(m.id).events.map((e) => e.detail ?? '')]),
      ...services.profiles.records().map((p) => p.name),
      ...(services.sandbox?.templates('sandbox-demo').flatMap((t) => [t.content, ...t.content.split('【变量】')]) ?? []),
      'list.csv',
      // The language switch names each language in itself.
      '中文',
      'English',
    ].filter((s) => s && s.length > 0);
    await app.page.reload();
  });

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  });

  /** The text without the user's data and protocol tokens. */
  const stripped = (text: string) => {
    let t = text;
    for (const d of [...userData].sort((a, b) => b.length - a.length)) t = t.split(d).join(' ');
    t = t.replaceAll('【变量】', ' ');
    for (const re of TOKENS) t = t.replace(re, ' ');
    return t;
  };

  it.each(SCREENS)('%s says everything in the chosen language', { timeout: 120_000 }, async (screen) => {
    const { page } = app;
    await page.evaluate((s) => ((globalThis as unknown as { location: { hash: string } }).location.hash = `/${s}`), screen);
    await settled(page);
    // Real time: waits for Chromium itself, to finish Ant Design's enter animations before texts are read (the page has no app clock).
    await page.waitForTimeout(300);
    const tabs = page.locator('.ant-tabs-nav [role="tab"]');
    const tabCount = await tabs.count();
    const problems: string[] = [];
    const check = async (label: string) => {
      await settled(page);
      // Real time: waits for Chromium itself, to finish Ant Design's transitions before texts are read (the page has no app clock).
      await page.waitForTimeout(200);
      for (const leaf of await visibleTexts(page)) {
        const rest = stripped(leaf.text);
        if (lang === 'zh-CN' ? ENGLISH.test(rest) : CHINESE.test(rest)) problems.push(`${label} ${leaf.where}: ${leaf.text}`);
      }
      await app.screenshot(`languages-${screen}${label ? `-${label}` : ''}-${lang}`);
    };
    if (tabCount === 0) await check('');
    for (let i = 0; i < tabCount; i++) {
      await tabs.nth(i).click();
      await check(`tab${i + 1}`);
      // History's messages: each one's detail (timeline, reasons, exchanges) too.
      if (screen === 'history' && i === 0) {
        const rows = page.getByTestId('history-row');
        const n = await rows.count();
        for (let r = 0; r < n; r++) {
          // The left part of the row: the panel covers the right part of the list while it is open.
          await rows.nth(r).click({ position: { x: 60, y: 20 } });
          await page.getByTestId('message-panel').waitFor();
          await check(`message${r + 1}`);
        }
        for (let k = 0; k < 3 && (await page.locator('.ant-drawer-open').count()); k++) {
          await page.locator('.ant-drawer-open .ant-drawer-close').last().click();
          await settled(page);
        }
      }
    }
    // Bulk: the paused batch, its rows and why.
    if (screen === 'bulk') {
      await page.getByTestId('batch-row').first().getByRole('button').first().click();
      await check('batch');
    }
    expect(problems).toEqual([]);
  });
});
