// Paging: an incident as the store keeps it and the On call screen, the CLI and exports show it
// (issue 25). Times are epoch milliseconds.
import type { LimitKind } from '../bulk-types';
import type { Reason } from '../reasons';
import type { CallState } from '../domain/status';
import type { Alert, AlertSource, IncidentEnd, IncidentState } from './types';

/** How one call of an escalation ended, as the escalation reads it (see main/paging/engine.ts `callResult`). */
export type CallResult =
  | 'answered'
  /** Answered, but for less than the policy's minAnsweredSeconds (a voicemail pickup): counted as not answered. */
  | 'short-answer'
  | 'no-answer'
  | 'busy'
  | 'declined'
  | 'powered-off'
  | 'unreachable'
  | 'failed'
  /** Not placed: a per-number limit or quiet hours refused it (the reason says which). */
  | 'refused'
  /** The outcome is not known (it may have been answered): the escalation stops for a person. */
  | 'unknown';

/** What became of a route's call on resolution (common/paging/resolution.ts), as the incident records it. */
export type ResolutionCall =
  /** Promised (written before any call): the calls are being placed. */
  | 'due'
  /** Placed to the people who answered (the incident's calls marked as resolution calls). */
  | 'placed'
  /** Nobody answered a call of the incident: nobody was called. */
  | 'nobody-answered'
  /** Every resolution call was refused (call limits or quiet hours): nobody was called. */
  | 'refused'
  /** The incident's route was gone when the call fell due: nobody was called. */
  | 'no-route';

export interface IncidentRecord {
  id: number;
  key: string;
  source: AlertSource;
  title: string;
  severity: string | null;
  state: IncidentState;
  /** How the escalation ended; null while it runs. */
  ended: IncidentEnd | null;
  routeId: number | null;
  policyId: number | null;
  /** The maintenance window that held it. */
  heldBy: number | null;
  openedAt: number;
  updatedAt: number;
  acknowledgedBy: string | null;
  acknowledgedAt: number | null;
  /** Who resolved it: a person's name, or null when the alert resolved itself (resolvedAt set). */
  resolvedBy: string | null;
  resolvedAt: number | null;
  /** What became of the route's call on resolution (common/paging/resolution.ts); null when none was asked. */
  resolutionCall: ResolutionCall | null;
}

export interface IncidentAlertRecord {
  id: number;
  fingerprint: string;
  status: 'firing' | 'resolved';
  startsAt: number | null;
  receivedAt: number;
  alert: Alert;
}

export interface IncidentStepRecord {
  id: number;
  round: number;
  stepIndex: number;
  dueAt: number;
  startedAt: number;
  /** How long after it fell due it started (it fell due while no process ran): 0 when on time. */
  lateMs: number;
}

export interface IncidentCallRecord {
  id: number;
  /** A call on resolution (the alert resolved; see common/paging/resolution.ts), not a step's. */
  resolution: boolean;
  round: number;
  stepIndex: number;
  attempt: number;
  contactId: number | null;
  name: string | null;
  mobile: string;
  messageId: number | null;
  smsid: string | null;
  state: CallState | null;
  /** Seconds of talk, when the provider says. */
  duration: number | null;
  result: CallResult | null;
  reason: Reason | null;
  /** Not placed: which limit refused it (per-minute, per-hour, per-day, quiet-hours). */
  refusal: LimitKind | null;
  dueAt: number;
  startedAt: number;
  endedAt: number | null;
}

/** An incident's full record. */
export interface IncidentDetail {
  incident: IncidentRecord;
  alerts: IncidentAlertRecord[];
  steps: IncidentStepRecord[];
  calls: IncidentCallRecord[];
  /** When the escalation's next step or attempt falls due, if one is waiting. */
  nextAt: number | null;
}
