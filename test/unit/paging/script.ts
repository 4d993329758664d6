// The scripted parts of the paging tests that need no test runner (the two-process test's child
// processes use them too): the people, the start time, an alert group, and small versions of the
// pure rules the engine is given.
import type { CallState } from '../../../common/domain/status';
import type { AlertGroup } from '../../../common/paging/types';
import type { AfterCall, HeldBy, PagingPerson } from '../../../main/paging/deps';

export const START = Date.UTC(2026, 10, 27, 2, 32, 0);
export const RING_MS = 30_000;

export const PEOPLE: PagingPerson[] = [
  { id: 1, name: '王工', mobile: '13800000001' },
  { id: 2, name: '李雷', mobile: '13800000002' },
  { id: 3, name: '张三', mobile: '13800000003' },
];

/** How a number's calls end, in order (the last one repeats). */
export type Script = Record<string, { state: CallState; duration?: number }[]>;

/** The policy's rule after an unanswered call (timeline.ts's, in small): only "no answer" retries. */
export const afterCall: AfterCall = (step, attempt, result) =>
  (result === 'no-answer' || result === 'short-answer') && attempt < step.attempts ? 'retry' : 'next-person';

/** A window holds a group whose common labels equal all its `=` matchers. */
export const heldBy: HeldBy = (group, windows, at) =>
  windows.find((w) => at >= w.from && at < w.to && w.matchers.every((m) => group.commonLabels[m.label] === m.value)) ?? null;

export function alertGroup(
  key: string,
  status: 'firing' | 'resolved' = 'firing',
  fingerprints = ['f1'],
  labels: Record<string, string> = { alertname: 'DiskFull', severity: 'critical' },
): AlertGroup {
  return {
    source: 'alertmanager',
    key,
    status,
    title: 'DiskFull db1',
    severity: labels.severity ?? null,
    groupLabels: { alertname: labels.alertname ?? 'x' },
    commonLabels: labels,
    commonAnnotations: { summary: 'disk full' },
    externalURL: null,
    truncatedAlerts: 0,
    alerts: fingerprints.map((fingerprint) => ({ status, labels, annotations: {}, startsAt: START, endsAt: null, fingerprint, generatorURL: null })),
  };
}
