// Paging: the shared model of alerts, routes, escalation policies, schedules and incidents (issue 25).
// Pure data: what the intake parses, what the store keeps (as rows and JSON), what the contract carries
// and what the On call screen and the CLI show. Times are epoch milliseconds (UTC); wall-clock rules
// (a handover at 10:00, quiet hours) carry their IANA time zone.

/** The receiver's credentials, at least this long (checked by main; said by the On call screen as you type). */
export const RECEIVER_TOKEN_MIN = 16;
export const RECEIVER_PASSWORD_MIN = 8;

/** Where an alert came from. */
export type AlertSource = 'alertmanager' | 'grafana' | 'json' | 'paste' | 'test';

/** One alert, normalised from any source. */
export interface Alert {
  /** 'firing' or 'resolved' (Grafana's and our own JSON's other words are mapped to these). */
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** Epoch ms; null when the source gave none (or Alertmanager's zero time). */
  startsAt: number | null;
  endsAt: number | null;
  /** Alertmanager's fingerprint, or one computed from the sorted labels. */
  fingerprint: string;
  generatorURL: string | null;
  /** Grafana's per-alert extras, kept for the incident view (never spoken). */
  values?: Record<string, number | string>;
  silenceURL?: string | null;
  dashboardURL?: string | null;
  panelURL?: string | null;
}

/** One post (or paste) as received: a group of alerts that belong to one incident. */
export interface AlertGroup {
  source: AlertSource;
  /** The incident key: Alertmanager's/Grafana's groupKey, else our `key`, else the fingerprint. */
  key: string;
  /** 'firing' when any alert fires; 'resolved' when every alert of the group is resolved. */
  status: 'firing' | 'resolved';
  /** A short title for lists (Grafana's `title`, our `title`, else alertname and instance). */
  title: string;
  /** The group's severity (label `severity`, or our `severity`), lower-cased; null when none. */
  severity: string | null;
  groupLabels: Record<string, string>;
  commonLabels: Record<string, string>;
  commonAnnotations: Record<string, string>;
  externalURL: string | null;
  /** Alertmanager's count of alerts left out of the post. */
  truncatedAlerts: number;
  alerts: Alert[];
}

/** A label matcher, as Alertmanager writes them: =, !=, =~ (regular expression, anchored). */
export interface LabelMatcher {
  label: string;
  op: '=' | '!=' | '=~' | '!~';
  value: string;
}

/** An ordered rule: the first route whose matchers all match takes the alert. */
export interface Route {
  id: number;
  name: string;
  /** Position among the routes (ascending). The default route matches everything and comes last. */
  position: number;
  matchers: LabelMatcher[];
  /** Severities (lower-case) this route takes; empty = any. */
  severities: string[];
  policyId: number;
  /** The approved template the call says, with its 【变量】 filled from the alert (see `variables`). */
  templateId: string;
  /** Marker name → expression, e.g. { 系统: '{{labels.instance}}', 问题: '{{annotations.summary}}' }. */
  variables: Record<string, string>;
  /** Severities that may call during quiet hours (e.g. ['critical']). */
  throughQuietHours: string[];
  /**
   * When the incident ends because its alerts resolved, call each person who answered one of its
   * calls once more, with this route's template (common/paging/resolution.ts). Off: nobody is phoned
   * about a resolution.
   */
  callOnResolved: boolean;
  isDefault: boolean;
}

/** Who a step calls. */
export type StepTarget =
  | { kind: 'contact'; contactId: number }
  /** A group: its members one by one (in order), or all at once. */
  | { kind: 'group'; groupId: number; mode: 'one-by-one' | 'all-at-once' }
  /** Whoever is on call in this schedule when the step runs. */
  | { kind: 'schedule'; scheduleId: number };

export interface PolicyStep {
  target: StepTarget;
  /** Attempts per person when the call is not answered ("no answer" only; busy etc. move on at once). 1–5. */
  attempts: number;
  /** Seconds between two attempts to the same person. */
  retrySeconds: number;
  /** Seconds after this step's calls end (unanswered) before the next step starts. */
  pauseSeconds: number;
}

export interface EscalationPolicy {
  id: number;
  name: string;
  steps: PolicyStep[];
  /** How many times the whole policy runs again after its last step (0 = once). */
  repeat: number;
  /** An answer counts only after this many seconds of talk (0 = any answer); a voicemail pickup is short. */
  minAnsweredSeconds: number;
}

/** A rotation: participants in order, each covering one shift, handing over at a local time. */
export interface Rotation {
  /** Contact ids in order. */
  participants: number[];
  shift: { count: number; unit: 'day' | 'week' };
  /** Local time of the handover, 'HH:MM'. */
  handover: string;
  /** IANA time zone; default 'Asia/Shanghai'. */
  timeZone: string;
  /** When the first participant's first shift starts (epoch ms, a handover moment). */
  start: number;
}

/** Someone covers for whoever is on call from `from` to `to` (epoch ms, to exclusive). */
export interface Override {
  id: number;
  contactId: number;
  from: number;
  to: number;
}

export interface Schedule {
  id: number;
  name: string;
  rotation: Rotation;
  overrides: Override[];
}

/** Who is on call over an interval [from, to), and why (the rotation or an override). */
export interface Shift {
  contactId: number;
  from: number;
  to: number;
  overrideId: number | null;
}

/** Hold matching alerts during [from, to). */
export interface MaintenanceWindow {
  id: number;
  name: string;
  matchers: LabelMatcher[];
  from: number;
  to: number;
}

export type IncidentState = 'triggered' | 'acknowledged' | 'resolved' | 'held';

/** How an incident ended its escalation (or why it paged nobody). */
export type IncidentEnd = 'answered' | 'acknowledged' | 'resolved' | 'exhausted' | 'held' | 'no-route' | 'unknown-call';
