// What an upgrade says in words (store/upgrade.ts's progress): the desktop app's upgrade window and
// the CLI's line, from the message catalog's `upgrade` section.
import type { Lang } from '../common/domain/i18n-text';
import type { UpgradeProgress } from './store';
import { translator } from './i18n';

/** The upgrade window's texts; `share` is the bar (null: not known yet). */
export interface UpgradeTexts {
  title: string;
  versions: string;
  /** "Step 3 of 19: indexing exchanges for search", or the wait for another process. */
  step: string;
  /** The share of the step done, as a person reads it ("45%"), or '' before it is known. */
  percent: string;
  share: number | null;
  note: string;
}

/** The steps an upgrade names in words (the others are said as updating tables). */
export const NAMED_STEPS = [
  'history-search-and-retention',
  'exchange-search',
  'exchange-hours',
  'message-time-blocks',
  'sparse-exchange-indexes',
  'profile-keys',
  'poll-bases',
  'word-stops',
  'lean-exchange-indexes',
  'message-profile-keys',
  'lean-message-search',
  'implied-created-events',
] as const;
const KNOWN = new Set<string>(NAMED_STEPS);

function what(p: UpgradeProgress, lang: Lang): string {
  return translator(lang)(`upgrade.what.${KNOWN.has(p.name) ? p.name : 'other'}`);
}

const percentOf = (share: number) => Math.min(100, Math.floor(share * 100));

export function upgradeTexts(p: UpgradeProgress, lang: Lang): UpgradeTexts {
  const t = translator(lang);
  const waiting = p.kind === 'waiting';
  return {
    title: t('upgrade.title'),
    versions: t('upgrade.versions', { from: p.from, to: p.to }),
    step: waiting ? t('upgrade.waiting') : t('upgrade.step', { step: p.step, steps: p.steps, what: what(p, lang) }),
    percent: !waiting && p.share !== null ? t('upgrade.percent', { percent: percentOf(p.share) }) : '',
    share: waiting ? null : p.share,
    note: t('upgrade.note'),
  };
}

/** The CLI's progress line on a terminal. */
export function upgradeLine(p: UpgradeProgress, lang: Lang): string {
  const t = translator(lang);
  if (p.kind === 'waiting') return t('upgrade.waiting');
  const line = t('upgrade.line', { from: p.from, to: p.to, step: p.step, steps: p.steps, what: what(p, lang) });
  return p.share === null ? line : `${line} ${t('upgrade.percent', { percent: percentOf(p.share) })}`;
}
