// `npm run bench -- --only upgrade [--messages N]`: a store written at schema 4 (before the search
// indexes), real-shaped (each call with its send and status polls, as history-real's), upgraded as
// the app does it: in the upgrade worker (main/store/upgrade.ts), its steps reported to main. The
// figures: how long the whole upgrade takes; the longest stretch with no report (the app's upgrade
// window standing still); main's event loop at its slowest meanwhile (the window must keep drawing);
// and how the longest step's batches went.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDatabase, type UpgradeProgress } from '../../main/store/database';
import { upgradeStore } from '../../main/store/upgrade';
import { generateHistory } from './history';

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

export async function upgrade(opts: { quick: boolean; messages?: number }): Promise<Record<string, number>> {
  const rows = opts.messages ?? (opts.quick ? 20_000 : 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'callout-bench-upgrade-'));
  try {
    const file = join(dir, 'callout.db');
    const v4 = openDatabase(file, { targetVersion: 4 });
    v4.pragma('journal_mode = DELETE');
    v4.pragma('synchronous = OFF');
    const t0 = performance.now();
    generateHistory(v4, rows, undefined, 'real');
    v4.pragma('journal_mode = WAL');
    v4.close();
    process.stderr.write(
      `bench: ${rows} real-shaped calls at schema 4 written in ${round((performance.now() - t0) / 1000)} s (${round(statSync(file).size / 2 ** 20)} MB)\n`,
    );

    const reports: Array<{ at: number; p: UpgradeProgress }> = [];
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const start = performance.now();
    const result = await upgradeStore(file, { onProgress: (p) => reports.push({ at: performance.now(), p }) });
    const end = performance.now();
    loop.disable();
    if (result !== 'upgraded') throw new Error(`bench: the upgrade ended ${result}`);

    let silent = 0;
    let silentStep = '';
    let before = start;
    for (const r of reports) {
      if (r.at - before > silent) {
        silent = r.at - before;
        silentStep = r.p.name;
      }
      before = r.at;
    }
    if (end - before > silent) silent = end - before;
    const perStep = new Map<string, number>();
    for (let i = 0; i < reports.length; i++) {
      const next = reports[i + 1]?.at ?? end;
      const name = reports[i]!.p.name;
      perStep.set(name, (perStep.get(name) ?? 0) + (next - reports[i]!.at));
    }
    const slowest = [...perStep.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4);
    process.stderr.write(
      `bench: upgraded in ${round((end - start) / 1000)} s; ${reports.length} reports; longest silence ${round(silent / 1000, 2)} s (${silentStep}); ` +
        `slowest steps: ${slowest.map(([n, ms]) => `${n} ${round(ms / 1000)} s`).join(', ')}\n`,
    );
    return {
      upgradeMessages: rows,
      upgradeSec: round((end - start) / 1000),
      upgradeReports: reports.length,
      upgradeLongestSilenceSec: round(silent / 1000, 2),
      upgradeMainLoopMaxMs: round(loop.max / 1e6),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
