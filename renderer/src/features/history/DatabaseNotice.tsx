// The notice that the database was found damaged at start: the damaged file was moved aside (never
// deleted), where it is, and that History started again empty. Shown on History and in its storage
// panel; the shell may show it at start too (exported for that).
import { useState } from 'react';
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppInfo } from '../../app/query';

export function DatabaseNotice({ recovered, onClose }: { recovered: { movedTo: string; kind?: 'database' | 'wal' }; onClose?: () => void }) {
  const { t } = useTranslation();
  // A damaged WAL: copies kept aside, the database kept with what was committed before the damage.
  const k = recovered.kind === 'wal' ? 'history.recovered.wal' : 'history.recovered';
  return (
    <Alert
      type="warning"
      showIcon
      closable={onClose ? { onClose } : false}
      role="alert"
      data-testid="database-recovered"
      title={t(`${k}.title`)}
      description={
        <>
          <div>{t(`${k}.body`)}</div>
          <div style={{ marginTop: 4 }}>
            {t(`${k}.where`)}{' '}
            <Typography.Text code copyable data-testid="database-recovered-path">
              {recovered.movedTo}
            </Typography.Text>
          </div>
          <div style={{ marginTop: 4 }}>{t('history.recovered.next')}</div>
        </>
      }
      style={{ marginBottom: 12 }}
    />
  );
}

/** The notice when app.info says the database was recovered at start; closable for this visit. */
export function StartupDatabaseNotice() {
  const info = useAppInfo();
  const [closed, setClosed] = useState(false);
  const recovered = info?.databaseRecovered ?? null;
  if (!recovered || closed) return null;
  return <DatabaseNotice recovered={recovered} onClose={() => setClosed(true)} />;
}
