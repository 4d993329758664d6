// What the History screen asks main besides its message lists (use-history-list.ts): the overview,
// exchanges (listed, compared, copied, exported, replayed), a message's status asked again or the
// message sent again, the capture proxy, collection runs, the CSV export and the store's size and
// retention. A failure is the query's or mutation's error (main's, or `internal`).
import { keepPreviousData, queryOptions, useInfiniteQuery, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CodeTarget, InputOf, OutputOf } from '../../../../common/contract';
import type { ExchangeQuery, RetentionSettings } from '../../../../common/history-types';
import type { IpcError } from '../../app/api';
import { ask } from '../../app/query';
import { captureKeys, exchangeKeys, historyKeys } from './history-push';

/** The keys of collection runs (the workbench starts them, History lists them). */
export const runKeys = {
  all: ['runs'] as const,
  list: () => [...runKeys.all, 'list'] as const,
  detail: (id: number | null) => [...runKeys.all, 'detail', id] as const,
};
export const storeKeys = {
  all: ['store'] as const,
  status: ['store', 'status'] as const,
  preview: (settings: RetentionSettings) => ['store', 'preview', settings] as const,
  archives: ['store', 'archives'] as const,
  archivePlan: (before: string, utcOffsetMinutes: number) => ['store', 'archivePlan', before, utcOffsetMinutes] as const,
};

/** `archive` when set: the exchange is read from that archive file. */
const from = (archive: string | undefined) => (archive === undefined ? {} : { archive });

/** Calls and failures per day (the last figures stay while another range or profile loads). */
export function useOverview(input: InputOf<'history.overview'>) {
  return useQuery({ queryKey: historyKeys.overview(input), queryFn: () => ask((api) => api.history.overview(input)), placeholderData: keepPreviousData });
}

/** Two exchanges, to compare them. */
export function useExchangePair(ids: [number, number] | null, archive?: string) {
  return useQueries({
    queries: (ids ?? [0, 0]).map((id) => ({
      queryKey: exchangeKeys.detail(id, archive),
      queryFn: () => ask((api) => api.exchanges.get({ id, ...from(archive) })),
      enabled: ids !== null,
    })),
  });
}

/** The runs of collections, and the one opened. */
export function useRuns(open: number | null) {
  const runs = useQuery({ queryKey: runKeys.list(), queryFn: () => ask((api) => api.runs.list({ limit: 200 })) });
  const run = useQuery({ queryKey: runKeys.detail(open), queryFn: () => ask((api) => api.runs.get({ id: open! })), enabled: open !== null });
  return { runs, run };
}

/** The messages matching a filter, as CSV. */
export function useExportHistoryCsv(
  input: () => InputOf<'history.exportCsv'>,
  done: (csv: OutputOf<'history.exportCsv'>) => void,
  failed: (e: IpcError) => void,
) {
  return useMutation({ mutationFn: () => ask((api) => api.history.exportCsv(input())), onSuccess: done, onError: failed });
}

/** The store's size and retention (read while its drawer is open), and what changes them. */
export function useStore(open: boolean, failed: (e: IpcError) => void, saved: () => void) {
  const client = useQueryClient();
  const status = useQuery({
    queryKey: storeKeys.status,
    queryFn: () => ask((api) => api.store.status()),
    enabled: open,
    // While older exchanges are being packed, their progress is read again every few seconds (each
    // read sums the exchanges' sizes from an index: about a second at ten million).
    // An archive being made says how far it is every second.
    refetchInterval: (query) => (query.state.data?.archive.running ? 1000 : query.state.data?.packing ? 3000 : false),
  });
  // The usage and any preview change with what is stored.
  const reload = () => client.invalidateQueries({ queryKey: storeKeys.all });
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
  const archive = useMutation({
    mutationFn: (input: { before: string; utcOffsetMinutes: number }) => ask((api) => api.store.archive({ ...input, confirm: true })),
    onSuccess: reload,
    onError: failed,
  });
  return { status, save, apply, vacuum, archive };
}

/** The archive files (read again when an archive ends). */
export function useArchives(enabled: boolean) {
  return useQuery({ queryKey: storeKeys.archives, queryFn: () => ask((api) => api.store.archives()), enabled });
}

/** What archiving the months before `before` would move; the last answer stays while the next loads. */
export function useArchivePlan(enabled: boolean, before: string, utcOffsetMinutes: number) {
  return useQuery({
    queryKey: storeKeys.archivePlan(before, utcOffsetMinutes),
    queryFn: () => ask((api) => api.store.previewArchive({ before, utcOffsetMinutes })),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** What retention settings (as typed, not yet saved) would delete now and leave; the last answer stays while the next loads. */
export function useRetentionPreview(open: boolean, settings: RetentionSettings) {
  return useQuery({
    queryKey: storeKeys.preview(settings),
    queryFn: () => ask((api) => api.store.previewRetention(settings)),
    enabled: open,
    placeholderData: keepPreviousData,
  });
}

/** The keys of the built-in Sandbox's demo account (offered to copy while capturing with it). */
export const sandboxAccountKeys = { demo: ['sandbox', 'demoAccount'] as const };

/** Exchanges matching a filter, newest first, a page of `limit` at a time (as loaded, until reloaded). */
export function useExchangeList(filter: ExchangeQuery, limit: number) {
  return useInfiniteQuery({
    queryKey: exchangeKeys.list(filter),
    queryFn: ({ pageParam }) => ask((api) => api.exchanges.list({ ...filter, limit, cursor: pageParam, order: 'newest' })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // As loaded, until "Reload": loading it again would fetch every page.
    staleTime: Infinity,
    gcTime: 0,
  });
}

/** An exchange's request, to open in the raw client. */
export function useReplayRequest(id: number, archive: string | undefined, done: (r: OutputOf<'raw.fromExchange'>) => void, failed: (e: IpcError) => void) {
  return useMutation({ mutationFn: () => ask((api) => api.raw.fromExchange({ id, ...from(archive) })), onSuccess: done, onError: failed });
}

/** Exchanges as a HAR file. */
export function useExportHar(ids: number[], archive: string | undefined, done: (har: OutputOf<'exchanges.exportHar'>) => void, failed: (e: IpcError) => void) {
  return useMutation({ mutationFn: () => ask((api) => api.exchanges.exportHar({ ids, ...from(archive) })), onSuccess: done, onError: failed });
}

/** An exchange as code (redacted), and the same with the real key put on the clipboard by main (the key never comes here). */
export function useCopyExchange(
  id: number,
  archive: string | undefined,
  target: CodeTarget,
  copied: (curl: OutputOf<'exchanges.curl'>) => void,
  keyCopied: () => void,
  failed: (e: IpcError) => void,
) {
  const copy = useMutation({ mutationFn: () => ask((api) => api.exchanges.curl({ id, target, ...from(archive) })), onSuccess: copied, onError: failed });
  const copyKey = useMutation({
    mutationFn: () => ask((api) => api.exchanges.copyCurlWithKey({ id, target, confirm: true, ...from(archive) })),
    onSuccess: keyCopied,
    onError: failed,
  });
  return { copy, copyKey };
}

/** Asks the provider a message's status again (then the message is read again, failed or not). */
export function useRefreshStatus(failed: (e: IpcError) => void, settled: () => void) {
  return useMutation({ mutationFn: (id: number) => ask((api) => api.messages.refreshStatus({ id })), onError: failed, onSettled: settled });
}

/** Sends a message again, once the person confirmed: a new real call, never retried. */
export function useSendAgain() {
  return useMutation({ mutationFn: (id: number) => ask((api) => api.messages.sendAgain({ id, confirm: true })), retry: false });
}

/** Whether the capture proxy runs (kept current by the captureUpdated push, history-push.ts). */
export const captureStatusQuery = queryOptions({ queryKey: captureKeys.status, queryFn: () => ask((api) => api.capture.status()) });

export function useCaptureStatus() {
  return useQuery(captureStatusQuery);
}

/** Starts the capture proxy (with `start`'s settings) or stops it; its new state is cached at once. */
export function useCaptureSwitch(start: () => InputOf<'capture.start'>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (on: boolean) => (on ? ask((api) => api.capture.start(start())) : ask((api) => api.capture.stop())),
    onSuccess: (s) => client.setQueryData(captureStatusQuery.queryKey, s),
  });
}

/** The built-in Sandbox's demo account. */
export function useSandboxDemoAccount() {
  return useQuery({ queryKey: sandboxAccountKeys.demo, queryFn: () => ask((api) => api.sandbox.demoAccount()) });
}
