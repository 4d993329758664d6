// The sandbox as the app's Sandbox screen drives it: one account of a running sandbox (the built-in
// one behind the Sandbox profile), seen and changed through plain calls — never through its HTTP
// admin endpoints, and never with its account's key. The views carry times as ms since the epoch
// and nothing secret (the request log is redacted by the sandbox itself).
import type { SandboxFaultInput, SandboxLibraryEntry, SandboxRequestView, SandboxTemplateView, SandboxView } from '../../common/contract/sandbox';
import { fail, invalid } from '../errors';
import type { TemplateRecord } from '../store';
import { BUILTIN_DIALECTS, builtinDialect } from '../../common/dialects';
import type { Sandbox, SandboxFault, SandboxTemplate } from './index';

const ms = (iso: string | null) => (iso === null ? null : Date.parse(iso));

function templateView(t: SandboxTemplate): SandboxTemplateView {
  return {
    id: t.id,
    name: t.name,
    content: t.content,
    status: t.status,
    submittedAt: Date.parse(t.submittedAt),
    approvedAt: ms(t.approvedAt),
    reviewDueAt: ms(t.reviewDueAt),
  };
}

export interface SandboxSettingsInput {
  timeScale?: number;
  signatureMode?: 'off' | 'spec' | 'apisix' | 'any';
  clockOffsetSeconds?: number;
  reviewDelayMs?: number;
  dialect?: string;
}

export class SandboxControl {
  constructor(
    private readonly sandbox: Sandbox,
    private readonly apiId: string,
    private readonly profileId: string,
    private readonly library: () => TemplateRecord[],
    /** Marks library templates approved: the Sandbox is the provider of the Sandbox profile, so its approval is the library's. */
    private readonly markApproved: (templateIds: string[]) => void = () => undefined,
  ) {}

  /** The registration of each text that counts: the newest (a text registered twice: its latest review), an approved one first. */
  private registrations(): { templates: SandboxTemplate[]; byContent: Map<string, SandboxTemplate> } {
    const templates = this.sandbox.templates(this.apiId);
    const byContent = new Map<string, SandboxTemplate>();
    for (const t of templates) {
      const seen = byContent.get(t.content);
      if (!seen || seen.status !== 'approved') byContent.set(t.content, t);
    }
    return { templates, byContent };
  }

  /**
   * Library templates whose text the Sandbox approved (now, or when its review ended) are marked
   * approved in the library, so that the library and the Send screen offer them. Never the other way:
   * a template the person marked approved stays so.
   */
  syncLibrary(): void {
    const { byContent } = this.registrations();
    const approved = this.library().filter((t) => !t.approved && byContent.get(t.content)?.status === 'approved');
    if (approved.length) this.markApproved(approved.map((t) => t.id));
  }

  view(): SandboxView {
    const sb = this.sandbox;
    const account = sb.accounts().find((a) => a.apiId === this.apiId);
    if (!account) throw fail('not-found', { kind: 'sandbox' });
    this.syncLibrary();
    const { templates, byContent } = this.registrations();
    const library: SandboxLibraryEntry[] = this.library().map((t) => {
      const s = byContent.get(t.content);
      return {
        templateId: t.id,
        name: t.name,
        content: t.content,
        approvedInLibrary: t.approved,
        sandbox: s ? { id: s.id, status: s.status, reviewDueAt: ms(s.reviewDueAt) } : null,
      };
    });
    const settings = sb.settings();
    const stats = sb.stats();
    return {
      profileId: this.profileId,
      baseUrl: sb.baseUrl,
      apiId: this.apiId,
      account: {
        balance: account.balance,
        reserved: account.reserved,
        available: account.available,
        lines: account.lines,
        activeCalls: account.activeCalls,
        waitingForLine: account.waitingForLine,
      },
      settings: {
        timeScale: settings.timeScale,
        signatureMode: settings.signatureMode,
        clockOffsetSeconds: settings.clockOffsetSeconds,
        reviewDelayMs: settings.reviewDelayMs,
        dialect: settings.dialect,
      },
      dialects: BUILTIN_DIALECTS.flatMap((d) => (d.id ? [d.id] : [])),
      faults: sb.faults().map((f) => ({ ...f })),
      templates: templates.map(templateView),
      library,
      stats: { activeCalls: stats.activeCalls, queuedCalls: stats.queuedCalls, sendsAccepted: stats.sendsAccepted, requests: sb.requestCount() },
    };
  }

  /** Registers library templates by id; a text already there is not registered again (`now` approves it). */
  register(templateIds: readonly string[], approve: 'now' | 'review'): SandboxView {
    const all = new Map(this.library().map((t) => [t.id, t]));
    const chosen = templateIds.map((id, i) => {
      const t = all.get(id);
      if (!t) throw fail('not-found', { kind: 'template', id }, [{ path: `templateIds.${i}`, message: 'not-found' }]);
      return t;
    });
    for (const t of chosen) {
      const existing = this.sandbox.templates(this.apiId).filter((x) => x.content === t.content);
      if (existing.length === 0) {
        try {
          this.sandbox.addTemplate(this.apiId, t.content, { approved: approve === 'now', name: t.name || t.id });
        } catch (error) {
          // The library holds texts up to 2,000 characters; the provider takes 1 to 500.
          if (error instanceof RangeError) throw fail('invalid-template', { kind: 'too-long', length: [...t.content].length });
          throw error;
        }
      } else if (approve === 'now') {
        for (const x of existing) if (x.status === 'pending') this.sandbox.approveTemplate(this.apiId, x.id);
      }
    }
    return this.view();
  }

  approve(templateId: string): SandboxView {
    try {
      this.sandbox.approveTemplate(this.apiId, templateId);
    } catch (error) {
      if (error instanceof RangeError) throw fail('not-found', { kind: 'template', id: templateId });
      throw error;
    }
    return this.view();
  }

  setBalance(b: { add?: number; set?: number }): SandboxView {
    if (b.add !== undefined) this.sandbox.topUp(this.apiId, b.add);
    else if (b.set !== undefined) this.sandbox.setBalance(this.apiId, b.set);
    return this.view();
  }

  setSettings(s: SandboxSettingsInput): SandboxView {
    const dialect = s.dialect === undefined ? undefined : builtinDialect(s.dialect);
    if (s.dialect !== undefined && !dialect) throw invalid(['dialect', 'dialect-unknown']);
    if (dialect) this.sandbox.setDialect(dialect);
    if (s.timeScale !== undefined) this.sandbox.setTimeScale(s.timeScale);
    if (s.signatureMode !== undefined) this.sandbox.setSignatureMode(s.signatureMode);
    if (s.clockOffsetSeconds !== undefined) this.sandbox.setClockOffset(s.clockOffsetSeconds);
    if (s.reviewDelayMs !== undefined) this.sandbox.setReviewDelay(s.reviewDelayMs);
    return this.view();
  }

  setFault(f: SandboxFaultInput): SandboxView {
    const { kind, op, times, delayMs, code } = f;
    const scope = { ...(op ? { op } : {}), ...(times ? { times } : {}) };
    let fault: SandboxFault;
    if (kind === 'delay') fault = { kind, delayMs: delayMs ?? 0, ...scope };
    else if (kind === 'code') fault = { kind, code: code ?? 500, ...scope };
    else fault = { kind, ...scope };
    this.sandbox.setFault(fault);
    return this.view();
  }

  clearFaults(): SandboxView {
    this.sandbox.clearFaults();
    return this.view();
  }

  requests(limit: number): { total: number; requests: SandboxRequestView[] } {
    const requests = this.sandbox
      .requests(limit)
      .reverse()
      .map((r): SandboxRequestView => ({
        seq: r.seq,
        at: Date.parse(r.time),
        method: r.method,
        path: r.path,
        op: r.op,
        mobile: r.mobile,
        body: r.body,
        signature: r.signature ? { valid: r.signature.valid, reason: r.signature.reason, variant: r.signature.variant } : null,
        fault: r.fault ?? null,
        response: r.response ? { httpStatus: r.response.httpStatus, code: r.response.code, smsid: r.response.smsid ?? null } : null,
        withheld: r.withheld ? { code: r.withheld.code, smsid: r.withheld.smsid ?? null } : null,
      }));
    return { total: this.sandbox.requestCount(), requests };
  }
}
