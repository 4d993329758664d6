// The app's switch for the capture proxy: a button in the Exchanges toolbar that says whether the
// proxy runs, and a drawer to start it (the provider's base URL, the profile whose key checks the
// signatures, a port) or stop it, with how to point a backend at it. Started and stopped through the
// contract (capture.start/stop); its state follows the captureUpdated push (live-updates.ts).
import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Drawer, Form, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { ApiOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CaptureStatus } from '../../../../common/capture';
import { describeError } from '../../app/api';
import { appInfoQuery, profilesQuery } from '../../app/query';
import { useCaptureStatus, useCaptureSwitch, useSandboxDemoAccount } from './data';

export function CapturePanel() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const status = useCaptureStatus().data;
  const running = status?.running ?? false;
  return (
    <>
      <Button icon={<ApiOutlined />} onClick={() => setOpen(true)} data-testid="capture-open">
        <Badge status={running ? 'processing' : 'default'} />
        {running ? t('history.capture.running', { count: status?.counts.exchanges ?? 0 }) : t('history.capture.button')}
      </Button>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        title={t('history.capture.title')}
        size={Math.min(560, window.innerWidth - 40)}
        destroyOnHidden
        data-testid="capture-drawer"
      >
        <CaptureForm status={status ?? null} />
      </Drawer>
    </>
  );
}

function CaptureForm({ status }: { status: CaptureStatus | null }) {
  const { t } = useTranslation();
  const profiles = useQuery(profilesQuery).data ?? [];
  const sandboxUrl = useQuery(appInfoQuery).data?.sandboxBaseUrl ?? null;
  const running = status?.running ?? false;
  const [profileId, setProfileId] = useState<string | null>(status?.profileId ?? 'sandbox');
  const profile = profiles.find((p) => p.id === profileId) ?? null;
  const defaultTarget = profile ? (profile.builtin ? (sandboxUrl ?? '') : profile.baseUrl) : '';
  const [target, setTarget] = useState<string>(status?.target ?? '');
  const [port, setPort] = useState<number | null>(status?.port ?? null);
  useEffect(() => {
    if (!running) setTarget(defaultTarget);
  }, [defaultTarget, running]);

  const toggle = useCaptureSwitch(() => ({ target: target.trim(), port: port ?? undefined, profileId }));

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('history.capture.intro')}
      </Typography.Paragraph>
      <Form layout="vertical" disabled={running || toggle.isPending}>
        <Form.Item label={t('history.capture.profile')} extra={t('history.capture.profileHelp')}>
          <Select
            value={profileId ?? '__none'}
            onChange={(v) => setProfileId(v === '__none' ? null : v)}
            options={[
              ...profiles.filter((p) => p.hasKey).map((p) => ({ value: p.id, label: p.name })),
              { value: '__none', label: t('history.capture.noProfile') },
            ]}
            data-testid="capture-profile"
          />
        </Form.Item>
        <Form.Item label={t('history.capture.target')} extra={t('history.capture.targetHelp')}>
          <Input value={target} onChange={(e) => setTarget(e.target.value)} placeholder="https://" data-testid="capture-target" />
        </Form.Item>
        <Form.Item label={t('history.capture.port')} extra={t('history.capture.portHelp')}>
          <InputNumber min={1} max={65535} value={port} onChange={(v) => setPort(v)} style={{ width: 140 }} data-testid="capture-port" />
        </Form.Item>
      </Form>
      {profile?.builtin ? <SandboxAccount /> : null}
      <Space align="center">
        <Switch
          checked={running}
          loading={toggle.isPending}
          onChange={(on) => toggle.mutate(on)}
          disabled={!running && !target.trim()}
          aria-label={t('history.capture.switch')}
          data-testid="capture-switch"
        />
        <Typography.Text strong>{running ? t('history.capture.on', { url: status?.url ?? '' }) : t('history.capture.off')}</Typography.Text>
      </Space>
      {toggle.error ? <Alert type="error" showIcon title={describeError(t, toggle.error)} data-testid="capture-error" /> : null}
      {running && status ? (
        <Alert
          type="info"
          data-testid="capture-howto"
          title={t('history.capture.pointTitle')}
          description={
            <Space orientation="vertical" size={4}>
              <Typography.Text>{t('history.capture.reverse')}</Typography.Text>
              <Typography.Text code copyable>
                {status.url}
              </Typography.Text>
              <Typography.Text>{t('history.capture.forward')}</Typography.Text>
              <Typography.Text code copyable>{`HTTP_PROXY=${status.url} HTTPS_PROXY=${status.url}`}</Typography.Text>
              <Typography.Text type="secondary">
                {t('history.capture.counts', { count: status.counts.exchanges, pass: status.counts.pass, warn: status.counts.warn, fail: status.counts.fail })}
              </Typography.Text>
            </Space>
          }
        />
      ) : null}
    </Space>
  );
}

/**
 * With the built-in Sandbox, a backend authenticates with the Sandbox's demo account: its key is
 * generated and kept hidden like any key, so it is offered here to copy (a local sandbox's account;
 * main gives only the built-in profile's, never a real profile's key).
 */
function SandboxAccount() {
  const { t } = useTranslation();
  const account = useSandboxDemoAccount().data ?? null;
  if (!account) return null;
  return (
    <Alert
      type="info"
      showIcon
      data-testid="capture-sandbox-account"
      title={t('history.capture.sandboxTitle')}
      description={
        <Space orientation="vertical" size={4}>
          <Typography.Text>{t('history.capture.sandboxHint')}</Typography.Text>
          <Typography.Text>
            {t('history.capture.sandboxApiId')}{' '}
            <Typography.Text code copyable data-testid="capture-sandbox-api-id">
              {account.apiId}
            </Typography.Text>
          </Typography.Text>
          <Typography.Text>
            {t('history.capture.sandboxApiKey')}{' '}
            <Typography.Text code copyable data-testid="capture-sandbox-api-key">
              {account.apiKey}
            </Typography.Text>
          </Typography.Text>
        </Space>
      }
    />
  );
}
