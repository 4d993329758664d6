// The template list, loaded from main. Anything that changes templates elsewhere (the onboarding
// guide adding the demo templates, an import) calls notifyTemplatesChanged(), and every screen
// showing the list loads it again.
import { useCallback, useEffect, useState } from 'react';
import type { TemplateView } from '../../../../common/contract';
import { call, type IpcError } from '../../app/api';

const listeners = new Set<() => void>();

/** Tells every mounted template list to load again. */
export function notifyTemplatesChanged(): void {
  for (const listener of [...listeners]) listener();
}

/** Subscribes to template changes; returns the unsubscribe function. */
export function onTemplatesChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export interface TemplatesState {
  templates: TemplateView[] | null;
  loading: boolean;
  error: IpcError | null;
  reload: () => void;
  upsert: (template: TemplateView) => void;
  drop: (id: string) => void;
}

export function useTemplates(): TemplatesState {
  const [templates, setTemplates] = useState<TemplateView[] | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<IpcError | null>(null);
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);

  useEffect(() => onTemplatesChanged(reload), [reload]);

  useEffect(() => {
    let live = true;
    setLoading(true);
    void call((api) => api.templates.list()).then((r) => {
      if (!live) return;
      setLoading(false);
      if (r.ok) {
        setTemplates(r.value);
        setError(null);
      } else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [generation]);

  const upsert = useCallback((template: TemplateView) => {
    setTemplates((list) => {
      const current = list ?? [];
      return current.some((t) => t.id === template.id) ? current.map((t) => (t.id === template.id ? template : t)) : [...current, template];
    });
  }, []);
  const drop = useCallback((id: string) => setTemplates((list) => (list ?? []).filter((t) => t.id !== id)), []);
  return { templates, loading, error, reload, upsert, drop };
}
