import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppInfo } from './app-info';

/** A calm warning when API Keys can only be kept for this session (no OS keychain). */
export function SecretStoreBanner() {
  const { t } = useTranslation();
  const { info } = useAppInfo();
  if (info?.secretStore.kind !== 'session') return null;
  const { reason, reasonCode } = info.secretStore;
  return (
    <Alert
      type="warning"
      showIcon
      role="status"
      data-testid="secret-store-banner"
      title={t('secretStore.sessionTitle')}
      description={
        <>
          <div>{t('secretStore.sessionBody')}</div>
          <div>{t(`secretStore.reasons.${reasonCode ?? 'unavailable'}`)}</div>
          {reason ? <div className="callout-banner-reason">{t('secretStore.technical', { reason })}</div> : null}
        </>
      }
      style={{ marginBottom: 16 }}
    />
  );
}
