// The Sandbox screen: the built-in sandbox provider driven from the app. Its templates (register the
// library's, approve now or after the review delay), its balance (top up), time scale, fault
// switches, signature mode and reply dialect, and the log of the requests it received. The renderer
// never talks to the sandbox's own HTTP admin endpoints: these operations go through main, which
// holds the sandbox (services.sandbox) and its account's key (which never comes here).
import { z } from 'zod';
import { id, none, op } from './define';

export const SANDBOX_OPS = ['send', 'status', 'balance'] as const;
export const SANDBOX_FAULT_KINDS = ['delay', 'timeout', 'http500', 'html', 'reset', 'code'] as const;
export const SANDBOX_FAULT_CODES = [400, 401, 402, 403, 404, 500] as const;
export const SANDBOX_SIGNATURE_MODES = ['off', 'spec', 'apisix', 'any'] as const;
/** Time scales the screen offers: real time, and faster for trying things out. */
export const SANDBOX_TIME_SCALES = [1, 0.1, 0.01] as const;

export type SandboxFaultKind = (typeof SANDBOX_FAULT_KINDS)[number];
export type SandboxSignatureMode = (typeof SANDBOX_SIGNATURE_MODES)[number];

/** A fault switch as the screen sets it (the sandbox checks it again). */
export const sandboxFault = z
  .object({
    kind: z.enum(SANDBOX_FAULT_KINDS),
    op: z.enum(SANDBOX_OPS).optional(),
    times: z.number().int().min(1, 'times-range').max(1000, 'times-range').optional(),
    delayMs: z.number().int().min(0, 'delay-range').max(600_000, 'delay-range').optional(),
    code: z.literal(SANDBOX_FAULT_CODES).optional(),
  })
  .strict()
  .refine((f) => f.kind !== 'delay' || f.delayMs !== undefined, { path: ['delayMs'], message: 'delay-range' })
  .refine((f) => f.kind !== 'code' || f.code !== undefined, { path: ['code'], message: 'fault-code-required' });
export type SandboxFaultInput = z.infer<typeof sandboxFault>;

export interface SandboxFaultView extends SandboxFaultInput {
  /** Uses left; null: until cleared. */
  remaining: number | null;
}

/** A template registered in the sandbox account. Times in ms since the epoch. */
export interface SandboxTemplateView {
  id: string;
  name: string;
  content: string;
  status: 'approved' | 'pending';
  submittedAt: number;
  approvedAt: number | null;
  /** When its review ends, while pending. */
  reviewDueAt: number | null;
}

/** A template of the local library and where it stands in the sandbox. */
export interface SandboxLibraryEntry {
  templateId: string;
  name: string;
  content: string;
  /** Marked approved in the library (by the user: the library is Callout's own copy). */
  approvedInLibrary: boolean;
  /** The sandbox template with the same text, if registered: its id, status and review end. */
  sandbox: { id: string; status: 'approved' | 'pending'; reviewDueAt: number | null } | null;
}

/** One request the sandbox received: secrets already replaced by [REDACTED]. */
export interface SandboxRequestView {
  seq: number;
  at: number;
  method: string;
  path: string;
  op: (typeof SANDBOX_OPS)[number] | null;
  mobile: string | null;
  /** Parsed parameters, password redacted; null when the body could not be read. */
  body: Record<string, unknown> | null;
  signature: { valid: boolean; reason: string | null; variant: string | null } | null;
  fault: SandboxFaultKind | null;
  /** What was answered (HTTP status, provider code); null: no answer was sent (timeout, reset). */
  response: { httpStatus: number; code: number | null; smsid: string | null } | null;
  /** A timeout fault: what the provider decided but never sent (a send with code 2 placed its call). */
  withheld: { code: number; smsid: string | null } | null;
}

export interface SandboxView {
  profileId: string;
  baseUrl: string;
  apiId: string;
  account: {
    balance: number;
    /** Units of calls ringing now: charged if they are answered. */
    reserved: number;
    available: number;
    lines: number;
    activeCalls: number;
    waitingForLine: number;
  };
  settings: {
    timeScale: number;
    signatureMode: SandboxSignatureMode;
    clockOffsetSeconds: number;
    reviewDelayMs: number;
    dialect: string;
  };
  /** Reply dialects the sandbox can speak (provider dialects add theirs). */
  dialects: string[];
  faults: SandboxFaultView[];
  templates: SandboxTemplateView[];
  library: SandboxLibraryEntry[];
  stats: { activeCalls: number; queuedCalls: number; sendsAccepted: number; requests: number };
}

const sandboxProfile = z.object({ profileId: id.default('sandbox') });

export const sandboxOps = {
  /** The sandbox behind a profile (default: the built-in Sandbox): account, settings, faults, templates. */
  'sandbox.state': op<SandboxView>()(sandboxProfile.strict().optional()),
  /**
   * The built-in Sandbox's demo account (API ID and key), for a tester's own backend behind the
   * capture proxy: only the built-in profile's, never a real profile's key. null without one.
   */
  'sandbox.demoAccount': op<{ apiId: string; apiKey: string } | null>()(none),
  /**
   * Registers templates of the local library in the sandbox account, approved now or after the
   * review delay. A text already registered is not registered twice (`approve: 'now'` approves it).
   */
  'sandbox.registerTemplates': op<SandboxView>()(
    sandboxProfile.extend({ templateIds: z.array(id).min(1, 'templates-required').max(500), approve: z.enum(['now', 'review']) }).strict(),
  ),
  /** Ends a pending sandbox template's review now. */
  'sandbox.approveTemplate': op<SandboxView>()(sandboxProfile.extend({ templateId: z.string().trim().min(1).max(64) }).strict()),
  /** Adds units to the balance (`add`) or sets it (`set`: 0 empties it, to try a 402). */
  'sandbox.setBalance': op<SandboxView>()(
    sandboxProfile
      .extend({
        add: z.number({ error: 'units-range' }).int('units-range').min(1, 'units-range').max(1_000_000, 'units-range').optional(),
        set: z.number({ error: 'units-range' }).int('units-range').min(0, 'units-range').max(1_000_000, 'units-range').optional(),
      })
      .strict()
      .refine((b) => (b.add === undefined) !== (b.set === undefined), { path: ['add'], message: 'units-range' }),
  ),
  'sandbox.setSettings': op<SandboxView>()(
    sandboxProfile
      .extend({
        timeScale: z.number().min(0.001, 'time-scale-range').max(1, 'time-scale-range').optional(),
        signatureMode: z.enum(SANDBOX_SIGNATURE_MODES).optional(),
        clockOffsetSeconds: z.number().int().min(-86_400, 'clock-offset-range').max(86_400, 'clock-offset-range').optional(),
        reviewDelayMs: z
          .number()
          .int()
          .min(0, 'review-delay-range')
          .max(24 * 3_600_000, 'review-delay-range')
          .optional(),
        dialect: z.string().trim().min(1).max(64).optional(),
      })
      .strict(),
  ),
  'sandbox.setFault': op<SandboxView>()(sandboxProfile.extend({ fault: sandboxFault }).strict()),
  'sandbox.clearFaults': op<SandboxView>()(sandboxProfile.strict().optional()),
  /** The most recent requests the sandbox received, newest first. */
  'sandbox.requests': op<{ total: number; requests: SandboxRequestView[] }>()(
    sandboxProfile
      .extend({ limit: z.number().int().min(1).max(500).default(100) })
      .strict()
      .optional(),
  ),
};
