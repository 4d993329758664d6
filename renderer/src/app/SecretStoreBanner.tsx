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
      // The title says what it means (keys until quit); the one line below says why and what to do.
      description={t(`secretStore.reasons.${reasonCode ?? 'unavailable'}`)}
      style={{ marginBottom: 16 }}
    />
  );
}
