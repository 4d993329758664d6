// What a reply is checked against: the simple assertions of saved requests (HTTP status, the
// provider's result code, a value at a path equals / exists), and the values kept for the requests
// after it (captures). The reply is read once: JSON, or XML as parsed, by voice/replies.ts.
import type { Assertion, AssertionResult, Capture, ResultOutcome } from '../../common/contract/workbench';
import { parseJsonPath, readJsonPath, showValue, valueEquals } from '../../common/domain/json-path';
import { fillVariables } from '../../common/domain/variables';

export interface ReplyFacts {
  /** The HTTP status, or null when no reply came. */
  status: number | null;
  providerCode: number | null;
  /** The body as parsed (JSON or XML), or null. */
  reply: Record<string, unknown> | null;
}

function atPath(reply: Record<string, unknown> | null, path: string): { found: true; value: unknown } | { found: false } {
  const steps = parseJsonPath(path);
  if (!steps || reply === null) return { found: false };
  return readJsonPath(reply, steps);
}

/** Each assertion's result. Variables in an expected value are filled first (an unknown one stays as written). */
export function checkAssertions(assertions: readonly Assertion[], facts: ReplyFacts, variables: Readonly<Record<string, string>> = {}): AssertionResult[] {
  return assertions.map((a): AssertionResult => {
    switch (a.kind) {
      case 'status':
        return { assertion: a, passed: facts.status === a.equals, actual: facts.status === null ? null : String(facts.status) };
      case 'code':
        return { assertion: a, passed: facts.providerCode === a.equals, actual: facts.providerCode === null ? null : String(facts.providerCode) };
      case 'json-exists': {
        const r = atPath(facts.reply, a.path);
        return { assertion: a, passed: r.found, actual: r.found ? showValue(r.value) : null };
      }
      case 'json-equals': {
        const r = atPath(facts.reply, a.path);
        const expected = fillVariables(a.equals, (n) => (Object.prototype.hasOwnProperty.call(variables, n) ? variables[n] : undefined)).text;
        return { assertion: a, passed: r.found && valueEquals(r.value, expected), actual: r.found ? showValue(r.value) : null, expected };
      }
    }
  });
}

/** Values kept from a reply for the requests after it: text as it is, anything else as JSON. */
export function capturedValues(captures: readonly Capture[], reply: Record<string, unknown> | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of captures) {
    const r = atPath(reply, c.path);
    if (r.found && r.value !== undefined) out[c.variable] = typeof r.value === 'string' ? r.value : showValue(r.value);
  }
  return out;
}

/** No HTTP reply: an error; otherwise passed when every assertion passed. */
export function outcomeOf(status: number | null, results: readonly AssertionResult[]): ResultOutcome {
  if (status === null) return 'error';
  return results.every((r) => r.passed) ? 'passed' : 'failed';
}
