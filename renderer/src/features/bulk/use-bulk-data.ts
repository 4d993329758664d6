// What the Bulk send screen asks main: profiles, templates, the past batches, and each batch's
// progress, items and unknown items; a file opened, mapped and checked, a batch created, started,
// paused, resumed, cancelled, exported or removed, unknown items sent again or skipped; a profile's
// lines. Main pushes a batch's progress (main:bulk-progress): bulkLiveUpdates (live.ts, with the
// keys) puts it in the cache and has the rest of that batch loaded again. A failure is the query's or mutation's error (main's,
// or `internal`); nothing here is retried (a start places real calls).
import { useEffect, useMemo } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ImportProgress, InputOf, OutputOf, ProfileLines, ProfileView, TemplateView } from '../../../../common/contract';
import type { DuplicatePolicy, ImportView, MappingSpec } from '../../../../common/bulk-types';
import { call, calloutApi, type IpcError } from '../../app/api';
import { ask, balanceQuery, profilesQuery, templatesQuery } from '../../app/query';
import { applyBulkProgress, bulkKeys } from './live';
import { fileToBase64 } from './bulk-model';

/** The keys of a profile's lines. */
export const linesKeys = { all: ['lines'] as const, of: (profileId: string) => [...linesKeys.all, profileId] as const };

export interface BulkData {
  profiles: ProfileView[];
  templates: TemplateView[];
}

export function useBulkData(): { data: BulkData | null; loading: boolean; error: IpcError | null; reload: () => void } {
  const profiles = useQuery(profilesQuery);
  const templates = useQuery(templatesQuery);
  const data = useMemo(
    () => (profiles.data && templates.data ? { profiles: profiles.data, templates: templates.data } : null),
    [profiles.data, templates.data],
  );
  return {
    data,
    loading: profiles.isPending || templates.isPending,
    error: profiles.error ?? templates.error,
    reload: () => {
      void profiles.refetch();
      void templates.refetch();
    },
  };
}

/** A profile's balance in units, asked again now; null when it cannot be known (the screens say so). */
export function useBalanceUnits(): (profileId: string) => Promise<number | null> {
  const client = useQueryClient();
  return (profileId) =>
    client.fetchQuery({ ...balanceQuery(profileId), staleTime: 0 }).then(
      (b) => b.units,
      () => null,
    );
}

/** The progress main's import worker pushes while it reads the file opened under `requestId`. */
export function useImportProgress(requestId: string | null, progressed: (p: ImportProgress) => void): void {
  useEffect(() => {
    if (!requestId) return;
    return calloutApi()?.on.importProgress((p) => {
      if (p.requestId === requestId) progressed(p);
    });
  }, [requestId]);
}

/** Stops reading a file (its open then fails with `import-cancelled`); nothing to say if it had finished. */
export function cancelImportRead(requestId: string): void {
  void call((api) => api.bulk.cancelOpen({ requestId }));
}

/** Lets main forget an open import (it holds the parsed file); nothing to say if it is gone already. */
export function discardImport(importId: string): void {
  void call((api) => api.bulk.discard({ importId }));
}

/** The error of a file the browser could not read from the disk (main was not asked). */
export const FILE_UNREADABLE: IpcError = { code: 'internal', params: {} };

/** Opens a file for a template: read here, then by main's import worker (its progress under the request's id, given to `reading`). */
export function useOpenImport(reading: (requestId: string | null) => void) {
  return useMutation({
    mutationFn: async ({ chosen, templateId, profileId }: { chosen: File; templateId: string; profileId?: string }): Promise<ImportView> => {
      const requestId = `import-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      reading(requestId);
      try {
        const base64 = await fileToBase64(chosen).catch(() => {
          throw FILE_UNREADABLE;
        });
        return await ask((api) => api.bulk.open({ templateId, file: { name: chosen.name, base64 }, requestId, ...(profileId ? { profileId } : {}) }));
      } finally {
        reading(null);
      }
    },
  });
}

/** An open import read again with another mapping. */
export function useRemapImport() {
  return useMutation({
    mutationFn: ({ importId, mapping }: { importId: string; mapping: MappingSpec }) => ask((api) => api.bulk.remap({ importId, mapping })),
  });
}

/** A page of an open import's problems. */
export function useImportIssues(input: InputOf<'bulk.issues'>, mapping: MappingSpec) {
  return useQuery({ queryKey: bulkKeys.issues(input, mapping), queryFn: () => ask((api) => api.bulk.issues(input)) });
}

/** Numbers of an import called with the very same text a short while ago; null when that cannot be known. */
export function recentlyCalled(importId: string) {
  return ask((api) => api.bulk.recentlyCalled({ importId })).catch(() => null);
}

/** Creates a batch from an open import (nothing is sent yet). */
export function useCreateBatch() {
  return useMutation({
    mutationFn: (input: { importId: string; profileId: string; duplicates: DuplicatePolicy; name?: string }) => ask((api) => api.bulk.create(input)),
    retry: false,
  });
}

/** Starts a batch just created (once: it places real calls). */
export function useStartBatch() {
  return useMutation({ mutationFn: (batchId: number) => ask((api) => api.bulk.start({ batchId })), retry: false });
}

type BatchAction = 'start' | 'pause' | 'resume' | 'cancel';

/** Starts, pauses, resumes or cancels a batch (once: a start places real calls); its new progress is cached. */
export function useBatchAction(batchId: number, failed: (e: IpcError) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: BatchAction) => ask((api) => api.bulk[action]({ batchId })),
    onSuccess: (p) => applyBulkProgress(client, p),
    onError: failed,
    retry: false,
  });
}

/** A batch's results as a sheet (CSV or Excel), in a language and local time. */
export function useExportBatch(
  input: () => Omit<InputOf<'bulk.export'>, 'format'>,
  done: (sheet: OutputOf<'bulk.export'>) => void,
  failed: (e: IpcError) => void,
) {
  return useMutation({ mutationFn: (format: 'csv' | 'xlsx') => ask((api) => api.bulk.export({ ...input(), format })), onSuccess: done, onError: failed });
}

/** Removes a finished batch. */
export function useRemoveBatch() {
  return useMutation({ mutationFn: (batchId: number) => ask((api) => api.bulk.remove({ batchId })) });
}

/** A page of a batch's items (the page shown stays until the next one is here). */
export function useBatchItems(input: InputOf<'bulk.items'>) {
  return useQuery({ queryKey: bulkKeys.itemsPage(input), queryFn: () => ask((api) => api.bulk.items(input)), placeholderData: keepPreviousData });
}

/** A batch's items whose outcome is unknown, and what a person decides for them (sent again after confirming, or skipped). */
export function useUnknownItems(batchId: number) {
  const client = useQueryClient();
  const items = useQuery({ queryKey: bulkKeys.unknown(batchId), queryFn: () => ask((api) => api.bulk.unknown({ batchId })) });
  const changed = () => {
    for (const queryKey of [bulkKeys.unknown(batchId), bulkKeys.items(batchId), bulkKeys.progress(batchId)]) void client.invalidateQueries({ queryKey });
  };
  const requeue = useMutation({
    mutationFn: (itemIds: number[]) => ask((api) => api.bulk.requeue({ batchId, itemIds, confirm: true })),
    onSuccess: changed,
    retry: false,
  });
  const skip = useMutation({ mutationFn: (itemIds: number[]) => ask((api) => api.bulk.skip({ batchId, itemIds })), onSuccess: changed });
  return { items, requeue, skip };
}

/** A profile's lines (read while shown), and what changes them (the saved settings are cached at once). */
type LinesChange = { id: string; lines?: number; lendLines?: boolean };

export function useProfileLines(profileId: string | null, done: (saved: ProfileLines, input: LinesChange) => void, failed: (e: IpcError) => void) {
  const client = useQueryClient();
  const read = useQuery({
    queryKey: linesKeys.of(profileId ?? ''),
    queryFn: () => ask((api) => api.profiles.lines({ id: profileId! })),
    enabled: profileId !== null,
  });
  const save = useMutation({
    mutationFn: (input: LinesChange) => ask((api) => api.profiles.setLines(input)),
    onSuccess: (saved: ProfileLines, input) => {
      client.setQueryData(linesKeys.of(input.id), saved);
      done(saved, input);
    },
    onError: failed,
  });
  return { read, save };
}
