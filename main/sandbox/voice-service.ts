/**
 * The simulated voice notification service behind the sandbox's HTTP front: accounts, templates,
 * the three operations (send, status, balance) and the life of every call on timers.
 *
 * Operations take the request parameters as parsed from the body and return the reply object
 * (code, msg, then the operation's fields, in that order); the HTTP layer renders it as JSON or XML.
 */

import { timingSafeEqual } from 'node:crypto';
import { MAINLAND_MOBILE_RE } from '../../common/domain/mobile';
import type { CallState } from '../../common/domain/status';
import { findMatchingTemplates, validateTemplate } from '../../common/domain/templates';
import { checkContent, textLength } from '../../common/domain/units';
import { ringSecondsFor, scriptFor, SIMULATION, talkSecondsFor, type AttemptOutcome, type CallScript } from './call-script';
import { DEMO_TEMPLATES, FREE_DEBUG_UNITS } from './demo';
import type { Scheduler } from './scheduler';
import type { SandboxAccountInput, SandboxAccountSummary, SandboxCall, SandboxCallEvent, SandboxStats, SandboxTemplate } from './types';

export type ReplyValue = string | number | null;
/** A provider reply: `code` and `msg` first, then the operation's fields. */
export type ProviderReply = { code: number; msg: string } & Record<string, ReplyValue>;
export type Params = Record<string, unknown>;

/** The provider's msg texts. */
export const MESSAGES = Object.freeze({
  submitted: '提交成功',
  queried: '查询成功',
  400: '参数错误',
  401: '鉴权失败：API ID 或 API Key 错误',
  402: '余额不足',
  403: '内容未审核：没有匹配的已审核模板',
  404: '手机号码格式错误',
  500: '服务器内部错误',
  unknownSmsid: 'smsid 不存在',
});

/** '通话中': the status label while the callee is listening (state stays 'calling' until hang-up). */
export const TALKING_LABEL = '通话中';

/** How the sandbox describes each state in its replies, as a Chinese provider would (provider text, not ours). */
export const STATE_TEXT: Record<CallState, string> = {
  pending: '等待呼叫',
  calling: '呼叫中',
  answered: '已接听',
  no_answer: '未接听',
  busy: '用户忙',
  rejected: '拒接',
  powered_off: '关机',
  unreachable: '无法接通',
  invalid_number: '空号',
  failed: '呼叫失败',
  unknown: '状态未知',
};

interface Account {
  apiId: string;
  apiKey: string;
  balance: number;
  lines: number;
  /** Units of calls in progress that are not billed yet (they would be billed on answer). */
  reserved: number;
  /** Calls ringing or talking. */
  active: number;
  peak: number;
  /** Calls ready to dial, waiting for a free line (FIFO). */
  queue: CallRecord[];
  templates: TemplateRecord[];
}

interface TemplateRecord {
  id: string;
  apiId: string;
  name: string;
  content: string;
  submittedMs: number;
  /** Real time (ms) the template is (or will be) approved. */
  approvedMs: number;
}

type Phase = 'dispatching' | 'queued' | 'ringing' | 'talking' | 'redial_wait' | 'done';

interface CallRecord {
  smsid: string;
  account: Account;
  mobile: string;
  content: string;
  length: number;
  units: number;
  script: CallScript;
  phase: Phase;
  state: CallState;
  attempts: number;
  talkSeconds: number;
  duration: number;
  billed: boolean;
  /** Real time of submission; the call's clock starts there. */
  submittedMs: number;
  /** Simulated ms elapsed on the call's clock. */
  simMs: number;
  /** Real time the call entered the line queue. */
  readyRealMs: number;
  /** Real time the callee answered. */
  answeredRealMs: number;
  calledAt: string | null;
  answeredAt: string | null;
  endedAt: string | null;
  timeline: SandboxCallEvent[];
}

export interface VoiceServiceOptions {
  scheduler: Scheduler;
  random: () => number;
  /** Simulated ms a template stays under review (real ms: × the scheduler's time scale at registration). */
  reviewDelayMs: number;
  demoTemplates: boolean;
  /** A call reached its final state (the sandbox pushes its receipt). */
  onCallEnded?: (call: SandboxCall) => void;
}

function text(params: Params, name: string): string | undefined {
  const v = params[name];
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

function sameSecret(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ab.length !== bb.length) return false;
  return timingSafeEqual(ab, bb);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export class VoiceService {
  private readonly accounts = new Map<string, Account>();
  private readonly calls = new Map<string, CallRecord>();
  private readonly scheduler: Scheduler;
  private readonly random: () => number;
  /** Simulated ms a template stays under review; may change while the sandbox runs. */
  reviewDelayMs: number;
  private readonly demoTemplates: boolean;
  private readonly onCallEnded: ((call: SandboxCall) => void) | undefined;
  private readonly smsidPrefix: string;
  private callSeq = 0;
  private templateSeq = 0;
  private active = 0;
  private peak = 0;
  private accepted = 0;

  constructor(opts: VoiceServiceOptions) {
    this.scheduler = opts.scheduler;
    this.smsidPrefix = 'SBX' + this.scheduler.now().toString(36).toUpperCase();
    this.random = opts.random;
    this.reviewDelayMs = opts.reviewDelayMs;
    this.demoTemplates = opts.demoTemplates;
    this.onCallEnded = opts.onCallEnded;
  }

  // ---------------------------------------------------------------- accounts and templates

  addAccount(a: SandboxAccountInput): void {
    if (typeof a.apiId !== 'string' || a.apiId === '') throw new TypeError('apiId must be a non-empty string');
    if (typeof a.apiKey !== 'string' || a.apiKey === '') throw new TypeError('apiKey must be a non-empty string');
    if (this.accounts.has(a.apiId)) throw new Error(`account ${a.apiId} already exists`);
    const balance = a.balance ?? FREE_DEBUG_UNITS;
    checkUnits(balance);
    const lines = a.lines ?? 1;
    if (!Number.isInteger(lines) || lines < 1) throw new RangeError('lines must be a positive integer');
    const account: Account = {
      apiId: a.apiId,
      apiKey: a.apiKey,
      balance,
      lines,
      reserved: 0,
      active: 0,
      peak: 0,
      queue: [],
      templates: [],
    };
    this.accounts.set(a.apiId, account);
    if (this.demoTemplates) {
      for (const t of DEMO_TEMPLATES) this.addTemplate(a.apiId, t.content, { approved: t.approved, name: t.name });
    }
  }

  hasAccount(apiId: string): boolean {
    return this.accounts.has(apiId);
  }

  /** The API Key of an account (for the signature gateway's key lookup only). */
  keyOf(apiId: string): string | undefined {
    return this.accounts.get(apiId)?.apiKey;
  }

  /** Every API Key (so that request logs can be scrubbed of them). */
  allKeys(): string[] {
    return [...this.accounts.values()].map((a) => a.apiKey);
  }

  setBalance(apiId: string, units: number): void {
    checkUnits(units);
    this.account(apiId).balance = units;
  }

  /**
   * Registers a template. Not approved → approved after the review delay. (The real review takes
   * about 2 hours with intake 09:00–20:00 every day; the sandbox does not model intake hours.)
   * Throws RangeError for content that is not a valid template (1..500 characters, not blank).
   */
  addTemplate(apiId: string, content: string, opts: { approved?: boolean; name?: string } = {}): SandboxTemplate {
    const account = this.account(apiId);
    if (typeof content !== 'string') throw new TypeError('content must be a string');
    const check = validateTemplate(content);
    if (!check.ok) throw new RangeError(`invalid template: ${check.error} (length ${check.length}, max ${check.max})`);
    const now = this.scheduler.now();
    this.templateSeq += 1;
    const record: TemplateRecord = {
      id: `tpl-${this.templateSeq}`,
      apiId,
      name: opts.name ?? `模板 ${this.templateSeq}`,
      content,
      submittedMs: now,
      approvedMs: opts.approved === false ? now + this.reviewDelayMs * this.scheduler.timeScale : now,
    };
    account.templates.push(record);
    return this.publicTemplate(record, now);
  }

  /** Ends the review of a registered template now (a tester does not want to wait). Throws for an unknown id. */
  approveTemplate(apiId: string, id: string): SandboxTemplate {
    const account = this.account(apiId);
    const record = account.templates.find((t) => t.id === id);
    if (!record) throw new RangeError(`no template ${id} in account ${apiId}`);
    const now = this.scheduler.now();
    if (record.approvedMs > now) record.approvedMs = now;
    return this.publicTemplate(record, now);
  }

  /** Adds units to an account's balance (a top-up); returns the new balance. */
  topUp(apiId: string, units: number): number {
    checkUnits(units);
    const account = this.account(apiId);
    const next = account.balance + units;
    if (!Number.isSafeInteger(next)) throw new RangeError('balance too large');
    account.balance = next;
    return next;
  }

  templates(apiId: string): SandboxTemplate[] {
    const now = this.scheduler.now();
    return this.account(apiId).templates.map((t) => this.publicTemplate(t, now));
  }

  // ---------------------------------------------------------------- operations

  send(params: Params): ProviderReply {
    const account = text(params, 'account');
    const password = text(params, 'password');
    const mobile = text(params, 'mobile');
    const content = text(params, 'content');
    const missing = (
      [
        ['account', account],
        ['password', password],
        ['mobile', mobile],
        ['content', content],
      ] as const
    )
      .filter(([, v]) => v === undefined || v === '')
      .map(([n]) => n);
    if (missing.length > 0 || account === undefined || password === undefined || mobile === undefined || content === undefined) {
      return { code: 400, msg: `${MESSAGES[400]}：缺少参数 ${missing.join(', ')}` };
    }
    const acct = this.authenticate(account, password);
    if (!acct) return { code: 401, msg: MESSAGES[401] };
    if (!MAINLAND_MOBILE_RE.test(mobile)) return { code: 404, msg: MESSAGES[404] };
    const check = checkContent(content);
    if (!check.ok) {
      return {
        code: 400,
        msg: check.error === 'empty' ? `${MESSAGES[400]}：内容为空` : `${MESSAGES[400]}：内容 ${check.length} 字，超过 ${check.max} 字`,
      };
    }
    const now = this.scheduler.now();
    const approved = acct.templates.filter((t) => t.approvedMs <= now);
    if (findMatchingTemplates(content, approved).length === 0) return { code: 403, msg: MESSAGES[403] };
    if (acct.balance - acct.reserved < check.units) return { code: 402, msg: MESSAGES[402] };

    const call = this.place(acct, mobile, content, check.units, now);
    return { code: 2, msg: MESSAGES.submitted, smsid: call.smsid, count: check.units };
  }

  status(params: Params): ProviderReply {
    const account = text(params, 'account');
    const password = text(params, 'password');
    const smsid = text(params, 'smsid');
    const missing = (
      [
        ['account', account],
        ['password', password],
        ['smsid', smsid],
      ] as const
    )
      .filter(([, v]) => v === undefined || v === '')
      .map(([n]) => n);
    if (missing.length > 0 || account === undefined || password === undefined || smsid === undefined) {
      return { code: 400, msg: `${MESSAGES[400]}：缺少参数 ${missing.join(', ')}` };
    }
    const acct = this.authenticate(account, password);
    if (!acct) return { code: 401, msg: MESSAGES[401] };
    const call = this.calls.get(smsid);
    if (!call || call.account !== acct) return { code: 400, msg: MESSAGES.unknownSmsid };
    const c = this.publicCall(call);
    return {
      code: 2,
      msg: MESSAGES.queried,
      smsid: c.smsid,
      state: c.state,
      status: c.status,
      duration: c.duration,
      attempts: c.attempts,
      submittedAt: c.submittedAt,
      calledAt: c.calledAt,
      answeredAt: c.answeredAt,
      endedAt: c.endedAt,
    };
  }

  balance(params: Params): ProviderReply {
    const account = text(params, 'account');
    const password = text(params, 'password');
    if (!account || !password) {
      const missing = [!account ? 'account' : null, !password ? 'password' : null].filter((x) => x !== null);
      return { code: 400, msg: `${MESSAGES[400]}：缺少参数 ${missing.join(', ')}` };
    }
    const acct = this.authenticate(account, password);
    if (!acct) return { code: 401, msg: MESSAGES[401] };
    return { code: 2, msg: MESSAGES.queried, num: acct.balance };
  }

  // ---------------------------------------------------------------- observation

  listCalls(): SandboxCall[] {
    return [...this.calls.values()].map((c) => this.publicCall(c));
  }

  stats(): SandboxStats {
    let queued = 0;
    for (const c of this.calls.values()) if (c.state === 'pending') queued++;
    return { peakConcurrency: this.peak, activeCalls: this.active, queuedCalls: queued, sendsAccepted: this.accepted };
  }

  /** Accounts without their keys. */
  accountSummaries(): SandboxAccountSummary[] {
    return [...this.accounts.values()].map((a) => ({
      apiId: a.apiId,
      balance: a.balance,
      reserved: a.reserved,
      available: Math.max(0, a.balance - a.reserved),
      lines: a.lines,
      capacity: a.lines * SIMULATION.callsPerLine,
      activeCalls: a.active,
      peakConcurrency: a.peak,
      waitingForLine: a.queue.length,
    }));
  }

  allTemplates(): SandboxTemplate[] {
    const now = this.scheduler.now();
    return [...this.accounts.values()].flatMap((a) => a.templates.map((t) => this.publicTemplate(t, now)));
  }

  // ---------------------------------------------------------------- internals

  private account(apiId: string): Account {
    const a = this.accounts.get(apiId);
    if (!a) throw new Error(`no sandbox account ${apiId}`);
    return a;
  }

  private authenticate(apiId: string, apiKey: string): Account | null {
    const a = this.accounts.get(apiId);
    if (!a) return null;
    return sameSecret(a.apiKey, apiKey) ? a : null;
  }

  private publicTemplate(t: TemplateRecord, now: number): SandboxTemplate {
    const approved = t.approvedMs <= now;
    return {
      id: t.id,
      apiId: t.apiId,
      name: t.name,
      content: t.content,
      status: approved ? 'approved' : 'pending',
      approved,
      submittedAt: iso(t.submittedMs),
      approvedAt: approved ? iso(t.approvedMs) : null,
      reviewDueAt: approved ? null : iso(t.approvedMs),
    };
  }

  private publicCall(c: CallRecord): SandboxCall {
    let duration = c.duration;
    if (c.phase === 'talking') {
      const elapsed = Math.floor(this.scheduler.toSim(this.scheduler.now() - c.answeredRealMs) / 1000);
      duration = Math.min(c.talkSeconds, Math.max(0, elapsed));
    }
    return {
      smsid: c.smsid,
      apiId: c.account.apiId,
      mobile: c.mobile,
      content: c.content,
      length: c.length,
      units: c.units,
      script: c.script.name,
      state: c.state,
      status: c.phase === 'talking' ? TALKING_LABEL : STATE_TEXT[c.state],
      attempts: c.attempts,
      duration,
      billed: c.billed,
      submittedAt: iso(c.submittedMs),
      calledAt: c.calledAt,
      answeredAt: c.answeredAt,
      endedAt: c.endedAt,
      timeline: c.timeline.map((e) => ({ ...e })),
    };
  }

  private place(account: Account, mobile: string, content: string, units: number, now: number): CallRecord {
    this.callSeq += 1;
    this.accepted += 1;
    const call: CallRecord = {
      smsid: this.smsidPrefix + String(this.callSeq).padStart(6, '0'),
      account,
      mobile,
      content,
      length: textLength(content),
      units,
      script: scriptFor(mobile),
      phase: 'dispatching',
      state: 'pending',
      attempts: 0,
      talkSeconds: talkSecondsFor(content),
      duration: 0,
      billed: false,
      submittedMs: now,
      simMs: 0,
      readyRealMs: now,
      answeredRealMs: 0,
      calledAt: null,
      answeredAt: null,
      endedAt: null,
      timeline: [],
    };
    account.reserved += units;
    this.calls.set(call.smsid, call);
    this.log(call, 'submitted');
    const dispatchMs = SIMULATION.dispatchSeconds * 1000;
    this.scheduler.afterSim(dispatchMs, () => {
      call.simMs += dispatchMs;
      this.enqueue(call);
    });
    return call;
  }

  private log(call: CallRecord, event: SandboxCallEvent['event']): string {
    const at = iso(call.submittedMs + call.simMs);
    call.timeline.push({ at, event, state: call.state, attempt: call.attempts });
    return at;
  }

  private enqueue(call: CallRecord): void {
    call.phase = 'queued';
    call.readyRealMs = this.scheduler.now();
    call.account.queue.push(call);
    this.pump(call.account);
  }

  /** Dials queued calls while the account has free lines (20 concurrent calls per line). */
  private pump(account: Account): void {
    const capacity = account.lines * SIMULATION.callsPerLine;
    while (account.active < capacity) {
      const next = account.queue.shift();
      if (!next) return;
      this.dial(next);
    }
  }

  private dial(call: CallRecord): void {
    const account = call.account;
    call.simMs += this.scheduler.toSim(this.scheduler.now() - call.readyRealMs);
    call.attempts += 1;
    call.phase = 'ringing';
    call.state = 'calling';
    account.active += 1;
    account.peak = Math.max(account.peak, account.active);
    this.active += 1;
    this.peak = Math.max(this.peak, this.active);
    const at = this.log(call, 'dialing');
    call.calledAt ??= at;

    const outcome: AttemptOutcome = call.script.attempts[call.attempts - 1] ?? 'no_answer';
    const ringMs = ringSecondsFor(outcome, this.random) * 1000;
    this.scheduler.afterSim(ringMs, () => {
      call.simMs += ringMs;
      this.attemptEnded(call, outcome);
    });
  }

  private attemptEnded(call: CallRecord, outcome: AttemptOutcome): void {
    const account = call.account;
    if (outcome === 'answered') {
      // Billing on success only: the units are charged when the callee answers.
      account.reserved -= call.units;
      account.balance = Math.max(0, account.balance - call.units);
      call.billed = true;
      call.phase = 'talking';
      call.answeredRealMs = this.scheduler.now();
      call.answeredAt = this.log(call, 'answered');
      const talkMs = call.talkSeconds * 1000;
      this.scheduler.afterSim(talkMs, () => {
        call.simMs += talkMs;
        call.duration = call.talkSeconds;
        this.release(call);
        this.finish(call, 'answered', 'hung_up');
        this.pump(account);
      });
      return;
    }

    this.release(call);
    if (outcome === 'no_answer' && call.attempts < call.script.attempts.length) {
      // Automatic redial after a no-answer.
      call.phase = 'redial_wait';
      call.state = 'pending';
      this.log(call, 'no_answer');
      const redialMs = SIMULATION.redialDelaySeconds * 1000;
      this.scheduler.afterSim(redialMs, () => {
        call.simMs += redialMs;
        this.enqueue(call);
      });
    } else {
      account.reserved -= call.units;
      this.finish(call, outcome, outcome);
    }
    this.pump(account);
  }

  /** Frees the line the call held. */
  private release(call: CallRecord): void {
    call.account.active -= 1;
    this.active -= 1;
  }

  private finish(call: CallRecord, state: CallState, event: SandboxCallEvent['event']): void {
    call.phase = 'done';
    call.state = state;
    call.endedAt = this.log(call, event);
    this.onCallEnded?.(this.publicCall(call));
  }
}

function checkUnits(units: number): void {
  if (typeof units !== 'number' || !Number.isInteger(units) || units < 0) {
    throw new RangeError('balance must be a non-negative integer number of units');
  }
}
