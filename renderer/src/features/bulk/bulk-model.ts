// Pure helpers of the Bulk send screens: the column mapping as the screen edits it (one target per
// column) and as main reads it (MappingSpec), file bytes to base64, issue texts from the message
// catalog, and number/time formatting.
import type { TFunction } from 'i18next';
import type { TemplateView } from '../../../../common/contract';
import type { BatchProgress, BatchStatus, DuplicatePolicy, IssueKind, ItemStatus, MappingSpec, RowIssue, StopReason } from '../../../../common/bulk-types';
import type { Language } from '../../i18n';
import { isoDateTime } from '../../i18n/dates';

/** What one column fills: the mobile number, a marker (0-based), or nothing. */
export type ColumnTarget = { kind: 'mobile' } | { kind: 'marker'; index: number } | { kind: 'none' };

/** The screen's mapping: column name → what it fills. */
export type ColumnTargets = Record<string, ColumnTarget>;

export const DUPLICATE_POLICIES: readonly DuplicatePolicy[] = ['same-text', 'same-mobile', 'none'];

/** The label of marker `index` (its name in the template, else "Variable n"). */
export function markerLabel(t: TFunction, template: Pick<TemplateView, 'markerNames'> | null, index: number): string {
  const name = template?.markerNames[index]?.trim();
  return name || t('bulk.mapping.variable', { n: index + 1 });
}

/** Which marker a spec target names: by the template's label, or by position ("2", "#2", "变量2"). */
function markerOf(template: Pick<TemplateView, 'markerNames' | 'markerCount'>, target: string): number {
  const key = target.trim().toLowerCase();
  const byLabel = template.markerNames.findIndex((n) => n.trim().toLowerCase() === key && key !== '');
  if (byLabel >= 0 && byLabel < template.markerCount) return byLabel;
  const m = /^(?:#|变量|var|marker)?\s*(\d+)$/i.exec(target.trim());
  if (m) {
    const n = Number(m[1]) - 1;
    if (n >= 0 && n < template.markerCount) return n;
  }
  return -1;
}

/** Main's spec (column → 'mobile' | marker) as the screen's per-column targets. */
export function targetsFromSpec(columns: readonly string[], template: Pick<TemplateView, 'markerNames' | 'markerCount'>, spec: MappingSpec): ColumnTargets {
  const out: ColumnTargets = Object.fromEntries(columns.map((c) => [c, { kind: 'none' } as ColumnTarget]));
  for (const [column, target] of Object.entries(spec)) {
    if (!(column in out)) continue;
    if (target.trim().toLowerCase() === 'mobile') out[column] = { kind: 'mobile' };
    else {
      const index = markerOf(template, target);
      if (index >= 0) out[column] = { kind: 'marker', index };
    }
  }
  return out;
}

/** The screen's targets as main's spec. Markers by position ("#n"), which never depends on labels. */
export function specFromTargets(targets: ColumnTargets): MappingSpec {
  const spec: MappingSpec = {};
  for (const [column, target] of Object.entries(targets)) {
    if (target.kind === 'mobile') spec[column] = 'mobile';
    else if (target.kind === 'marker') spec[column] = `#${target.index + 1}`;
  }
  return spec;
}

export const targetKey = (target: ColumnTarget): string => (target.kind === 'marker' ? `marker:${target.index}` : target.kind);

export function targetFromKey(key: string): ColumnTarget {
  if (key === 'mobile') return { kind: 'mobile' };
  const m = /^marker:(\d+)$/.exec(key);
  return m ? { kind: 'marker', index: Number(m[1]) } : { kind: 'none' };
}

/** Sets one column's target; a target used by another column is taken from it (never two columns for one target). */
export function assignTarget(targets: ColumnTargets, column: string, target: ColumnTarget): ColumnTargets {
  const key = targetKey(target);
  const next: ColumnTargets = {};
  for (const [c, current] of Object.entries(targets)) {
    next[c] = c === column ? target : target.kind !== 'none' && targetKey(current) === key ? { kind: 'none' } : current;
  }
  return next;
}

/** What is still missing before the mapping can be used: the mobile column and the markers without a column. */
export function missingTargets(targets: ColumnTargets, markerCount: number): { mobile: boolean; markers: number[] } {
  const values = Object.values(targets);
  const mobile = !values.some((v) => v.kind === 'mobile');
  const markers = Array.from({ length: markerCount }, (_, i) => i).filter((i) => !values.some((v) => v.kind === 'marker' && v.index === i));
  return { mobile, markers };
}

/** Reads a chosen file as base64 (for bulk.open), in chunks so that large files do not overflow the stack. */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

/** One problem of a row, in words: the catalog's text for its kind, with the column, the value and the detail main found. */
export function issueText(t: TFunction, issue: RowIssue): string {
  return t(`importIssue.${issue.kind}`, { ns: 'msg', column: issue.column ?? '', value: issue.value ?? '', detail: issue.detail ?? '' });
}

/** Kinds that keep a row from being sent (duplicates are sendable: the person chooses). */
export const BLOCKING_KINDS: ReadonlySet<IssueKind> = new Set(['missing-mobile', 'bad-mobile', 'missing-value', 'empty-text', 'too-long']);

export const STATUS_COLORS: Record<BatchStatus, string> = {
  draft: 'default',
  running: 'processing',
  paused: 'warning',
  cancelled: 'default',
  done: 'success',
};

export const ITEM_COLORS: Record<ItemStatus, string> = {
  queued: 'default',
  in_flight: 'processing',
  accepted: 'success',
  rejected: 'error',
  unknown: 'warning',
  skipped: 'default',
  cancelled: 'default',
};

/** How serious a stop is: a person's pause is information, a refused account is an error. */
export function stopSeverity(reason: StopReason | null): 'info' | 'warning' | 'error' {
  if (reason === 'credentials' || reason === 'profile') return 'error';
  if (reason === 'user' || reason === null) return 'info';
  return 'warning';
}

/** Items handled so far (sent, skipped or cancelled), as a share of the batch. */
export function handledPercent(p: Pick<BatchProgress, 'total' | 'remaining'>): number {
  if (p.total === 0) return 0;
  return Math.floor(((p.total - p.remaining) / p.total) * 1000) / 10;
}

export { formatCount as formatNumber } from '../../i18n/numbers';

/** "2026-11-27 10:32" in both languages (one rule for dates: i18n/dates.ts). */
export function formatDateTime(_lang: Language, ms: number): string {
  return isoDateTime(ms);
}

/** A duration for people: "45 s", "3 min", "1 h 20 min". */
export function formatDuration(t: TFunction, ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return t('bulk.time.seconds', { count: s });
  const m = Math.round(s / 60);
  if (m < 60) return t('bulk.time.minutes', { count: m });
  return t('bulk.time.hoursMinutes', { h: Math.floor(m / 60), m: m % 60 });
}
