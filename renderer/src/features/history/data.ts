// What the History screen asks main besides its message lists (use-history-list.ts): the overview,
// exchanges to compare, collection runs, the CSV export and the store's size and retention. A
// failure is the query's or mutation's error (main's, or `internal`).
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InputOf, OutputOf } from '../../../../common/contract';
import type { RetentionSettings } from '../../../../common/history-types';
import type { IpcError } from '../../app/api';
import { ask } from '../../app/query';
import { exchangeKeys, historyKeys } from './history-push';

/** The keys of collection runs (the workbench starts them, History lists them). */
export const runKeys = { all: ['runs'] as const, list: () => [...runKeys.all, 'list'] as const, detail: (id: number | null) => [...runKeys.all, 'detail', id] as const };
export const storeKeys = { status: ['store', 'status'] as const };

/** Calls and failures per day (the last figures stay while another range or profile loads). */
export function useOverview(input: InputOf<'history.overview'>) {
  return useQuery({ queryKey: historyKeys.overview(input), queryFn: () => ask((api) => api.history.overview(input)), placeholderData: keepPreviousData });
}

/** Two exchanges, to compare them. */
export function useExchangePair(ids: [number, number] | null) {
  return useQueries({
    queries: (ids ?? [0, 0]).map((id) => ({ queryKey: exchangeKeys.detail(id), queryFn: () => ask((api) => api.exchanges.get({ id })), enabled: ids !== null })),
  });
}

/** The runs of collections, and the one opened. */
export function useRuns(open: number | null) {
  const runs = useQuery({ queryKey: runKeys.list(), queryFn: () => ask((api) => api.runs.list({ limit: 200 })) });
  const run = useQuery({ queryKey: runKeys.detail(open), queryFn: () => ask((api) => api.runs.get({ id: open! })), enabled: open !== null });
  return { runs, run };
}

/** The messages matching a filter, as CSV. */
export function useExportHistoryCsv(input: () => InputOf<'history.exportCsv'>, done: (csv: OutputOf<'history.exportCsv'>) => void, failed: (e: IpcError) => void) {
  return useMutation({ mutationFn: () => ask((api) => api.history.exportCsv(input())), onSuccess: done, onError: failed });
}

/** The store's size and retention (read while its drawer is open), and what changes them. */
export function useStore(open: boolean, failed: (e: IpcError) => void, saved: () => void) {
  const client = useQueryClient();
  const status = useQuery({ queryKey: storeKeys.status, queryFn: () => ask((api) => api.store.status()), enabled: open });
  const reload = () => client.invalidateQueries({ queryKey: storeKeys.status });
  const save = useMutation({
    mutationFn: (retention: RetentionSettings) => ask((api) => api.store.setRetention(retention)),
    onSuccess: () => {
      saved();
      return reload();
    },
    onError: failed,
  });
  const apply = useMutation({ mutationFn: () => ask((api) => api.store.applyRetention()), onSuccess: reload, onError: failed });
  const vacuum = useMutation({ mutationFn: () => ask((api) => api.store.vacuum()), onError: failed });
  return { status, save, apply, vacuum };
}
