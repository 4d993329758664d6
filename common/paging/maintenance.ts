// Maintenance windows (issue 25, item 7): a window holds the alerts its matchers match during
// [from, to). Pure: the time is a parameter.
//
// A group is held when every alert that would page (its firing alerts; all of them for a resolved
// group) is matched by some window open at t — each alert on its own labels, as Alertmanager's
// silences work. A window without matchers holds nothing (as Alertmanager refuses a silence without
// one): a window cannot silence every alert by mistake.

import { compileMatcher, type MatcherIssue, matcherIssues } from './matchers';
import type { AlertGroup, LabelMatcher, MaintenanceWindow } from './types';

/** Is the window open at t? [from, to): open at `from`, closed at `to`. */
export function windowOpen(w: Pick<MaintenanceWindow, 'from' | 'to'>, t: number): boolean {
  return w.from <= t && t < w.to;
}

/** Do all of the window's matchers match these labels (and it has at least one)? Invalid matchers match nothing. */
export function windowMatches(matchers: readonly LabelMatcher[], labels: Record<string, string>): boolean {
  if (matchers.length === 0) return false;
  return matchers.every((m) => {
    const c = compileMatcher(m);
    return c.ok && c.test(labels);
  });
}

export interface Hold {
  held: boolean;
  /** The windows that hold the group's alerts (each listed once, in the order given). */
  windows: MaintenanceWindow[];
}

/** Whether `group` is held at time `t` by `windows`, and by which. */
export function heldBy(group: AlertGroup, windows: readonly MaintenanceWindow[], t: number): Hold {
  const open = windows.filter((w) => windowOpen(w, t));
  const firing = group.alerts.filter((a) => a.status === 'firing');
  const alerts = firing.length > 0 ? firing : group.alerts;
  const used = new Set<MaintenanceWindow>();
  const labelSets = alerts.length > 0 ? alerts.map((a) => a.labels) : [group.commonLabels];
  for (const labels of labelSets) {
    const w = open.find((x) => windowMatches(x.matchers, labels));
    if (!w) return { held: false, windows: [] };
    used.add(w);
  }
  return { held: true, windows: windows.filter((w) => used.has(w)) };
}

export const WINDOW_ISSUE_CODES = ['no-matchers', 'range-empty', 'matcher'] as const;

/** A window's problems before it is saved: `paging.maintenance.<code>` in the catalog. */
export type WindowIssue =
  | { code: 'no-matchers'; params: Record<string, never> }
  | { code: 'range-empty'; params: { from: number; to: number } }
  | { code: 'matcher'; params: MatcherIssue['params'] & { problem: MatcherIssue['code'] } };

export function windowIssues(w: Pick<MaintenanceWindow, 'matchers' | 'from' | 'to'>): WindowIssue[] {
  const out: WindowIssue[] = [];
  if (w.matchers.length === 0) out.push({ code: 'no-matchers', params: {} });
  if (!(Number.isFinite(w.from) && Number.isFinite(w.to) && w.to > w.from)) out.push({ code: 'range-empty', params: { from: w.from, to: w.to } });
  for (const i of matcherIssues(w.matchers)) out.push({ code: 'matcher', params: { ...i.params, problem: i.code } });
  return out;
}
