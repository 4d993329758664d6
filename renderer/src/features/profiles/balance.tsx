// Checking a profile's key and balance with a harmless balance query, and saying the outcome in words.
import { useEffect } from 'react';
import { Alert, Space, Spin, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { BalanceView, ProfileView } from '../../../../common/contract';
import { call, describeError, describeProviderCode, describeReason, type IpcResult } from '../../app/api';
import { currentLanguage } from '../../i18n';

export type BalanceCheck = { state: 'idle' } | { state: 'checking' } | { state: 'done'; result: IpcResult<BalanceView> };

/** Runs balance.query for a profile on demand; choosing another profile forgets the outcome (and one still on its way). */
export function useBalanceCheck(profileId: string | null): { check: BalanceCheck; run: () => Promise<void>; reset: () => void } {
  const query = useMutation({ mutationFn: (id: string) => call((api) => api.balance.query({ profileId: id })) });
  const { reset, mutateAsync } = query;
  useEffect(() => reset(), [profileId, reset]);
  const check: BalanceCheck = query.isPending ? { state: 'checking' } : query.data ? { state: 'done', result: query.data } : { state: 'idle' };
  const run = async () => {
    if (profileId) await mutateAsync(profileId);
  };
  return { check, run, reset };
}

interface Described {
  type: 'success' | 'warning' | 'error';
  title: string;
  body: string[];
}

/** The outcome of a balance query in words, in the user's language. Exported for reuse by other screens. */
export function describeBalance(t: TFunction, result: IpcResult<BalanceView>, threshold: number | null): Described {
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
    return { type: 'error', title: t('provider.signature.meaning', { ns: 'msg' }), body: [t('provider.signature.action', { ns: 'msg' })] };
  }
  if (v.failure) {
    const body = v.failure.outcome === 'not-sent' ? [t('balance.failedNotSent')] : v.failure.outcome === 'unknown' ? [t('balance.failedUnknown')] : [];
    return { type: 'error', title: describeReason(t, v.failure.reason), body };
  }
  const code = describeProviderCode(t, v.providerCode);
  return { type: 'error', title: code.meaning, body: [code.action] };
}

/** Shows a balance check: a spinner while it runs, then the outcome in words. */
export function BalanceResult({ check, profile }: { check: BalanceCheck; profile: ProfileView }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  if (check.state === 'idle') return null;
  if (check.state === 'checking') {
    return (
      <div role="status" aria-live="polite" data-testid="balance-checking" style={{ padding: '12px 0' }}>
        <Space>
          <Spin size="small" />
          <Typography.Text>{t('balance.checking')}</Typography.Text>
        </Space>
      </div>
    );
  }
  const d = describeBalance(t, check.result, profile.lowBalanceThreshold);
  const checkedAt = check.result.ok ? new Intl.DateTimeFormat(lang, { timeStyle: 'medium' }).format(new Date(check.result.value.checkedAt)) : null;
  return (
    <div role="status" aria-live="polite" data-testid="balance-result" data-outcome={d.type}>
      <Alert
        type={d.type}
        showIcon
        title={d.title}
        description={
          d.body.length || checkedAt ? (
            <>
              {d.body.map((line) => (
                <div key={line}>{line}</div>
              ))}
              {checkedAt ? (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('balance.checkedAt', { time: checkedAt })}
                </Typography.Text>
              ) : null}
            </>
          ) : undefined
        }
      />
    </div>
  );
}
