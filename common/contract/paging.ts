// Paging (issue 25): incidents (list, show, acknowledge, resolve, export), the configuration
// (routes, escalation policies, schedules, maintenance windows) and "paste an alert".
import { z } from 'zod';
import type { IncidentDetail, IncidentRecord } from '../paging/records';
import {
  RECEIVER_PASSWORD_MIN,
  RECEIVER_TOKEN_MIN,
  type AlertSource,
  type EscalationPolicy,
  type MaintenanceWindow,
  type Route,
  type Schedule,
} from '../paging/types';
import type { RouteWhy } from '../paging/matchers';
import type { SayIssue } from '../paging/say';
import { EVENT_CHANNELS } from './channels';
import { event, op } from './define';

const rowId = z.number().int().positive();
const name = z.string().trim().min(1, 'name-required').max(80);
const label = z.string().min(1).max(200);
const labels = z.record(z.string().max(200), z.string().max(2000));
const time = z.number().int().min(0).max(8.64e15);
const person = z.string().trim().min(1, 'name-required').max(60);

const matcher = z.object({ label, op: z.enum(['=', '!=', '=~', '!~']), value: z.string().max(1000) }).strict();
const matchers = z.array(matcher).max(50);
const severities = z.array(z.string().trim().toLowerCase().min(1).max(40)).max(20);

const stepTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('contact'), contactId: rowId }).strict(),
  z.object({ kind: z.literal('group'), groupId: rowId, mode: z.enum(['one-by-one', 'all-at-once']) }).strict(),
  z.object({ kind: z.literal('schedule'), scheduleId: rowId }).strict(),
]);
const step = z
  .object({
    target: stepTarget,
    attempts: z.number().int().min(1, 'attempts-range').max(5, 'attempts-range'),
    retrySeconds: z.number().int().min(0).max(3600),
    pauseSeconds: z
      .number()
      .int()
      .min(0)
      .max(24 * 3600),
  })
  .strict();

const alert = z
  .object({
    status: z.enum(['firing', 'resolved']),
    labels,
    annotations: labels,
    startsAt: time.nullable(),
    endsAt: time.nullable(),
    fingerprint: z.string().min(1).max(200),
    generatorURL: z.string().max(2000).nullable(),
  })
  .strip();

/** An alert group as the intake makes it (a paste is parsed into one before it is received). */
export const alertGroupInput = z
  .object({
    source: z.enum(['alertmanager', 'grafana', 'json', 'paste', 'test']),
    key: z.string().min(1).max(2000),
    status: z.enum(['firing', 'resolved']),
    title: z.string().max(500),
    severity: z.string().toLowerCase().max(40).nullable(),
    groupLabels: labels,
    commonLabels: labels,
    commonAnnotations: labels,
    externalURL: z.string().max(2000).nullable(),
    truncatedAlerts: z.number().int().min(0),
    alerts: z.array(alert).min(1).max(1000),
  })
  .strict();

/** The alert receiver as it is now (the settings kept, and whether it listens). */
export interface ReceiverStatus {
  /** Start it when the app or `callout page serve` starts. */
  enabled: boolean;
  listening: boolean;
  host: string;
  /** The port asked for (0: any free one); when listening, the port it got is in `url`. */
  port: number;
  /** The address to give Alertmanager or Grafana, with its secret path (null when not listening). Keep it out of chats and tickets. */
  url: string | null;
  /** GET answers `ok` while the receiver runs (for a supervisor's probe); null when not listening. */
  healthUrl: string | null;
  /** Set when the address is not loopback: other machines can post alerts (and so phone people). */
  warning: { code: 'paging.receiver.exposed'; params: { host: string } } | null;
  /** Which credentials a post must carry (the secrets themselves stay in the keychain and never cross IPC). */
  auth: { bearer: boolean; basic: { username: string } | null };
  /** Why it is not listening although enabled (the listen error), else null. */
  error: { kind: 'in-use' | 'address' | 'denied' | 'other' } | null;
}

/** Which route a pasted alert would take, why, and what the call would say, without calling anyone. */
export interface AlertPreview {
  group: { source: AlertSource; key: string; status: 'firing' | 'resolved'; title: string; severity: string | null; alertCount: number };
  route: { id: number; name: string; policyId: number } | null;
  /** Each route tried, in order, and why it was passed or took the alert (`paging.route.<code>`). */
  why: RouteWhy[];
  /** The call's text (null without a route, or when the route's template is gone). */
  text: string | null;
  /** Problems that stop the call (`paging.say.<code>`): the call would not go out. */
  errors: SayIssue[];
  /** What speech reads badly (`paging.say.<code>`): the call still goes. */
  warnings: SayIssue[];
  /** An open incident with this key already exists: the alert would join it (nobody new is called). */
  joins: number | null;
}

const pastedText = z.object({ text: z.string().min(1, 'value-required').max(4_000_000) }).strict();

export const pagingOps = {
  /** Newest first: all, the open ones, or those a maintenance window held. */
  'incidents.list': op<IncidentRecord[]>()(
    z
      .object({ open: z.boolean().optional(), held: z.boolean().optional(), limit: z.number().int().min(1).max(1000).optional() })
      .strict()
      .optional(),
  ),
  /** An incident's full record: alerts, steps, calls (smsid, state, duration, reason), who acknowledged or resolved it. */
  'incidents.show': op<IncidentDetail>()(z.object({ id: rowId }).strict()),
  'incidents.ack': op<IncidentRecord>()(z.object({ id: rowId, by: person }).strict()),
  'incidents.resolve': op<IncidentRecord>()(z.object({ id: rowId, by: person }).strict()),
  /** The calls as CSV, and the one-line summary for a chat, in a language. */
  'incidents.export': op<{ csv: string; summary: string }>()(
    z
      .object({
        id: rowId,
        lang: z.enum(['zh-CN', 'en']),
        utcOffsetMinutes: z.number().int().min(-840).max(840).optional(),
        timeZone: z.string().max(64).optional(),
      })
      .strict(),
  ),

  /** Receives an alert group (a pasted alert, parsed): a new incident, or the open one of its key. Null: a resolution with nothing open. */
  'paging.receive': op<IncidentRecord | null>()(z.object({ group: alertGroupInput }).strict()),
  /** "Paste an alert" (or a file's text): parsed as the receiver would (an unreadable one: paging_alert-invalid with the intake's field and problem), then received. */
  'paging.paste': op<IncidentRecord | null>()(pastedText),
  /** Which route a pasted alert would take and why, and the call's text with its warnings; calls nobody, changes nothing. */
  'paging.preview': op<AlertPreview>()(pastedText),

  /** The alert receiver: its settings, whether it listens, its address (with the secret path). */
  'paging.receiverStatus': op<ReceiverStatus>()(z.object({}).strict().optional()),
  /** The profile paging calls with (default: the built-in Sandbox); `profileId` set: paging calls with it from now on. */
  'paging.profile': op<{ profileId: string }>()(
    z
      .object({ profileId: z.string().trim().min(1).max(64).optional() })
      .strict()
      .optional(),
  ),
  /** Starts the receiver with its kept settings whether or not it is enabled (`callout page serve`); `error` says why it could not listen. */
  'paging.receiverStart': op<ReceiverStatus>()(z.object({}).strict().optional()),
  'paging.receiverStop': op<ReceiverStatus>()(z.object({}).strict().optional()),
  /**
   * Keeps the receiver's settings and (re)starts or stops it accordingly. `bearer`/`basic`: undefined
   * keeps what is stored, null removes it, a value replaces it (kept in the keychain, never in SQLite).
   * `newSecret`: a new secret path (the old address stops working).
   */
  'paging.receiverSave': op<ReceiverStatus>()(
    z
      .object({
        enabled: z.boolean(),
        host: z.string().trim().min(1).max(255),
        port: z.number().int().min(0).max(65535),
        bearer: z.string().trim().min(RECEIVER_TOKEN_MIN, 'key-too-short').max(256).nullable().optional(),
        basic: z
          .object({
            username: z
              .string()
              .min(1)
              .max(100)
              .regex(/^[^:]*$/, 'invalid-characters'),
            password: z.string().min(RECEIVER_PASSWORD_MIN, 'key-too-short').max(200),
          })
          .strict()
          .nullable()
          .optional(),
        newSecret: z.boolean().optional(),
      })
      .strict(),
  ),

  'paging.routes': op<Route[]>()(z.object({}).strict().optional()),
  'paging.saveRoute': op<Route>()(
    z
      .object({
        id: rowId.optional(),
        name,
        position: z.number().int().min(0).max(100_000),
        matchers,
        severities,
        policyId: rowId,
        templateId: z.string().trim().min(1, 'template-required').max(64),
        variables: z.record(z.string().max(40), z.string().max(500)),
        throughQuietHours: severities,
        callOnResolved: z.boolean(),
        isDefault: z.boolean(),
      })
      .strict(),
  ),
  'paging.removeRoute': op<{ removed: boolean }>()(z.object({ id: rowId }).strict()),

  'paging.policies': op<EscalationPolicy[]>()(z.object({}).strict().optional()),
  'paging.savePolicy': op<EscalationPolicy>()(
    z
      .object({
        id: rowId.optional(),
        name,
        steps: z.array(step).min(1).max(20),
        repeat: z.number().int().min(0).max(10),
        minAnsweredSeconds: z.number().int().min(0).max(600),
      })
      .strict(),
  ),
  'paging.removePolicy': op<{ removed: boolean }>()(z.object({ id: rowId }).strict()),

  'paging.schedules': op<Schedule[]>()(z.object({}).strict().optional()),
  'paging.saveSchedule': op<Schedule>()(
    z
      .object({
        id: rowId.optional(),
        name,
        rotation: z
          .object({
            participants: z.array(rowId).min(1).max(100),
            shift: z.object({ count: z.number().int().min(1).max(52), unit: z.enum(['day', 'week']) }).strict(),
            handover: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'time-invalid'),
            timeZone: z.string().min(1).max(64),
            start: time,
          })
          .strict(),
        overrides: z
          .array(z.object({ contactId: rowId, from: time, to: time }).strict())
          .max(500)
          .optional(),
      })
      .strict(),
  ),
  'paging.removeSchedule': op<{ removed: boolean }>()(z.object({ id: rowId }).strict()),

  /** Maintenance windows, with what they held listed by incidents.list { held: true }. */
  'paging.maintenance': op<MaintenanceWindow[]>()(z.object({}).strict().optional()),
  'paging.saveWindow': op<MaintenanceWindow>()(z.object({ id: rowId.optional(), name, matchers: matchers.min(1), from: time, to: time }).strict()),
  'paging.removeWindow': op<{ removed: boolean }>()(z.object({ id: rowId }).strict()),
};

export const pagingEvents = {
  /** An incident opened or changed (a call, acknowledged, resolved, its escalation ended). */
  incidentUpdated: event<IncidentRecord>()(EVENT_CHANNELS.incidentUpdated),
};
