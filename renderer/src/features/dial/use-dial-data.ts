// What the Quick dial screen reads from main: contacts, groups (escalation lists), templates and
// profiles. Contacts and groups are loaded again after a change (and when a run is done: contacts
// remember when they were called and with which template).
import { useMemo } from 'react';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { ProfileView, TemplateView } from '../../../../common/contract';
import type { ContactGroupRecord, ContactRecord } from '../../../../common/bulk-types';
import type { IpcError } from '../../app/api';
import { ask, profilesQuery, templatesQuery, type LiveUpdates } from '../../app/query';
import { dialRuns } from './dial-store';

export interface DialData {
  contacts: ContactRecord[];
  groups: ContactGroupRecord[];
  templates: TemplateView[];
  profiles: ProfileView[];
}

/** The keys of what Quick dial reads (contacts and groups change together). */
export const contactKeys = {
  all: ['contacts'] as const,
  list: () => [...contactKeys.all, 'list'] as const,
  groups: () => [...contactKeys.all, 'groups'] as const,
};

export const contactsQuery = queryOptions({ queryKey: contactKeys.list(), queryFn: () => ask((api) => api.contacts.list()) });
export const groupsQuery = queryOptions({ queryKey: contactKeys.groups(), queryFn: () => ask((api) => api.contacts.groups()) });

/** Contacts and groups changed (a save, a removal, a call): load them again. */
export function contactsChanged(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: contactKeys.all });
}

/** Runs follow the messages they placed and main's progress; contacts remember when they were called, and with which template. */
export const dialLiveUpdates: LiveUpdates = (on, client) => {
  on.messageUpdated((m) => dialRuns.messageUpdated(m));
  on.dialProgress((p) => {
    dialRuns.progress(p);
    if (p.phase === 'done') contactsChanged(client);
  });
};

/**
 * Loads what the palette needs ahead of Ctrl+K (once the first screen is up): the palette then
 * opens on data already here, and the screen refreshes it when it shows.
 */
export function prefetchDialData(client: QueryClient): void {
  void client.prefetchQuery(contactsQuery);
  void client.prefetchQuery(groupsQuery);
  void client.prefetchQuery(templatesQuery);
  void client.prefetchQuery(profilesQuery);
}

export function useDialData(): { data: DialData | null; loading: boolean; error: IpcError | null; reload: () => void } {
  const queries = [useQuery(contactsQuery), useQuery(groupsQuery), useQuery(templatesQuery), useQuery(profilesQuery)] as const;
  const [contacts, groups, templates, profiles] = queries;
  const data = useMemo(
    () => (contacts.data && groups.data && templates.data && profiles.data ? { contacts: contacts.data, groups: groups.data, templates: templates.data, profiles: profiles.data } : null),
    [contacts.data, groups.data, templates.data, profiles.data],
  );
  return {
    data,
    loading: queries.some((q) => q.isPending),
    error: queries.find((q) => q.error)?.error ?? null,
    reload: () => queries.forEach((q) => void q.refetch()),
  };
}
