// The On call screen: incidents first (what an on-call engineer opens at night), then the
// configuration that decides who is phoned: routes, escalation policies and schedules.
import { useState } from 'react';
import { Alert, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { describeError, type IpcError } from '../../app/api';
import { IncidentsTab } from './IncidentsTab';
import { PoliciesTab } from './PoliciesTab';
import { RoutesTab } from './RoutesTab';
import { SchedulesTab } from './SchedulesTab';
import './oncall.css';

type TabKey = 'incidents' | 'routes' | 'policies' | 'schedules';

/** A failed load or change, as the app shows errors: main's code said in the user's language. */
export function ErrorView({ error, title }: { error: IpcError | null | undefined; title?: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  return <Alert type="error" showIcon title={title ?? t('oncall.failed')} description={describeError(t, error)} style={{ marginBottom: 12 }} data-testid="oncall-error" />;
}

export function OnCallScreen() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<TabKey>('incidents');
  return (
    <section aria-labelledby="oncall-title" className="oncall-screen">
      <Typography.Title level={3} id="oncall-title" style={{ marginTop: 0, marginBottom: 4 }}>
        {t('oncall.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t('oncall.intro')}
      </Typography.Paragraph>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as TabKey)}
        destroyOnHidden
        items={[
          { key: 'incidents', label: <span data-testid="tab-incidents">{t('oncall.tabs.incidents')}</span>, children: <IncidentsTab /> },
          { key: 'routes', label: <span data-testid="tab-routes">{t('oncall.tabs.routes')}</span>, children: <RoutesTab /> },
          { key: 'policies', label: <span data-testid="tab-policies">{t('oncall.tabs.policies')}</span>, children: <PoliciesTab /> },
          { key: 'schedules', label: <span data-testid="tab-schedules">{t('oncall.tabs.schedules')}</span>, children: <SchedulesTab /> },
        ]}
      />
    </section>
  );
}
