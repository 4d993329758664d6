// What the Bulk send screen reads from main: profiles, templates, the past batches, and each batch's
// progress, items and unknown items. Main pushes a batch's progress (main:bulk-progress): live-updates
// hands it to applyBulkProgress, which puts it in the cache and has the rest of that batch loaded again.
import { useMemo } from 'react';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { ProfileView, TemplateView } from '../../../../common/contract';
import type { BatchProgress } from '../../../../common/bulk-types';
import type { IpcError } from '../../app/api';
import { ask, profilesQuery, templatesQuery, type LiveUpdates } from '../../app/query';

export interface BulkData {
  profiles: ProfileView[];
  templates: TemplateView[];
}

export function useBulkData(): { data: BulkData | null; loading: boolean; error: IpcError | null; reload: () => void } {
  const profiles = useQuery(profilesQuery);
  const templates = useQuery(templatesQuery);
  const data = useMemo(() => (profiles.data && templates.data ? { profiles: profiles.data, templates: templates.data } : null), [profiles.data, templates.data]);
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

/** Past batches, newest first. */
export const batchesQuery = queryOptions({ queryKey: ['bulk.list'], queryFn: () => ask((api) => api.bulk.list({ limit: 200 })) });

export const progressQuery = (batchId: number) => queryOptions({ queryKey: ['bulk.progress', batchId], queryFn: () => ask((api) => api.bulk.progress({ batchId })) });

/** Keys of a batch's items (any status and page) and of its unknown items. */
export const itemsKey = (batchId: number) => ['bulk.items', batchId] as const;
export const unknownKey = (batchId: number) => ['bulk.unknown', batchId] as const;

/**
 * A batch's progress, pushed by main or returned by an action: kept unless an older one (pushes and
 * answers may cross); its items are loaded again, its unknown items when their number changed, and
 * the list of batches when its status changed.
 */
export function applyBulkProgress(client: QueryClient, p: BatchProgress): void {
  const key = progressQuery(p.batchId).queryKey;
  const before = client.getQueryData(key);
  if (before && before.at > p.at) return;
  client.setQueryData(key, p);
  void client.invalidateQueries({ queryKey: itemsKey(p.batchId) });
  if (before?.unknown !== p.unknown) void client.invalidateQueries({ queryKey: unknownKey(p.batchId) });
  const listed = client.getQueryData(batchesQuery.queryKey)?.find((b) => b.id === p.batchId);
  if (listed?.status !== p.status) void client.invalidateQueries({ queryKey: batchesQuery.queryKey });
}

/** Main pushes a batch's progress (main:bulk-progress) while it runs. */
export const bulkLiveUpdates: LiveUpdates = (on, client) => {
  on.bulkProgress((p) => applyBulkProgress(client, p));
};
