// Paging's incidents (issue 25): each incident, its alerts, the steps and calls of its escalation,
// and the escalation's pending actions — what must survive a restart or be seen by a second process
// sharing the data directory (the app and `callout page serve`).
import type { Database } from 'better-sqlite3';
import type {
  CallResult,
  ResolutionCall,
  IncidentAlertRecord,
  IncidentCallRecord,
  IncidentDetail,
  IncidentRecord,
  IncidentStepRecord,
} from '../../common/paging/records';
import type { Alert, AlertGroup, AlertSource, IncidentEnd, IncidentState } from '../../common/paging/types';
import type { CallState } from '../../common/domain/status';
import type { LimitKind } from '../../common/bulk-types';
import type { Reason } from '../../common/reasons';
import { ownerAlive } from './process-owner';
import { systemClock } from '../clock';

interface IncidentRow {
  id: number;
  key: string;
  source: AlertSource;
  title: string;
  severity: string | null;
  state: IncidentState;
  ended: IncidentEnd | null;
  route_id: number | null;
  policy_id: number | null;
  held_by: number | null;
  last_group: string;
  opened_at: number;
  updated_at: number;
  acknowledged_by: string | null;
  acknowledged_at: number | null;
  resolved_by: string | null;
  resolved_at: number | null;
  resolution_call: ResolutionCall | null;
}

const toIncident = (r: IncidentRow): IncidentRecord => ({
  id: r.id,
  key: r.key,
  source: r.source,
  title: r.title,
  severity: r.severity,
  state: r.state,
  ended: r.ended,
  routeId: r.route_id,
  policyId: r.policy_id,
  heldBy: r.held_by,
  openedAt: r.opened_at,
  updatedAt: r.updated_at,
  acknowledgedBy: r.acknowledged_by,
  acknowledgedAt: r.acknowledged_at,
  resolvedBy: r.resolved_by,
  resolvedAt: r.resolved_at,
  resolutionCall: r.resolution_call,
});

interface CallRow {
  id: number;
  resolution: number;
  round: number;
  step_index: number;
  attempt: number;
  contact_id: number | null;
  name: string | null;
  mobile: string;
  message_id: number | null;
  smsid: string | null;
  state: CallState | null;
  duration: number | null;
  result: CallResult | null;
  reason: string | null;
  refusal: LimitKind | null;
  due_at: number;
  started_at: number;
  ended_at: number | null;
}

const toCall = (r: CallRow): IncidentCallRecord => ({
  id: r.id,
  resolution: r.resolution === 1,
  round: r.round,
  stepIndex: r.step_index,
  attempt: r.attempt,
  contactId: r.contact_id,
  name: r.name,
  mobile: r.mobile,
  messageId: r.message_id,
  smsid: r.smsid,
  state: r.state,
  duration: r.duration,
  result: r.result,
  reason: r.reason === null ? null : (JSON.parse(r.reason) as Reason),
  refusal: r.refusal,
  dueAt: r.due_at,
  startedAt: r.started_at,
  endedAt: r.ended_at,
});

/** Where an escalation stands: the next thing it does when its action falls due. */
export interface EscalationCursor {
  /** 0 for the first run of the policy, 1.. for its repeats. */
  round: number;
  step: number;
  /** Which person of the step (one by one). */
  person: number;
  attempt: number;
}

/** What a paging action does: an escalation's step (or attempt), or the resolution calls of a resolved incident. */
export type PagingActionKind = 'step' | 'resolution';

export interface PagingAction {
  id: number;
  kind: PagingActionKind;
  incidentId: number;
  cursor: EscalationCursor;
  dueAt: number;
  /** The claim was taken over from a process that is gone (it may have started a call). */
  takenOver: boolean;
}

export interface NewIncident {
  key: string;
  source: AlertSource;
  title: string;
  severity: string | null;
  state: IncidentState;
  ended: IncidentEnd | null;
  routeId: number | null;
  policyId: number | null;
  heldBy: number | null;
  group: AlertGroup;
}

export interface NewCall {
  incidentId: number;
  actionId: number | null;
  round: number;
  stepIndex: number;
  attempt: number;
  contactId: number | null;
  name: string | null;
  mobile: string;
  dueAt: number;
  /** A call on resolution (not a step's). */
  resolution?: boolean;
}

export interface CallUpdate {
  messageId?: number | null;
  smsid?: string | null;
  state?: CallState | null;
  duration?: number | null;
  result?: CallResult | null;
  reason?: Reason | null;
  refusal?: LimitKind | null;
  endedAt?: number | null;
}

export class IncidentRepository {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = () => systemClock.now(),
  ) {}

  /** Runs `fn` in one IMMEDIATE transaction: another process's write waits (the store's busy wait). */
  atomically<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  // ------------------------------------------------------------ incidents

  /** The incident not yet resolved with this key. */
  openByKey(key: string): IncidentRecord | undefined {
    const r = this.db.prepare('SELECT * FROM incidents WHERE key = ? AND resolved_at IS NULL').get(key) as IncidentRow | undefined;
    return r && toIncident(r);
  }

  get(id: number): IncidentRecord | undefined {
    const r = this.db.prepare('SELECT * FROM incidents WHERE id = ?').get(id) as IncidentRow | undefined;
    return r && toIncident(r);
  }

  /** Newest first; `held`: only those a maintenance window held. */
  list(q: { limit?: number; open?: boolean; held?: boolean } = {}): IncidentRecord[] {
    const where = [q.open ? 'resolved_at IS NULL' : null, q.held ? 'held_by IS NOT NULL' : null].filter(Boolean);
    const sql = `SELECT * FROM incidents ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY opened_at DESC, id DESC LIMIT ?`;
    return (this.db.prepare(sql).all(q.limit ?? 200) as IncidentRow[]).map(toIncident);
  }

  open(f: NewIncident): IncidentRecord {
    const at = this.now();
    const info = this.db
      .prepare(
        'INSERT INTO incidents (key, source, title, severity, state, ended, route_id, policy_id, held_by, last_group, opened_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(f.key, f.source, f.title, f.severity, f.state, f.ended, f.routeId, f.policyId, f.heldBy, JSON.stringify(f.group), at, at);
    return this.get(Number(info.lastInsertRowid))!;
  }

  /** The latest post of the incident's group (what the call says is made from it). */
  lastGroup(id: number): AlertGroup | undefined {
    const r = this.db.prepare('SELECT last_group FROM incidents WHERE id = ?').get(id) as { last_group: string } | undefined;
    return r && (JSON.parse(r.last_group) as AlertGroup);
  }

  /** Keeps a later post of the group as the latest. */
  keepGroup(id: number, group: AlertGroup): void {
    this.db.prepare('UPDATE incidents SET last_group = ? WHERE id = ?').run(JSON.stringify(group), id);
  }

  /** Adds the alerts not seen before (same fingerprint, status and start): how many were new. */
  addAlerts(incidentId: number, alerts: readonly Alert[]): number {
    const at = this.now();
    const add = this.db.prepare(
      'INSERT OR IGNORE INTO incident_alerts (incident_id, fingerprint, status, starts_at, alert, received_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    let added = 0;
    for (const a of alerts) added += add.run(incidentId, a.fingerprint, a.status, a.startsAt, JSON.stringify(a), at).changes;
    if (added) this.db.prepare('UPDATE incidents SET updated_at = ? WHERE id = ?').run(at, incidentId);
    return added;
  }

  /** Ends the escalation (how), unless it already ended. True when this call ended it. */
  end(id: number, ended: IncidentEnd): boolean {
    return this.db.prepare('UPDATE incidents SET ended = ?, updated_at = ? WHERE id = ? AND ended IS NULL').run(ended, this.now(), id).changes > 0;
  }

  acknowledge(id: number, by: string): boolean {
    const at = this.now();
    return (
      this.db
        .prepare(
          `UPDATE incidents SET state = 'acknowledged', acknowledged_by = ?, acknowledged_at = ?, ended = coalesce(ended, 'acknowledged'), updated_at = ? WHERE id = ? AND state IN ('triggered', 'held')`,
        )
        .run(by, at, at, id).changes > 0
    );
  }

  /** Resolves it: by a person (`by`), or by its alerts (null). */
  resolve(id: number, by: string | null): boolean {
    const at = this.now();
    return (
      this.db
        .prepare(
          `UPDATE incidents SET state = 'resolved', resolved_by = ?, resolved_at = ?, ended = coalesce(ended, 'resolved'), updated_at = ? WHERE id = ? AND resolved_at IS NULL`,
        )
        .run(by, at, at, id).changes > 0
    );
  }

  detail(id: number): IncidentDetail | undefined {
    const incident = this.get(id);
    if (!incident) return undefined;
    const alerts = (
      this.db.prepare('SELECT * FROM incident_alerts WHERE incident_id = ? ORDER BY id').all(id) as {
        id: number;
        fingerprint: string;
        status: 'firing' | 'resolved';
        starts_at: number | null;
        received_at: number;
        alert: string;
      }[]
    ).map((a): IncidentAlertRecord => ({
      id: a.id,
      fingerprint: a.fingerprint,
      status: a.status,
      startsAt: a.starts_at,
      receivedAt: a.received_at,
      alert: JSON.parse(a.alert) as Alert,
    }));
    const steps = (
      this.db.prepare('SELECT * FROM incident_steps WHERE incident_id = ? ORDER BY id').all(id) as {
        id: number;
        round: number;
        step_index: number;
        due_at: number;
        started_at: number;
        late_ms: number;
      }[]
    ).map((s): IncidentStepRecord => ({ id: s.id, round: s.round, stepIndex: s.step_index, dueAt: s.due_at, startedAt: s.started_at, lateMs: s.late_ms }));
    const next = this.db
      .prepare(`SELECT min(due_at) AS at FROM paging_actions WHERE incident_id = ? AND state IN ('pending', 'claimed') AND kind = 'step'`)
      .get(id) as {
      at: number | null;
    };
    return { incident, alerts, steps, calls: this.calls(id), nextAt: next.at };
  }

  // ------------------------------------------------------------ steps and calls

  /** A step of the escalation started: written once per round and step (a step taken over after a failed run is not listed twice). */
  addStep(incidentId: number, s: { round: number; stepIndex: number; dueAt: number }): void {
    const at = this.now();
    this.db
      .prepare(
        `INSERT INTO incident_steps (incident_id, round, step_index, due_at, started_at, late_ms) SELECT ?, ?, ?, ?, ?, ?
         WHERE NOT EXISTS (SELECT 1 FROM incident_steps WHERE incident_id = ? AND round = ? AND step_index = ?)`,
      )
      .run(incidentId, s.round, s.stepIndex, s.dueAt, at, Math.max(0, at - s.dueAt), incidentId, s.round, s.stepIndex);
  }

  calls(incidentId: number): IncidentCallRecord[] {
    return (this.db.prepare('SELECT * FROM incident_calls WHERE incident_id = ? ORDER BY id').all(incidentId) as CallRow[]).map(toCall);
  }

  /** Written before the request leaves: a process that dies after it leaves the row behind. */
  addCall(c: NewCall): number {
    const info = this.db
      .prepare(
        'INSERT INTO incident_calls (incident_id, action_id, round, step_index, attempt, contact_id, name, mobile, due_at, started_at, resolution) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(c.incidentId, c.actionId, c.round, c.stepIndex, c.attempt, c.contactId, c.name, c.mobile, c.dueAt, this.now(), c.resolution ? 1 : 0);
    return Number(info.lastInsertRowid);
  }

  updateCall(id: number, u: CallUpdate): void {
    const cols: string[] = [];
    const values: unknown[] = [];
    const set = (col: string, v: unknown) => {
      cols.push(`${col} = ?`);
      values.push(v);
    };
    if (u.messageId !== undefined) set('message_id', u.messageId);
    if (u.smsid !== undefined) set('smsid', u.smsid);
    if (u.state !== undefined) set('state', u.state);
    if (u.duration !== undefined) set('duration', u.duration);
    if (u.result !== undefined) set('result', u.result);
    if (u.reason !== undefined) set('reason', u.reason === null ? null : JSON.stringify(u.reason));
    if (u.refusal !== undefined) set('refusal', u.refusal);
    if (u.endedAt !== undefined) set('ended_at', u.endedAt);
    if (!cols.length) return;
    this.db.prepare(`UPDATE incident_calls SET ${cols.join(', ')} WHERE id = ?`).run(...values, id);
  }

  /** Calls an action started whose result is not recorded (a process died while they rang). */
  /** Every call an action placed (or began to place), settled or not, in order. */
  callsOf(actionId: number): IncidentCallRecord[] {
    return (this.db.prepare('SELECT * FROM incident_calls WHERE action_id = ? ORDER BY id').all(actionId) as CallRow[]).map(toCall);
  }

  /** The incident a call (its message) was placed for: History links a call to it. */
  incidentOfMessage(messageId: number): number | null {
    const r = this.db.prepare('SELECT incident_id AS id FROM incident_calls WHERE message_id = ?').get(messageId) as { id: number } | undefined;
    return r?.id ?? null;
  }

  // ------------------------------------------------------------ pending actions

  /** Writes the escalation's next action (committed before anything waits for it). */
  schedule(incidentId: number, cursor: EscalationCursor, dueAt: number): number {
    const info = this.db
      .prepare(`INSERT INTO paging_actions (incident_id, cursor, due_at, created_at) VALUES (?, ?, ?, ?)`)
      .run(incidentId, JSON.stringify(cursor), dueAt, this.now());
    return Number(info.lastInsertRowid);
  }

  /**
   * Promises the resolution calls of a resolved incident: an action of kind 'resolution', due at
   * `dueAt`, and the incident's record says 'due' — only once per incident (a second promise is
   * not written: false).
   */
  scheduleResolution(incidentId: number, dueAt: number): boolean {
    const marked = this.db.prepare(`UPDATE incidents SET resolution_call = 'due' WHERE id = ? AND resolution_call IS NULL`).run(incidentId).changes > 0;
    if (!marked) return false;
    this.db
      .prepare(`INSERT INTO paging_actions (incident_id, kind, cursor, due_at, created_at) VALUES (?, 'resolution', ?, ?, ?)`)
      .run(incidentId, JSON.stringify({ round: 0, step: 0, person: 0, attempt: 1 } satisfies EscalationCursor), dueAt, this.now());
    return true;
  }

  /** How many of the incident's step calls are still being placed or followed (their action not done): their answer is not known yet. */
  callsInFlight(incidentId: number): number {
    return (
      this.db
        .prepare(
          `SELECT count(*) AS n FROM incident_calls c JOIN paging_actions a ON a.id = c.action_id
           WHERE c.incident_id = ? AND c.resolution = 0 AND c.result IS NULL AND a.state = 'claimed'`,
        )
        .get(incidentId) as { n: number }
    ).n;
  }

  /** Puts a claimed action back to wait until `dueAt` (it did nothing yet). */
  postpone(actionId: number, dueAt: number): void {
    this.db.prepare(`UPDATE paging_actions SET state = 'pending', owner = NULL, claimed_at = NULL, due_at = ? WHERE id = ?`).run(dueAt, actionId);
  }

  /** Records what became of the incident's resolution call. */
  setResolutionCall(incidentId: number, what: ResolutionCall): void {
    this.db.prepare('UPDATE incidents SET resolution_call = ?, updated_at = ? WHERE id = ?').run(what, this.now(), incidentId);
  }

  /**
   * Claims every action due at `at` — pending ones, and claims whose owner is gone — for `owner`,
   * in one IMMEDIATE transaction: of two processes on one data directory, only one gets each.
   */
  claimDue(
    owner: string,
    at: number,
    alive: (owner: string | null) => boolean = ownerAlive,
    runningHere: (actionId: number) => boolean = () => true,
  ): PagingAction[] {
    return this.atomically(() => {
      const rows = this.db
        .prepare(
          `SELECT id, kind, incident_id, cursor, due_at, state, owner FROM paging_actions WHERE state IN ('pending', 'claimed') AND due_at <= ? ORDER BY due_at, id`,
        )
        .all(at) as { id: number; kind: PagingActionKind; incident_id: number; cursor: string; due_at: number; state: string; owner: string | null }[];
      const claim = this.db.prepare(`UPDATE paging_actions SET state = 'claimed', owner = ?, claimed_at = ? WHERE id = ?`);
      const out: PagingAction[] = [];
      for (const r of rows) {
        const takenOver = r.state === 'claimed';
        // A claim of this owner's is its own business while it runs; one whose run failed (a write
        // it could not make) is taken over like a dead process's, deciding on the calls it placed.
        if (takenOver && (r.owner === owner ? runningHere(r.id) : alive(r.owner))) continue;
        claim.run(owner, at, r.id);
        out.push({ id: r.id, kind: r.kind, incidentId: r.incident_id, cursor: JSON.parse(r.cursor) as EscalationCursor, dueAt: r.due_at, takenOver });
      }
      return out;
    });
  }

  /** The action ran (or was given up): done. */
  finish(actionId: number): void {
    this.db.prepare(`UPDATE paging_actions SET state = 'done', done_at = ? WHERE id = ?`).run(this.now(), actionId);
  }

  /** Cancels the incident's waiting steps (a running one finishes its call, then stops); a resolution call's promise stays. */
  cancelFor(incidentId: number): number {
    return this.db
      .prepare(`UPDATE paging_actions SET state = 'cancelled', done_at = ? WHERE incident_id = ? AND state = 'pending' AND kind = 'step'`)
      .run(this.now(), incidentId).changes;
  }

  /** When the earliest pending action falls due. */
  nextDue(): number | null {
    return (this.db.prepare(`SELECT min(due_at) AS at FROM paging_actions WHERE state = 'pending'`).get() as { at: number | null }).at;
  }

  pendingCount(incidentId?: number): number {
    const r = (
      incidentId === undefined
        ? this.db.prepare(`SELECT count(*) AS n FROM paging_actions WHERE state = 'pending'`).get()
        : this.db.prepare(`SELECT count(*) AS n FROM paging_actions WHERE state = 'pending' AND incident_id = ?`).get(incidentId)
    ) as { n: number };
    return r.n;
  }
}
