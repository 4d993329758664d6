// The template library's data: the shared cached list, and what changes it (save, remove, import,
// the demo templates). Anything that changes templates elsewhere (the onboarding guide adding the
// demo templates, an import) calls templatesChanged(), and every screen showing the list loads it
// again. A failed change is the mutation's error (main's, or `internal`).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type { InputOf, TemplateView } from '../../../../common/contract';
import type { IpcError } from '../../app/api';
import { ask, templatesQuery, upsertById } from '../../app/query';
import { addDemoTemplates } from './demo-templates';
import { derivedName } from './template-rules';
import type { PlannedRow } from './template-io';

import { templatesChanged } from './templates-changed';

export { templatesChanged };

/** Saves a template (new or changed); the list shows it. */
export function useSaveTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<'templates.save'>) => ask((api) => api.templates.save(input)),
    onSuccess: (saved) => client.setQueryData(templatesQuery.queryKey, (list) => upsertById(list, saved)),
  });
}

/** Removes a template; the list drops it (or, when main refused, is loaded again). */
export function useRemoveTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (template: TemplateView) => ask((api) => api.templates.remove({ id: template.id })),
    onSuccess: (_, template) => client.setQueryData(templatesQuery.queryKey, (list) => list?.filter((x) => x.id !== template.id)),
    onError: () => templatesChanged(),
  });
}

/** Adds the demo templates not in the library yet. */
export function useAddDemoTemplates(t: TFunction) {
  return useMutation({ mutationFn: () => addDemoTemplates(t) });
}

/** What an import saved, and each row that was not with main's reason. */
export interface ImportOutcome {
  saved: number;
  failures: { row: PlannedRow; error: IpcError }[];
}

/** Saves the rows to save; a row main refuses is reported with its reason, the others are saved. */
async function saveRows(rows: readonly PlannedRow[]): Promise<ImportOutcome> {
  const failures: ImportOutcome['failures'] = [];
  let saved = 0;
  // templates.import has no labels: rows with labels (a Callout export) are saved one by one.
  const plain = rows.filter((r) => !r.markerNames?.some(Boolean));
  const labelled = rows.filter((r) => r.markerNames?.some(Boolean));
  if (plain.length) {
    try {
      const result = await ask((api) =>
        api.templates.import({
          templates: plain.map((r) => ({
            ...(r.id ? { id: r.id } : {}),
            ...(r.name ? { name: r.name } : r.action === 'new' ? { name: derivedName(r.content) } : {}),
            content: r.content,
            ...(r.approved !== undefined ? { approved: r.approved } : {}),
          })),
        }),
      );
      saved += result.saved;
      for (const e of result.errors) {
        const row = plain[e.index];
        if (row) failures.push({ row, error: e.error });
      }
    } catch (error) {
      for (const row of plain) failures.push({ row, error: error as IpcError });
    }
  }
  for (const row of labelled) {
    try {
      await ask((api) =>
        api.templates.save({
          ...(row.id ? { id: row.id } : {}),
          ...(row.name ? { name: row.name } : row.action === 'new' ? { name: derivedName(row.content) } : {}),
          content: row.content,
          ...(row.approved !== undefined ? { approved: row.approved } : {}),
          markerNames: row.markerNames,
        }),
      );
      saved++;
    } catch (error) {
      failures.push({ row, error: error as IpcError });
    }
  }
  if (saved) templatesChanged();
  return { saved, failures };
}

/** Imports planned rows (templates.import, and templates.save for rows with labels). */
export function useImportTemplates() {
  return useMutation({ mutationFn: saveRows });
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
