// Main's incident events for the On call screen's cached data (handed to followMain by main.tsx; small,
// so that the first screen does not load the On call screen to follow them).
import type { QueryClient } from '@tanstack/react-query';
import type { IncidentRecord } from '../../../../common/paging/records';
import { upsertById, type LiveUpdates } from '../../app/query';
import { oncallKeys } from './keys';

/** Main says an incident opened or changed: the list shows it, its detail is loaded again. */
export function incidentUpdated(client: QueryClient, incident: IncidentRecord): void {
  client.setQueryData(oncallKeys.incidents(), (list: IncidentRecord[] | undefined) => {
    if (!list) return list;
    const next = upsertById(list, incident) ?? [];
    return [...next].sort((a, b) => b.openedAt - a.openedAt || b.id - a.id);
  });
  void client.invalidateQueries({ queryKey: oncallKeys.incident(incident.id) });
  if (incident.state === 'held') void client.invalidateQueries({ queryKey: oncallKeys.held() });
}

export const oncallLiveUpdates: LiveUpdates = (on, client) => {
  on.incidentUpdated((incident) => incidentUpdated(client, incident));
};
