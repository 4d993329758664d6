// Typed access to main: window.callout is built by the preload from the shared contract. The
// renderer reaches main only through it, and every call resolves to an IpcResult. What main reports
// (errors, field issues, reasons, provider codes, transport failures) is a code with parameters: it
// is said here in the user's language, from the shared message catalog (the 'msg' namespace).
import type { TFunction } from 'i18next';
import type { CalloutApi, IpcError, IpcResult } from '../../../common/contract';
import { errorArgs } from '../../../common/messages';
import { say } from './describe';
import { consoleShell } from './browser-transport';

declare global {
  interface Window {
    /** Provided by the preload, or in a browser by browser-transport.ts; both build it with common/api.ts. */
    readonly callout: CalloutApi;
  }
}

export type { CalloutApi, IpcError, IpcResult };
export { describeIssue, describeProviderCode, describeReason, describeTransport } from './describe';

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

/** The user's-language text for an error: by its code and parameters, never the raw code. */
export function describeError(t: TFunction, error: IpcError): string {
  if (error === UNREACHABLE) return consoleShell().kind === 'browser' ? t('errors.unreachable_browser') : t('errors.unreachable');
  return say(t, errorArgs(error));
}
