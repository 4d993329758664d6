// The alert receiver (issue 25, item 1): a plain Node HTTP server where Alertmanager, Grafana or a
// script posts alerts. Like the receipt listener (main/receipts/listener.ts, the same helpers in
// main/net/inbound.ts): 127.0.0.1 unless the caller binds another address of this machine (then
// `receiverWarning` says what that risks), one unguessable path (a secret the caller keeps across
// restarts), optionally a bearer token or basic auth (both compared in constant time), bodies read
// with a cap. Every refusal is a 4xx with a short JSON body and changes nothing; a post that parses
// is handed to `receive` once, posts one at a time, and answered 200 with the incident it joined.
// `GET /healthz` answers `ok` (and nothing else) for a supervisor's probe.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AlertGroup } from '../../common/paging/types';
import { INTAKE_LIMITS, intakeHttpStatus, isJsonContentType, parseAlertPost, type IntakeError } from '../../common/paging/intake';
import { systemClock, type Clock } from '../clock';
import { isLoopback } from '../ui/access';
import { listenOn, listenerUrl, readBody, reply, requestPath, sameSecretText } from '../net/inbound';

/** Bytes of one post: a group of 1,000 alerts (the intake's bound) of about 4 KiB each fits. */
export const MAX_ALERT_POST_BYTES = INTAKE_LIMITS.textChars;

/** Bytes of bodies read at once across all posts: a flood waits its turn (503, Retry-After) instead of filling memory. */
export const MAX_IN_FLIGHT_BYTES = 64 * 1024 * 1024;

/** A whole body must arrive within this (after its headers, which Node bounds itself). */
export const BODY_TIMEOUT_MS = 10_000;

/** Seconds a sender is asked to wait before sending again what was not taken (Alertmanager retries 5xx). */
export const RECEIVER_RETRY_AFTER_S = 5;

export const HEALTH_PATH = '/healthz';

/** What the paging engine says of a group it was handed. */
export interface AlertTaken {
  /** The incident the group opened or joined; null when it opened none (held, resolved with nothing open...). */
  incidentId: number | null;
  /** The group repeated what the incident already had (Alertmanager's repeat_interval). */
  duplicate?: boolean;
}

/** Where a group goes (the engine's `receive`): synchronous SQLite, or a promise; a throw means "not taken". */
export type ReceiveAlertGroup = (group: AlertGroup) => AlertTaken | Promise<AlertTaken>;

export interface ReceiverAuth {
  /** `Authorization: Bearer <token>` (Alertmanager's `http_config.authorization`, Grafana's authorization header). */
  bearer?: string | null;
  /** `Authorization: Basic ...` (Alertmanager's `http_config.basic_auth`, Grafana's basic authentication). */
  basic?: { username: string; password: string } | null;
}

export interface AlertReceiverOptions {
  /** An IP address of this machine (or localhost); default 127.0.0.1. */
  host?: string;
  /** 0: any free port. */
  port: number;
  /** The path secret (newPathSecret() once, then kept: the address given to Alertmanager does not change). */
  secret: string;
  /** When set, a post must carry one of these (either is accepted when both are set). */
  auth?: ReceiverAuth;
  receive: ReceiveAlertGroup;
  /** Where the body deadline is measured. Default systemClock. */
  clock?: Clock;
  log?: (error: unknown) => void;
  /** What /healthz says; default always healthy. */
  healthy?: () => boolean;
  /** Bounds, for tests and the bench; defaults above. */
  maxBodyBytes?: number;
  maxInFlightBytes?: number;
  bodyTimeoutMs?: number;
}

/** A warning the caller shows when the receiver listens beyond this machine (message code, both languages). */
export interface ReceiverWarning {
  code: 'paging.receiver.exposed';
  params: { host: string };
}

export interface AlertReceiver {
  host: string;
  port: number;
  /** The address Alertmanager or Grafana posts to (with the secret: keep it out of logs). */
  url: string;
  healthUrl: string;
  /** Set when the address is not loopback: show it. */
  warning: ReceiverWarning | null;
  close(): Promise<void>;
}

/** The warning for listening on `host`: null on loopback; else other machines can post alerts (and phone people). */
export function receiverWarning(host: string): ReceiverWarning | null {
  return isLoopback(host) ? null : { code: 'paging.receiver.exposed', params: { host } };
}

/** Every refusal's body: what was wrong, as codes (the intake's field and problem when it is the post). */
export type Refusal =
  | { error: 'not-found' | 'method-not-allowed' | 'unauthorized' | 'timeout' | 'busy' | 'not-taken' }
  | { error: 'alert-post-invalid'; field: string; problem: IntakeError['params']['problem']; limit?: number };

const JSON_TYPE = 'application/json; charset=utf-8';

function answer(res: ServerResponse, status: number, body: object, extra: Record<string, string | string[]> = {}): void {
  reply(res, status, JSON_TYPE, JSON.stringify(body), extra);
}

/** Refused before the body was read: the connection is closed, so nothing more of it is read. */
function refuse(res: ServerResponse, status: number, body: Refusal, extra: Record<string, string | string[]> = {}): void {
  answer(res, status, body, { Connection: 'close', ...extra });
}

function invalid(error: IntakeError): Refusal {
  const { field, problem, limit } = error.params;
  return limit === undefined ? { error: 'alert-post-invalid', field, problem } : { error: 'alert-post-invalid', field, problem, limit };
}

/** Whether the Authorization header carries one of the configured credentials. */
function authorized(header: string | undefined, auth: ReceiverAuth): boolean {
  if (typeof header !== 'string') return false;
  const m = /^\s*(\S+)\s+(\S+)\s*$/.exec(header);
  if (!m) return false;
  const scheme = m[1]!.toLowerCase();
  const value = m[2]!;
  let ok = false;
  // Both compared even when the first matches: the time does not tell which one is configured.
  if (auth.bearer) ok = sameSecretText(scheme === 'bearer' ? value : '', auth.bearer) || ok;
  if (auth.basic) {
    const given = scheme === 'basic' ? Buffer.from(value, 'base64').toString('utf8') : '';
    ok = sameSecretText(given, `${auth.basic.username}:${auth.basic.password}`) || ok;
  }
  return ok;
}

function challenges(auth: ReceiverAuth): string[] {
  const out: string[] = [];
  if (auth.bearer) out.push('Bearer realm="callout"');
  if (auth.basic) out.push('Basic realm="callout", charset="UTF-8"');
  return out;
}

/** Starts the receiver; rejects with the listen error (EADDRINUSE, EADDRNOTAVAIL, EACCES...). */
export async function startAlertReceiver(o: AlertReceiverOptions): Promise<AlertReceiver> {
  const host = o.host ?? '127.0.0.1';
  const clock = o.clock ?? systemClock;
  const maxBody = o.maxBodyBytes ?? MAX_ALERT_POST_BYTES;
  const budget = o.maxInFlightBytes ?? MAX_IN_FLIGHT_BYTES;
  const auth = o.auth && (o.auth.bearer || o.auth.basic) ? o.auth : null;
  const postPath = `/${o.secret}`;
  let inFlight = 0;
  // Posts reach `receive` one at a time, in the order their bodies were read.
  let queue: Promise<unknown> = Promise.resolve();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = requestPath(req);
    if (path === HEALTH_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
      const ok = o.healthy?.() ?? true;
      reply(res, ok ? 200 : 503, 'text/plain; charset=utf-8', ok ? 'ok' : 'not ok');
      return;
    }
    // Only the secret path exists: anything else learns nothing.
    if (!sameSecretText(path, postPath)) return refuse(res, 404, { error: 'not-found' });
    if (req.method !== 'POST') return refuse(res, 405, { error: 'method-not-allowed' }, { Allow: 'POST' });
    if (auth && !authorized(req.headers.authorization, auth)) return refuse(res, 401, { error: 'unauthorized' }, { 'WWW-Authenticate': challenges(auth) });
    const contentType = req.headers['content-type'];
    if (!contentType || !isJsonContentType(contentType))
      return refuse(res, 415, { error: 'alert-post-invalid', field: 'content-type', problem: 'content-type' });
    const declared = Number(req.headers['content-length']);
    const known = Number.isFinite(declared) && declared >= 0;
    if (known && declared > maxBody) return refuse(res, 413, { error: 'alert-post-invalid', field: '$', problem: 'too-large', limit: maxBody });
    // A body of unknown length may grow to the cap: it holds that much of the budget while it is read.
    const reserved = known ? declared : maxBody;
    if (inFlight + reserved > budget) return refuse(res, 503, { error: 'busy' }, { 'Retry-After': String(RECEIVER_RETRY_AFTER_S) });
    inFlight += reserved;
    let read;
    try {
      read = await readBody(req, { max: maxBody, clock, timeoutMs: o.bodyTimeoutMs ?? BODY_TIMEOUT_MS });
    } finally {
      inFlight -= reserved;
    }
    if (read === 'aborted') return;
    if (read === 'timeout') return refuse(res, 408, { error: 'timeout' });
    if (read === 'too-large') return refuse(res, 413, { error: 'alert-post-invalid', field: '$', problem: 'too-large', limit: maxBody });
    const parsed = parseAlertPost(read, contentType);
    if (!parsed.ok) return answer(res, intakeHttpStatus(parsed.error), invalid(parsed.error));
    const turn = queue.then(() => o.receive(parsed.group));
    queue = turn.catch(() => undefined);
    let taken: AlertTaken;
    try {
      taken = await turn;
    } catch (error) {
      // Not taken (the database locked, a full disk): the sender sends it again.
      o.log?.(error);
      return answer(res, 503, { error: 'not-taken' }, { 'Retry-After': String(RECEIVER_RETRY_AFTER_S) });
    }
    answer(res, 200, { ok: true, incidentId: taken.incidentId, duplicate: taken.duplicate === true });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      o.log?.(error);
      if (!res.headersSent && !res.destroyed) answer(res, 500, { error: 'not-taken' }, { Connection: 'close' });
      else res.destroy();
    });
  });
  const bound = await listenOn(server, host, o.port, { headersMs: 10_000, requestMs: 30_000 });
  return {
    host,
    port: bound.port,
    url: listenerUrl(host, bound.port, postPath),
    healthUrl: listenerUrl(host, bound.port, HEALTH_PATH),
    warning: receiverWarning(host),
    close: bound.close,
  };
}
