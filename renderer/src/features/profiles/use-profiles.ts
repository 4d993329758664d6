import { useCallback, useEffect, useState } from 'react';
import type { ProfileView } from '../../../../common/contract';
import { call, type IpcError } from '../../app/api';

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
  const [profiles, setProfiles] = useState<ProfileView[] | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<IpcError | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let live = true;
    setLoading(true);
    void call((api) => api.profiles.list()).then((r) => {
      if (!live) return;
      setLoading(false);
      if (r.ok) {
        setProfiles(r.value);
        setError(null);
      } else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const upsert = useCallback((profile: ProfileView) => {
    setProfiles((list) => {
      const current = list ?? [];
      return current.some((p) => p.id === profile.id) ? current.map((p) => (p.id === profile.id ? profile : p)) : [...current, profile];
    });
  }, []);
  const drop = useCallback((id: string) => setProfiles((list) => (list ?? []).filter((p) => p.id !== id)), []);
  return { profiles, loading, error, reload, upsert, drop };
}
