// What the Send screen needs from main before the user can start: the profiles, the template
// library, the recent numbers and each template's last send (offered, never prefilled), and which profile was used last.
import { useMemo } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ProfileView, RecentsView, TemplateView } from '../../../../common/contract';
import type { IpcError } from '../../app/api';
import { ask, balanceKeys, profilesQuery, recentsQuery, templatesQuery } from '../../app/query';
import type { SendRequest } from './send-request';

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

/** A send may have been billed: its profile's balance is asked again where it is shown. */
const balanceMayChange = (client: QueryClient) => (sent: { message: { profile: string } }) =>
  void client.invalidateQueries({ queryKey: balanceKeys.of(sent.message.profile) });

/** Sends a request (a real call): main's answer with the message, or main's refusal thrown. Never repeated by itself. */
export function useSend() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: SendRequest) =>
      ask((api) =>
        api.messages.send({ profileId: request.profile.id, mobile: request.mobile, content: request.content, templateId: request.template?.id ?? null }),
      ),
    onSuccess: balanceMayChange(client),
  });
}

/** Sends a message again, once the person confirmed it (a real call). */
export function useSendAgain() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (id: number) => ask((api) => api.messages.sendAgain({ id, confirm: true })), onSuccess: balanceMayChange(client) });
}
