// The Bulk screen's query keys and what main pushes for them (a batch's progress): small, so that
// main.tsx follows main without loading the Bulk screen's data module.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { InputOf } from '../../../../common/contract';
import type { BatchProgress, MappingSpec } from '../../../../common/bulk-types';
import { ask, type LiveUpdates } from '../../app/query';

/** The keys of the Bulk screen's data. */
export const bulkKeys = {
  all: ['bulk'] as const,
  list: () => [...bulkKeys.all, 'list'] as const,
  batch: (batchId: number) => [...bulkKeys.all, 'batch', batchId] as const,
  progress: (batchId: number) => [...bulkKeys.batch(batchId), 'progress'] as const,
  /** A batch's items (any status and page). */
  items: (batchId: number) => [...bulkKeys.batch(batchId), 'items'] as const,
  itemsPage: (input: InputOf<'bulk.items'>) => [...bulkKeys.items(input.batchId), input] as const,
  unknown: (batchId: number) => [...bulkKeys.batch(batchId), 'unknown'] as const,
  /** A page of an import's problems; the mapping is part of the key: another mapping (same import) finds other problems. */
  issues: (input: InputOf<'bulk.issues'>, mapping: MappingSpec) => [...bulkKeys.all, 'issues', input, mapping] as const,
};
/** Past batches, newest first. */
export const batchesQuery = queryOptions({ queryKey: bulkKeys.list(), queryFn: () => ask((api) => api.bulk.list({ limit: 200 })) });

export const progressQuery = (batchId: number) =>
  queryOptions({ queryKey: bulkKeys.progress(batchId), queryFn: () => ask((api) => api.bulk.progress({ batchId })) });

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
  void client.invalidateQueries({ queryKey: bulkKeys.items(p.batchId) });
  if (before?.unknown !== p.unknown) void client.invalidateQueries({ queryKey: bulkKeys.unknown(p.batchId) });
  const listed = client.getQueryData(batchesQuery.queryKey)?.find((b) => b.id === p.batchId);
  if (listed?.status !== p.status) void client.invalidateQueries({ queryKey: batchesQuery.queryKey });
}

/** Main pushes a batch's progress (main:bulk-progress) while it runs. */
export const bulkLiveUpdates: LiveUpdates = (on, client) => {
  on.bulkProgress((p) => applyBulkProgress(client, p));
};
