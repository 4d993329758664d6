// What the paging engine needs from elsewhere, as narrow as it uses it. The pure rules (intake,
// matchers, say, maintenance, timeline, schedule in common/paging/) are passed in by the composition
// root; tests pass small in-memory versions.
import type { CallResult } from '../../common/paging/records';
import type { AlertGroup, MaintenanceWindow, PolicyStep, Route, Schedule } from '../../common/paging/types';
import type { DialSettingsRecord } from '../../common/bulk-types';
import type { DialClaims } from '../dial/claims';

/** The first route that takes the group (matchers.ts), or null. */
export type RouteFor = (group: AlertGroup, routes: readonly Route[]) => Route | null;

/** What the call says for a route and a group (say.ts): the filled template's text. */
export type Say = (route: Route, group: AlertGroup) => { content: string; templateId: string | null };

/** The maintenance window (among those open at `at`) that holds the group, or null (maintenance.ts). */
export type HeldBy = (group: AlertGroup, windows: readonly MaintenanceWindow[], at: number) => MaintenanceWindow | null;

/** A call that was not answered ended so (the results the policy's rule reads). */
export type UnansweredResult = Exclude<CallResult, 'answered' | 'unknown'>;

/**
 * After a call that was not answered (timeline.ts): call the same person again (no answer, attempts
 * left), move on to the next person, or stop the escalation.
 */
export type AfterCall = (step: PolicyStep, attempt: number, result: UnansweredResult) => 'retry' | 'next-person' | 'stop';

/** Who is on call in a schedule at `t` (schedule.ts): a contact id, or null when nobody is. */
export type OnCallAt = (schedule: Schedule, t: number) => number | null;

export interface PagingPerson {
  id: number;
  name: string;
  mobile: string;
}

/** Contacts and groups, read when a step runs (so an edited group is called as it is now). */
export interface PagingContacts {
  get(id: number): PagingPerson | undefined;
  group(id: number): { memberIds: readonly number[] } | undefined;
}

/** Per-number limits and quiet hours (main/dial/limits.ts reads them), the calls already placed to a number, and the dial claims (main/dial/claims.ts). */
export interface PagingLimits extends DialClaims {
  effective(profileId?: string | null): DialSettingsRecord;
}

/** The pure rules of paging (common/paging/*), given together by the composition root. */
export interface PagingRules {
  routeFor: RouteFor;
  say: Say;
  heldBy: HeldBy;
  afterCall: AfterCall;
  onCallAt: OnCallAt;
}
