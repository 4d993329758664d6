import { ScaledClock } from '../../helpers/scaled-clock';
import type { PreparedRow } from '../../../main/bulk/import';
import type { BatchProgress } from '../../../main/bulk/queue';
import type { DialProgress } from '../../../main/dial/dialer';
import type { Sandbox } from '../../../main/sandbox';
import { SessionSecretStore } from '../../../main/secrets';
import { createServices, type ServicesOptions } from '../../../main/services';
import { EVENT_CHANNELS } from '../../../common/contract';

export const TEMPLATE = '您好，【变量】，您的订单【变量】已发货，请注意查收。';
export const fill = (name: string, order: string) => TEMPLATE.replace('【变量】', name).replace('【变量】', order);

/**
 * Services on a temp home with no embedded sandbox, and a profile pointing at `sandbox`. Callout runs
 * on a clock as fast as the sandbox's calls (a provider's second is `timeScale` real seconds), or
 * `clockScale` (slower: the calls seem shorter to it than they are, its minutes pass slower); the
 * profile's timeouts and the watcher's re-reads stay what they were in real time (2 s to connect,
 * `totalTimeoutMs` or 5 s in all; every 20 ms).
 */
export async function servicesFor(
  home: string,
  sandbox: Sandbox,
  apiId: string,
  apiKey: string,
  opts: { timeScale: number; totalTimeoutMs?: number; clockScale?: number; testOnlyWrapStore?: ServicesOptions['testOnlyWrapStore'] },
) {
  const clock = new ScaledClock(opts.clockScale ?? opts.timeScale);
  const services = await createServices({
    home,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'test' } },
    sandbox: false,
    clock,
    watcherPollMs: clock.fromReal(20),
    testOnlyWrapStore: opts.testOnlyWrapStore,
  });
  services.profiles.registerEphemeral(
    {
      id: 'ext',
      name: 'External',
      baseUrl: sandbox.baseUrl,
      apiId,
      signing: 'off',
      format: 'json',
      connectTimeoutMs: clock.fromReal(2000),
      totalTimeoutMs: clock.fromReal(opts.totalTimeoutMs ?? 5000),
      lowBalanceThreshold: null,
    },
    apiKey,
  );
  const progress: BatchProgress[] = [];
  const dialProgress: DialProgress[] = [];
  services.subscribe((channel, payload) => {
    if (channel === EVENT_CHANNELS.bulkProgress) progress.push(payload as BatchProgress);
    if (channel === EVENT_CHANNELS.dialProgress) dialProgress.push(payload as DialProgress);
  });
  // The queue, governors, dialer and contacts are the services' own (one composition root).
  return { services, runtime: services, progress, dialProgress };
}

/** Prepared rows for mobiles `1380013xxxx` (the last digit picks the sandbox's outcome). */
export function rowsFor(mobiles: readonly string[]): PreparedRow[] {
  return mobiles.map((mobile, i) => {
    const content = fill(`客户${i}`, `SO-${i}`);
    return { row: i + 2, mobile, content, length: content.length, units: 1, valid: true, issues: [], duplicateOf: null, sameMobileAs: null };
  });
}

/** Accepted sends (code 2) the sandbox received per mobile+content. */
export function acceptedPerItem(sandbox: Sandbox): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of sandbox.requests()) {
    if (r.op !== 'send' || !r.body) continue;
    const k = `${String(r.body.mobile)}\n${String(r.body.content)}`;
    counts.set(k, (counts.get(k) ?? 0) + (r.response?.code === 2 || r.withheld?.code === 2 ? 1 : 0));
  }
  return counts;
}

/** Every send request the sandbox received per mobile+content, whatever it answered. */
export function receivedPerItem(sandbox: Sandbox): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of sandbox.requests()) {
    if (r.op !== 'send' || !r.body) continue;
    const k = `${String(r.body.mobile)}\n${String(r.body.content)}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}
