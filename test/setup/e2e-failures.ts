// A failed e2e test in CI leaves only its log: say what each open app's page showed when it failed
// (the screen, any open dialog, alert or message) and which calls it made last (channels only: an
// input may hold a key), and keep a screenshot. Every key the app knows is redacted from what is
// printed (the Capture panel shows the Sandbox's demo key, by design). Then any dialog is closed,
// so that the file's next tests do not fail for it too.
//
// A setup file of every test file (vitest.config.mts); it does something only where test/e2e/bridge.ts
// registered an app. It does not import bridge.ts (the node tests would load a browser driver), and
// bridge.ts does not import vitest (the benchmark imports it outside vitest).
import { afterEach } from 'vitest';
import { redactSecrets } from '../../main/secrets/secret-store';
import type { AppUnderTest } from '../e2e/bridge';

afterEach(async (ctx) => {
  const apps = (globalThis as { calloutE2eApps?: Set<AppUnderTest> }).calloutE2eApps;
  if (ctx.task.result?.state !== 'fail' || !apps?.size) return;
  for (const app of apps) {
    try {
      const shown = await app.page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> } }).document;
        const texts = (selector: string) =>
          Array.from(doc.querySelectorAll(selector))
            .map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim())
            .filter(Boolean);
        return {
          hash: (globalThis as unknown as { location: { hash: string } }).location.hash,
          dialogs: texts('.ant-modal-wrap:not([style*="display: none"]) .ant-modal-content'),
          alerts: texts('.ant-alert, .ant-message-notice, .ant-notification-notice, .ant-form-item-explain-error'),
        };
      });
      const name = ctx.task.name.replace(/[^\w-]+/g, '-').slice(0, 60);
      const shot = await app.screenshot(`FAILED-${name}`).catch(() => 'none');
      const lastCalls = app.calls.slice(-15).map((c) => c.channel);
      const keys: (string | null | undefined)[] = [app.services.sandbox?.demo.apiKey];
      for (const p of await app.services.profiles.list()) keys.push(await app.services.secrets.get(`profile:${p.id}`).catch(() => null));
      const report = redactSecrets(JSON.stringify({ ...shown, lastCalls, screenshot: shot }, null, 1), keys);
      console.error(`[e2e] when "${ctx.task.name}" failed the page showed:\n${report.slice(0, 4000)}`);
      for (let i = 0; i < 3; i++) await app.page.keyboard.press('Escape');
    } catch (e) {
      console.error(`[e2e] could not read the page after "${ctx.task.name}" failed: ${String(e)}`);
    }
  }
});
