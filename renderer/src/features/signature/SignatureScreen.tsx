// The signature workbench (spec 5.2, issue 6): build a signature step by step, verify and
// diagnose a captured request, compare clocks, and export and check test vectors. The key of a
// profile never comes to this screen: main signs with it. A key typed here lives in this
// screen's state only, and is gone when the screen is left.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Tabs, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../app/api';
import { profilesQuery } from '../../app/query';
import { BuildTab } from './BuildTab';
import { ClockTab } from './ClockTab';
import { KeyBar, type KeyState } from './KeyBar';
import { useBuild } from './use-build';
import { VectorsTab } from './VectorsTab';
import { VerifyTab } from './VerifyTab';
import './signature.css';

export type SignatureTab = 'build' | 'verify' | 'clock' | 'vectors';

export function SignatureScreen() {
  const { t } = useTranslation();
  const { data: profiles, isPending: loading, error, refetch } = useQuery(profilesQuery);
  const [keyState, setKeyState] = useState<KeyState>({ profileId: null, source: 'profile', adHoc: '' });
  const [tab, setTab] = useState<SignatureTab>('build');

  // Start with the first profile that has a key (the built-in Sandbox comes first).
  useEffect(() => {
    if (!profiles || profiles.length === 0) return;
    setKeyState((k) =>
      k.profileId && profiles.some((p) => p.id === k.profileId) ? k : { ...k, profileId: (profiles.find((p) => p.hasKey) ?? profiles[0])!.id },
    );
  }, [profiles]);

  const profile = useMemo(() => profiles?.find((p) => p.id === keyState.profileId) ?? null, [profiles, keyState.profileId]);
  const build = useBuild(keyState, profile, tab === 'build');

  return (
    <section aria-labelledby="signature-title" className="sig-screen">
      <Typography.Title level={3} id="signature-title" style={{ marginTop: 0, marginBottom: 4 }}>
        {t('signature.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12, maxWidth: 820 }}>
        {t('signature.intro')}
      </Typography.Paragraph>

      {error ? (
        <Alert
          type="error"
          showIcon
          title={t('profiles.loadFailed')}
          description={describeError(t, error)}
          action={
            <Button icon={<ReloadOutlined />} onClick={() => void refetch()}>
              {t('common.retry')}
            </Button>
          }
          style={{ marginBottom: 12 }}
        />
      ) : null}

      <KeyBar profiles={profiles ?? []} loading={loading} state={keyState} onChange={setKeyState} />

      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as SignatureTab)}
        data-testid="signature-tabs"
        items={[
          { key: 'build', label: <span data-testid="tab-build">{t('signature.tab.build')}</span>, children: <BuildTab build={build} profile={profile} /> },
          {
            key: 'verify',
            label: <span data-testid="tab-verify">{t('signature.tab.verify')}</span>,
            children: <VerifyTab keyState={keyState} profile={profile} build={build} />,
          },
          {
            key: 'clock',
            label: <span data-testid="tab-clock">{t('signature.tab.clock')}</span>,
            children: <ClockTab profile={profile} active={tab === 'clock'} />,
          },
          {
            key: 'vectors',
            label: <span data-testid="tab-vectors">{t('signature.tab.vectors')}</span>,
            children: <VectorsTab build={build} keyState={keyState} profile={profile} />,
          },
        ]}
      />
    </section>
  );
}
