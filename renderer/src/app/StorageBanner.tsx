import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppInfo } from './query';

/**
 * Callout cannot write its data (a full disk): said on every screen until writing works again.
 * Sends whose result is only in memory are counted: their number and text are refused meanwhile.
 */
export function StorageBanner() {
  const { t } = useTranslation();
  const problem = useAppInfo()?.storageProblem ?? null;
  if (!problem) return null;
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      data-testid="storage-banner"
      title={t(`storage.${problem.kind}.title`)}
      description={
        <>
          <div>{t(`storage.${problem.kind}.body`)}</div>
          <div style={{ marginTop: 4 }}>
            {t('storage.where')} <Typography.Text code copyable>{problem.dataDirectory}</Typography.Text>
          </div>
          {problem.unstored > 0 ? <div style={{ marginTop: 4 }}>{t('storage.unstored', { count: problem.unstored })}</div> : null}
        </>
      }
      style={{ marginBottom: 16 }}
    />
  );
}
