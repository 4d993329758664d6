// What the CLI says while a store written by an earlier version is upgraded (store/upgrade.ts), on
// standard error: a line that follows the steps on a terminal; on a pipe or a file (a cron job's
// log) one line when it starts and one when it ends. Standard output stays the command's own.
import type { Clock } from '../clock';
import type { UpgradeProgress } from '../store';
import { upgradeLine } from '../upgrade-text';
import { translator } from '../i18n';
import type { Lang } from '../../common/domain/i18n-text';
import { liveLine } from './terminal-text';

export interface UpgradeReport {
  progress(p: UpgradeProgress): void;
  /** The store is open (`ok`) or could not be: says how long the upgrade took (nothing when there was none). */
  end(ok: boolean): void;
}

export function upgradeReport(o: { stderr: (s: string) => void; live: boolean; lang: Lang; clock: Clock }): UpgradeReport {
  const t = translator(o.lang);
  const line = liveLine({ write: o.stderr, live: o.live, clock: o.clock });
  let started: number | null = null;
  let to = 0;
  return {
    progress(p) {
      to = p.to;
      if (started === null) {
        started = o.clock.now();
        o.stderr(`callout: ${t('upgrade.start', { from: p.from, to: p.to })}\n`);
      }
      // A new step or a wait is shown at once; a step's share at most every 100 ms.
      line.show(upgradeLine(p, o.lang), p.kind !== 'step' || p.share === null);
    },
    end(ok) {
      if (started === null) return;
      line.end('clear');
      if (ok) o.stderr(`callout: ${t('upgrade.done', { to, seconds: Math.round((o.clock.now() - started) / 100) / 10 })}\n`);
      started = null;
    },
  };
}

/** Opens the services (`open`), the upgrade's report ended whether they opened or not. */
export async function reportingUpgrade<T>(report: UpgradeReport | undefined, open: () => Promise<T>): Promise<T> {
  try {
    const opened = await open();
    report?.end(true);
    return opened;
  } catch (error) {
    report?.end(false);
    throw error;
  }
}
