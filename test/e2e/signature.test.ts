// End to end, through `callout ui`'s own transport (bridge.ts): the signature workbench in Chromium, its
// window.callout routed to the real handlers (the signing engine, real SQLite and secret store,
// the embedded sandbox with its signature gateway on). Run after `npx electron-vite build`.
// Screenshots under test-results/screens/, in both languages where it matters.
import { createHmac } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { CalloutApi } from '../../common/contract';
import { MESSAGES } from '../../common/messages';
import type { SignatureVectorFile } from '../../common/signature-types';
import { formatHttpDate, parseHttpDate, signRequest } from '../../main/signing';
import en from '../../renderer/src/i18n/en.json';
import zhCN from '../../renderer/src/i18n/zh-CN.json';
import sigEn from '../../renderer/src/features/signature/locales/en.json';
import sigZh from '../../renderer/src/features/signature/locales/zh-CN.json';
import { launchChromium, ROOT, SCREENS_DIR, startApp, type AppUnderTest } from './bridge';
import { bodyText, collectProblems, NOWHERE, settled, whereSecretAppears } from './page-helpers';

const DICT_EN = { ...en, signature: sigEn };
type Dict = typeof DICT_EN;
const DICT_ZH = { ...(zhCN as typeof en), signature: sigZh as typeof sigEn } as Dict;

const LOCALES = [
  { locale: 'en-US', dict: DICT_EN, msg: MESSAGES.en, suffix: 'en' },
  { locale: 'zh-CN', dict: DICT_ZH, msg: MESSAGES['zh-CN'], suffix: 'zh-CN' },
] as const;

const TIMEOUT = 90_000;
const CJK = /[\u3400-\u9fff]/;
/** A dictionary key of this screen that leaked onto the screen instead of its text. */
const RAW_KEY =
  /\b(signature|nav|common|errors)\.[a-z][\w-]*(\.[\w-]+)+\b|\b(diagnosis|parse\.(problem|warning)|vectors\.(problem|check)|clock|error|reason)\.[a-z][\w-]*\b/;
/** Three English words in a row: a sentence where the Chinese UI should have Chinese. */
const ENGLISH_SENTENCE = /\b[a-z]{2,}\s+[a-z]{2,}\s+[a-z]{2,}\b/i;

const VECTORS = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/signature-vectors.json'), 'utf8')) as SignatureVectorFile;
/** "spec, POST send, https on the default port": C80604386 with a test key. */
const V1 = VECTORS.vectors[0]!;
/** "spec, POST balance, http on non-default port 8080": sandbox-demo with sandbox-demo-key. */
const V_PORT = VECTORS.vectors[3]!;
const DATE = V1.input.date;

function tr(dict: object, path: string, vars: Record<string, string | number> = {}): string {
  let node: unknown = dict;
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`no text at ${path}`);
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? `{{${name}}}`));
}

const hmac64 = (key: string, text: string) => createHmac('sha256', Buffer.from(key, 'utf8')).update(Buffer.from(text, 'utf8')).digest('base64');
const authorization = (keyId: string, signature: string) =>
  `Signature keyId="${keyId}", algorithm="hmac-sha256", headers="@request-target date host", signature="${signature}"`;
const plusSeconds = (date: string, s: number) => formatHttpDate(new Date(parseHttpDate(date)!.getTime() + s * 1000));

/** Raw HTTP of a signed request. */
function rawRequest(o: { method?: string; target: string; host: string; date: string; authorization: string }): string {
  return [
    `${o.method ?? 'POST'} ${o.target} HTTP/1.1`,
    `Host: ${o.host}`,
    `Date: ${o.date}`,
    `Authorization: ${o.authorization}`,
    'Content-Type: application/json',
    '',
    '{}',
  ].join('\r\n');
}

/** The DOM as seen from page.evaluate (the Node-side type config has no DOM library). */
interface PageGlobals {
  document: {
    body: { innerText: string };
    documentElement: { outerHTML: string };
    querySelectorAll(selector: string): ArrayLike<{ value: string }>;
    getAnimations(): { playState: string; effect: { getComputedTiming(): { iterations: number } } | null }[];
  };
  localStorage: StorageLike;
  sessionStorage: StorageLike;
  callout: CalloutApi;
  navigator: { clipboard: { readText(): Promise<string>; writeText(t: string): Promise<void> } };
}
interface StorageLike {
  length: number;
  key(i: number): string | null;
  getItem(k: string): string | null;
  setItem(k: string, v: string): void;
}

describe.each(LOCALES)('Signature workbench ($suffix)', ({ locale, dict, msg, suffix }) => {
  let browser: Browser;
  let app: AppUnderTest;
  let page: Page;
  const problems: string[] = [];
  const t = (path: string, vars?: Record<string, string | number>) => tr(dict, path, vars);
  /** A text of the shared message catalog (what main reports as codes), in this language. */
  const tm = (path: string, vars?: Record<string, string | number>) => tr(msg, path, vars);
  // Checks that need one language only are defined in that language only (not reported as skipped in the other).
  const enOnly: typeof it = suffix === 'en' ? it : ((() => undefined) as unknown as typeof it);
  const zhOnly: typeof it = suffix === 'zh-CN' ? it : ((() => undefined) as unknown as typeof it);
  const snap = async (name: string) => {
    await page
      .locator('.ant-message-notice')
      .first()
      .waitFor({ state: 'detached', timeout: 5_000 })
      .catch(() => undefined);
    await settled(page);
    // The whole screen, top to bottom, at the 1280 px window width: every output in one picture.
    mkdirSync(SCREENS_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENS_DIR, `${name}.png`), fullPage: true });
  };
  const tab = async (key: 'build' | 'verify' | 'clock' | 'vectors') => {
    await page.getByTestId(`tab-${key}`).click();
    await page.locator(`[role="tab"][aria-selected="true"] [data-testid="tab-${key}"]`).waitFor();
    await settled(page);
  };
  const typeKey = async (key: string) => {
    await page.getByTestId('key-source-adhoc').click();
    const field = page.getByTestId('adhoc-key');
    await field.fill(key);
  };
  const useProfileKey = () => page.getByTestId('key-source-profile').click();
  const setBuild = async (o: { url: string; apiId: string; date: string; variant?: 'spec' | 'apisix'; method?: 'POST' | 'GET' }) => {
    await page.getByTestId('sig-url').fill(o.url);
    await page.getByTestId('sig-apiid').fill(o.apiId);
    await page.getByTestId('sig-date-fixed').click();
    await page.getByTestId('sig-date').fill(o.date);
    await page.getByTestId(`sig-variant-${o.variant ?? 'spec'}`).click();
    if (o.method) await page.locator('[data-testid="sig-method"] .ant-segmented-item').filter({ hasText: o.method }).click();
  };
  const signatureShown = () =>
    page
      .getByTestId('sig-signature')
      .innerText()
      .catch(() => '');

  /** Pastes a request into Verify, compares with `compareTime` (or now) and waits for the verdict. */
  const diagnose = async (text: string, compareTime?: string, defaultUrl = '') => {
    await tab('verify');
    await page.getByTestId('sig-captured').fill(text);
    await page.getByTestId('sig-default-url').fill(defaultUrl);
    if (compareTime) {
      await page.getByTestId('compare-fixed').click();
      await page.getByTestId('sig-compare-time').fill(compareTime);
    } else {
      await page.getByTestId('compare-now').click();
    }
    const calls = app.calls.filter((c) => c.channel === 'signature.diagnose').length;
    await page.getByTestId('sig-diagnose').click();
    await expect.poll(() => app.calls.filter((c) => c.channel === 'signature.diagnose').length).toBe(calls + 1);
    await page.locator('[data-testid="sig-diagnose"].ant-btn-loading').waitFor({ state: 'detached' });
    await page.getByTestId('verdict').waitFor();
    return {
      verdict: await page.getByTestId('verdict').getAttribute('data-verdict'),
      title: await page.getByTestId('verdict-title').innerText(),
      causes: await page
        .getByTestId('cause')
        .evaluateAll((els) => els.map((e) => (e as unknown as { getAttribute(n: string): string | null }).getAttribute('data-cause'))),
    };
  };

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startApp({ locale, browser, sandbox: { signature: 'spec' } });
    page = app.page;
    // The getting-started guide opens by itself on a first start; this screen's pictures are taken without it.
    await app.context.addInitScript(() => (globalThis as unknown as PageGlobals).localStorage.setItem('callout.onboarding.dismissed', '1'));
    collectProblems(page, problems);
    await page.reload();
    await page.getByRole('menuitem', { name: t('nav.signature') }).click();
    await page.getByRole('heading', { name: t('signature.title') }).waitFor();
  }, TIMEOUT);

  afterAll(async () => {
    await app?.close();
    await browser?.close();
  }, TIMEOUT);

  it(
    'builds the signature of a known vector step by step, with a typed key',
    async () => {
      // The Sandbox profile and its send operation are the starting case, signed with the profile's key.
      await expect.poll(signatureShown).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      expect(await page.getByTestId('sig-url').inputValue()).toBe(`${app.services.sandbox!.baseUrl}/voice/vm`);
      expect(await page.getByTestId('sig-apiid').inputValue()).toBe('sandbox-demo');

      await typeKey(V1.input.apiKey!);
      await setBuild({ url: V1.input.url, apiId: V1.input.apiId, date: DATE });
      await expect.poll(signatureShown).toBe(V1.expected.signature);
      expect(await page.getByTestId('sig-authorization').innerText()).toBe(V1.expected.authorization);

      // The four lines, with the line breaks drawn and none after line 4 (spec).
      const sts = V1.expected.stringToSign!;
      const lines = await page.getByTestId('sts-line').allInnerTexts();
      expect(lines).toEqual(sts.split('\n'));
      expect(await page.getByTestId('sts').getAttribute('data-trailing')).toBe('false');
      expect(await page.getByTestId('sts-trailing').innerText()).toBe(t('signature.sts.noTrailing'));
      expect(await page.getByTestId('out-sts').locator('.sig-lb').count()).toBe(3);
      // Bytes and HMAC in hex, the host and path taken from the URL, and the whole request as cURL.
      expect(await page.getByTestId('out-bytes').locator('[data-hex]').getAttribute('data-hex')).toBe(Buffer.from(sts, 'utf8').toString('hex'));
      expect(await page.getByTestId('out-hmac').locator('[data-hex]').getAttribute('data-hex')).toBe(
        Buffer.from(V1.expected.signature, 'base64').toString('hex'),
      );
      expect(await page.getByTestId('sig-host').innerText()).toBe('api.example.com');
      expect(await page.getByTestId('sig-path').innerText()).toBe('/voice/vm');
      const curl = await page.getByTestId('sig-curl').innerText();
      expect(curl).toContain(`curl -X POST 'https://api.example.com/voice/vm'`);
      expect(curl).toContain(`-H 'Host: api.example.com'`);
      expect(curl).toContain(`-H 'Date: ${DATE}'`);
      expect(curl).toContain(`-H 'Authorization: ${V1.expected.authorization}'`);
      expect(curl).toContain(`-H 'Content-Type: application/json'`);
      expect(curl).toContain('--data-raw');

      const text = await bodyText(page);
      expect(text).not.toMatch(RAW_KEY);
      if (suffix === 'zh-CN') expect(text).toMatch(CJK);
      else expect(text.replace('中文', '')).not.toMatch(CJK);
      await snap(`signature-build-${suffix}`);

      // The APISIX variant of a URL with a query string: query signed, trailing line break shown.
      const v2 = VECTORS.vectors[1]!;
      await setBuild({ url: v2.input.url, apiId: v2.input.apiId, date: v2.input.date, variant: 'apisix' });
      await expect.poll(signatureShown).toBe(v2.expected.signature);
      expect(await page.getByTestId('sts').getAttribute('data-trailing')).toBe('true');
      expect(await page.getByTestId('sig-query-note').innerText()).toBe(t('signature.build.querySigned', { query: '?smsid=16330654361&format=json' }));
      // The spec variant of the same URL: the query string is dropped, and said so; a fragment too.
      await page.getByTestId('sig-url').fill(`${v2.input.url}#top`);
      await page.getByTestId('sig-variant-spec').click();
      await expect.poll(signatureShown).toBe(VECTORS.vectors[2]!.expected.signature);
      expect(await page.getByTestId('sig-query-note').innerText()).toBe(t('signature.build.queryDropped', { query: '?smsid=16330654361&format=json' }));
      expect(await page.getByTestId('sig-fragment-note').innerText()).toBe(t('signature.build.fragmentDropped'));
      expect(await page.getByTestId('sig-path').innerText()).toBe('/voice/status');
    },
    TIMEOUT,
  );

  enOnly(
    'copies an output, also when the Clipboard API is refused',
    async () => {
      await setBuild({ url: V1.input.url, apiId: V1.input.apiId, date: DATE });
      await expect.poll(signatureShown).toBe(V1.expected.signature);
      await app.context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const readClipboard = () => page.evaluate(() => (globalThis as unknown as PageGlobals).navigator.clipboard.readText());
      await page.getByTestId('out-signature-copy').click();
      await page
        .getByText(t('signature.copy.done', { what: t('signature.out.signatureWhat') }))
        .first()
        .waitFor();
      expect(await readClipboard()).toBe(V1.expected.signature);
      // As in the app, where every permission is denied: writeText fails, the copy command works.
      await page.evaluate(() => {
        (globalThis as unknown as PageGlobals).navigator.clipboard.writeText = () => Promise.reject(new Error('NotAllowedError'));
      });
      await page.getByTestId('out-authorization-copy').click();
      await expect.poll(readClipboard).toBe(V1.expected.authorization);
      await page.getByTestId('out-curl-copy').click();
      await expect.poll(readClipboard).toContain(`-H 'Authorization: ${V1.expected.authorization}'`);
    },
    TIMEOUT,
  );

  enOnly(
    'verifies a valid request and diagnoses a tampered signature, a skewed date, a signed query string and a wrong host, by name',
    async () => {
      await typeKey(V1.input.apiKey!);
      const valid = rawRequest({ target: '/voice/vm', host: 'api.example.com', date: DATE, authorization: V1.expected.authorization! });

      // Valid.
      let r = await diagnose(valid, DATE);
      expect(r.verdict).toBe('valid');
      expect(r.title).toBe(t('signature.verdict.valid', { variant: t('signature.variant.spec') }));
      expect(await page.getByTestId('understood-method').innerText()).toBe('POST');
      expect(await page.getByTestId('understood-url').innerText()).toBe('https://api.example.com/voice/vm');
      expect(await page.getByTestId('understood-host').innerText()).toBe('api.example.com');
      expect(await page.getByTestId('understood-date').innerText()).toBe(DATE);
      expect(await page.getByTestId('variant-spec').getAttribute('data-matches')).toBe('true');
      expect(await page.getByTestId('variant-apisix').getAttribute('data-matches')).toBe('false');
      // Both variants' strings to sign side by side; only APISIX has the trailing line break.
      expect(await page.getByTestId('variant-spec-sts').getAttribute('data-trailing')).toBe('false');
      expect(await page.getByTestId('variant-apisix-sts').getAttribute('data-trailing')).toBe('true');
      expect(await page.getByTestId('verify-gauge').getAttribute('data-seconds')).toBe('0');
      for (const part of ['keyId', 'algorithm', 'headers', 'path', 'host', 'date', 'signature']) {
        expect(await page.locator(`tr[data-part="${part}"]`).getAttribute('data-status'), part).toBe('ok');
      }
      await snap('signature-verify-pass-en');

      // (a) A tampered signature: one character changed.
      const sig = V1.expected.signature;
      const tampered = sig.slice(0, 10) + (sig[10] === 'A' ? 'B' : 'A') + sig.slice(11);
      r = await diagnose(
        rawRequest({ target: '/voice/vm', host: 'api.example.com', date: DATE, authorization: authorization(V1.input.apiId, tampered) }),
        DATE,
      );
      expect(r.verdict).toBe('signature-mismatch');
      expect(r.title).toBe(t('signature.verdict.invalid', { reason: tm('signature.verdict.signature-mismatch') }));
      expect(r.causes).toEqual(['key-from-another-profile']);
      expect(await page.getByTestId('verdict-cause').innerText()).toBe(
        t('signature.verdict.mostLikely', { cause: t('signature.cause.key-from-another-profile.name') }),
      );
      expect(await page.locator('tr[data-part="signature"]').getAttribute('data-status')).toBe('differs');
      expect(await page.locator('tr[data-part="signature"]').innerText()).toContain(tampered);
      expect(await page.locator('tr[data-part="signature"]').innerText()).toContain(sig);
      await snap('signature-verify-tampered-en');

      // (b) A Date 301 s off: compared with a time 301 s after the request's Date...
      r = await diagnose(valid, plusSeconds(DATE, 301));
      expect(r.verdict).toBe('clock-skew');
      expect(r.title).toBe(t('signature.verdict.invalid', { reason: tm('signature.verdict.clock-skew') }));
      expect(r.causes[0]).toBe('clock-drift');
      expect(await page.getByTestId('verify-gauge').getAttribute('data-seconds')).toBe('-301');
      expect(await page.getByTestId('verify-gauge').getAttribute('data-within')).toBe('false');
      expect(await page.getByTestId('sig-skew-text').innerText()).toContain(t('signature.skew.behind', { seconds: '301' }));
      // The evidence and the date part's note, with the numbers main measured.
      expect(await page.locator('[data-cause="clock-drift"] [data-testid="cause-evidence"]').innerText()).toContain(
        tm('diagnosis.clock-outside_behind', { seconds: 301, window: 300 }),
      );
      expect(await page.locator('tr[data-part="date"] [data-testid="part-note"]').innerText()).toBe(
        tm('diagnosis.date-outside_behind', { seconds: 301, window: 300 }),
      );
      await snap('signature-verify-skew-en');
      // ...and a request signed now − 301 s, compared with now.
      const old = signRequest({
        apiId: V1.input.apiId,
        apiKey: V1.input.apiKey!,
        method: 'POST',
        url: V1.input.url,
        date: formatHttpDate(new Date(Date.now() - 301_000)),
      });
      r = await diagnose(rawRequest({ target: '/voice/vm', host: old.host, date: old.date, authorization: old.authorization }));
      expect(r.verdict).toBe('clock-skew');
      expect(r.causes[0]).toBe('clock-drift');
      expect(Number(await page.getByTestId('verify-gauge').getAttribute('data-seconds'))).toBeGreaterThanOrEqual(-303);
      expect(Number(await page.getByTestId('verify-gauge').getAttribute('data-seconds'))).toBeLessThanOrEqual(-301);

      // (c) Signed with the query string (spec leaves it out), pasted as a cURL command.
      const url = 'https://api.example.com/voice/status?smsid=16330654361&format=json';
      const withQuery = hmac64(V1.input.apiKey!, `${V1.input.apiId}\nPOST /voice/status?smsid=16330654361&format=json\ndate: ${DATE}\nhost: api.example.com`);
      const curl = [
        `curl -X POST '${url}'`,
        `-H 'Date: ${DATE}'`,
        `-H 'Authorization: ${authorization(V1.input.apiId, withQuery)}'`,
        `-H 'Content-Type: application/json'`,
        `--data-raw '{}'`,
      ].join(' \\\n  ');
      r = await diagnose(curl, DATE);
      expect(r.verdict).toBe('signature-mismatch');
      expect(r.causes[0]).toBe('query-string-signed');
      expect(await page.locator('[data-cause="query-string-signed"]').getAttribute('data-confidence')).toBe('high');
      expect(await page.getByTestId('verdict-cause').innerText()).toBe(
        t('signature.verdict.mostLikely', { cause: t('signature.cause.query-string-signed.name') }),
      );
      expect(await page.getByTestId('sig-understood').innerText()).toContain(t('signature.verify.format.curl'));
      expect(await page.locator('tr[data-part="path"]').getAttribute('data-status')).toBe('differs');
      expect(await page.getByTestId('inferred-sts-line').nth(1).innerText()).toBe('POST /voice/status?smsid=16330654361&format=json');
      await snap('signature-verify-query-en');

      // (d) Signed for localhost:8080, sent to 127.0.0.1:8080.
      await typeKey(V_PORT.input.apiKey!);
      const wrongHost = signRequest({
        apiId: V_PORT.input.apiId,
        apiKey: V_PORT.input.apiKey!,
        method: 'POST',
        url: 'http://localhost:8080/voice/balance',
        date: V_PORT.input.date,
      });
      r = await diagnose(
        rawRequest({ target: '/voice/balance', host: '127.0.0.1:8080', date: V_PORT.input.date, authorization: wrongHost.authorization }),
        V_PORT.input.date,
        'http://127.0.0.1:8080/',
      );
      expect(r.verdict).toBe('signature-mismatch');
      expect(r.causes[0]).toBe('wrong-host');
      expect(await page.getByTestId('understood-url').innerText()).toBe('http://127.0.0.1:8080/voice/balance');
      expect(await page.getByTestId('verdict-cause').innerText()).toBe(t('signature.verdict.mostLikely', { cause: t('signature.cause.wrong-host.name') }));
      const hostRow = page.locator('tr[data-part="host"]');
      expect(await hostRow.getAttribute('data-status')).toBe('differs');
      expect(await hostRow.innerText()).toContain('localhost:8080');
      expect(await hostRow.innerText()).toContain('127.0.0.1:8080');
      expect(await page.locator('[data-cause="wrong-host"] [data-testid="cause-evidence"]').innerText()).toContain(
        tm('diagnosis.signed-host_other-host', { host: 'localhost:8080', base: '127.0.0.1:8080' }),
      );
      expect(await hostRow.locator('[data-testid="part-note"]').innerText()).toBe(tm('diagnosis.inferred-host'));
      await snap('signature-verify-host-en');

      // A paste that is not a request is said so, by its kind.
      await tab('verify');
      await page.getByTestId('sig-captured').fill('hello there');
      await page.getByTestId('sig-diagnose').click();
      await page.getByTestId('sig-parse-error').waitFor();
      expect(await page.getByTestId('sig-parse-error').getAttribute('data-error')).toBe('unrecognised');
      expect(await page.getByTestId('sig-parse-error').innerText()).toContain(tm('parse.problem.not-a-request', { line: 1, text: 'hello there' }));
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
    },
    TIMEOUT,
  );

  zhOnly(
    'names a failure in Chinese',
    async () => {
      await typeKey(V1.input.apiKey!);
      const withQuery = hmac64(V1.input.apiKey!, `${V1.input.apiId}\nPOST /voice/status?smsid=16330654361&format=json\ndate: ${DATE}\nhost: api.example.com`);
      const r = await diagnose(
        rawRequest({
          target: '/voice/status?smsid=16330654361&format=json',
          host: 'api.example.com',
          date: DATE,
          authorization: authorization(V1.input.apiId, withQuery),
        }),
        DATE,
      );
      expect(r.verdict).toBe('signature-mismatch');
      expect(r.title).toBe(t('signature.verdict.invalid', { reason: tm('signature.verdict.signature-mismatch') }));
      expect(r.title).toMatch(CJK);
      expect(r.causes[0]).toBe('query-string-signed');
      expect(await page.locator('[data-cause="query-string-signed"] [data-testid="cause-name"]').innerText()).toBe(
        t('signature.cause.query-string-signed.name'),
      );
      // What main found (the evidence, the notes on the parts, the inferred form) is said in Chinese too;
      // only protocol tokens and the values of the request stay as they are.
      const evidence = await page.locator('[data-cause="query-string-signed"] [data-testid="cause-evidence"]').innerText();
      expect(evidence).toContain(tm('diagnosis.query-string_added', { query: '?smsid=16330654361&format=json' }));
      expect(await page.locator('tr[data-part="path"] [data-testid="part-note"]').innerText()).toBe(tm('diagnosis.inferred-target'));
      expect(await page.locator('tr[data-part="date"] [data-testid="part-note"]').innerText()).toBe(tm('diagnosis.date-skew_in-step'));
      expect(await page.getByTestId('sig-inferred').innerText()).toContain(
        t('signature.inferred.change', { from: t('signature.inferred.form.spec'), to: t('signature.inferred.form.query') }),
      );
      // Every sentence of the answer (the request's own values, in the parts table and the strings to sign, are left aside).
      const sentences = [
        await page.getByTestId('verdict').innerText(),
        ...(await page.getByTestId('cause').allInnerTexts()),
        ...(await page.getByTestId('part-note').allInnerTexts()),
        ...(await page.getByTestId('inferred-change').allInnerTexts()),
      ];
      expect(sentences.length).toBeGreaterThan(5);
      for (const text of sentences) {
        expect(text).toMatch(CJK);
        expect(text).not.toMatch(ENGLISH_SENTENCE);
      }
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      await snap('signature-verify-zh-CN');

      // What was assumed while reading the paste, and why a paste cannot be read: in Chinese.
      await diagnose(
        ['POST /voice/vm', 'Host: api.example.com', `Date: ${DATE}`, `Date: ${DATE}`, `Authorization: ${V1.expected.authorization!}`].join('\n'),
        DATE,
      );
      const warnings = await page.getByTestId('understood-warnings').innerText();
      expect(warnings).toContain(tm('parse.warning.no-http-version'));
      expect(warnings).toContain(tm('parse.warning.duplicate-header', { name: 'date' }));
      await snap('signature-verify-warnings-zh-CN');
      await page.getByTestId('sig-captured').fill(`curl 'https://api.example.com/voice/vm`);
      await page.getByTestId('sig-diagnose').click();
      await page.getByTestId('sig-parse-error').waitFor();
      expect(await page.getByTestId('sig-parse-error').innerText()).toContain(tm('parse.problem.curl-quote_single'));
      expect(await page.getByTestId('sig-parse-error').innerText()).not.toMatch(ENGLISH_SENTENCE);
      await snap('signature-verify-parse-zh-CN');
    },
    TIMEOUT,
  );

  it(
    'checks a vector file and shows exactly the one bad vector failing, and the missing key explained',
    async () => {
      const file: SignatureVectorFile = structuredClone(VECTORS);
      file.vectors = file.vectors.filter((v) => v.input.apiKey !== null);
      const bad = 3;
      const good = file.vectors[bad]!.expected.signature;
      file.vectors[bad]!.expected.signature = good.slice(0, 5) + (good[5] === 'x' ? 'y' : 'x') + good.slice(6);
      file.vectors.push({
        ...structuredClone(VECTORS.vectors[6]!),
        name: 'key of a profile this machine lacks',
        input: { ...VECTORS.vectors[6]!.input, keyRef: 'profile:Staging-EU' },
      });
      await tab('vectors');
      await page
        .getByTestId('vector-file')
        .setInputFiles({ name: 'vectors.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file, null, 2)) });
      const results = page.getByTestId('vector-results');
      await results.waitFor();
      expect(await results.getAttribute('data-passed')).toBe('5');
      expect(await results.getAttribute('data-failed')).toBe('1');
      expect(await results.getAttribute('data-needkey')).toBe('1');
      const rows = page.locator('tr[data-testid="vector-row"]');
      expect(await rows.count()).toBe(7);
      const failing = page.locator('tr[data-testid="vector-row"][data-pass="false"]');
      expect(await failing.count()).toBe(2); // the bad one, and the one that needs a key
      const failRow = page.locator(`tr[data-testid="vector-row"][data-index="${bad}"]`);
      expect(await failRow.getByTestId('vector-result').innerText()).toBe(t('signature.vectors.fail'));
      expect(await failRow.innerText()).toContain(file.vectors[bad]!.name);
      expect(await failRow.getByTestId('vector-mismatches').innerText()).toBe(t('signature.vectors.field.signature'));
      for (let i = 0; i < 5; i++) {
        const row = page.locator(`tr[data-testid="vector-row"][data-index="${i < bad ? i : i + 1}"]`);
        expect(await row.getByTestId('vector-result').innerText()).toBe(t('signature.vectors.pass'));
      }
      const needKey = page.locator('tr[data-testid="vector-row"][data-index="6"]');
      expect(await needKey.getByTestId('vector-result').innerText()).toBe(t('signature.vectors.needsKey'));
      expect(await page.getByTestId('vector-missing-keys').innerText()).toContain('profile:Staging-EU');
      expect(await page.getByTestId('vector-missing-keys').innerText()).toContain(t('signature.vectors.missingBody'));
      // The bad vector's expected and computed signatures, side by side.
      expect(await page.getByTestId('vector-detail').innerText()).toContain(good);
      expect(await page.getByTestId('vector-summary').innerText()).toBe(t('signature.vectors.summary', { passed: 5, failed: 1, needKey: 1, total: 7 }));
      expect(await bodyText(page)).not.toMatch(RAW_KEY);
      await snap(`signature-vectors-${suffix}`);

      // A file that is not a vector file is said so.
      await page.getByTestId('vector-text').fill('{"format": "something-else"}');
      await page.getByTestId('vector-check').click();
      await page.getByTestId('vector-file-error').waitFor();
      const fileError = page.getByTestId('vector-file-error');
      expect(await fileError.innerText()).toContain(t('signature.vectors.badFile'));
      expect(await fileError.getAttribute('data-error')).toBe('wrong-format');
      expect(await fileError.innerText()).toContain(tm('vectors.problem.format'));

      // A vector file with mistakes: every one at its place, in the user's language.
      const broken = structuredClone(VECTORS) as unknown as { vectors: Array<{ variant: string; input: Record<string, unknown> }> };
      broken.vectors[2]!.input.date = '2026-11-21T22:36:54Z';
      broken.vectors[4]!.variant = 'draft';
      await page.getByTestId('vector-text').fill(JSON.stringify(broken, null, 2));
      await page.getByTestId('vector-check').click();
      await expect.poll(() => page.getByTestId('vector-problems').locator('li').count()).toBe(2);
      const problems = page.getByTestId('vector-problems').locator('li');
      expect(await problems.nth(0).getAttribute('data-where')).toBe('vectors[2].input.date');
      expect(await problems.nth(0).innerText()).toContain(tm('vectors.problem.date'));
      expect(await problems.nth(1).getAttribute('data-where')).toBe('vectors[4].variant');
      expect(await fileError.innerText()).toContain(tm('error.vector-file-invalid_invalid-vector', { where: 'vectors[2].input.date' }));
      if (suffix === 'zh-CN') expect((await fileError.innerText()).replace(/Sat, .*GMT/g, '')).not.toMatch(ENGLISH_SENTENCE);
      await snap(`signature-vectors-problems-${suffix}`);
    },
    TIMEOUT,
  );

  enOnly(
    "shows the sandbox's clock skew live, with the window drawn, and which variant its gateway accepts",
    async () => {
      app.services.sandbox!.setClockOffset(120);
      try {
        await useProfileKey();
        await tab('clock');
        const skew = async () =>
          Number(
            (await page
              .getByTestId('clock-skew')
              .getAttribute('data-skew')
              .catch(() => '')) || NaN,
          );
        await expect.poll(skew, { timeout: 15_000 }).toBeGreaterThanOrEqual(118.5);
        expect(await skew()).toBeLessThanOrEqual(120.5);
        expect(await page.getByTestId('clock-alert').getAttribute('data-level')).toBe('warning');
        expect(await page.getByTestId('clock-gauge').getAttribute('data-within')).toBe('true');
        expect(await page.getByTestId('clock-skew').innerText()).toMatch(/^The server is 1(19|20)(\.\d)? s ahead of this computer\.$/);

        // Live: the next reading follows the sandbox's clock without a click.
        const probes = () => app.calls.filter((c) => c.channel === 'signature.probeClock').length;
        const before = probes();
        app.services.sandbox!.setClockOffset(-400);
        await expect.poll(skew, { timeout: 12_000 }).toBeLessThan(-398);
        expect(probes()).toBeGreaterThan(before);
        expect(await page.getByTestId('clock-alert').getAttribute('data-level')).toBe('error');
        expect(await page.getByTestId('clock-gauge').getAttribute('data-within')).toBe('false');
        app.services.sandbox!.setClockOffset(120);
        await expect.poll(skew, { timeout: 12_000 }).toBeGreaterThan(118);

        await page.getByTestId('probe-run').click();
        await page.getByTestId('probe-result').waitFor();
        expect(await page.getByTestId('probe-result').getAttribute('data-accepted')).toBe('spec');
        expect(await page.getByTestId('probe-result').innerText()).toContain(t('signature.probe.accepts', { variant: t('signature.variant.spec') }));
        await page.getByTestId('clock-live').click(); // stop the live reading for a steady picture
        await snap('signature-clock-en');
        await page.getByTestId('clock-live').click(); // and back on: the tab keeps the choice for what comes next
      } finally {
        app.services.sandbox!.setClockOffset(0);
      }
    },
    TIMEOUT,
  );

  it(
    'neither variant accepted with the clock outside the window: says that the clock shown above is the likely cause',
    async () => {
      app.services.sandbox!.setClockOffset(-420);
      await page.setViewportSize({ width: 1024, height: 700 });
      try {
        await useProfileKey();
        await tab('clock');
        const skew = async () =>
          Number(
            (await page
              .getByTestId('clock-skew')
              .getAttribute('data-skew')
              .catch(() => '')) || NaN,
          );
        // The tab measures again on its own interval while its live reading is on (the case before may have
        // turned it off for a steady picture; the tab keeps that choice).
        expect(await page.getByTestId('clock-live').getAttribute('aria-checked')).toBe('true');
        await expect.poll(skew, { timeout: 20_000 }).toBeLessThan(-418);
        await page.getByTestId('probe-run').click();
        const result = page.getByTestId('probe-result');
        await result.waitFor();
        expect(await result.getAttribute('data-accepted')).toBe('');
        expect(await result.getAttribute('data-cause')).toBe('clock');
        const text = await result.innerText();
        expect(text).toContain(t('signature.probe.none'));
        // The skew read above (420 s, give or take the Date header's second), and the window.
        const [before, after] = t('signature.probe.noneClock', { seconds: '\u0000', window: 300 }).split('\u0000');
        expect(text).toContain(before);
        expect(text).toContain(after);
        expect(text).toMatch(/42[01]/);
        await page.getByTestId('clock-live').click(); // a steady picture
        await result.scrollIntoViewIfNeeded();
        await snap(`signature-probe-clock-${suffix}`);
        await page.getByTestId('clock-live').click();
      } finally {
        app.services.sandbox!.setClockOffset(0);
        await page.setViewportSize({ width: 1280, height: 800 });
      }
    },
    TIMEOUT,
  );

  enOnly(
    "never lets the profile's key reach the page: signing, verifying and exporting with it happen in main",
    async () => {
      const { apiKey } = await app.services.profiles.endpoint('sandbox');
      expect(apiKey.length).toBeGreaterThan(8);
      await tab('build');
      await useProfileKey();
      await page.getByTestId('sig-preset').click();
      await page.getByTestId('preset-voice-balance').click();
      await page.getByTestId('sig-date-now').click();
      await expect.poll(() => page.getByTestId('sig-url').inputValue()).toBe(`${app.services.sandbox!.baseUrl}/voice/balance`);
      await expect.poll(signatureShown).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      // What the page shows is what main computes with the profile's key.
      const date = await page.getByTestId('sig-date-live').innerText();
      const steps = await page.getByTestId('sig-signature').innerText();
      const expected = signRequest({ apiId: 'sandbox-demo', apiKey, method: 'POST', url: `${app.services.sandbox!.baseUrl}/voice/balance`, date });
      if (steps !== expected.signature) {
        // The live date moved on between the two reads: read again.
        await page.getByTestId('sig-date-fixed').click();
        const fixed = await page.getByTestId('sig-date').inputValue();
        await expect
          .poll(signatureShown)
          .toBe(signRequest({ apiId: 'sandbox-demo', apiKey, method: 'POST', url: `${app.services.sandbox!.baseUrl}/voice/balance`, date: fixed }).signature);
      }

      // Verify the Build request with the profile's key: valid (compared with now).
      await page.getByTestId('sig-date-now').click();
      await tab('verify');
      await page.getByTestId('sig-use-build').click();
      await page.getByTestId('compare-now').click();
      await page.getByTestId('sig-diagnose').click();
      await expect
        .poll(() =>
          page
            .getByTestId('verdict')
            .getAttribute('data-verdict')
            .catch(() => null),
        )
        .toBe('valid');

      // Export the case as a vector: the key becomes a reference to the profile.
      await tab('vectors');
      await page.getByTestId('vector-name').fill('sandbox balance, profile key');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('vector-export').click()]);
      const exported = readFileSync((await download.path())!, 'utf8');
      expect(download.suggestedFilename()).toBe('callout-vector-sandbox-balance-profile-key.json');
      const vector = (JSON.parse(exported) as SignatureVectorFile).vectors[0]!;
      expect(vector.input.apiKey).toBeNull();
      expect(vector.input.keyRef).toBe('profile:Sandbox');
      expect(exported).not.toContain(apiKey);
      expect((await page.getByTestId('vector-json').innerText()).trim()).toBe(exported.trim());

      // Checking it back uses the profile's key in main: PASS.
      await page.getByTestId('vector-text').fill(exported);
      await page.getByTestId('vector-check').click();
      await expect
        .poll(() =>
          page
            .getByTestId('vector-results')
            .getAttribute('data-passed')
            .catch(() => null),
        )
        .toBe('1');

      await tab('clock');
      await tab('build');
      expect(await whereSecretAppears(page, apiKey)).toEqual(NOWHERE);
      // Nothing the page sent main carried it either.
      expect(JSON.stringify(app.calls)).not.toContain(apiKey);
    },
    TIMEOUT,
  );

  it(
    'computes with a short typed key (RFC 4231\'s "Jefe") and says Callout would not store it; Verify with the profile\'s key names a keyId that is not its API ID',
    async () => {
      await tab('build');
      await typeKey('Jefe');
      await setBuild({ url: 'https://api.example.com/voice/vm', apiId: 'someone-else', date: DATE });
      await expect.poll(signatureShown).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      expect(await page.getByTestId('sig-key-note').innerText()).toBe(t('signature.key.notStored.too-short'));
      const typed = await page.getByTestId('sig-authorization').innerText();
      const request = (authorization: string) => `POST /voice/vm HTTP/1.1\nHost: api.example.com\nDate: ${DATE}\nAuthorization: ${authorization}`;
      let d = await diagnose(request(typed), DATE);
      expect(d.verdict).toBe('valid');
      expect(await page.getByTestId('verify-key-note').innerText()).toBe(t('signature.key.notStored.too-short'));
      // The Sandbox profile's own key, signing as another account: the key matches, the keyId does not.
      await tab('build');
      await useProfileKey();
      await expect
        .poll(() =>
          page
            .getByTestId('sig-authorization')
            .innerText()
            .catch(() => ''),
        )
        .not.toBe(typed);
      const other = await page.getByTestId('sig-authorization').innerText();
      expect(other).toContain('keyId="someone-else"');
      d = await diagnose(request(other), DATE);
      expect(d.verdict).toBe('key-id-mismatch');
      expect(d.title).toBe(t('signature.verdict.invalid', { reason: tm('signature.verdict.key-id-mismatch') }));
      await snap(`signature-keyid-mismatch-${suffix}`);
      await tab('build');
    },
    TIMEOUT,
  );

  it(
    'forgets a typed key when the screen is left, and logs no errors',
    async () => {
      await tab('build');
      await typeKey('typed-secret-0042');
      await expect.poll(() => whereSecretAppears(page, 'typed-secret-0042').then((w) => w.inputs)).toBe(true);
      await page.getByRole('menuitem', { name: t('nav.profiles') }).click();
      // Left: the next screen is shown (a screen loads on first use; until then this one stays).
      await page.getByTestId('add-profile').waitFor();
      await page.getByRole('menuitem', { name: t('nav.signature') }).click();
      await page.getByRole('heading', { name: t('signature.title') }).waitFor();
      expect(await whereSecretAppears(page, 'typed-secret-0042')).toEqual(NOWHERE);
      expect(await page.getByTestId('key-note').innerText()).toBe(t('signature.key.profileNote'));
      expect(problems).toEqual([]);
    },
    TIMEOUT,
  );
});
