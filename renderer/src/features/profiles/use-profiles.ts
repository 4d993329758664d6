// The profile list (the shared cached query): what a profile screen needs to show and change it.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProfileView } from '../../../../common/contract';
import type { IpcError } from '../../app/api';
import { profilesQuery, upsertById } from '../../app/query';

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
