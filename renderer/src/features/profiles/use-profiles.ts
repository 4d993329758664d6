// The profiles' data: the profile list (the shared cached query), what changes a profile (save,
// remove, set or delete its key) and its balance check. A failed change is the mutation's error
// (main's, or `internal`); a changed profile is put into the list.
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { BalanceView, ProfileInput, ProfileView } from '../../../../common/contract';
import type { IpcError } from '../../app/api';
import { ask, profileKeys, profilesQuery, upsertById } from '../../app/query';

export interface ProfilesState {
  profiles: ProfileView[] | null;
  loading: boolean;
  error: IpcError | null;
  reload: () => void;
  /** Puts a profile main returned (after save, setKey, deleteKey) into the list. */
  upsert: (profile: ProfileView) => void;
  drop: (id: string) => void;
}

/** The profile list, loaded from main; built-in first, then by name. */
export function useProfiles(): ProfilesState {
  const client = useQueryClient();
  const { data, isPending, error, refetch } = useQuery(profilesQuery);
  return {
    profiles: data ?? null,
    loading: isPending,
    error,
    reload: () => void refetch(),
    upsert: (profile) => client.setQueryData(profilesQuery.queryKey, (list) => upsertById(list, profile)),
    drop: (id) => client.setQueryData(profilesQuery.queryKey, (list) => list?.filter((p) => p.id !== id)),
  };
}

const putProfile = (client: QueryClient) => (profile: ProfileView) => client.setQueryData(profilesQuery.queryKey, (list) => upsertById(list, profile));

/** Saves a profile (new or changed). */
export function useSaveProfile() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (input: ProfileInput) => ask((api) => api.profiles.save(input)), onSuccess: putProfile(client) });
}

/** Removes a profile; when it was already gone, the list is loaded again. */
export function useRemoveProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (profile: ProfileView) => ask((api) => api.profiles.remove({ id: profile.id })),
    onSuccess: (_, profile) => client.setQueryData(profilesQuery.queryKey, (list) => list?.filter((p) => p.id !== profile.id)),
    onError: (error) => {
      if (error.code === 'not-found') void client.invalidateQueries({ queryKey: profileKeys.all });
    },
  });
}

/**
 * Sets (or replaces) a profile's API key: the profile main returns, or main's error thrown. A plain
 * call, not a mutation: a mutation would keep its variables (here the key) in the mutation cache.
 */
export function useSetKey(): (id: string, apiKey: string) => Promise<ProfileView> {
  const client = useQueryClient();
  return async (id, apiKey) => {
    const profile = await ask((api) => api.profiles.setKey({ id, apiKey }));
    putProfile(client)(profile);
    return profile;
  };
}

/** Deletes a profile's API key. */
export function useDeleteKey() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (id: string) => ask((api) => api.profiles.deleteKey({ id })), onSuccess: putProfile(client) });
}

export type BalanceCheck = { state: 'idle' } | { state: 'checking' } | { state: 'done'; balance: BalanceView } | { state: 'failed'; error: IpcError };

/** Runs balance.query for a profile on demand; choosing another profile forgets the outcome (and one still on its way). */
export function useBalanceCheck(profileId: string | null): { check: BalanceCheck; run: () => Promise<void>; reset: () => void } {
  const query = useMutation({ mutationFn: (id: string) => ask((api) => api.balance.query({ profileId: id })) });
  const { reset, mutateAsync } = query;
  useEffect(() => reset(), [profileId, reset]);
  const check: BalanceCheck = query.isPending
    ? { state: 'checking' }
    : query.isSuccess
      ? { state: 'done', balance: query.data }
      : query.isError
        ? { state: 'failed', error: query.error }
        : { state: 'idle' };
  const run = async () => {
    if (profileId) await mutateAsync(profileId).catch(() => undefined);
  };
  return { check, run, reset };
}
