// The chosen profile's balance in units, checked with a balance query (no call, no cost): on
// demand, when the profile changes, after each send and when a call ends (the balance query is
// loaded again then). The last result stays while a check runs. A low balance is warned about; a
// failed check is said in words (the profile screen's wording, shared).
import { Alert, Button, Tooltip } from 'antd';
import { ReloadOutlined, WalletOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BalanceView, ProfileView } from '../../../../common/contract';
import type { IpcResult } from '../../app/api';
import { balanceQuery } from '../../app/query';
import { currentLanguage } from '../../i18n';
import { describeBalance } from '../profiles/balance-words';
import { formatTime } from './send-model';
import { Panel } from '../../app/Panel';
import { Text } from '../../app/Text';
import { Skeleton } from '../../app/Skeleton';

export function BalanceCard({ profile }: { profile: ProfileView | null }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const balance = useQuery({ ...balanceQuery(profile?.id ?? ''), enabled: profile?.hasKey === true });
  const checking = balance.isFetching;
  const r: IpcResult<BalanceView> | null = balance.error ? { ok: false, error: balance.error } : balance.data ? { ok: true, value: balance.data } : null;

  const body = (() => {
    if (!profile) return <Text type="secondary">{t('send.balance.noProfile')}</Text>;
    if (!profile.hasKey) return <Text type="secondary">{t('send.balance.noKey')}</Text>;
    if (!r) return <Skeleton title={false} rows={1} lastWidth="60%" />;
    if (r.ok && r.value.units !== null) {
      return (
        <>
          <div className="send-balance-line">
            <span className="send-balance-units" data-testid="balance-units" data-units={r.value.units}>
              {t('send.units', { count: r.value.units })}
            </span>
            <Text type="secondary" className="send-time">
              {t('send.balance.checkedAt', { time: formatTime(lang, r.value.checkedAt) })}
            </Text>
          </div>
          {r.value.low ? (
            <Alert
              type="warning"
              showIcon
              data-testid="balance-low"
              title={t('send.balance.low', { threshold: t('send.units', { count: profile.lowBalanceThreshold ?? 0 }) })}
              description={t('provider.402.action', { ns: 'msg' })}
              className="send-note"
            />
          ) : null}
        </>
      );
    }
    const d = describeBalance(t, r, profile.lowBalanceThreshold, profile.signing);
    return <Alert type={d.type} showIcon title={d.title} description={d.body.length ? d.body.join(' ') : undefined} data-testid="balance-problem" />;
  })();

  return (
    <Panel
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
            <Button size="small" icon={<ReloadOutlined />} onClick={() => void balance.refetch()} loading={checking} data-testid="balance-refresh">
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
    </Panel>
  );
}
