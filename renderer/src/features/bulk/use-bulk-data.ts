// What the Bulk send screen loads from main: profiles, templates and the past batches; and the live
// progress of one batch (pushed by main on main:bulk-progress, fetched once when opened).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ProfileView, TemplateView } from '../../../../common/contract';
import type { BatchProgress, BatchRecord } from '../../../../common/bulk-types';
import { call, calloutApi, type IpcError } from '../../app/api';

export interface BulkData {
  profiles: ProfileView[];
  templates: TemplateView[];
}

export function useBulkData(): { data: BulkData | null; loading: boolean; error: IpcError | null; reload: () => void } {
  const [data, setData] = useState<BulkData | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<IpcError | null>(null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    void Promise.all([call((api) => api.profiles.list()), call((api) => api.templates.list())]).then(([profiles, templates]) => {
      if (!live) return;
      setLoading(false);
      if (!profiles.ok) return setError(profiles.error);
      if (!templates.ok) return setError(templates.error);
      setError(null);
      setData({ profiles: profiles.value, templates: templates.value });
    });
    return () => {
      live = false;
    };
  }, [generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { data, loading, error, reload };
}

/** Past batches, newest first; reloaded when a batch changes status (pushed progress). */
export function useBatches(): { batches: BatchRecord[] | null; error: IpcError | null; reload: () => void } {
  const [batches, setBatches] = useState<BatchRecord[] | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const [generation, setGeneration] = useState(0);
  const statuses = useRef(new Map<number, string>());
  useEffect(() => {
    let live = true;
    void call((api) => api.bulk.list({ limit: 200 })).then((r) => {
      if (!live) return;
      if (r.ok) {
        setBatches(r.value);
        setError(null);
        statuses.current = new Map(r.value.map((b) => [b.id, b.status]));
      } else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  useEffect(() => {
    const api = calloutApi();
    if (!api) return;
    return api.on.bulkProgress((p) => {
      if (statuses.current.get(p.batchId) !== p.status) {
        statuses.current.set(p.batchId, p.status);
        reload();
      }
    });
  }, [reload]);
  return { batches, error, reload };
}

/** One batch's progress: fetched when opened, then every push for it. A stale push never replaces a newer one. */
export function useBatchProgress(batchId: number | null): { progress: BatchProgress | null; error: IpcError | null; set: (p: BatchProgress) => void; refetch: () => void } {
  const [progress, setProgress] = useState<BatchProgress | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  const current = useRef(batchId);
  const set = useCallback((p: BatchProgress) => {
    if (p.batchId !== current.current) return;
    setProgress((old) => (old && old.batchId === p.batchId && old.at > p.at ? old : p));
  }, []);
  const refetch = useCallback(() => {
    if (batchId === null) return;
    void call((api) => api.bulk.progress({ batchId })).then((r) => {
      if (r.ok) set(r.value);
      else if (current.current === batchId) setError(r.error);
    });
  }, [batchId, set]);
  useEffect(() => {
    current.current = batchId;
    setProgress(null);
    setError(null);
    refetch();
    const api = calloutApi();
    if (!api || batchId === null) return;
    return api.on.bulkProgress(set);
  }, [batchId, refetch, set]);
  return { progress, error, set, refetch };
}
