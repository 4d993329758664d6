// What the workbench asks main: collections (listed, read, saved, imported, exported, removed, run),
// environments, a request's preview, a pasted request read, code to copy (main puts the one with the
// key on the clipboard itself), a request sent, and a run's exchange. A failure is the query's or
// mutation's error (main's, or `internal`); a send is never retried.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CodeTarget, EnvironmentView, InputOf, OutputOf } from '../../../../common/contract';
import type { ExchangeRecord } from '../../../../common/records';
import type { IpcError } from '../../app/api';
import { ask } from '../../app/query';
import { runKeys } from '../history/data';
import { exchangeKeys } from '../history/history-push';

/** The keys of the workbench's data. */
export const workbenchKeys = {
  collections: ['collections'] as const,
  collectionList: () => [...workbenchKeys.collections, 'list'] as const,
  collection: (id: number) => [...workbenchKeys.collections, 'detail', id] as const,
  environments: ['environments'] as const,
  environmentList: () => [...workbenchKeys.environments, 'list'] as const,
  preview: (input: InputOf<'raw.preview'> | null) => ['raw', 'preview', input] as const,
};

export const collectionsQuery = queryOptions({ queryKey: workbenchKeys.collectionList(), queryFn: () => ask((api) => api.collections.list()) });
export const environmentsQuery = queryOptions({ queryKey: workbenchKeys.environmentList(), queryFn: () => ask((api) => api.environments.list()) });
export const collectionQuery = (id: number) =>
  queryOptions({ queryKey: workbenchKeys.collection(id), queryFn: () => ask((api) => api.collections.get({ id })) });

export const useCollections = () => useQuery(collectionsQuery);
export const useEnvironments = () => useQuery(environmentsQuery);
export const useCollection = (id: number) => useQuery(collectionQuery(id));

/** Every list and every opened collection is loaded again. */
function collectionsChanged(client: ReturnType<typeof useQueryClient>) {
  void client.invalidateQueries({ queryKey: workbenchKeys.collections });
}

/** A collection read afresh (to edit it). */
export function useLoadCollection(): (id: number) => Promise<OutputOf<'collections.get'>> {
  const client = useQueryClient();
  return (id) => client.fetchQuery(collectionQuery(id));
}

/** Saves a collection's name and variables. */
export function useSaveCollection(saved: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<'collections.save'>) => ask((api) => api.collections.save(input)),
    onSuccess: (c) => {
      client.setQueryData(collectionQuery(c.id).queryKey, c);
      void client.invalidateQueries({ queryKey: workbenchKeys.collectionList() });
      saved();
    },
  });
}

/** Saves a request in a collection (a new collection of `newCollection`'s name when none is chosen). */
export function useSaveRequest(saved: (r: OutputOf<'collections.saveRequest'>) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({
      collectionId,
      newCollection,
      ...request
    }: Omit<InputOf<'collections.saveRequest'>, 'collectionId'> & { collectionId: number | null; newCollection: string }) => {
      const id = collectionId ?? (await ask((api) => api.collections.save({ name: newCollection }))).id;
      return ask((api) => api.collections.saveRequest({ collectionId: id, ...request }));
    },
    onSuccess: (r) => {
      collectionsChanged(client);
      saved(r);
    },
  });
}

/** Imports a collection file, exports one, removes one or one of its requests. */
export function useCollectionFiles(
  imported: (r: OutputOf<'collections.import'>) => void,
  exported: (f: OutputOf<'collections.export'>) => void,
  failed: (e: IpcError) => void,
) {
  const client = useQueryClient();
  const refresh = () => collectionsChanged(client);
  const importing = useMutation({
    mutationFn: (text: string) => ask((api) => api.collections.import({ text })),
    onSuccess: (r) => {
      refresh();
      imported(r);
    },
    onError: failed,
  });
  const exporting = useMutation({ mutationFn: (id: number) => ask((api) => api.collections.export({ id })), onSuccess: exported, onError: failed });
  const removing = useMutation({ mutationFn: (id: number) => ask((api) => api.collections.remove({ id })), onSuccess: refresh });
  const removeRequest = useMutation({ mutationFn: (id: number) => ask((api) => api.collections.removeRequest({ id })), onSuccess: refresh });
  return { importing, exporting, removing, removeRequest };
}

/** Runs a collection (its requests are sent, once); History's runs and exchanges are loaded again. */
export function useRunCollection(done: (run: OutputOf<'collections.run'>) => void, failed: (e: IpcError) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<'collections.run'>) => ask((api) => api.collections.run(input)),
    onSuccess: (r) => {
      done(r);
      void client.invalidateQueries({ queryKey: runKeys.all });
      void client.invalidateQueries({ queryKey: exchangeKeys.all });
    },
    onError: failed,
    retry: false,
  });
}

/** Saves or removes an environment (`profileId` when it names none). */
export function useEnvironmentChanges(defaultProfileId: () => string, saved: () => void) {
  const client = useQueryClient();
  const reload = () => void client.invalidateQueries({ queryKey: workbenchKeys.environmentList() });
  const save = useMutation({
    mutationFn: (e: Partial<EnvironmentView>) =>
      ask((api) =>
        api.environments.save({
          id: e.id,
          name: (e.name ?? '').trim(),
          profileId: e.profileId ?? defaultProfileId(),
          variables: (e.variables ?? []).filter((v) => v.name.trim()),
        }),
      ),
    onSuccess: () => {
      reload();
      saved();
    },
  });
  const remove = useMutation({ mutationFn: (id: number) => ask((api) => api.environments.remove({ id })), onSuccess: reload });
  return { save, remove };
}

/** Exactly what would be sent now (null: nothing to preview). */
export function useRawPreview(input: InputOf<'raw.preview'> | null) {
  return useQuery({
    queryKey: workbenchKeys.preview(input),
    queryFn: () => ask((api) => api.raw.preview(input!)),
    enabled: input !== null,
    placeholderData: keepPreviousData,
    gcTime: 0,
  });
}

/** Reads a pasted cURL command or raw HTTP as a request. */
export function useReadRawImport(read: (r: OutputOf<'raw.import'>) => void) {
  return useMutation({ mutationFn: (input: InputOf<'raw.import'>) => ask((api) => api.raw.import(input)), onSuccess: read });
}

/** The request as code (redacted), and the same with the real key put on the clipboard by main (the key never comes here). */
export function useCopyCode(
  input: Omit<InputOf<'raw.code'>, 'target'> | null,
  copied: (c: OutputOf<'raw.code'>) => void,
  keyCopied: () => void,
  failed: (e: IpcError) => void,
) {
  const copy = useMutation({ mutationFn: (target: CodeTarget) => ask((api) => api.raw.code({ ...input!, target })), onSuccess: copied, onError: failed });
  const withKey = useMutation({
    mutationFn: (target: CodeTarget) => ask((api) => api.raw.copyCodeWithKey({ ...input!, target, confirm: true })),
    onSuccess: keyCopied,
    onError: failed,
  });
  return { copy, withKey };
}

/** Sends the raw request (once: never retried); History's exchanges are loaded again. */
export function useRawSend(sent: (r: OutputOf<'raw.send'>) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<'raw.send'>) => ask((api) => api.raw.send(input)),
    onSuccess: (r) => {
      sent(r);
      void client.invalidateQueries({ queryKey: exchangeKeys.all });
    },
    retry: false,
  });
}

/** One exchange, to open in the inspector. */
export function useOpenExchange(opened: (e: ExchangeRecord) => void) {
  return useMutation({ mutationFn: (id: number) => ask((api) => api.exchanges.get({ id })), onSuccess: opened });
}
