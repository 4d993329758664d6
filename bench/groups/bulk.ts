// `npm run bench -- --json --only bulk`: the bulk queue under the governor against the sandbox with
// time sped up, and the spreadsheet import at 100,000 rows.
import { parseCsv, prepareRows, resolveMapping, type PreparedRow } from '../../main/bulk/import';
import { STATUS_QUERIES_PER_LINE_PER_SECOND, STATUS_QUERY_BURST_SECONDS } from '../../main/calls/follow';
import { startSandbox } from '../../main/sandbox';
import { SessionSecretStore } from '../../main/secrets';
import { createServices } from '../../main/services';
import { openStore } from '../../main/store';
import { ScaledClock } from '../../test/helpers/scaled-clock';
import { tempHome } from '../../test/helpers/temp-home';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { dispatch } from '../../main/dispatch';
import { createHandlers } from '../../main/handlers';
import { bigCsv } from '../../test/helpers/hostile-files';

const TEMPLATE = { id: 'ship', content: '您好，【变量】，您的订单【变量】已发货，请注意查收。', markerNames: ['姓名', '订单号'] };

/**
 * Where the batch's database lives: in memory (/dev/shm) where there is one. Time runs 20 times
 * faster than real here, so each fsync'd write would weigh 20 times what it weighs in use and the
 * bench would measure the disk, not the schedule. Every write still happens.
 */
function memoryBacked(): string | undefined {
  return process.platform === 'linux' && existsSync('/dev/shm') ? '/dev/shm' : undefined;
}

/** Parse + map + validate 100,000 generated rows (UTF-8 CSV bytes with a BOM); best of 3, in ms. */
function csv100k(): number {
  const lines = ['手机,姓名,订单号'];
  for (let i = 0; i < 100_000; i++) lines.push(`${i % 97 === 0 ? '12' : '1' + (3 + (i % 7))}${String(i).padStart(9, '0')},"客户${i}",SO-${i}`);
  const bytes = new TextEncoder().encode(`\ufeff${lines.join('\r\n')}\r\n`);
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    const sheet = parseCsv(bytes);
    const mapping = resolveMapping(sheet.columns, TEMPLATE, { 手机: 'mobile', 姓名: '姓名', 订单号: '订单号' });
    const { report } = prepareRows(sheet, TEMPLATE, mapping);
    best = Math.min(best, performance.now() - start);
    if (report.totals.rows !== 100_000) throw new Error('bench: the import lost rows');
  }
  return Math.round(best);
}

/**
 * 2,000 items, one line (20 calls at once), sandbox and governor at the same time scale. Calls are
 * followed by the app's follower (its predicted-end schedule, on the sandbox's clock). Lines held by
 * Callout are counted from a send until its call's end is seen, less the lines lent while a call
 * waits for its redial; the sandbox's own counts are sampled: its lines busy (ringing or talking),
 * its calls in progress (accepted and not ended, including the dispatch second and the waits before
 * a redial, when the provider holds no line) and the calls waiting at the provider for a free line.
 * Status queries are counted from Callout's own record of its exchanges.
 */
async function governor(items = 2000, timeScale = 0.05): Promise<Record<string, number>> {
  const home = tempHome('callout-bench-bulk-', memoryBacked());
  const sandbox = await startSandbox({ timeScale, accounts: [{ apiId: 'bench', apiKey: 'bench-key', balance: 10_000_000, lines: 1 }] });
  sandbox.addTemplate('bench', '您好，【变量】，您的订单【变量】已发货，【变量】', { approved: true });
  const clock = new ScaledClock(timeScale);
  const services = await createServices({
    home: home.dir,
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'bench' } },
    sandbox: false,
    // Callout's time runs as fast as the sandbox's: a provider's second is `timeScale` real seconds.
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
      totalTimeoutMs: 15_000,
      lowBalanceThreshold: null,
    },
    'bench-key',
  );
  try {
    // About 120 characters: a call rings ~6 s and talks ~35 s (simulated), so the concurrency limit,
    // not the hourly one, is what binds. Outcomes mixed by the last digit (answered, redialled, no answer, busy).
    const digits = [7, 8, 9, 7, 8, 9, 5, 0, 1, 8];
    const rows: PreparedRow[] = Array.from({ length: items }, (_, i) => {
      const content = `您好，客户${i}，您的订单SO-${String(i).padStart(6, '0')}已发货，${'请注意查收，如有疑问请联系客服。'.repeat(6)}`;
      return {
        row: i + 2,
        mobile: `139${String(i).padStart(7, '0')}${digits[i % digits.length]}`,
        content,
        length: content.length,
        units: 2,
        valid: true,
        issues: [],
        duplicateOf: null,
        sameMobileAs: null,
      };
    });
    const { queue, governors } = services;
    const batch = queue.create({ profileId: 'bench', templateId: null, name: 'bench', duplicates: 'none', rows });
    const gov = governors.for('bench');
    gov.resetStats();
    const limit = gov.limits.concurrency;
    let samples = 0;
    let sandboxBusy = 0;
    let sandboxInProgress = 0;
    let sandboxWaitingForLine = 0;
    let sandboxInProgressPeak = 0;
    let lent = 0;
    let ownMax = 0;
    const sampler = setInterval(() => {
      const p = queue.progress(batch.id);
      ownMax = Math.max(ownMax, gov.snapshot().inUse);
      if (p.queued === 0) return;
      samples++;
      const stats = sandbox.stats();
      sandboxBusy += stats.activeCalls / limit;
      sandboxInProgress += (stats.activeCalls + stats.queuedCalls) / limit;
      sandboxInProgressPeak = Math.max(sandboxInProgressPeak, stats.activeCalls + stats.queuedCalls);
      sandboxWaitingForLine += sandbox.accounts().reduce((n, a) => n + a.waitingForLine, 0);
      lent += gov.snapshot().lent;
    }, 20);
    const started = performance.now();
    const startedAt = clock.now();
    queue.start(batch.id);
    const done = await queue.whenStopped(batch.id);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    await queue.whenCallsEnded(batch.id);
    const snap = gov.snapshot();
    if (done.status !== 'done' || done.accepted !== items)
      throw new Error(`bench: batch ended ${done.status} with ${done.accepted}/${items} accepted: ${done.pausedReason} ${JSON.stringify(done.statusReason)}`);
    // Every call the provider placed, by number and text (its request log keeps only the latest 10,000 requests).
    const calls = sandbox.calls();
    const placed = new Set(calls.map((c) => `${c.mobile}\n${c.content}`));
    if (calls.length !== items || placed.size !== items)
      throw new Error(`bench: ${calls.length} calls placed for ${items} items (${placed.size} distinct): an item was sent twice`);
    // The share of a call's life (accepted to ended, at the provider) spent on a line: the dispatch
    // and the waits before a redial hold none. With a limit that counts calls, that share is the
    // ceiling of the lines' utilization, whatever the client does.
    let onLine = 0;
    let life = 0;
    for (const c of calls) {
      const t = c.timeline.map((e) => ({ at: Date.parse(e.at), event: e.event }));
      life += t.at(-1)!.at - t[0]!.at;
      t.forEach((e, i) => {
        if (e.event !== 'dialing') return;
        const end = t.slice(i + 1).find((x) => x.event !== 'answered');
        if (end) onLine += end.at - e.at;
      });
    }
    // Status queries, from Callout's own record of its exchanges: in total, and per second of the
    // provider's clock per line over the batch (mean, and the busiest second).
    const reader = openStore(services.home);
    const polls = reader.db.prepare("SELECT started_at AS at FROM exchanges WHERE operation = 'status' AND started_at >= ?").all(startedAt) as {
      at: number;
    }[];
    reader.close();
    const perSecond = new Map<number, number>();
    for (const { at } of polls) {
      const second = Math.floor((at - startedAt) / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    const lines = limit / 20;
    const simulatedSeconds = Math.max(1, (Math.max(...polls.map((p) => p.at)) - startedAt) / 1000);
    return {
      governorLimit: limit,
      governorPeakConcurrency: sandbox.stats().peakConcurrency,
      governorOwnPeakConcurrency: Math.max(snap.peak, ownMax),
      governorOwnPeakAtStart: snap.peakAtStart,
      governorUtilization: Math.round((snap.utilization ?? 0) * 1000) / 1000,
      governorSandboxUtilization: Math.round((samples ? sandboxBusy / samples : 0) * 1000) / 1000,
      governorSandboxCallsUtilization: Math.round((samples ? sandboxInProgress / samples : 0) * 1000) / 1000,
      governorSandboxCallsPeak: sandboxInProgressPeak,
      governorSandboxWaitingForLine: Math.round((samples ? sandboxWaitingForLine / samples : 0) * 100) / 100,
      governorLentLines: Math.round((samples ? lent / samples : 0) * 100) / 100,
      governorSandboxLineShare: Math.round((onLine / Math.max(1, life)) * 1000) / 1000,
      governorRateLimitedMs: Math.round(snap.rateLimitedMs),
      statusPollsPerCall: Math.round((polls.length / items) * 100) / 100,
      statusPollsPerLineSecond: Math.round((polls.length / simulatedSeconds / lines) * 100) / 100,
      statusPollsPeakPerLineSecond: Math.max(0, ...perSecond.values()) / lines,
      statusPollBudgetPerLineSecond: STATUS_QUERIES_PER_LINE_PER_SECOND,
      statusPollBudgetPeakPerLineSecond: STATUS_QUERIES_PER_LINE_PER_SECOND * (1 + STATUS_QUERY_BURST_SECONDS),
      bulkItems: items,
      bulkSeconds: Math.round(seconds * 10) / 10,
      bulkItemsPerSimulatedHour: Math.round((items / seconds) * 3600 * timeScale),
    };
  } finally {
    await services.close();
    await sandbox.close();
    home.cleanup();
  }
}

/**
 * main's event loop while the largest legal CSV (29 MB, 199,000 rows) is opened through the handler
 * table, as the app does: how long it took, and the event loop's longest and 99th-percentile delay
 * (what a person would feel as a frozen window). Moved here from the hostile-files test, where the
 * bounds were wall-clock figures of a loaded machine.
 */
async function open29mb(): Promise<Record<string, number>> {
  const home = tempHome();
  const services = await createServices({
    home: join(home.dir, 'app'),
    secrets: { store: new SessionSecretStore(), status: { kind: 'session', keychainAvailable: false, reason: 'bench' } },
    sandbox: false,
  });
  try {
    services.templates.save({ id: 't', name: 't', content: '您好【变量】，您的订单【变量】已发货。', approved: true });
    const base64 = Buffer.from(bigCsv(199_000, 156)).toString('base64');
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const started = performance.now();
    const r = await dispatch(createHandlers(services), 'bulk.open', { templateId: 't', file: { name: 'list.csv', base64 }, requestId: 'bench' });
    const open29mbMs = Math.round(performance.now() - started);
    delay.disable();
    if (!r.ok) throw new Error('bench: the 29 MB CSV was not read');
    return { open29mbMs, open29mbLoopMaxMs: Math.round(delay.max / 1e6), open29mbLoopP99Ms: Math.round(delay.percentile(99) / 1e6) };
  } finally {
    await services.close();
    home.cleanup();
  }
}

export async function bulk(): Promise<Record<string, number>> {
  const csv100kMs = csv100k();
  return { ...(await governor()), csv100kMs, ...(await open29mb()) };
}
