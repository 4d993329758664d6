// The template library (the shared cached query). Anything that changes templates elsewhere (the
// onboarding guide adding the demo templates, an import) calls templatesChanged(), and every screen
// showing the list loads it again.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TemplateView } from '../../../../common/contract';
import type { IpcError } from '../../app/api';
import { queryClient, templatesQuery, upsertById } from '../../app/query';

/** Has every template list on screen loaded again. */
export function templatesChanged(): void {
  void queryClient.invalidateQueries({ queryKey: templatesQuery.queryKey });
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
  const client = useQueryClient();
  const { data, isPending, error, refetch } = useQuery(templatesQuery);
  return {
    templates: data ?? null,
    loading: isPending,
    error,
    reload: () => void refetch(),
    upsert: (template) => client.setQueryData(templatesQuery.queryKey, (list) => upsertById(list, template)),
    drop: (id) => client.setQueryData(templatesQuery.queryKey, (list) => list?.filter((x) => x.id !== id)),
  };
}
