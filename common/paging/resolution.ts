// Calling on resolution (issue 25). By default nobody is phoned about a resolution: "resolved" ends
// the incident and cancels its waiting steps. A route with `callOnResolved` asks for one more call,
// when the incident ends because its alerts resolved (not when a person resolves it: they know), to
// the people who know about the incident — each person who answered one of its calls — once each.
// Nobody answered: nobody is called (the incident's record says so). The engine
// (main/paging/engine.ts) keeps the promise as a paging action and places the calls under the same
// limits and quiet hours as any paging call.
import type { IncidentCallRecord } from './records';
import type { Route } from './types';

/** Whether the incident's end asks for a resolution call: its alerts resolved, and its route says so. */
export function callsOnResolution(route: Pick<Route, 'callOnResolved'> | undefined, resolvedBy: 'alerts' | 'person'): boolean {
  return resolvedBy === 'alerts' && route?.callOnResolved === true;
}

export interface ResolutionCallee {
  contactId: number | null;
  name: string | null;
  mobile: string;
}

/**
 * Who a resolution call goes to: each person (by number) who answered a call of the incident, in the
 * order they first answered, once. An answer too short to count (a voicemail pickup) is not one;
 * resolution calls themselves do not count.
 */
export function resolutionCallees(calls: readonly Pick<IncidentCallRecord, 'result' | 'resolution' | 'contactId' | 'name' | 'mobile'>[]): ResolutionCallee[] {
  const out: ResolutionCallee[] = [];
  for (const c of calls) {
    if (c.resolution || c.result !== 'answered' || out.some((p) => p.mobile === c.mobile)) continue;
    out.push({ contactId: c.contactId, name: c.name, mobile: c.mobile });
  }
  return out;
}
