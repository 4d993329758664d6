import { startSandbox } from '../main/sandbox';
import { SessionSecretStore } from '../main/secrets';
import { createServices } from '../main/services';
import { ScaledClock } from '../test/helpers/scaled-clock';
import type { PreparedRow } from '../main/bulk/import';
const timeScale = 0.05,
  items = 300;
const home = '/work/scratch/sample-home';
const sandbox = await startSandbox({ timeScale, accounts: [{ apiId: 'bench', apiKey: 'bench-key', balance: 10_000_000, lines: 1 }] });
const clock = new ScaledClock(timeScale);
const services = await createServices({
  home,
  secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'bench' } },
  sandbox: false,
  clock,
  watcherPollMs: 50,
});
services.profiles.registerEphemeral(
  {
    id: 'bench',
    name: 'bench',
    baseUrl: sandbox.baseUrl,
    apiId: 'bench',
    signing: 'off',
    format: 'json',
    connectTimeoutMs: 5000,
    totalTimeoutMs: 15000,
    lowBalanceThreshold: null,
  },
  'bench-key',
);
const digits = [7, 8, 9, 7, 8, 9, 5, 0, 1, 8];
const rows: PreparedRow[] = Array.from({ length: items }, (_, i) => {
  const content = `您好，客户${i}，您的订单SO-${String(i).padStart(6, '0')}已发货，请注意查收。`;
  return {
    row: i + 2,
    mobile: `139${String(i).padStart(7, '0')}${digits[i % digits.length]}`,
    content,
    length: content.length,
    units: 1,
    valid: true,
    issues: [],
    duplicateOf: null,
    sameMobileAs: null,
  };
});
const batch = services.queue.create({ profileId: 'bench', templateId: null, name: 'bench', duplicates: 'none', rows });
services.queue.start(batch.id);
await services.queue.whenStopped(batch.id);
await services.queue.whenCallsEnded(batch.id);
await services.close();
await sandbox.close();
console.log('done');
