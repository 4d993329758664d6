// Profiles and templates for the History screen: the names its rows show, and the choices of its
// filters, the overview and the raw console (the same cached lists as every other screen).
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ProfileView, TemplateView } from '../../../../common/contract';
import { profilesQuery, templatesQuery } from '../../app/query';

export interface Lookups {
  profiles: ProfileView[];
  templates: TemplateView[];
  profileName: (id: string) => string;
  templateName: (id: string | null) => string | null;
}

const NONE: never[] = [];

export function useLookups(): Lookups {
  const profiles = useQuery(profilesQuery).data ?? NONE;
  const templates = useQuery(templatesQuery).data ?? NONE;
  return useMemo(() => {
    const profileById = new Map(profiles.map((p) => [p.id, p.name]));
    const templateById = new Map(templates.map((t) => [t.id, t.name]));
    return {
      profiles,
      templates,
      profileName: (id: string) => profileById.get(id) ?? id,
      templateName: (id: string | null) => (id === null ? null : (templateById.get(id) ?? id)),
    };
  }, [profiles, templates]);
}
