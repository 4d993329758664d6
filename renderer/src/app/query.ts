// The renderer's data layer: one TanStack Query client for everything read from main, cached under
// a key per channel (and its input), loaded again when main pushes a change (live-updates.ts) or a
// screen changes the data; and the queries several screens share.
import { QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { AppInfo } from '../../../common/contract';
import { call, type CalloutApi, type IpcError, type IpcResult } from './api';

declare module '@tanstack/react-query' {
  interface Register {
    /** A query or mutation that fails holds main's error (or the `internal` one of a lost bridge). */
    defaultError: IpcError;
  }
}

export const queryClient = new QueryClient({
  defaultOptions: {
    // Main is on this machine: its answers do not depend on the network, and a failure is not
    // worth repeating by itself (a person retries). Data is loaded again when a screen opens, and
    // when main says it changed.
    queries: { networkMode: 'always', retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
    mutations: { networkMode: 'always' },
  },
});

/** One call as a query function: its value, or main's error thrown (the query's error). */
export async function ask<T>(run: (api: CalloutApi) => Promise<IpcResult<T>>): Promise<T> {
  const result = await call(run);
  if (!result.ok) throw result.error;
  return result.value;
}

export const appInfoQuery = queryOptions({ queryKey: ['app.info'], queryFn: () => ask((api) => api.app.info()) });

/** Profiles, built-in first, then by name. */
export const profilesQuery = queryOptions({ queryKey: ['profiles.list'], queryFn: () => ask((api) => api.profiles.list()) });

export const templatesQuery = queryOptions({ queryKey: ['templates.list'], queryFn: () => ask((api) => api.templates.list()) });

/** The numbers called most recently and the values last used per template. */
export const recentsQuery = queryOptions({ queryKey: ['messages.recents'], queryFn: () => ask((api) => api.messages.recents()) });

/** One message with its timeline and exchanges. */
export const messageQuery = (id: number) => queryOptions({ queryKey: ['messages.get', id], queryFn: () => ask((api) => api.messages.get({ id })) });

/** A profile's balance: a harmless balance query to the provider (no call, no cost). */
export const balanceQuery = (profileId: string) => queryOptions({ queryKey: ['balance.query', profileId], queryFn: () => ask((api) => api.balance.query({ profileId })) });

/** Version, data directory, where keys are kept: loaded once and shared by every screen. */
export function useAppInfo(): AppInfo | null {
  return useQuery({ ...appInfoQuery, staleTime: Infinity }).data ?? null;
}

/** A list with `item` in place of the entry with its id (or added at the end). */
export function upsertById<T extends { id: unknown }>(list: T[] | undefined, item: T): T[] | undefined {
  if (!list) return list;
  return list.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? item : x)) : [...list, item];
}
