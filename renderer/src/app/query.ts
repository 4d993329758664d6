// The renderer's data layer: one TanStack Query client for everything read from main, cached under
// a key per channel (and its input), loaded again when main pushes a change (live-updates.ts) or a
// screen changes the data; and the queries several screens share.
import { useEffect } from 'react';
import { QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import type { AppInfo, InputOf } from '../../../common/contract';
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

/**
 * The keys of the data several features share. Each feature keeps the keys of its own data in its
 * data module (e.g. dialKeys, bulkKeys), as factories like these: a key is built only by its
 * factory, and invalidated by it (`client.invalidateQueries({ queryKey: profileKeys.all })`).
 */
export const appKeys = { info: ['app', 'info'] as const };
export const profileKeys = { all: ['profiles'] as const, list: () => [...profileKeys.all, 'list'] as const };
export const templateKeys = { all: ['templates'] as const, list: () => [...templateKeys.all, 'list'] as const };
export const messageKeys = {
  all: ['messages'] as const,
  recents: () => [...messageKeys.all, 'recents'] as const,
  details: () => [...messageKeys.all, 'detail'] as const,
  detail: (id: number) => [...messageKeys.details(), id] as const,
};
export const balanceKeys = { all: ['balance'] as const, of: (profileId: string) => [...balanceKeys.all, profileId] as const };

export const appInfoQuery = queryOptions({ queryKey: appKeys.info, queryFn: () => ask((api) => api.app.info()) });

/** Profiles, built-in first, then by name. */
export const profilesQuery = queryOptions({ queryKey: profileKeys.list(), queryFn: () => ask((api) => api.profiles.list()) });

export const templatesQuery = queryOptions({ queryKey: templateKeys.list(), queryFn: () => ask((api) => api.templates.list()) });

/** The numbers called most recently and the values last used per template. */
export const recentsQuery = queryOptions({ queryKey: messageKeys.recents(), queryFn: () => ask((api) => api.messages.recents()) });

/** One message with its timeline and exchanges. */
export const messageQuery = (id: number) => queryOptions({ queryKey: messageKeys.detail(id), queryFn: () => ask((api) => api.messages.get({ id })) });

/** A profile's balance: a harmless balance query to the provider (no call, no cost). */
export const balanceQuery = (profileId: string) =>
  queryOptions({ queryKey: balanceKeys.of(profileId), queryFn: () => ask((api) => api.balance.query({ profileId })) });

/**
 * How a feature follows main's push events: it subscribes on `on` and updates or invalidates its own
 * cached data, by its key factories. Each feature's data module exports one; the composition root
 * (main.tsx) hands them to followMain (app/live-updates.ts), which knows no feature.
 */
export type LiveUpdates = (on: CalloutApi['on'], client: QueryClient) => void;

/** Version, data directory, where keys are kept: loaded once and shared by every screen. */
export function useAppInfo(): AppInfo | null {
  return useQuery({ ...appInfoQuery, staleTime: Infinity }).data ?? null;
}

/** Tells main the UI's language (it speaks on its own: desktop notifications when a call ends); a failure changes nothing on screen. */
export function useLocaleForMain(locale: InputOf<'app.setLocale'>['locale']): void {
  useEffect(() => {
    void call((api) => api.app.setLocale({ locale }));
  }, [locale]);
}

/** A list with `item` in place of the entry with its id (or added at the end). */
export function upsertById<T extends { id: unknown }>(list: T[] | undefined, item: T): T[] | undefined {
  if (!list) return list;
  return list.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? item : x)) : [...list, item];
}
