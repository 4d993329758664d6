// What the Send screen needs from main before the user can start: the profiles, the template
// library, the recent numbers and per-template last values, and which profile was used last.
import { useCallback, useEffect, useState } from 'react';
import type { ProfileView, RecentsView, TemplateView } from '../../../../common/contract';
import { call, type IpcError } from '../../app/api';

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
  /** Reloads only the recent numbers and last values (after a send). */
  reloadRecents: () => void;
}

const NO_RECENTS: RecentsView = { mobiles: [], lastValues: {} };

export function useSendData(): SendDataState {
  const [data, setData] = useState<SendData | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<IpcError | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let live = true;
    setLoading(true);
    void Promise.all([
      call((api) => api.profiles.list()),
      call((api) => api.templates.list()),
      call((api) => api.messages.recents()),
      call((api) => api.history.query({ limit: 1 })),
    ]).then(([profiles, templates, recents, latest]) => {
      if (!live) return;
      setLoading(false);
      if (!profiles.ok || !templates.ok) {
        setError(!profiles.ok ? profiles.error : !templates.ok ? templates.error : null);
        return;
      }
      setError(null);
      const lastProfile = latest.ok ? (latest.value[0]?.profile ?? null) : null;
      setData({
        profiles: profiles.value,
        templates: templates.value,
        // Without recents the form still works: nothing is suggested or prefilled.
        recents: recents.ok ? recents.value : NO_RECENTS,
        lastProfileId: lastProfile && profiles.value.some((p) => p.id === lastProfile) ? lastProfile : null,
      });
    });
    return () => {
      live = false;
    };
  }, [generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const reloadRecents = useCallback(() => {
    void call((api) => api.messages.recents()).then((r) => {
      if (r.ok) setData((d) => (d ? { ...d, recents: r.value } : d));
    });
  }, []);
  return { data, loading, error, reload, reloadRecents };
}

