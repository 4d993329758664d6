// What the Send screen needs from main before the user can start: the profiles, the template
// library, the recent numbers and each template's last send (offered, never prefilled), and which profile was used last.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ProfileView, RecentsView, TemplateView } from '../../../../common/contract';
import type { IpcError } from '../../app/api';
import { ask, profilesQuery, recentsQuery, templatesQuery } from '../../app/query';

export interface SendData {
  profiles: ProfileView[];
  templates: TemplateView[];
  recents: RecentsView;
  /** The profile of the newest message in History, if it still exists. */
  lastProfileId: string | null;
}

export interface SendDataState {
  data: SendData | null;
  loading: boolean;
  error: IpcError | null;
  reload: () => void;
}

const NO_RECENTS: RecentsView = { mobiles: [], lastSends: {} };

export function useSendData(): SendDataState {
  const profiles = useQuery(profilesQuery);
  const templates = useQuery(templatesQuery);
  const recents = useQuery(recentsQuery);
  const latest = useQuery({ queryKey: ['history.page', 'latest'], queryFn: () => ask((api) => api.history.page({ limit: 1 })) });
  // Without recents or the latest message the form still works: nothing is suggested or prefilled.
  const settled = !recents.isPending && !latest.isPending;
  const data = useMemo(() => {
    if (!profiles.data || !templates.data || !settled) return null;
    const lastProfile = latest.data?.rows[0]?.profile ?? null;
    return {
      profiles: profiles.data,
      templates: templates.data,
      recents: recents.data ?? NO_RECENTS,
      lastProfileId: lastProfile && profiles.data.some((p) => p.id === lastProfile) ? lastProfile : null,
    };
  }, [profiles.data, templates.data, recents.data, latest.data, settled]);
  return {
    data,
    loading: profiles.isPending || templates.isPending || !settled,
    error: profiles.error ?? templates.error,
    reload: () => {
      void profiles.refetch();
      void templates.refetch();
    },
  };
}
