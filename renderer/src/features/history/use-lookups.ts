// Profiles and templates, loaded once for the History screen: the names its rows show, and the
// choices of its filters, the overview and the raw console.
import { useEffect, useMemo, useState } from 'react';
import type { ProfileView, TemplateView } from '../../../../common/contract';
import { call } from '../../app/api';

export interface Lookups {
  profiles: ProfileView[];
  templates: TemplateView[];
  profileName: (id: string) => string;
  templateName: (id: string | null) => string | null;
  loaded: boolean;
}

export function useLookups(): Lookups {
  const [profiles, setProfiles] = useState<ProfileView[]>([]);
  const [templates, setTemplates] = useState<TemplateView[]>([]);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    let live = true;
    void Promise.all([call((api) => api.profiles.list()), call((api) => api.templates.list())]).then(([p, tl]) => {
      if (!live) return;
      if (p.ok) setProfiles(p.value);
      if (tl.ok) setTemplates(tl.value);
      setLoaded(true);
    });
    return () => {
      live = false;
    };
  }, []);

  return useMemo(() => {
    const profileById = new Map(profiles.map((p) => [p.id, p.name]));
    const templateById = new Map(templates.map((t) => [t.id, t.name]));
    return {
      profiles,
      templates,
      loaded,
      profileName: (id: string) => profileById.get(id) ?? id,
      templateName: (id: string | null) => (id === null ? null : (templateById.get(id) ?? id)),
    };
  }, [profiles, templates, loaded]);
}
