// On-call quick dial: call a person, "until answered" (repeat with a pause, up to N attempts, stop at
// the first answer), and escalation lists (call A; if A does not answer after their own attempts,
// call B, ...). After each call the paging rule decides (common/paging/timeline.ts afterCall): busy,
// declined, powered off and unreachable move to the next person at once; "no answer" retries while
// attempts remain. Each progress says what comes next and when. Per-number limits and quiet hours are
// checked before every call; an explicit override (a person confirmed it) skips them.
//
// A send whose outcome is unknown (the call may have been placed and answered) ends the run: it is
// not followed by another call automatically (see ARCHITECTURE: non-idempotent sends).
import { randomUUID } from 'node:crypto';
import { normalizeMobile } from '../../common/domain/mobile';
import { nextCall } from '../../common/domain/outcomes';
import { dialDefaults } from '../../common/domain/dial-defaults';
import { afterCall, callEndState } from '../../common/paging/timeline';
import { missingValues, fillTemplate } from '../../common/domain/templates';
import type { MessageRecord } from '../../common/records';
import { reason } from '../../common/reasons';
import type { GovernorRegistry, Slot } from '../lines/governor';
import type { AwaitEnd, SendFn, SendLike } from '../bulk/queue';
import { CalloutError, fail, invalid } from '../errors';
import type { ContactRecord, DialSettingsRepository } from '../store';
import type { ContactService } from './contacts';
import { checkDial, checkPlan, policyFrom, type DialRefusal } from './limits';
import { claimDial, type DialClaim } from './claims';
import type { DialRequest, DialTarget, DialAttempt, DialStatus, DialResult, DialProgress, DialPlan, DialStart, DialNext } from '../../common/bulk-types';
import { systemClock, type Clock } from '../clock';
export type {
  DialRequest,
  DialTarget,
  DialPhase,
  DialAttempt,
  DialStatus,
  DialResult,
  DialProgress,
  DialPlan,
  DialStart,
  DialNext,
} from '../../common/bulk-types';

export const MAX_ATTEMPTS = 10;

export interface DialerOptions {
  contacts: ContactService;
  settings: DialSettingsRepository;
  templates: { get(id: string): { content: string } | undefined };
  send: SendFn;
  awaitEnd: AwaitEnd;
  /** Per-profile governors (shared with bulk sends); a dial takes the next free line before queued batch items. */
  governors?: GovernorRegistry;
  onProgress?: (p: DialProgress) => void;
  /** The time and the waits (limits, pauses between attempts). Default systemClock. */
  clock?: Clock;
  log?: (error: unknown) => void;
}

interface Run {
  id: string;
  abort: AbortController;
  plan: DialPlan;
  last: DialProgress | null;
  done: Promise<DialResult>;
}

/** Waits `ms` on the clock; resolves early (never rejects) when the signal aborts. */
function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return clock.sleep(ms, signal).catch(() => undefined);
}

export class Dialer {
  private readonly runs = new Map<string, Run>();
  private readonly clock: Clock;

  constructor(private readonly o: DialerOptions) {
    this.clock = o.clock ?? systemClock;
  }

  /** Resolves targets and text and checks the limits, without calling anyone. */
  plan(req: DialRequest): DialPlan {
    const attempts = req.attempts ?? 1;
    if (!Number.isInteger(attempts) || attempts < 1 || attempts > MAX_ATTEMPTS) throw invalid(['attempts', 'attempts-range']);
    if (req.pauseSeconds !== undefined && (!Number.isFinite(req.pauseSeconds) || req.pauseSeconds < 0 || req.pauseSeconds > 3600))
      throw invalid(['pauseSeconds', 'pause-range']);
    const targets = this.targets(req);
    const pauseSeconds = req.pauseSeconds ?? dialDefaults(targets.length).pauseSeconds;
    const { content, values, templateId } = this.text(req, targets);
    const refusals: DialRefusal[] = [];
    if (!req.override) {
      const policy = policyFrom(this.o.settings.effective(req.profileId));
      const now = this.clock.now();
      const seen = new Set<string>();
      for (const t of targets) {
        if (seen.has(t.mobile)) continue;
        seen.add(t.mobile);
        refusals.push(...checkPlan(policy, t.mobile, this.o.settings.callTimes(t.mobile, now - 86_400_000), now, attempts, pauseSeconds * 1000));
      }
    }
    return { targets, content, templateId, values, attempts, pauseSeconds, refusals };
  }

  /**
   * Starts a run unless a limit refuses it (then nothing is called: show the refusals, and start
   * again with override: true once a person confirmed). Progress arrives through onProgress.
   */
  start(req: DialRequest): DialStart {
    const plan = this.plan(req);
    if (plan.refusals.length > 0) return { started: false, plan };
    const id = randomUUID();
    const run: Run = { id, abort: new AbortController(), plan, last: null, done: Promise.resolve(null as unknown as DialResult) };
    this.runs.set(id, run);
    run.done = this.execute(run, req).finally(() => this.runs.delete(id));
    return { started: true, runId: id, plan };
  }

  /** Starts and waits for the result (the CLI). A refused plan resolves with status 'refused'. */
  async run(req: DialRequest): Promise<DialResult> {
    const s = this.start(req);
    if (!s.started) {
      return { runId: '', status: 'refused', answered: null, targets: s.plan.targets, attempts: [], refusals: s.plan.refusals };
    }
    return this.result(s.runId)!;
  }

  result(runId: string): Promise<DialResult> | null {
    return this.runs.get(runId)?.done ?? null;
  }

  /** Stops a run: no further call starts; a call ringing now is not recalled (it cannot be). */
  cancel(runId: string): boolean {
    const run = this.runs.get(runId);
    if (!run) return false;
    run.abort.abort();
    return true;
  }

  /** The last progress of every run in progress. */
  active(): DialProgress[] {
    return [...this.runs.values()].flatMap((r) => (r.last ? [r.last] : []));
  }

  async close(): Promise<void> {
    const done = [...this.runs.values()].map((r) => {
      r.abort.abort();
      return r.done.catch(() => undefined);
    });
    await Promise.all(done);
  }

  // ------------------------------------------------------------ internals

  private targets(req: DialRequest): DialTarget[] {
    const out: DialTarget[] = [];
    const fromContact = (c: ContactRecord): DialTarget => ({ contactId: c.id, name: c.name, mobile: c.mobile });
    if (req.groupId !== undefined) {
      const g = this.o.contacts.getGroup(req.groupId);
      for (const id of g.memberIds) out.push(fromContact(this.o.contacts.get(id)));
    }
    for (const t of req.targets ?? []) {
      if ('contactId' in t) {
        out.push(fromContact(this.o.contacts.get(t.contactId)));
        continue;
      }
      const n = normalizeMobile(t.mobile);
      if (!n.ok) throw fail('invalid-mobile', { kind: n.error }, [{ path: 'targets', message: n.error }]);
      // A number that belongs to exactly one contact is that contact (its template is remembered).
      const owners = this.o.contacts.list().filter((c) => c.mobile === n.mobile);
      out.push(owners.length === 1 ? fromContact(owners[0]!) : { contactId: null, name: null, mobile: n.mobile });
    }
    if (out.length === 0) throw invalid(['targets', 'targets-required']);
    return out;
  }

  private text(req: DialRequest, targets: DialTarget[]): { content: string; values: string[] | null; templateId: string | null } {
    const templateId = req.templateId ?? null;
    if (req.content !== undefined) return { content: req.content, values: null, templateId };
    if (templateId === null) throw invalid(['templateId', 'template-required']);
    const template = this.o.templates.get(templateId);
    if (!template) throw fail('not-found', { kind: 'template', id: templateId }, [{ path: 'templateId', message: 'not-found' }]);
    let values = req.values;
    if (!values) {
      const first = targets[0]?.contactId != null ? this.o.contacts.get(targets[0].contactId) : null;
      if (first && first.lastTemplateId === templateId && first.lastValues) values = first.lastValues;
    }
    const missing = missingValues(template.content, values ?? []);
    if (missing.length) throw invalid(...missing.map((i): [string, string] => [`values.${i}`, 'value-required']));
    return { content: fillTemplate(template.content, values ?? []), values: values ?? [], templateId };
  }

  private async execute(run: Run, req: DialRequest): Promise<DialResult> {
    const { plan } = run;
    const signal = run.abort.signal;
    const attempts: DialAttempt[] = [];
    const refusals: DialRefusal[] = [];
    const result = (status: DialStatus, answered: DialResult['answered'] = null): DialResult => ({
      runId: run.id,
      status,
      answered,
      targets: plan.targets,
      attempts,
      refusals,
    });
    const emit = (p: Omit<DialProgress, 'runId' | 'targets' | 'maxAttempts' | 'result' | 'next'> & { result?: DialResult | null; next?: DialNext | null }) => {
      const progress: DialProgress = { runId: run.id, targets: plan.targets.length, maxAttempts: plan.attempts, result: null, next: null, ...p };
      run.last = progress;
      try {
        this.o.onProgress?.(progress);
      } catch (error) {
        this.o.log?.(error);
      }
    };
    const finish = (r: DialResult, targetIndex: number): DialResult => {
      const target = plan.targets[Math.min(targetIndex, plan.targets.length - 1)]!;
      emit({
        phase: 'done',
        targetIndex,
        target,
        attempt: 0,
        messageId: r.answered?.messageId ?? null,
        state: null,
        nextAttemptAt: null,
        refusals: r.refusals,
        result: r,
      });
      return r;
    };
    const policy = policyFrom(this.o.settings.effective(req.profileId));
    const step = { attempts: plan.attempts };
    /** The call that follows (at `at`, or null: when it is known) — the next person's first, or none after the last. */
    const nextPerson = (ti: number, at: number | null): DialNext | null =>
      ti + 1 < plan.targets.length ? { targetIndex: ti + 1, target: plan.targets[ti + 1]!, attempt: 1, at, afterSeconds: null } : null;
    /** While attempt `attempt` to target `ti` rings: what follows if it is not answered (the rule for "no answer"). */
    const ifNoAnswer = (ti: number, attempt: number): DialNext | null =>
      afterCall(step, attempt, 'no_answer') === 'retry'
        ? { targetIndex: ti, target: plan.targets[ti]!, attempt: attempt + 1, at: null, afterSeconds: plan.pauseSeconds }
        : nextPerson(ti, null);
    let refusedTargets = 0;

    for (let ti = 0; ti < plan.targets.length; ti++) {
      const target = plan.targets[ti]!;
      if (target.contactId !== null) this.o.contacts.rememberTemplate(target.contactId, plan.templateId, plan.values);
      if (ti > 0) emit({ phase: 'next-target', targetIndex: ti, target, attempt: 0, messageId: null, state: null, nextAttemptAt: null, refusals: [] });
      let refused = false;
      for (let attempt = 1; attempt <= plan.attempts; attempt++) {
        if (signal.aborted) return finish(result('cancelled'), ti);
        // Limits, before every call (unless a person overrode them), and the call's place in them held
        // until its send returns: another dialer meanwhile counts it (main/dial/claims.ts).
        const claimNow = (): DialClaim => {
          const now = this.clock.now();
          return claimDial(this.o.settings, target.mobile, now, (times) => checkDial(policy, target.mobile, times, now), this.o.log);
        };
        let claim: DialClaim | null = null;
        if (!req.override) {
          claim = claimNow();
          let r = claim.refusals;
          const minuteOnly = r.length === 1 && r[0]!.limit === 'per-minute' && r[0]!.freesAt - this.clock.now() <= 60_000;
          if (minuteOnly && attempt > 1) {
            const until = r[0]!.freesAt + 50;
            emit({
              phase: 'waiting',
              targetIndex: ti,
              target,
              attempt,
              messageId: null,
              state: null,
              nextAttemptAt: until,
              next: { targetIndex: ti, target, attempt, at: until, afterSeconds: null },
              refusals: r,
            });
            await sleep(this.clock, until - this.clock.now(), signal);
            if (signal.aborted) return finish(result('cancelled'), ti);
            claim = claimNow();
            r = claim.refusals;
          }
          if (r.length > 0) {
            refusals.push(...r);
            emit({
              phase: 'refused',
              targetIndex: ti,
              target,
              attempt,
              messageId: null,
              state: null,
              nextAttemptAt: null,
              next: nextPerson(ti, this.clock.now()),
              refusals: r,
            });
            refused = true;
            break;
          }
        }
        const startedAt = this.clock.now();
        emit({
          phase: 'calling',
          targetIndex: ti,
          target,
          attempt,
          messageId: null,
          state: null,
          nextAttemptAt: null,
          next: ifNoAnswer(ti, attempt),
          refusals: [],
        });
        const slot: Slot | null = this.o.governors
          ? await this.o.governors
              .for(req.profileId)
              .acquire({ priority: true, signal })
              .catch(() => null)
          : null;
        if (this.o.governors && !slot) {
          claim?.release();
          return finish(result('cancelled'), ti);
        }
        let sent: SendLike;
        try {
          sent = await this.o.send(req.profileId, { mobile: target.mobile, content: plan.content, templateId: plan.templateId });
        } catch (error) {
          // Refused before it could leave (a local check, a profile that cannot be used): nothing was placed.
          const local = error instanceof CalloutError;
          slot?.release({ refund: local });
          if (!local) this.o.log?.(error);
          attempts.push({
            targetIndex: ti,
            attempt,
            mobile: target.mobile,
            messageId: null,
            outcome: 'not-sent',
            state: null,
            code: null,
            reason: local ? reason('refused', { error: error.code }) : reason('internal', {}),
            startedAt,
            endedAt: this.clock.now(),
          });
          return finish(result(local ? 'failed' : 'unknown'), ti);
        } finally {
          claim?.release();
        }
        const m = sent.message;
        const record: DialAttempt = {
          targetIndex: ti,
          attempt,
          mobile: target.mobile,
          messageId: m.id,
          outcome: m.outcome,
          state: m.state,
          code: m.code,
          reason: m.reason ?? sent.failure?.reason ?? null,
          startedAt,
          endedAt: null,
        };
        attempts.push(record);
        const next = nextCall({ outcome: m.outcome, code: m.code, failure: sent.failure });
        if (next.kind === 'not-sent' || next.kind === 'account' || next.kind === 'number') {
          slot?.release({ refund: next.kind === 'not-sent' });
          record.endedAt = this.clock.now();
          emit({
            phase: 'ended',
            targetIndex: ti,
            target,
            attempt,
            messageId: m.id,
            state: m.state,
            nextAttemptAt: null,
            next: next.kind === 'number' ? nextPerson(ti, this.clock.now()) : null,
            refusals: [],
          });
          // Refusals that concern the account (or a provider out of reach): nobody else can be called either.
          if (next.kind !== 'number') return finish(result('failed'), ti);
          break; // this number cannot be called (e.g. 404): next target
        }
        if (next.kind === 'unknown') {
          const s = slot;
          if (s) this.clock.setTimeout(() => s.release(), 60_000).unref();
          record.endedAt = this.clock.now();
          emit({ phase: 'ended', targetIndex: ti, target, attempt, messageId: m.id, state: m.state, nextAttemptAt: null, refusals: [] });
          return finish(result('unknown'), ti);
        }
        emit({
          phase: 'calling',
          targetIndex: ti,
          target,
          attempt,
          messageId: m.id,
          state: m.state,
          nextAttemptAt: null,
          next: ifNoAnswer(ti, attempt),
          refusals: [],
        });
        let final: MessageRecord | null;
        slot?.holds(m.id);
        try {
          final = await this.o.awaitEnd(m.id, signal);
        } catch {
          final = null;
        } finally {
          slot?.release();
        }
        if (!final) return finish(result('cancelled'), ti);
        record.state = final.state;
        record.endedAt = final.endedAt ?? this.clock.now();
        // The paging rule (one place for policies and the quick dial): answered stops; unknown stops and never calls
        // again automatically (it may have been answered); busy, declined, powered off, unreachable move on at once;
        // no answer retries while attempts remain.
        const end = callEndState(final);
        const decision = afterCall(step, attempt, end);
        const now = this.clock.now();
        const nextAt = now + plan.pauseSeconds * 1000;
        const then =
          decision === 'retry'
            ? { targetIndex: ti, target, attempt: attempt + 1, at: nextAt, afterSeconds: null }
            : decision === 'next-person'
              ? nextPerson(ti, now)
              : null;
        emit({ phase: 'ended', targetIndex: ti, target, attempt, messageId: m.id, state: final.state, nextAttemptAt: null, next: then, refusals: [] });
        if (decision === 'stop')
          return end === 'answered' ? finish(result('answered', { ...target, targetIndex: ti, messageId: m.id }), ti) : finish(result('unknown'), ti);
        if (decision === 'next-person') break;
        emit({
          phase: 'waiting',
          targetIndex: ti,
          target,
          attempt: attempt + 1,
          messageId: null,
          state: null,
          nextAttemptAt: nextAt,
          next: then,
          refusals: [],
        });
        await sleep(this.clock, nextAt - this.clock.now(), signal);
      }
      if (refused) refusedTargets++;
    }
    const last = plan.targets.length - 1;
    if (refusedTargets === plan.targets.length) return finish(result('refused'), last);
    return finish(result('not-answered'), last);
  }
}
