/** The sandbox's fault switches: validation and matching. */

import type { SandboxFault, SandboxOp } from './types';

const OPS: readonly SandboxOp[] = ['send', 'status', 'balance'];
const FAULT_CODES = [400, 401, 402, 403, 404, 500] as const;
/** A delay longer than this is refused (a typo, not a test). */
const MAX_DELAY_MS = 10 * 60 * 1000;

export function isSandboxOp(x: unknown): x is SandboxOp {
  return typeof x === 'string' && (OPS as readonly string[]).includes(x);
}

/** Validates an untrusted fault description (admin endpoint, or setFault from JavaScript). */
export function parseFault(input: unknown): { ok: true; fault: SandboxFault } | { ok: false; error: string } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, error: 'a fault must be an object' };
  const o = input as Record<string, unknown>;
  if (o.op !== undefined && !isSandboxOp(o.op)) return { ok: false, error: `op must be one of ${OPS.join(', ')}` };
  if (o.times !== undefined && !(typeof o.times === 'number' && Number.isInteger(o.times) && o.times >= 1)) {
    return { ok: false, error: 'times must be a positive integer' };
  }
  const scope: { op?: SandboxOp; times?: number } = {};
  if (o.op !== undefined) scope.op = o.op as SandboxOp;
  if (o.times !== undefined) scope.times = o.times as number;
  switch (o.kind) {
    case 'delay':
      if (typeof o.delayMs !== 'number' || !Number.isFinite(o.delayMs) || o.delayMs < 0 || o.delayMs > MAX_DELAY_MS) {
        return { ok: false, error: `delayMs must be a number of milliseconds from 0 to ${MAX_DELAY_MS}` };
      }
      return { ok: true, fault: { kind: 'delay', delayMs: o.delayMs, ...scope } };
    case 'timeout':
    case 'http500':
    case 'html':
    case 'reset':
      return { ok: true, fault: { kind: o.kind, ...scope } };
    case 'code':
      if (!(FAULT_CODES as readonly unknown[]).includes(o.code)) {
        return { ok: false, error: `code must be one of ${FAULT_CODES.join(', ')}` };
      }
      return { ok: true, fault: { kind: 'code', code: o.code as (typeof FAULT_CODES)[number], ...scope } };
    default:
      return { ok: false, error: 'kind must be one of delay, timeout, http500, html, reset, code' };
  }
}

interface ActiveFault {
  fault: SandboxFault;
  /** Remaining matching requests; Infinity when `times` was not given. */
  remaining: number;
}

/** Active faults. The most recently set matching fault wins; exhausted faults are dropped. */
export class FaultBoard {
  private active: ActiveFault[] = [];

  add(fault: SandboxFault): void {
    this.active.push({ fault, remaining: fault.times ?? Infinity });
  }

  clear(): void {
    this.active = [];
  }

  /**
   * The fault that applies to this request, consuming one of its `times`; null when none.
   * `undo()` gives the use back (for a request that turned out not to reach the faulty part).
   */
  take(op: SandboxOp): { fault: SandboxFault; undo: () => void } | null {
    for (let i = this.active.length - 1; i >= 0; i--) {
      const a = this.active[i];
      if (a === undefined || (a.fault.op !== undefined && a.fault.op !== op)) continue;
      a.remaining -= 1;
      if (a.remaining <= 0) this.active.splice(i, 1);
      return {
        fault: a.fault,
        undo: () => {
          a.remaining += 1;
          if (!this.active.includes(a)) this.active.push(a);
        },
      };
    }
    return null;
  }

  /** Active faults, oldest first, with what remains of `times` (null = unlimited). */
  list(): Array<SandboxFault & { remaining: number | null }> {
    return this.active.map((a) => ({ ...a.fault, remaining: Number.isFinite(a.remaining) ? a.remaining : null }));
  }
}
