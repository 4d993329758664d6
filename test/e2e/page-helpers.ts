// Page helpers shared by the end-to-end tests, and the texts they expect on the page.
import i18next from 'i18next';
import type { Locator, Page } from 'playwright-core';
import { MESSAGES_NS, type MessageArgs } from '../../common/messages';
import { resources } from '../../renderer/src/i18n/dictionaries';
import type { Language } from '../../renderer/src/i18n/language';

interface PageDocument {
  document: {
    body: { innerText: string };
    getAnimations(): { playState: string; effect: { getComputedTiming(): { iterations: number } } | null }[];
  };
}

/** The text a person sees on the page. */
export async function bodyText(page: Page): Promise<string> {
  return page.evaluate(() => (globalThis as unknown as PageDocument).document.body.innerText);
}

/**
 * Picks an option of an antd Select by its text. A multiple select stays open after a pick: `close`
 * presses Escape (never for a select inside a drawer or a modal that Escape would close too).
 */
export async function pickOption(page: Page, select: Locator, label: string, { close = false } = {}): Promise<void> {
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  const option = dropdown.locator('.ant-select-item-option').filter({ hasText: label }).first();
  for (let attempt = 1; ; attempt++) {
    // Opened unless it is open already (a click on an open select closes it).
    if (!(await option.isVisible().catch(() => false))) await select.click();
    try {
      // On a loaded machine the list may still be moving, covered, or closed again before the click
      // lands (Playwright then waits for an option that never shows): open it again and retry.
      // (Waiting for Chromium itself, not for product behaviour.)
      await option.click({ timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
  if (close) await page.keyboard.press('Escape');
  await dropdown.waitFor({ state: 'hidden' }).catch(() => undefined);
}

/**
 * Picks `label` in a single select and waits until the select shows it. On a loaded machine a click
 * on an option still opening can be lost (the select keeps its value): then it is picked again, up
 * to three times, so that what follows never runs on the old value.
 */
export async function choose(page: Page, select: Locator, label: string): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await pickOption(page, select, label);
    const shown = await select
      .innerText()
      .then((text) => text.includes(label))
      .catch(() => false);
    if (shown) return;
  }
  throw new Error(`the select does not show “${label}” after three picks`);
}

/**
 * Collects what the page reports as wrong (uncaught errors, console errors and warnings) into
 * `problems`; a test ends by expecting it empty. Chromium's note that a CSP given in a <meta> cannot
 * set frame-ancestors (the desktop app sends it as a header) is not a problem of the page.
 */
export function collectProblems(page: Page, problems: string[]): void {
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.text().includes("'frame-ancestors' is ignored when delivered via a <meta> element")) return;
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
}

/** Waits until antd's open/close animations have finished (at most 3 s), so a screenshot shows a settled screen. */
export async function settled(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () =>
        (globalThis as unknown as PageDocument).document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
      undefined,
      { timeout: 3_000 },
    )
    .catch(() => undefined);
}

/**
 * The renderer's texts in `lang`, said by i18next with the renderer's own resources and options
 * (plurals, contexts, nesting): t('send.title'), and the shared message catalog under 'msg:'
 * (t('msg:state.answered'), t('msg:reason.transport', { kind: 'timeout', context: 'timeout', ms })).
 * A key without a text throws.
 */
export function translator(lang: Language): (key: string, vars?: Record<string, unknown>) => string {
  const i18n = i18next.createInstance();
  void i18n.init({
    resources,
    lng: lang,
    fallbackLng: false,
    initAsync: false,
    returnNull: false,
    returnEmptyString: false,
    interpolation: { escapeValue: false },
  });
  return (key, vars = {}) => {
    const [ns, path] = key.startsWith(`${MESSAGES_NS}:`) ? [MESSAGES_NS, key.slice(MESSAGES_NS.length + 1)] : ['translation', key];
    if (!i18n.exists(path, { ...vars, ns })) throw new Error(`no text at ${key}`);
    return i18n.t(path, { ...vars, ns }) as string;
  };
}

/** A text of the message catalog from its arguments (errorArgs, reasonArgs, ...), as the renderer says it. */
export function catalogText(t: ReturnType<typeof translator>, [key, options]: MessageArgs): string {
  return t(`${MESSAGES_NS}:${key}`, options);
}

interface StorageLike {
  length: number;
  key(i: number): string | null;
  getItem(k: string): string | null;
}

interface SecretPage {
  document: { body: { innerText: string }; documentElement: { outerHTML: string }; querySelectorAll(s: string): ArrayLike<{ value: string }> };
  localStorage: StorageLike;
  sessionStorage: StorageLike;
}

/** Where a secret shows up in the page (its text, its HTML, its fields, its storage); every entry must be false. */
export async function whereSecretAppears(page: Page, secret: string) {
  return page.evaluate((s) => {
    const g = globalThis as unknown as SecretPage;
    const dump = (st: StorageLike) => {
      const out: string[] = [];
      for (let i = 0; i < st.length; i++) {
        const k = st.key(i);
        if (k !== null) out.push(k, st.getItem(k) ?? '');
      }
      return out.join('\n');
    };
    return {
      bodyText: g.document.body.innerText.includes(s),
      html: g.document.documentElement.outerHTML.includes(s),
      inputs: Array.from(g.document.querySelectorAll('input, textarea')).some((i) => i.value.includes(s)),
      localStorage: dump(g.localStorage).includes(s),
      sessionStorage: dump(g.sessionStorage).includes(s),
    };
  }, secret);
}

/** whereSecretAppears when the secret is nowhere. */
export const NOWHERE = { bodyText: false, html: false, inputs: false, localStorage: false, sessionStorage: false };

/**
 * Stubs the system's speech in the live page (the Web Speech API): what is spoken is recorded, and a
 * Chinese voice is installed unless `chinese` is false. Read the record with `spokenTexts`.
 */
export async function stubSpeech(page: Page, { chinese = true } = {}): Promise<void> {
  await page.evaluate((withChinese) => {
    const w = globalThis as unknown as Record<string, unknown>;
    const spoken: string[] = [];
    w.__spokenTexts = spoken;
    const voices = [
      { name: 'Alex', lang: 'en-US', localService: true, default: true },
      ...(withChinese ? [{ name: 'Tingting', lang: 'zh-CN', localService: true, default: false }] : []),
    ];
    class Utterance {
      lang = '';
      voice: unknown = null;
      onend: (() => void) | null = null;
      onerror: (() => void) | null = null;
      constructor(public text: string) {}
    }
    const synth = {
      getVoices: () => voices,
      speak: (u: Utterance) => {
        if (u.lang === 'zh-CN' && u.voice) spoken.push(u.text);
        setTimeout(() => u.onend?.(), 50);
      },
      cancel: () => undefined,
    };
    Object.defineProperty(w, 'speechSynthesis', { value: synth, configurable: true });
    Object.defineProperty(w, 'SpeechSynthesisUtterance', { value: Utterance, configurable: true });
  }, chinese);
}

/** The texts spoken (in Chinese, with a voice) since `stubSpeech`. */
export function spokenTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => (globalThis as unknown as { __spokenTexts?: string[] }).__spokenTexts ?? []);
}
