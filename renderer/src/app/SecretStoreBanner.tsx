import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppInfo } from './query';

/** A calm warning when API Keys can only be kept for this session (no OS keychain). */
export function SecretStoreBanner() {
  const { t } = useTranslation();
  const info = useAppInfo();
  if (info?.secretStore.kind !== 'session') return null;
  const { reasonCode } = info.secretStore;
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
        </>
      }
      style={{ marginBottom: 16 }}
    />
  );
}
