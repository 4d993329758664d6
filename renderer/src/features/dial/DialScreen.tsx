// The Quick dial screen: the runs of this session live at the top (calling, waiting for the next
// attempt, the next person, the result), then contacts, escalation lists and the per-number limits.
// The palette opens with Ctrl/Cmd+K from any screen, or with the button here.
import { useEffect, useState } from 'react';
import { Alert, Button, Empty, Flex, Skeleton, Tabs, Typography } from 'antd';
import { PhoneOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../app/api';
import { useStore } from '../../app/store';
import { ContactsTab } from './ContactsTab';
import { paletteRequest, useDialRuns, type PalettePreset } from './dial-store';
import { GroupsTab } from './GroupsTab';
import { QuickDialPalette } from './QuickDialPalette';
import { RunCard } from './RunCard';
import { SettingsTab } from './SettingsTab';
import { QUICKEST_CALL_KEY_PRESSES, SHORTCUT_KEYS } from './shortcut';
import { contactsChanged, useDialData } from './use-dial-data';
import './dial.css';

type TabKey = 'contacts' | 'groups' | 'settings';

export function DialScreen() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { data, loading, error, reload } = useDialData();
  const reloadContacts = () => contactsChanged(client);
  const runs = useDialRuns().filter((r) => !r.dismissed);
  const [palette, setPalette] = useState<{ open: boolean; preset: PalettePreset }>({ open: false, preset: null });
  const [tab, setTab] = useState<TabKey>('contacts');
  const openPalette = (preset: PalettePreset) => setPalette({ open: true, preset });

  // Asked for by the shortcut or a "Call" button, here or before this screen was shown.
  const request = useStore(paletteRequest);
  useEffect(() => {
    if (!request) return;
    setPalette({ open: true, preset: request.preset });
    paletteRequest.set(null);
  }, [request]);

  const shortcut = (
    <span className="dial-kbd-hint">
      {SHORTCUT_KEYS.map((k) => (
        <Typography.Text keyboard key={k}>
          {k}
        </Typography.Text>
      ))}
    </span>
  );

  return (
    <section aria-labelledby="dial-title" className="dial-screen">
      <Flex align="flex-start" justify="space-between" gap={24} style={{ marginBottom: 16 }}>
        <div style={{ minWidth: 0 }}>
          <Typography.Title level={3} id="dial-title" style={{ marginTop: 0, marginBottom: 4 }}>
            {t('dial.title')}
          </Typography.Title>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0, maxWidth: 760 }}>
            {t('dial.intro', { count: QUICKEST_CALL_KEY_PRESSES, shortcut: SHORTCUT_KEYS.join('+') })}
          </Typography.Paragraph>
        </div>
        <Button type="primary" size="large" icon={<PhoneOutlined />} onClick={() => openPalette(null)} disabled={!data} data-testid="open-palette">
          {t('dial.openPalette')} {shortcut}
        </Button>
      </Flex>

      {error ? (
        <Alert
          type="error"
          showIcon
          title={t('dial.loadFailed')}
          description={describeError(t, error)}
          action={
            <Button icon={<ReloadOutlined />} onClick={reload}>
              {t('common.retry')}
            </Button>
          }
          style={{ marginBottom: 16 }}
        />
      ) : null}

      <div className="dial-runs" data-testid="dial-runs" aria-label={t('dial.run.sectionLabel')} role="region">
        {runs.length ? (
          runs.slice(0, 3).map((r) => <RunCard key={r.runId} run={r} />)
        ) : (
          <div className="dial-runs-empty" data-testid="dial-runs-empty">
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                <span>
                  {t('dial.run.empty')} {shortcut}
                </span>
              }
            />
          </div>
        )}
      </div>

      {loading && !data ? <Skeleton active /> : null}
      {data ? (
        <Tabs
          activeKey={tab}
          onChange={(k) => setTab(k as TabKey)}
          items={[
            {
              key: 'contacts',
              label: t('dial.tabs.contacts', { count: data.contacts.length }),
              children: <ContactsTab data={data} onChanged={reloadContacts} />,
            },
            { key: 'groups', label: t('dial.tabs.groups', { count: data.groups.length }), children: <GroupsTab data={data} onChanged={reloadContacts} /> },
            { key: 'settings', label: t('dial.tabs.settings'), children: <SettingsTab data={data} /> },
          ]}
        />
      ) : null}

      {data ? (
        <QuickDialPalette
          open={palette.open}
          preset={palette.preset}
          data={data}
          onClose={() => setPalette((p) => ({ ...p, open: false }))}
          onStarted={reloadContacts}
        />
      ) : null}
    </section>
  );
}
