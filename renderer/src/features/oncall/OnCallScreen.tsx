// The On call screen: incidents first (what an on-call engineer opens at night), then the
// configuration that decides who is phoned: routes, escalation policies, schedules and maintenance windows;
// last, the alert receiver (its address, its token or basic auth).
import { useState } from 'react';
import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { IncidentsTab } from './IncidentsTab';
import { MaintenanceTab } from './MaintenanceTab';
import { PoliciesTab } from './PoliciesTab';
import { ReceiverTab } from './ReceiverTab';
import { RoutesTab } from './RoutesTab';
import { SchedulesTab } from './SchedulesTab';
import './oncall.css';

type TabKey = 'incidents' | 'routes' | 'policies' | 'schedules' | 'maintenance' | 'receiver';

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
          { key: 'maintenance', label: <span data-testid="tab-maintenance">{t('oncall.tabs.maintenance')}</span>, children: <MaintenanceTab /> },
          { key: 'receiver', label: <span data-testid="tab-receiver">{t('oncall.tabs.receiver')}</span>, children: <ReceiverTab /> },
        ]}
      />
    </section>
  );
}
