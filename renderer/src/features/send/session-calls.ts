// The calls placed from this screen during this session, kept outside React so that they survive a
// visit to another screen. Each is followed live: main pushes every change of a message
// (main:message-updated) and the card fetches its event timeline (messages.get) after each change.
import { useEffect, useSyncExternalStore } from 'react';
import type { MessageEventRecord, MessageRecord } from '../../../../common/records';
import { call, calloutApi } from '../../app/api';

export interface SessionCall {
  message: MessageRecord;
  /** The state timeline; null until it was first loaded. */
  events: MessageEventRecord[] | null;
}

interface SessionState {
  /** Newest first. */
  calls: SessionCall[];
  selectedId: number | null;
}

/** How many of this session's calls the screen keeps. */
const KEEP = 20;

let state: SessionState = { calls: [], selectedId: null };
const listeners = new Set<() => void>();

function set(next: SessionState): void {
  state = next;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Keeps the newer of two versions of a message (pushes and fetches may arrive out of order). */
function newer(current: MessageRecord, incoming: MessageRecord): MessageRecord {
  return incoming.updatedAt >= current.updatedAt ? incoming : current;
}

export const sessionCalls = {
  get: () => state,
  /** A message this screen just sent: first in the list, and shown. */
  add(message: MessageRecord): void {
    const rest = state.calls.filter((c) => c.message.id !== message.id);
    set({ calls: [{ message, events: null }, ...rest].slice(0, KEEP), selectedId: message.id });
    void refresh(message.id);
  },
  select(id: number): void {
    if (state.calls.some((c) => c.message.id === id)) set({ ...state, selectedId: id });
  },
  has(id: number): boolean {
    return state.calls.some((c) => c.message.id === id);
  },
  update(message: MessageRecord, events?: MessageEventRecord[]): void {
    if (!sessionCalls.has(message.id)) return;
    set({
      ...state,
      calls: state.calls.map((c) => (c.message.id === message.id ? { message: newer(c.message, message), events: events ?? c.events } : c)),
    });
  },
};

/** Requests in flight per message: a burst of pushes loads the timeline at most twice. */
const loading = new Map<number, { again: boolean }>();

async function refresh(id: number): Promise<void> {
  const running = loading.get(id);
  if (running) {
    running.again = true;
    return;
  }
  const entry = { again: false };
  loading.set(id, entry);
  try {
    do {
      entry.again = false;
      const r = await call((api) => api.messages.get({ id }));
      if (r.ok) sessionCalls.update(r.value.message, r.value.events);
    } while (entry.again);
  } finally {
    loading.delete(id);
  }
}

export function useSessionCalls(): SessionState {
  return useSyncExternalStore(subscribe, sessionCalls.get, sessionCalls.get);
}

/**
 * Follows this session's calls while the screen is shown: applies main's pushes at once and
 * reloads the timeline of the message that changed. On (re)mount, every call is reloaded, so
 * changes missed while another screen was shown appear too.
 */
export function useLiveCalls(onEnded: (message: MessageRecord) => void): void {
  useEffect(() => {
    for (const c of state.calls) void refresh(c.message.id);
    const api = calloutApi();
    if (!api) return;
    const unsubscribe = api.on.messageUpdated((message) => {
      if (!sessionCalls.has(message.id)) return;
      const before = state.calls.find((c) => c.message.id === message.id)?.message;
      sessionCalls.update(message);
      void refresh(message.id);
      if (before && before.endedAt === null && message.endedAt !== null) onEnded(message);
    });
    return unsubscribe;
  }, [onEnded]);
}
