import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AppInfo } from '../../../common/contract';

/** The full-disk banner itself (StorageBanner.tsx): a chunk of its own, for its copyable folder. */
export default function StorageProblem({ problem }: { problem: NonNullable<AppInfo['storageProblem']> }) {
  const { t } = useTranslation();
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
            {t('storage.where')}{' '}
            <Typography.Text code copyable>
              {problem.dataDirectory}
            </Typography.Text>
          </div>
          {problem.unstored > 0 ? <div style={{ marginTop: 4 }}>{t('storage.unstored', { count: problem.unstored })}</div> : null}
        </>
      }
      style={{ marginBottom: 16 }}
    />
  );
}
