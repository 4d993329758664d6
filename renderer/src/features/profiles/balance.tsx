// Checking a profile's key and balance with a harmless balance query, and saying the outcome in words.
import { useEffect } from 'react';
import { Alert, Space, Spin, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BalanceView, ProfileView } from '../../../../common/contract';
import { call, type IpcResult } from '../../app/api';
import { currentLanguage } from '../../i18n';
import { describeBalance } from './balance-words';

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
  const d = describeBalance(t, check.result, profile.lowBalanceThreshold, profile.signing);
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
