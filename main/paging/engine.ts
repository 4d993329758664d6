// Paging's engine (issue 25): an alert group becomes an incident, and an incident's escalation
// policy becomes calls — placed through the same send path as quick dial (CallService's send and
// awaitEnd), under the same per-number limits and quiet hours (main/dial/limits.ts).
//
// Durability. Everything an escalation waits for is a row first (paging_actions: "run step S of
// round R, person P, attempt A at T"), then a timer on the injected clock. A process that stops
// leaves its rows; `resume()` at the next start claims what fell due while it was down and runs it
// once, late (the step's record says how late). Two processes on one data directory (the app and
// `callout page serve`) claim each action in one IMMEDIATE transaction with their process owner
// (IncidentRepository.claimDue): only one runs it. A claim whose owner is gone is taken over; a
// call that owner started is then followed to its end if it got a message, and otherwise (it may
// have left, its outcome is unknown) the incident stops for a person to decide: never a second call.
//
// Incidents. The group's key is the incident (unique among open incidents): repeats and new alerts
// of a group add to it and never start a second escalation. "Resolved" (every alert of the group)
// resolves it and cancels its waiting actions; nobody is phoned about it, unless its route calls on
// resolution (common/paging/resolution.ts): then, in the same transaction, a paging action of kind
// 'resolution' is the promise, claimed like a step, and it calls each person who answered, once.
// An answer, an acknowledgement or a resolution stops the escalation; a call whose outcome is unknown
// stops it too.
import { nextCall } from '../../common/domain/outcomes';
import { callEnd } from '../../common/domain/status';
import type { CallResult, IncidentDetail, IncidentRecord } from '../../common/paging/records';
import { callsOnResolution, resolutionCallees, type ResolutionCallee } from '../../common/paging/resolution';
import type { AlertGroup, EscalationPolicy, MaintenanceWindow, PolicyStep, Route, Schedule } from '../../common/paging/types';
import type { MessageRecord } from '../../common/records';
import { reason } from '../../common/reasons';
import type { AwaitEnd, SendFn, SendLike } from '../bulk/queue';
import { systemClock, type Clock, type TimerHandle } from '../clock';
import { checkDial, policyFrom, type DialRefusal } from '../dial/limits';
import { claimDial } from '../dial/claims';
import { CalloutError, fail } from '../errors';
import { processOwner, type EscalationCursor, type IncidentRepository, type PagingAction } from '../store';
import type { AfterCall, HeldBy, OnCallAt, PagingContacts, PagingLimits, PagingPerson, RouteFor, Say } from './deps';

/** The configuration the engine reads (PagingConfigRepository). */
export interface PagingConfig {
  routes(): Route[];
  route(id: number): Route | undefined;
  policy(id: number): EscalationPolicy | undefined;
  schedule(id: number): Schedule | undefined;
  windowsAt(t: number): MaintenanceWindow[];
}

export interface PagingEngineOptions {
  incidents: IncidentRepository;
  config: PagingConfig;
  contacts: PagingContacts;
  limits: PagingLimits;
  /** The send path of quick dial: validates, writes pending, posts, records, follows. */
  send: SendFn;
  awaitEnd: AwaitEnd;
  /** The profile paging calls with. */
  profileId: () => string;
  routeFor: RouteFor;
  say: Say;
  heldBy: HeldBy;
  afterCall: AfterCall;
  onCallAt: OnCallAt;
  clock?: Clock;
  /** Who claims actions (default: this process). Tests give two engines in one process two owners. */
  owner?: string;
  /** Tells a live claim from one whose process is gone (default: process-owner.ts). */
  ownerAlive?: (owner: string | null) => boolean;
  /** How often to look for actions another process wrote or left (ms); 0: only this process's timers. Default 15 s. */
  pollMs?: number;
  /**
   * Whether this process runs steps (default true). A process that does not (a CLI command such as
   * `callout page test`) only writes the first step's row: the app or `callout page serve` claims it.
   */
  runsSteps?: boolean;
  /** An incident changed (opened, a call, acknowledged, resolved). */
  onChange?: (incident: IncidentRecord) => void;
  log?: (error: unknown) => void;
}

/**
 * How a followed call ended, for the escalation. The profile's dialect maps the provider's state
 * words to Callout's states (common/domain/status.ts: answered, no_answer, busy, rejected,
 * powered_off, unreachable, ...), and `duration` is the seconds of talk the provider reports with
 * the status or the receipt. `callEnd` says whether the call is over and answered: a call whose
 * send or following ended without a final state is 'unknown' (it may have been answered). An answer
 * shorter than `minAnsweredSeconds` (a voicemail box picks up and hangs up) counts as not answered;
 * an answer whose duration the provider did not report counts as answered (someone picked up).
 */
export function callResult(m: Pick<MessageRecord, 'outcome' | 'state' | 'endedAt' | 'duration'>, minAnsweredSeconds: number): CallResult {
  const end = callEnd(m);
  if (end === 'unknown') return 'unknown';
  if (end === 'answered') return minAnsweredSeconds > 0 && m.duration !== null && m.duration < minAnsweredSeconds ? 'short-answer' : 'answered';
  switch (m.state) {
    case 'no_answer':
      return 'no-answer';
    case 'busy':
      return 'busy';
    case 'rejected':
      return 'declined';
    case 'powered_off':
      return 'powered-off';
    case 'unreachable':
      return 'unreachable';
    default:
      return 'failed';
  }
}

/**
 * Every call's result once all of an action's calls settled; a write one of them could not make
 * fails the action only then. Until then the action is still running here (PagingEngine.runningIds):
 * a call still being placed or followed is never taken over and decided on meanwhile.
 */
async function allSettled<T>(calls: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(calls);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

/**
 * A write that must not be lost once a call may have left (its link to the message, its end, the
 * step's decision): a store that answers "busy" (another process writing; SQLite may say so at once
 * rather than after its busy wait) is asked again, twice, before the write is given up.
 */
function written<T>(write: () => T): T {
  for (let attempt = 1; ; attempt++) {
    try {
      return write();
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (attempt >= 3 || typeof code !== 'string' || !code.startsWith('SQLITE_BUSY')) throw error;
    }
  }
}

const FIRST: EscalationCursor = { round: 0, step: 0, person: 0, attempt: 1 };
const DEFAULT_POLL_MS = 15_000;
/** How long a resolution call waits for step calls still ringing when the alert resolved, and how often it looks again. */
const RESOLUTION_WAIT_MS = 10 * 60_000;
const RESOLUTION_RECHECK_MS = 15_000;

export class PagingEngine {
  private readonly clock: Clock;
  private readonly owner: string;
  private wake: { at: number; timer: TimerHandle } | null = null;
  private poll: TimerHandle | null = null;
  private readonly running = new Set<Promise<void>>();
  /** The actions this engine is running now (a claim of its own that is not among them failed: taken over at the next tick). */
  private readonly runningIds = new Set<number>();
  private readonly abort = new AbortController();
  private closed = false;

  constructor(private readonly o: PagingEngineOptions) {
    this.clock = o.clock ?? systemClock;
    this.owner = o.owner ?? processOwner();
  }

  /**
   * Takes a post (or paste) of alerts: a new incident and its escalation, or the open incident of
   * the same key (its alerts added; "resolved" ends it). Null when a resolution names no open
   * incident (nothing to end, nobody to phone).
   */
  receive(group: AlertGroup): IncidentRecord | null {
    const { incidents, config } = this.o;
    const now = this.clock.now();
    const out = incidents.atomically((): { incident: IncidentRecord; started: boolean } | null => {
      let open = incidents.openByKey(group.key);
      if (open && group.status === 'firing' && this.pageableNow(open, group, now)) {
        // Held by a window that has ended, or no route then and one now: the alert still fires, so the
        // held (or unrouted) incident is closed as it was, and a new one pages.
        incidents.resolve(open.id, null);
        incidents.cancelFor(open.id);
        open = undefined;
      }
      if (open) {
        incidents.addAlerts(open.id, group.alerts);
        incidents.keepGroup(open.id, group);
        let started = false;
        if (group.status === 'resolved') {
          const resolved = incidents.resolve(open.id, null);
          incidents.cancelFor(open.id);
          // The route's call on resolution: promised here, in the transaction that resolves it (once).
          const route = open.routeId !== null ? config.route(open.routeId) : undefined;
          if (resolved && callsOnResolution(route, 'alerts')) started = incidents.scheduleResolution(open.id, now);
        }
        return { incident: incidents.get(open.id)!, started };
      }
      if (group.status === 'resolved') return null;
      const base = { key: group.key, source: group.source, title: group.title, severity: group.severity, group };
      const held = this.o.heldBy(group, config.windowsAt(now), now);
      if (held) {
        const incident = incidents.open({ ...base, state: 'held', ended: 'held', routeId: null, policyId: null, heldBy: held.id });
        incidents.addAlerts(incident.id, group.alerts);
        return { incident, started: false };
      }
      const route = this.o.routeFor(group, config.routes());
      const policy = route ? config.policy(route.policyId) : undefined;
      if (!route || !policy || policy.steps.length === 0) {
        const incident = incidents.open({
          ...base,
          state: 'triggered',
          ended: 'no-route',
          routeId: route?.id ?? null,
          policyId: policy?.id ?? null,
          heldBy: null,
        });
        incidents.addAlerts(incident.id, group.alerts);
        return { incident, started: false };
      }
      const incident = incidents.open({ ...base, state: 'triggered', ended: null, routeId: route.id, policyId: policy.id, heldBy: null });
      incidents.addAlerts(incident.id, group.alerts);
      // The first step is a row before anything waits for it.
      incidents.schedule(incident.id, FIRST, now);
      return { incident, started: true };
    });
    if (!out) return null;
    this.changed(out.incident.id);
    if (out.started && this.o.runsSteps !== false) this.tick();
    return incidents.get(out.incident.id)!;
  }

  /** An incident that paged nobody (held, or no route) whose group would page now. */
  private pageableNow(open: IncidentRecord, group: AlertGroup, now: number): boolean {
    const { config } = this.o;
    if (open.ended !== 'held' && open.ended !== 'no-route') return false;
    if (this.o.heldBy(group, config.windowsAt(now), now)) return false;
    if (open.ended === 'held') return true;
    const route = this.o.routeFor(group, config.routes());
    const policy = route ? config.policy(route.policyId) : undefined;
    return Boolean(policy && policy.steps.length > 0);
  }

  /** A person acknowledged the incident: its escalation stops (a call ringing now is not recalled). */
  acknowledge(id: number, by: string): IncidentRecord {
    const { incidents } = this.o;
    const incident = this.require(id);
    const done = incidents.atomically(() => {
      const ok = incidents.acknowledge(id, by);
      if (ok) incidents.cancelFor(id);
      return ok;
    });
    if (!done) throw fail('paging', { kind: incident.resolvedAt !== null ? 'incident-resolved' : 'incident-acknowledged', id });
    this.changed(id);
    return incidents.get(id)!;
  }

  /** A person resolved the incident: it ends, its waiting steps are cancelled. */
  resolve(id: number, by: string): IncidentRecord {
    const { incidents } = this.o;
    this.require(id);
    const done = incidents.atomically(() => {
      const ok = incidents.resolve(id, by);
      if (ok) incidents.cancelFor(id);
      return ok;
    });
    if (!done) throw fail('paging', { kind: 'incident-resolved', id });
    this.changed(id);
    return incidents.get(id)!;
  }

  detail(id: number): IncidentDetail {
    const d = this.o.incidents.detail(id);
    if (!d) throw fail('paging', { kind: 'incident-not-found', id });
    return d;
  }

  /**
   * At start: runs what fell due while no process ran (once, late) and waits for the rest; then
   * keeps looking for actions another process wrote or left behind.
   */
  resume(): void {
    const pollMs = this.o.pollMs ?? DEFAULT_POLL_MS;
    if (pollMs > 0 && !this.poll) this.poll = this.clock.setInterval(() => this.tick(), pollMs).unref();
    this.tick();
  }

  /** Stops waiting (the rows stay for the next start); calls ringing now are left to their follower. */
  async close(): Promise<void> {
    this.closed = true;
    this.poll?.cancel();
    this.wake?.timer.cancel();
    this.wake = null;
    this.abort.abort();
    await Promise.all([...this.running].map((p) => p.catch(() => undefined)));
  }

  /** Claims and runs every due action, then waits for the next. */
  tick(): void {
    if (this.closed) return;
    let claimed: PagingAction[] = [];
    try {
      claimed = this.o.incidents.claimDue(this.owner, this.clock.now(), this.o.ownerAlive, (id) => this.runningIds.has(id));
    } catch (error) {
      this.o.log?.(error);
    }
    for (const action of claimed) {
      this.runningIds.add(action.id);
      const p = this.run(action).catch((error: unknown) => {
        if (!this.closed) this.o.log?.(error);
      });
      this.running.add(p);
      void p.finally(() => {
        this.running.delete(p);
        this.runningIds.delete(action.id);
      });
    }
    this.arm();
  }

  // ------------------------------------------------------------ internals

  private arm(): void {
    if (this.closed) return;
    const next = this.o.incidents.nextDue();
    if (next === null) {
      this.wake?.timer.cancel();
      this.wake = null;
      return;
    }
    if (this.wake && this.wake.at === next) return;
    this.wake?.timer.cancel();
    this.wake = {
      at: next,
      timer: this.clock
        .wakeAt(next, () => {
          this.wake = null;
          this.tick();
        })
        .unref(),
    };
  }

  private require(id: number): IncidentRecord {
    const incident = this.o.incidents.get(id);
    if (!incident) throw fail('paging', { kind: 'incident-not-found', id });
    return incident;
  }

  private changed(id: number): void {
    const incident = this.o.incidents.get(id);
    if (!incident) return;
    try {
      this.o.onChange?.(incident);
    } catch (error) {
      this.o.log?.(error);
    }
  }

  /** Still escalating: not ended, acknowledged or resolved. */
  private escalating(id: number): IncidentRecord | null {
    const incident = this.o.incidents.get(id);
    return incident && incident.ended === null && incident.state === 'triggered' ? incident : null;
  }

  /** Who a step calls, as it runs now. */
  private people(step: PolicyStep, at: number): PagingPerson[] {
    const { contacts } = this.o;
    const t = step.target;
    const ids: readonly number[] =
      t.kind === 'contact'
        ? [t.contactId]
        : t.kind === 'group'
          ? (contacts.group(t.groupId)?.memberIds ?? [])
          : (() => {
              const schedule = this.o.config.schedule(t.scheduleId);
              const who = schedule ? this.o.onCallAt(schedule, at) : null;
              return who === null ? [] : [who];
            })();
    return ids.flatMap((id) => {
      const p = contacts.get(id);
      return p ? [p] : [];
    });
  }

  private async run(action: PagingAction): Promise<void> {
    if (action.kind === 'resolution') return this.runResolution(action);
    const { incidents } = this.o;
    const incident = this.escalating(action.incidentId);
    if (!incident) {
      // Taken over from a process that is gone after the incident ended: a call it left ringing is
      // followed to its end, never placed again (an answer counts for the resolution call).
      const ringing = action.takenOver ? incidents.callsOf(action.id).filter((call) => call.result === null) : [];
      if (ringing.length > 0) {
        const ended = incidents.get(action.incidentId);
        const minAnswered = (ended?.policyId != null ? this.o.config.policy(ended.policyId)?.minAnsweredSeconds : undefined) ?? 0;
        await allSettled(
          ringing.map((call) => {
            if (call.messageId !== null) return this.follow(call.id, call.messageId, minAnswered);
            incidents.updateCall(call.id, { result: 'unknown', reason: reason('interrupted', {}), endedAt: this.clock.now() });
            return Promise.resolve<CallResult>('unknown');
          }),
        );
        this.changed(action.incidentId);
      }
      written(() => incidents.finish(action.id));
      this.arm();
      return;
    }
    const route = incident.routeId !== null ? this.o.config.route(incident.routeId) : undefined;
    const policy = incident.policyId !== null ? this.o.config.policy(incident.policyId) : undefined;
    const group = incidents.lastGroup(incident.id);
    const c = action.cursor;
    const step = policy?.steps[c.step];
    if (!route || !policy || !step || !group) {
      incidents.atomically(() => {
        incidents.end(incident.id, 'no-route');
        incidents.finish(action.id);
      });
      this.changed(incident.id);
      return;
    }

    let results: CallResult[];
    let people: PagingPerson[];
    // An action taken over from a process that is gone (or left by a decision this process could not
    // write) may have placed its calls already: then it places none, and decides on all of them —
    // those that ended (one answered: the escalation is over) and those still going, followed to their
    // end. One that may have left without a message to follow is unknown: nobody is called again.
    const placed = action.takenOver ? incidents.callsOf(action.id) : [];
    if (placed.length > 0) {
      people = this.people(step, this.clock.now());
      results = await allSettled(
        placed.map((call) =>
          call.result !== null
            ? Promise.resolve<CallResult>(call.result)
            : call.messageId === null
              ? Promise.resolve<CallResult>('unknown')
              : this.follow(call.id, call.messageId, policy.minAnsweredSeconds),
        ),
      );
      for (const call of placed)
        if (call.result === null && call.messageId === null)
          incidents.updateCall(call.id, { result: 'unknown', reason: reason('interrupted', {}), endedAt: this.clock.now() });
    } else {
      people = this.people(step, this.clock.now());
      const batch = step.target.kind === 'group' && step.target.mode === 'all-at-once' ? people : people.slice(c.person, c.person + 1);
      // A per-minute limit frees within the minute: the action waits for it (the same people, the same
      // attempt, later) rather than skipping someone the escalation is about to need. Nothing is placed
      // before the wait, so a restart during it runs the action once, when it falls due.
      const freesAt = this.perMinuteWait(incident, route, batch);
      if (freesAt !== null) {
        written(() =>
          incidents.atomically(() => {
            incidents.finish(action.id);
            if (this.escalating(incident.id)) incidents.schedule(incident.id, c, freesAt);
          }),
        );
        this.changed(incident.id);
        this.arm();
        return;
      }
      if (c.person === 0 && c.attempt === 1) incidents.addStep(incident.id, { round: c.round, stepIndex: c.step, dueAt: action.dueAt });
      results = await allSettled(batch.map((person) => this.place(incident, route, policy.minAnsweredSeconds, group, action, person)));
      this.changed(incident.id);
    }
    this.decide(incident.id, action, policy, step, people.length, results);
  }

  /**
   * The resolution calls of a resolved incident (its route calls on resolution): one to each person
   * who answered a call of it, placed and followed like a step's, under the same limits and quiet
   * hours (a refused one is recorded, never tried again). Taken over from a process that is gone,
   * a call it began is never placed again (followed if it has a message, else unknown); only the
   * people it had not come to are called.
   */
  private async runResolution(action: PagingAction): Promise<void> {
    const { incidents } = this.o;
    const incident = incidents.get(action.incidentId);
    const route = incident?.routeId != null ? this.o.config.route(incident.routeId) : undefined;
    const group = incidents.lastGroup(action.incidentId);
    // A step's call still ringing when the alert resolved may yet be answered: its person knows too.
    // Wait for it (a while at most: a call that is never settled does not hold the promise forever).
    const now = this.clock.now();
    if (incident && incidents.callsInFlight(incident.id) > 0 && now - (incident.resolvedAt ?? now) < RESOLUTION_WAIT_MS) {
      written(() => incidents.postpone(action.id, now + RESOLUTION_RECHECK_MS));
      this.arm();
      return;
    }
    const people = resolutionCallees(incidents.calls(action.incidentId));
    if (!incident || !route || !group || people.length === 0) {
      written(() =>
        incidents.atomically(() => {
          // The route gone is said first: with it, nobody would be called whoever had answered.
          if (incident) incidents.setResolutionCall(incident.id, route && people.length === 0 ? 'nobody-answered' : 'no-route');
          incidents.finish(action.id);
        }),
      );
      this.changed(action.incidentId);
      return;
    }
    const policy = incident.policyId !== null ? this.o.config.policy(incident.policyId) : undefined;
    const minAnswered = policy?.minAnsweredSeconds ?? 0;
    const placed = action.takenOver ? incidents.callsOf(action.id) : [];
    const settled = (call: (typeof placed)[number]): Promise<CallResult> => {
      if (call.result !== null) return Promise.resolve(call.result);
      if (call.messageId !== null) return this.follow(call.id, call.messageId, minAnswered);
      incidents.updateCall(call.id, { result: 'unknown', reason: reason('interrupted', {}), endedAt: this.clock.now() });
      return Promise.resolve('unknown');
    };
    const toCall = people.filter((p) => !placed.some((c) => c.mobile === p.mobile));
    // Held back only by the per-minute limit (the answered call was moments ago): wait for the minute
    // rather than refuse the one call promised. Nothing is placed before the wait.
    const freesAt = placed.length === 0 ? this.perMinuteWait(incident, route, toCall) : null;
    if (freesAt !== null) {
      written(() => incidents.postpone(action.id, freesAt));
      this.arm();
      return;
    }
    written(() => incidents.setResolutionCall(incident.id, 'placed'));
    const results = await allSettled([
      ...placed.map(settled),
      ...toCall.map((person: ResolutionCallee) =>
        this.place(incident, route, minAnswered, group, action, { id: person.contactId, name: person.name, mobile: person.mobile }, true),
      ),
    ]);
    written(() =>
      incidents.atomically(() => {
        // Every one refused (limits, quiet hours): the incident must not say anyone was called.
        if (results.length > 0 && results.every((r) => r === 'refused')) incidents.setResolutionCall(incident.id, 'refused');
        incidents.finish(action.id);
      }),
    );
    this.changed(incident.id);
    this.arm();
  }

  /** After the action's calls: stop, or write the next action (in one transaction with this one's end). */
  private decide(incidentId: number, action: PagingAction, policy: EscalationPolicy, step: PolicyStep, peopleCount: number, results: CallResult[]): void {
    const { incidents } = this.o;
    const c = action.cursor;
    const now = this.clock.now();
    const allAtOnce = step.target.kind === 'group' && step.target.mode === 'all-at-once';
    let next: { cursor: EscalationCursor; at: number } | null = null;
    let end: 'answered' | 'unknown-call' | 'exhausted' | null = null;
    if (results.includes('answered')) end = 'answered';
    else if (results.includes('unknown')) end = 'unknown-call';
    else {
      const nextStep = (): void => {
        const at = now + step.pauseSeconds * 1000;
        if (c.step + 1 < policy.steps.length) next = { cursor: { round: c.round, step: c.step + 1, person: 0, attempt: 1 }, at };
        else if (c.round < policy.repeat) next = { cursor: { round: c.round + 1, step: 0, person: 0, attempt: 1 }, at };
        else end = 'exhausted';
      };
      const nextPerson = (): void => {
        if (!allAtOnce && c.person + 1 < peopleCount) next = { cursor: { ...c, person: c.person + 1, attempt: 1 }, at: now };
        else nextStep();
      };
      // The rule of the policy: a refused or failed call moves on; otherwise the result decides.
      const decisions = results.map((r) =>
        r === 'refused' || r === 'failed' ? 'next-person' : this.o.afterCall(step, c.attempt, r as Exclude<CallResult, 'answered' | 'unknown'>),
      );
      if (decisions.length === 0) nextPerson();
      else if (decisions.includes('retry')) next = { cursor: { ...c, attempt: c.attempt + 1 }, at: now + step.retrySeconds * 1000 };
      else if (decisions.every((d) => d === 'stop')) end = 'exhausted';
      else nextPerson();
    }
    written(() =>
      incidents.atomically(() => {
        incidents.finish(action.id);
        // Acknowledged or resolved while the call rang: nothing more.
        if (!this.escalating(incidentId)) return;
        if (end) incidents.end(incidentId, end);
        else if (next) incidents.schedule(incidentId, next.cursor, next.at);
      }),
    );
    this.changed(incidentId);
    this.arm();
  }

  /** Per-number limits and quiet hours, as for quick dial; the route lets some severities through quiet hours. */
  private refusals(
    incident: IncidentRecord,
    route: Route,
    person: { mobile: string },
    now: number,
    callTimes = this.o.limits.callTimes(person.mobile, now - 86_400_000),
  ): DialRefusal[] {
    const refusals = checkDial(policyFrom(this.o.limits.effective(this.o.profileId())), person.mobile, callTimes, now);
    return incident.severity !== null && route.throughQuietHours.includes(incident.severity) ? refusals.filter((r) => r.limit !== 'quiet-hours') : refusals;
  }

  /** When the people about to be called are held back by nothing but the per-minute limit: when the last of them is free (null: nobody waits). */
  private perMinuteWait(incident: IncidentRecord, route: Route, batch: readonly { mobile: string }[]): number | null {
    const now = this.clock.now();
    let at: number | null = null;
    for (const person of batch) {
      const refusals = this.refusals(incident, route, person, now);
      if (refusals.length === 0 || refusals.some((r) => r.limit !== 'per-minute')) continue;
      const freesAt = Math.max(...refusals.map((r) => r.freesAt));
      if (Number.isFinite(freesAt)) at = Math.max(at ?? freesAt, freesAt);
    }
    return at;
  }

  /** One call: its row first, then the limits, then the send, then its end. */
  private async place(
    incident: IncidentRecord,
    route: Route,
    minAnsweredSeconds: number,
    group: AlertGroup,
    action: PagingAction,
    person: { id: number | null; name: string | null; mobile: string },
    resolution = false,
  ): Promise<CallResult> {
    const { incidents } = this.o;
    const c = action.cursor;
    const callId = incidents.addCall({
      incidentId: incident.id,
      actionId: action.id,
      round: c.round,
      stepIndex: c.step,
      attempt: c.attempt,
      contactId: person.id,
      name: person.name,
      mobile: person.mobile,
      dueAt: action.dueAt,
      resolution,
    });
    const profileId = this.o.profileId();
    const now = this.clock.now();
    // The call's place in the limits is held until its send returns: another dialer meanwhile counts it.
    const claim = claimDial(this.o.limits, person.mobile, now, (times) => this.refusals(incident, route, person, now, times), this.o.log);
    const refusals = claim.refusals;
    if (refusals.length > 0) {
      incidents.updateCall(callId, { result: 'refused', refusal: refusals[0]!.limit, endedAt: now });
      return 'refused';
    }
    let sent: SendLike;
    try {
      const text = this.o.say(route, group);
      sent = await this.o.send(profileId, { mobile: person.mobile, content: text.content, templateId: text.templateId });
    } catch (error) {
      // Refused before it could leave (a local check): nothing was placed. Anything else may have left.
      const local = error instanceof CalloutError;
      if (!local) this.o.log?.(error);
      incidents.updateCall(callId, {
        result: local ? 'failed' : 'unknown',
        reason: local ? reason('refused', { error: error.code }) : reason('internal', {}),
        endedAt: this.clock.now(),
      });
      return local ? 'failed' : 'unknown';
    } finally {
      claim.release();
    }
    const m = sent.message;
    written(() => incidents.updateCall(callId, { messageId: m.id, smsid: m.smsid, state: m.state }));
    const kind = nextCall({ outcome: m.outcome, code: m.code, failure: sent.failure });
    if (kind.kind === 'unknown') {
      incidents.updateCall(callId, { result: 'unknown', reason: m.reason ?? sent.failure?.reason ?? null, endedAt: this.clock.now() });
      return 'unknown';
    }
    if (kind.kind !== 'accepted') {
      incidents.updateCall(callId, { result: 'failed', reason: m.reason ?? sent.failure?.reason ?? null, endedAt: this.clock.now() });
      return 'failed';
    }
    this.changed(incident.id);
    return this.follow(callId, m.id, minAnsweredSeconds);
  }

  /** Waits for a placed call's end and records it. */
  private async follow(callId: number, messageId: number, minAnsweredSeconds: number): Promise<CallResult> {
    let final: MessageRecord | null;
    try {
      final = await this.o.awaitEnd(messageId, this.abort.signal);
    } catch {
      final = null;
    }
    // Closing: the call's end is left to the next start (its row stays unsettled, its action claimed).
    if (this.closed) throw new Error('paging engine closed');
    const result: CallResult = final ? callResult(final, minAnsweredSeconds) : 'unknown';
    written(() =>
      this.o.incidents.updateCall(callId, {
        smsid: final?.smsid ?? null,
        state: final?.state ?? null,
        duration: final?.duration ?? null,
        result,
        reason: final?.reason ?? null,
        endedAt: final?.endedAt ?? this.clock.now(),
      }),
    );
    return result;
  }
}
