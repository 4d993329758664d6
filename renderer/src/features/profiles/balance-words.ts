// The outcome of a balance query in words (the profile screen's, the guide's and the Send screen's
// balance): a module of its own, so that the Send screen (the first screen) does not bring the
// profile screen's check view (its spinner) along.
import type { TFunction } from 'i18next';
import type { BalanceView } from '../../../../common/contract';
import { authRefusal } from '../../../../common/domain/outcomes';
import { describeError, describeProviderCode, describeReason, type IpcResult } from '../../app/api';

interface Described {
  type: 'success' | 'warning' | 'error';
  title: string;
  body: string[];
}

/** The outcome of a balance query in words, in the user's language. Exported for reuse by other screens. */
export function describeBalance(t: TFunction, result: IpcResult<BalanceView>, threshold: number | null, signing?: 'off' | 'spec' | 'apisix'): Described {
  if (!result.ok) return { type: 'error', title: t('balance.failedTitle'), body: [describeError(t, result.error)] };
  const v = result.value;
  if (v.units !== null) {
    const units = t('balance.units', { count: v.units });
    const body = [t('balance.okBody')];
    if (v.low) body.push(t('balance.low', { threshold: t('balance.units', { count: threshold ?? 0 }) }));
    return { type: v.low ? 'warning' : 'success', title: t('balance.okTitle', { units }), body };
  }
  if (v.accepted) return { type: 'warning', title: t('balance.unreadableTitle'), body: [t('balance.unreadableBody')] };
  if (v.failure?.kind === 'signature-rejected') {
    // A profile that does not sign had no signature to refuse: its account or key was refused.
    const context = authRefusal('signature', signing) === 'unsigned' ? 'unsigned' : undefined;
    return { type: 'error', title: t('provider.signature.meaning', { ns: 'msg', context }), body: [t('provider.signature.action', { ns: 'msg', context })] };
  }
  if (v.failure) {
    const body = v.failure.outcome === 'not-sent' ? [t('balance.failedNotSent')] : v.failure.outcome === 'unknown' ? [t('balance.failedUnknown')] : [];
    return { type: 'error', title: describeReason(t, v.failure.reason), body };
  }
  const code = describeProviderCode(t, v.providerCode);
  return { type: 'error', title: code.meaning, body: [code.action] };
}
