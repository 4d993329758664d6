// Quick-dial runs of this session, kept outside React so that they survive a visit to another screen:
// main pushes each step of a run (main:dial-progress) and every change of a message
// (main:message-updated, for the state of the call ringing now); live-updates hands both to dialRuns.
// Also the palette requests made by the Ctrl/Cmd+K shortcut from any screen.
import { useEffect } from 'react';
import type { DialPlan, DialProgress, DialTarget } from '../../../../common/bulk-types';
import type { CallState } from '../../../../common/domain/status';
import type { MessageRecord } from '../../../../common/records';
import type { Reason } from '../../../../common/reasons';
import { call } from '../../app/api';
import { createStore, useStore } from '../../app/store';

export interface AttemptView {
  targetIndex: number;
  attempt: number;
  mobile: string;
  name: string | null;
  messageId: number | null;
  /** null while the request is on its way. */
  state: CallState | null;
  /** Why it failed or is unknown (known once the run is done). */
  reason: Reason | null;
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

const runs = createStore<RunView[]>([]);

function blank(runId: string, targets: DialTarget[], maxAttempts: number, pauseSeconds: number | null): RunView {
  return { runId, targets, maxAttempts, pauseSeconds, progress: null, attempts: [], startedAt: Date.now(), dismissed: false };
}

function upsert(runId: string, change: (r: RunView) => RunView, create: () => RunView): void {
  runs.set((list) => (list.some((r) => r.runId === runId) ? list.map((r) => (r.runId === runId ? change(r) : r)) : [change(create()), ...list].slice(0, KEEP)));
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
      reason: null,
      ended: false,
      startedAt: existing?.startedAt ?? Date.now(),
    };
    attempts = existing ? attempts.map((a) => (key(a) ? next : a)) : [...attempts, next];
  } else if (p.phase === 'ended') {
    attempts = attempts.some(key)
      ? attempts.map((a) => (key(a) ? { ...a, messageId: p.messageId ?? a.messageId, state: p.state ?? a.state, ended: true } : a))
      : [
          ...attempts,
          {
            targetIndex: p.targetIndex,
            attempt: p.attempt,
            mobile: p.target.mobile,
            name: p.target.name,
            messageId: p.messageId,
            state: p.state,
            reason: null,
            ended: true,
            startedAt: Date.now(),
          },
        ];
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
      reason: a.reason,
      ended: true,
      startedAt: a.startedAt,
    }));
  }
  const targets = p.result?.targets ?? (r.targets.length ? r.targets : [p.target]);
  return { ...r, progress: p, attempts, targets, maxAttempts: p.maxAttempts };
}

let activeLoaded = false;

/** Runs already going when the screen first opens (started before, or by the CLI), once per session. */
function loadActive(): void {
  if (activeLoaded) return;
  activeLoaded = true;
  void call((api) => api.dial.active()).then((r) => {
    if (!r.ok) return;
    for (const p of r.value)
      upsert(
        p.runId,
        (run) => (run.progress ? run : applyProgress(run, p)),
        () => blank(p.runId, [], p.maxAttempts, null),
      );
  });
}

export const dialRuns = {
  /** A step main pushed (runs started elsewhere, e.g. by the CLI, are shown too). */
  progress(p: DialProgress): void {
    upsert(
      p.runId,
      (r) => applyProgress(r, p),
      () => blank(p.runId, [], p.maxAttempts, null),
    );
  },
  /** A message main pushed: the state of an attempt's call. */
  messageUpdated(m: MessageRecord): void {
    if (!runs.get().some((r) => r.attempts.some((a) => a.messageId === m.id && !a.ended))) return;
    runs.set((list) => list.map((r) => ({ ...r, attempts: r.attempts.map((a) => (a.messageId === m.id && !a.ended ? { ...a, state: m.state } : a)) })));
  },
  /** A run this screen just started: shown at once, before main's first step arrives. */
  started(runId: string, plan: DialPlan): void {
    upsert(
      runId,
      (r) => ({ ...r, targets: plan.targets, maxAttempts: plan.attempts, pauseSeconds: plan.pauseSeconds, dismissed: false }),
      () => blank(runId, plan.targets, plan.attempts, plan.pauseSeconds),
    );
  },
  dismiss(runId: string): void {
    runs.set((list) => list.map((r) => (r.runId === runId ? { ...r, dismissed: true } : r)));
  },
};

export function useDialRuns(): RunView[] {
  useEffect(loadActive, []);
  return useStore(runs);
}

// ---------------------------------------------------------------- palette requests

export type PalettePreset = { kind: 'contact'; contactId: number } | { kind: 'group'; groupId: number } | null;

/** A request for the palette not handled yet: the Quick dial screen opens it (at once, or when it is shown). */
export const paletteRequest = createStore<{ preset: PalettePreset } | null>(null);

/** Asks for the palette (the shortcut, a "Call" button). */
export function requestPalette(preset: PalettePreset = null): void {
  paletteRequest.set({ preset });
}

// ---------------------------------------------------------------- keys typed before the palette is there

/** What was typed between the shortcut and the palette's search field taking the focus. */
export interface TypeAhead {
  text: string;
  enter: boolean;
}

let typeAhead: TypeAhead | null = null;
let stopTypeAhead: (() => void) | null = null;
/** Past this, the palette did not come (its code failed to load): keys go where they would. */
const TYPE_AHEAD_MS = 10_000;

/**
 * Ctrl+K, then "li", Enter, Enter without waiting: on a slow machine the palette (and, from another
 * screen, its code) is not there yet when the letters arrive. Until its search field has the focus,
 * letters, Backspace and Enter are kept here for it instead of landing in whatever had the focus (the
 * send form's number field, or the Send button that Enter would press again). Characters entered
 * through an input method need a field to compose in and are not kept.
 */
export function startTypeAhead(): void {
  if (typeAhead) return;
  typeAhead = { text: '', enter: false };
  const onKey = (e: KeyboardEvent) => {
    if (!typeAhead || e.isComposing) return;
    const at = document.activeElement;
    // The palette has the focus (it was open already, or just took it): keys are its own now.
    if (at instanceof Element && at.closest('[data-testid="palette-body"]')) {
      stop();
      return;
    }
    if (e.key === 'Enter') typeAhead.enter = true;
    else if (e.key === 'Backspace') typeAhead.text = typeAhead.text.slice(0, -1);
    else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) typeAhead.text += e.key;
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  const timer = window.setTimeout(() => stop(), TYPE_AHEAD_MS);
  const stop = () => {
    typeAhead = null;
    window.removeEventListener('keydown', onKey, true);
    window.clearTimeout(timer);
    if (stopTypeAhead === stop) stopTypeAhead = null;
  };
  window.addEventListener('keydown', onKey, true);
  stopTypeAhead = stop;
}

/** The palette's search field has the focus: what was typed before it (null when nothing was waiting). */
export function takeTypeAhead(): TypeAhead | null {
  const kept = typeAhead;
  stopTypeAhead?.();
  return kept;
}
