// What the Quick dial screen loads from main: contacts, groups (escalation lists), templates and
// profiles. Each list can be reloaded on its own after a change.
import { useCallback, useEffect, useState } from 'react';
import type { ProfileView, TemplateView } from '../../../../common/contract';
import type { ContactGroupRecord, ContactRecord } from '../../../../common/bulk-types';
import { call, type IpcError } from '../../app/api';

export interface DialData {
  contacts: ContactRecord[];
  groups: ContactGroupRecord[];
  templates: TemplateView[];
  profiles: ProfileView[];
}

export interface DialDataState {
  data: DialData | null;
  loading: boolean;
  error: IpcError | null;
  reload: () => void;
  reloadContacts: () => void;
}

export function useDialData(): DialDataState {
  const [data, setData] = useState<DialData | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<IpcError | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let live = true;
    setLoading(true);
    void Promise.all([
      call((api) => api.contacts.list()),
      call((api) => api.contacts.groups()),
      call((api) => api.templates.list()),
      call((api) => api.profiles.list()),
    ]).then(([contacts, groups, templates, profiles]) => {
      if (!live) return;
      setLoading(false);
      const failed = [contacts, groups, templates, profiles].find((r) => !r.ok);
      if (failed && !failed.ok) return setError(failed.error);
      if (!contacts.ok || !groups.ok || !templates.ok || !profiles.ok) return;
      setError(null);
      setData({ contacts: contacts.value, groups: groups.value, templates: templates.value, profiles: profiles.value });
    });
    return () => {
      live = false;
    };
  }, [generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const reloadContacts = useCallback(() => {
    void Promise.all([call((api) => api.contacts.list()), call((api) => api.contacts.groups())]).then(([contacts, groups]) => {
      if (contacts.ok && groups.ok) setData((d) => (d ? { ...d, contacts: contacts.value, groups: groups.value } : d));
    });
  }, []);
  return { data, loading, error, reload, reloadContacts };
}
