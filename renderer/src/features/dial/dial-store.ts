// Quick-dial runs of this session, kept outside React so that they survive a visit to another screen:
// main pushes each step of a run (main:dial-progress) and every change of a message
// (main:message-updated, for the state of the call ringing now). Also the palette requests made by
// the Ctrl/Cmd+K shortcut from any screen.
import { useEffect, useSyncExternalStore } from 'react';
import type { DialPlan, DialProgress, DialTarget } from '../../../../common/bulk-types';
import type { CallState } from '../../../../common/domain/status';
import type { MessageRecord } from '../../../../common/records';
import { call, calloutApi } from '../../app/api';

export interface AttemptView {
  targetIndex: number;
  attempt: number;
  mobile: string;
  name: string | null;
  messageId: number | null;
  /** null while the request is on its way. */
  state: CallState | null;
  ended: boolean;
  startedAt: number;
}

export interface RunView {
  runId: string;
  targets: DialTarget[];
  maxAttempts: number;
  pauseSeconds: number | null;
  /** The last step main reported; null until the first one. */
  progress: DialProgress | null;
  attempts: AttemptView[];
  startedAt: number;
  dismissed: boolean;
}

/** Runs kept (newest first). */
const KEEP = 10;

let runs: RunView[] = [];
const listeners = new Set<() => void>();

function set(next: RunView[]): void {
  runs = next;
  for (const l of [...listeners]) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function blank(runId: string, targets: DialTarget[], maxAttempts: number, pauseSeconds: number | null): RunView {
  return { runId, targets, maxAttempts, pauseSeconds, progress: null, attempts: [], startedAt: Date.now(), dismissed: false };
}

function upsert(runId: string, change: (r: RunView) => RunView, create: () => RunView): void {
  const existing = runs.find((r) => r.runId === runId);
  if (existing) set(runs.map((r) => (r.runId === runId ? change(r) : r)));
  else set([change(create()), ...runs].slice(0, KEEP));
}

function applyProgress(r: RunView, p: DialProgress): RunView {
  let attempts = r.attempts;
  const key = (a: AttemptView) => a.targetIndex === p.targetIndex && a.attempt === p.attempt;
  if (p.phase === 'calling') {
    const existing = attempts.find(key);
    const next: AttemptView = {
      targetIndex: p.targetIndex,
      attempt: p.attempt,
      mobile: p.target.mobile,
      name: p.target.name,
      messageId: p.messageId ?? existing?.messageId ?? null,
      state: p.state ?? existing?.state ?? null,
      ended: false,
      startedAt: existing?.startedAt ?? Date.now(),
    };
    attempts = existing ? attempts.map((a) => (key(a) ? next : a)) : [...attempts, next];
  } else if (p.phase === 'ended') {
    attempts = attempts.some(key)
      ? attempts.map((a) => (key(a) ? { ...a, messageId: p.messageId ?? a.messageId, state: p.state ?? a.state, ended: true } : a))
      : [...attempts, { targetIndex: p.targetIndex, attempt: p.attempt, mobile: p.target.mobile, name: p.target.name, messageId: p.messageId, state: p.state, ended: true, startedAt: Date.now() }];
  } else if (p.phase === 'done' && p.result) {
    // The result has every attempt as main recorded it: the truth.
    const targets = p.result.targets;
    attempts = p.result.attempts.map((a) => ({
      targetIndex: a.targetIndex,
      attempt: a.attempt,
      mobile: a.mobile,
      name: targets[a.targetIndex]?.name ?? null,
      messageId: a.messageId,
      state: a.outcome === 'accepted' ? a.state : a.outcome === 'unknown' ? 'unknown' : a.outcome === 'rejected' ? 'failed' : null,
      ended: true,
      startedAt: a.startedAt,
    }));
  }
  const targets = p.result?.targets ?? (r.targets.length ? r.targets : [p.target]);
  return { ...r, progress: p, attempts, targets, maxAttempts: p.maxAttempts };
}

function onMessage(m: MessageRecord): void {
  if (!runs.some((r) => r.attempts.some((a) => a.messageId === m.id && !a.ended))) return;
  set(runs.map((r) => ({ ...r, attempts: r.attempts.map((a) => (a.messageId === m.id && !a.ended ? { ...a, state: m.state } : a)) })));
}

let started = false;

/** Subscribes once for the session (events for runs started elsewhere, e.g. the CLI, are shown too). */
function ensureStarted(): void {
  if (started) return;
  const api = calloutApi();
  if (!api) return;
  started = true;
  api.on.dialProgress((p) => upsert(p.runId, (r) => applyProgress(r, p), () => blank(p.runId, [], p.maxAttempts, null)));
  api.on.messageUpdated(onMessage);
  void call((a) => a.dial.active()).then((r) => {
    if (!r.ok) return;
    for (const p of r.value) upsert(p.runId, (run) => (run.progress ? run : applyProgress(run, p)), () => blank(p.runId, [], p.maxAttempts, null));
  });
}

export const dialRuns = {
  /** A run this screen just started: shown at once, before main's first step arrives. */
  started(runId: string, plan: DialPlan): void {
    upsert(
      runId,
      (r) => ({ ...r, targets: plan.targets, maxAttempts: plan.attempts, pauseSeconds: plan.pauseSeconds, dismissed: false }),
      () => blank(runId, plan.targets, plan.attempts, plan.pauseSeconds),
    );
  },
  dismiss(runId: string): void {
    set(runs.map((r) => (r.runId === runId ? { ...r, dismissed: true } : r)));
  },
};

export function useDialRuns(): RunView[] {
  useEffect(ensureStarted, []);
  return useSyncExternalStore(subscribe, () => runs);
}

// ---------------------------------------------------------------- palette requests

export type PalettePreset = { kind: 'contact'; contactId: number } | { kind: 'group'; groupId: number } | null;

interface PaletteRequest {
  seq: number;
  preset: PalettePreset;
}

let request: PaletteRequest = { seq: 0, preset: null };
let handled = 0;
const paletteListeners = new Set<() => void>();

/** Asks for the palette (the shortcut, a "Call" button): the Quick dial screen opens it. */
export function requestPalette(preset: PalettePreset = null): void {
  request = { seq: request.seq + 1, preset };
  for (const l of [...paletteListeners]) l();
}

/** The palette request not handled yet, if any (marks it handled). */
export function takePaletteRequest(): PaletteRequest | null {
  if (request.seq === handled) return null;
  handled = request.seq;
  return request;
}

export function usePaletteRequests(onRequest: (preset: PalettePreset) => void): void {
  useEffect(() => {
    const check = () => {
      const r = takePaletteRequest();
      if (r) onRequest(r.preset);
    };
    check();
    paletteListeners.add(check);
    return () => {
      paletteListeners.delete(check);
    };
  }, [onRequest]);
}
