// What main reports as codes with parameters (field issues, reasons, provider codes, transport
// failures), said in the user's language from the shared message catalog (the 'msg' namespace).
// Pure (no window): the screens' models use it, and tests run them in Node.
import type { TFunction } from 'i18next';
import { issueArgs, MESSAGES_NS, providerCodeKeys, reasonArgs, type MessageArgs } from '../../../common/messages';
import type { Reason } from '../../../common/reasons';
import type { TransportErrorKind } from '../../../common/records';

/** Says catalog arguments (errorArgs, reasonArgs, ...) in the user's language. Keys and parameters come from main's codes, so they are not typed here. */
export function say(t: TFunction, [key, options]: MessageArgs): string {
  return (t as unknown as (key: string, options: object) => string)(key, { ...options, ns: MESSAGES_NS });
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
