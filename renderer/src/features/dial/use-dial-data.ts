// What the Quick dial screen reads from main: contacts, groups (escalation lists), templates and
// profiles. Contacts and groups are loaded again after a change (and when a run is done: contacts
// remember when they were called and with which template).
import { useMemo } from 'react';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { InputOf, ProfileView, TemplateView } from '../../../../common/contract';
import type { ContactGroupRecord, ContactInput, ContactRecord, DialRequest } from '../../../../common/bulk-types';
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
  search: (query: string) => [...contactKeys.all, 'search', query] as const,
};

/** The keys of the dial settings, per scope ('*' for all profiles, or a profile's id). */
export const dialKeys = { settings: (scope?: string) => (scope === undefined ? (['dial', 'settings'] as const) : (['dial', 'settings', scope] as const)) };

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
    () =>
      contacts.data && groups.data && templates.data && profiles.data
        ? { contacts: contacts.data, groups: groups.data, templates: templates.data, profiles: profiles.data }
        : null,
    [contacts.data, groups.data, templates.data, profiles.data],
  );
  return {
    data,
    loading: queries.some((q) => q.isPending),
    error: queries.find((q) => q.error)?.error ?? null,
    reload: () => queries.forEach((q) => void q.refetch()),
  };
}

/** Contacts matching what is typed in the palette (the ones found before stay while the next load). */
export function useContactSearch(query: string, enabled: boolean) {
  return useQuery({
    queryKey: contactKeys.search(query),
    queryFn: () => ask((api) => api.contacts.search({ query: query.slice(0, 100), limit: 8 })),
    enabled,
    placeholderData: keepPreviousData,
    gcTime: 0,
  });
}

export function useSaveContact() {
  return useMutation({ mutationFn: (input: ContactInput) => ask((api) => api.contacts.save(input)) });
}

export function useSetFavourite() {
  return useMutation({ mutationFn: (c: ContactRecord) => ask((api) => api.contacts.setFavourite({ id: c.id, favourite: !c.favourite })) });
}

export function useRemoveContact() {
  return useMutation({ mutationFn: (c: ContactRecord) => ask((api) => api.contacts.remove({ id: c.id })) });
}

export function useSaveGroup() {
  return useMutation({ mutationFn: (input: InputOf<'contacts.saveGroup'>) => ask((api) => api.contacts.saveGroup(input)) });
}

export function useRemoveGroup() {
  return useMutation({ mutationFn: (g: ContactGroupRecord) => ask((api) => api.contacts.removeGroup({ id: g.id })) });
}

/** Starts a run (main plans it, and may refuse it without calling anyone). */
export function useStartDial() {
  return useMutation({ mutationFn: (req: DialRequest) => ask((api) => api.dial.start(req)) });
}

export function useCancelDial() {
  return useMutation({ mutationFn: (runId: string) => ask((api) => api.dial.cancel({ runId })) });
}

export function useDialSettings(scope: string) {
  return useQuery({ queryKey: dialKeys.settings(scope), queryFn: () => ask((api) => api.dial.settings({ profileId: scope === '*' ? null : scope })) });
}

/** Saves dial settings; profiles without settings of their own use those for all profiles: every scope is loaded again. */
export function useSaveDialSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: InputOf<'dial.saveSettings'>) => ask((api) => api.dial.saveSettings(input)),
    onSuccess: () => client.invalidateQueries({ queryKey: dialKeys.settings() }),
  });
}

/** Main asks for the palette (the desktop app's global shortcut): returns the unsubscribe. */
export function onQuickDialFromMain(open: () => void): () => void {
  return window.callout.on.quickDial(open);
}
