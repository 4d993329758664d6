// Typed access to main: window.callout is built by the preload from the shared contract. The
// renderer reaches main only through it, and every call resolves to an IpcResult. What main reports
// (errors, field issues, reasons, provider codes, transport failures) is a code with parameters: it
// is said here in the user's language, from the shared message catalog (the 'msg' namespace).
import type { TFunction } from 'i18next';
import type { CalloutApi, IpcError, IpcResult } from '../../../common/contract';
import { errorArgs, issueArgs, MESSAGES_NS, providerCodeKeys, reasonArgs, type MessageArgs } from '../../../common/messages';
import type { Reason } from '../../../common/reasons';
import type { TransportErrorKind } from '../../../common/records';
import { consoleShell } from './browser-transport';

declare global {
  interface Window {
    /** Provided by the preload, or in a browser by browser-transport.ts; both build it with common/api.ts. */
    readonly callout: CalloutApi;
  }
}

export type { CalloutApi, IpcError, IpcResult };

/** The API, or null when the page runs without the preload (then every call fails cleanly). */
export function calloutApi(): CalloutApi | null {
  return (window as { callout?: CalloutApi }).callout ?? null;
}

const UNREACHABLE: IpcError = { code: 'internal', params: {} };

/**
 * Runs one call on window.callout. Never throws: a missing bridge or a rejected promise becomes
 * an `internal` error, like any other failure, so screens handle one shape.
 */
export async function call<T>(run: (api: CalloutApi) => Promise<IpcResult<T>>): Promise<IpcResult<T>> {
  const api = calloutApi();
  if (!api) return { ok: false, error: UNREACHABLE };
  try {
    const result = await run(api);
    if (result && typeof result === 'object' && 'ok' in result) return result;
    return { ok: false, error: UNREACHABLE };
  } catch {
    return { ok: false, error: UNREACHABLE };
  }
}

/** Says catalog arguments (errorArgs, reasonArgs, ...) in the user's language. Keys and parameters come from main's codes, so they are not typed here. */
function say(t: TFunction, [key, options]: MessageArgs): string {
  return (t as unknown as (key: string, options: object) => string)(key, { ...options, ns: MESSAGES_NS });
}

/** The user's-language text for an error: by its code and parameters, never the raw code. */
export function describeError(t: TFunction, error: IpcError): string {
  if (error === UNREACHABLE) return consoleShell().kind === 'browser' ? t('errors.unreachable_browser') : t('errors.unreachable');
  return say(t, errorArgs(error));
}

/** The text of one field problem (an issue code); a code without a text of its own says that the value is not valid. */
export function describeIssue(t: TFunction, code: string): string {
  const [key, options] = issueArgs(code);
  return say(t, [key, { ...options, defaultValue: t('error.invalid-input', { ns: MESSAGES_NS }) }]);
}

/** Why something happened (a send's outcome, a stop, a skipped row...), in words. */
export function describeReason(t: TFunction, reason: Reason): string {
  return say(t, reasonArgs(reason));
}

/** What a provider result code means and what to do next (documented codes, unknown codes, no code; the Sandbox's own advice for its replies). */
export function describeProviderCode(t: TFunction, code: number | null, where?: 'sandbox'): { meaning: string; action: string } {
  const keys = providerCodeKeys(code, where);
  return { meaning: say(t, [keys.meaning, keys.params]), action: say(t, [keys.action, keys.params]) };
}

/** A failure in transit (an exchange's error), in words. */
export function describeTransport(t: TFunction, error: { kind: TransportErrorKind; ms?: number }): string {
  return t(`transport.${error.kind}`, { ns: MESSAGES_NS, ms: error.ms });
}
