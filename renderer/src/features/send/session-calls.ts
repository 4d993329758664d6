// The calls placed from this screen during this session, kept outside React so that they survive a
// visit to another screen. Each is followed live: its detail (the message and its event timeline) is
// a cached query that main's pushes update and load again (live-updates.ts).
import { useQueries } from '@tanstack/react-query';
import type { MessageEventRecord, MessageRecord } from '../../../../common/records';
import { messageQuery } from '../../app/query';
import { createStore, useStore } from '../../app/store';

export interface SessionCall {
  message: MessageRecord;
  /** The state timeline; null until it was first loaded. */
  events: MessageEventRecord[] | null;
}

interface SessionState {
  /** The messages as sent, newest first. */
  sent: MessageRecord[];
  selectedId: number | null;
}

/** How many of this session's calls the screen keeps. */
const KEEP = 20;

const session = createStore<SessionState>({ sent: [], selectedId: null });

export const sessionCalls = {
  /** A message this screen just sent: first in the list, and shown. */
  add(message: MessageRecord): void {
    session.set(({ sent }) => ({ sent: [message, ...sent.filter((m) => m.id !== message.id)].slice(0, KEEP), selectedId: message.id }));
  },
  select(id: number): void {
    session.set((state) => (state.sent.some((m) => m.id === id) ? { ...state, selectedId: id } : state));
  },
};

/** This session's calls as they are now (loaded again on each visit, so that changes missed meanwhile show too). */
export function useSessionCalls(): { calls: SessionCall[]; selectedId: number | null } {
  const { sent, selectedId } = useStore(session);
  const details = useQueries({ queries: sent.map((m) => messageQuery(m.id)) });
  const calls = sent.map((m, i): SessionCall => {
    const detail = details[i]?.data;
    return { message: detail?.message ?? m, events: detail?.events ?? null };
  });
  return { calls, selectedId };
}
