// What the On call screen reads from main and changes there: incidents, routes, escalation policies
// and schedules, as TanStack Query hooks under typed keys. A failed call is the query's or the
// mutation's error (shown by the screen's error view); nothing here catches it.
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { InputOf } from '../../../../common/contract';
import type { IncidentRecord } from '../../../../common/paging/records';
import type { IpcError } from '../../app/api';
import { ask } from '../../app/query';
import { oncallKeys } from './keys';

export { contactsQuery, groupsQuery } from '../dial/use-dial-data';
export { templatesQuery } from '../../app/query';

export { oncallKeys } from './keys';
export { oncallLiveUpdates } from './live';
import { incidentUpdated } from './live';

export const incidentsQuery = queryOptions({ queryKey: oncallKeys.incidents(), queryFn: () => ask((api) => api.incidents.list({ limit: 200 })) });
export const incidentQuery = (id: number) => queryOptions({ queryKey: oncallKeys.incident(id), queryFn: () => ask((api) => api.incidents.show({ id })) });
export const routesQuery = queryOptions({ queryKey: oncallKeys.routes(), queryFn: () => ask((api) => api.paging.routes()) });
export const policiesQuery = queryOptions({ queryKey: oncallKeys.policies(), queryFn: () => ask((api) => api.paging.policies()) });
export const schedulesQuery = queryOptions({ queryKey: oncallKeys.schedules(), queryFn: () => ask((api) => api.paging.schedules()) });

export const heldQuery = queryOptions({ queryKey: oncallKeys.held(), queryFn: () => ask((api) => api.incidents.list({ held: true, limit: 200 })) });
export const maintenanceQuery = queryOptions({ queryKey: oncallKeys.maintenance(), queryFn: () => ask((api) => api.paging.maintenance()) });

/** The alert receiver's settings and state: which credentials are set (never the credentials themselves). */
export const receiverQuery = queryOptions({ queryKey: oncallKeys.receiver(), queryFn: () => ask((api) => api.paging.receiverStatus({})) });

export const useIncidents = () => useQuery(incidentsQuery);
export const useHeld = () => useQuery(heldQuery);
export const useMaintenance = () => useQuery(maintenanceQuery);
export const useIncident = (id: number | null) => useQuery({ ...incidentQuery(id ?? 0), enabled: id !== null });
export const useRoutes = () => useQuery(routesQuery);
export const usePolicies = () => useQuery(policiesQuery);
export const useSchedules = () => useQuery(schedulesQuery);

function useChange<I, O>(run: (input: I) => Promise<O>, after: (client: QueryClient, out: O) => void) {
  const client = useQueryClient();
  return useMutation<O, IpcError, I>({ mutationFn: run, onSuccess: (out) => after(client, out) });
}

const refreshIncident = (client: QueryClient, incident: IncidentRecord) => incidentUpdated(client, incident);

export const useAck = () => useChange((i: { id: number; by: string }) => ask((api) => api.incidents.ack(i)), refreshIncident);
export const useResolve = () => useChange((i: { id: number; by: string }) => ask((api) => api.incidents.resolve(i)), refreshIncident);
export const useExport = () =>
  useChange(
    (i: InputOf<'incidents.export'>) => ask((api) => api.incidents.export(i)),
    () => undefined,
  );

/** "Paste an alert": main parses the text as the receiver reads a post, then receives it (it may place calls). */
export const usePaste = () =>
  useChange(
    (text: string) => ask((api) => api.paging.paste({ text })),
    (client, incident) => {
      if (incident) incidentUpdated(client, incident);
      void client.invalidateQueries({ queryKey: oncallKeys.incidents() });
    },
  );
/** Which route a pasted alert would take, why, and what the call would say: nobody is called, nothing changes. */
export const usePreview = () =>
  useChange(
    (text: string) => ask((api) => api.paging.preview({ text })),
    () => undefined,
  );

const invalidate = (key: readonly unknown[]) => (client: QueryClient) => void client.invalidateQueries({ queryKey: key });

export const useSaveRoute = () => useChange((i: InputOf<'paging.saveRoute'>) => ask((api) => api.paging.saveRoute(i)), invalidate(oncallKeys.routes()));
export const useRemoveRoute = () => useChange((id: number) => ask((api) => api.paging.removeRoute({ id })), invalidate(oncallKeys.routes()));
export const useSavePolicy = () => useChange((i: InputOf<'paging.savePolicy'>) => ask((api) => api.paging.savePolicy(i)), invalidate(oncallKeys.policies()));
export const useRemovePolicy = () => useChange((id: number) => ask((api) => api.paging.removePolicy({ id })), invalidate(oncallKeys.policies()));
export const useSaveSchedule = () =>
  useChange((i: InputOf<'paging.saveSchedule'>) => ask((api) => api.paging.saveSchedule(i)), invalidate(oncallKeys.schedules()));
export const useRemoveSchedule = () => useChange((id: number) => ask((api) => api.paging.removeSchedule({ id })), invalidate(oncallKeys.schedules()));
export const useSaveWindow = () => useChange((i: InputOf<'paging.saveWindow'>) => ask((api) => api.paging.saveWindow(i)), invalidate(oncallKeys.maintenance()));
export const useRemoveWindow = () => useChange((id: number) => ask((api) => api.paging.removeWindow({ id })), invalidate(oncallKeys.maintenance()));

export const useReceiver = () => useQuery(receiverQuery);
/** Keeps the receiver's settings (a token or password typed goes to main's keychain; what comes back only says set or not set). */
export const useSaveReceiver = () =>
  useChange(
    (i: InputOf<'paging.receiverSave'>) => ask((api) => api.paging.receiverSave(i)),
    (client, status) => client.setQueryData(oncallKeys.receiver(), status),
  );

/** The name an on-call engineer acknowledges with, remembered on this machine. */
const WHO_KEY = 'callout.oncall.who';
export function rememberedName(): string {
  try {
    return window.localStorage.getItem(WHO_KEY) ?? '';
  } catch {
    return '';
  }
}
export function rememberName(name: string): void {
  try {
    window.localStorage.setItem(WHO_KEY, name.trim());
  } catch {
    // Private mode: the name is asked again next time.
  }
}
