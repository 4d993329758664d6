// The chosen profile's balance in units, checked with a balance query (no call, no cost): on
// demand, when the profile changes, after each send and when a call ends. A low balance is warned
// about; a failed check is said in words (the profile screen's wording, shared).
import { Alert, Button, Card, Skeleton, Tooltip, Typography } from 'antd';
import { ReloadOutlined, WalletOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../../common/contract';
import { RESULT_CODES } from '../../../../common/domain/codes';
import { currentLanguage } from '../../i18n';
import { describeBalance } from '../profiles/balance';
import { formatTime } from './send-model';
import type { BalanceState } from './use-balance';

export interface BalanceCardProps {
  profile: ProfileView | null;
  balance: BalanceState;
  onRefresh: () => void;
}

export function BalanceCard({ profile, balance, onRefresh }: BalanceCardProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { checking, result: r } = balance;

  const body = (() => {
    if (!profile) return <Typography.Text type="secondary">{t('send.balance.noProfile')}</Typography.Text>;
    if (!profile.hasKey) return <Typography.Text type="secondary">{t('send.balance.noKey')}</Typography.Text>;
    if (!r) return <Skeleton active title={false} paragraph={{ rows: 1, width: '60%' }} />;
    if (r.ok && r.value.units !== null) {
      return (
        <>
          <div className="send-balance-line">
            <span className="send-balance-units" data-testid="balance-units" data-units={r.value.units}>
              {t('send.units', { count: r.value.units })}
            </span>
            <Typography.Text type="secondary" className="send-time">
              {t('send.balance.checkedAt', { time: formatTime(lang, r.value.checkedAt) })}
            </Typography.Text>
          </div>
          {r.value.low ? (
            <Alert
              type="warning"
              showIcon
              data-testid="balance-low"
              title={t('send.balance.low', { threshold: t('send.units', { count: profile.lowBalanceThreshold ?? 0 }) })}
              description={RESULT_CODES[402].action[lang]}
              className="send-note"
            />
          ) : null}
        </>
      );
    }
    const d = describeBalance(t, lang, r, profile.lowBalanceThreshold);
    return <Alert type={d.type} showIcon title={d.title} description={d.body.length ? d.body.join(' ') : undefined} data-testid="balance-problem" />;
  })();

  return (
    <Card
      size="small"
      title={
        <span className="send-call-title">
          <WalletOutlined aria-hidden />
          {profile ? t('send.balance.title', { name: profile.name }) : t('send.balance.titlePlain')}
        </span>
      }
      extra={
        profile?.hasKey ? (
          <Tooltip title={t('send.balance.refreshHint')}>
            <Button size="small" icon={<ReloadOutlined />} onClick={onRefresh} loading={checking} data-testid="balance-refresh">
              {t('send.balance.refresh')}
            </Button>
          </Tooltip>
        ) : null
      }
      data-testid="balance-card"
      data-state={checking ? 'checking' : r ? 'done' : 'idle'}
    >
      <div role="status" aria-live="polite">
        {body}
      </div>
    </Card>
  );
}
