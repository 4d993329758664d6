// Checking a profile's key and balance with a harmless balance query, and saying the outcome in words.
import { Alert, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../../common/contract';
import { currentLanguage } from '../../i18n';
import { describeBalance } from './balance-words';
import type { BalanceCheck } from './use-profiles';

export { useBalanceCheck, type BalanceCheck } from './use-profiles';

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
  const outcome = check.state === 'done' ? { ok: true as const, value: check.balance } : { ok: false as const, error: check.error };
  const d = describeBalance(t, outcome, profile.lowBalanceThreshold, profile.signing);
  const checkedAt = check.state === 'done' ? new Intl.DateTimeFormat(lang, { timeStyle: 'medium' }).format(new Date(check.balance.checkedAt)) : null;
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
