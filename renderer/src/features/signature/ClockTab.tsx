// Clock: this computer's clock against the profile's server (its Date header), read every 5 s
// while the tab is shown, with the ±300 s window drawn. And the variant probe: which string to
// sign does this gateway accept?
import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Descriptions, Empty, Flex, Switch, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { QuestionCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ProfileView, VariantProbeView } from '../../../../common/contract';
import type { ClockProbe } from '../../../../common/signature-types';
import { call, describeError, type IpcError } from '../../app/api';
import { currentLanguage } from '../../i18n';
import { formatAbsSeconds, SkewGauge } from './SkewGauge';

export const CLOCK_REFRESH_MS = 5_000;
export const CLOCK_WARN_SECONDS = 60;
const WINDOW_SECONDS = 300;

export interface ClockTabProps {
  profile: ProfileView | null;
  /** The Clock tab is shown: only then is the clock read. */
  active: boolean;
}

type Reading = { probe: ClockProbe; at: number } | { error: IpcError; at: number };

export function ClockTab({ profile, active }: ClockTabProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const [live, setLive] = useState(true);
  const [reading, setReading] = useState<Reading | null>(null);
  const [busy, setBusy] = useState(false);
  const profileId = profile?.id ?? null;
  const current = useRef(profileId);
  current.current = profileId;

  const probe = useCallback(async () => {
    if (!profileId) return;
    setBusy(true);
    const r = await call((api) => api.signature.probeClock({ profileId }));
    setBusy(false);
    if (current.current !== profileId) return;
    setReading(r.ok ? { probe: r.value, at: Date.now() } : { error: r.error, at: Date.now() });
  }, [profileId]);

  useEffect(() => setReading(null), [profileId]);

  useEffect(() => {
    if (!active || !profileId) return;
    void probe();
    if (!live) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void probe();
    }, CLOCK_REFRESH_MS);
    const onVisible = () => document.visibilityState === 'visible' && void probe();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [active, live, profileId, probe]);

  if (!profile) return <Empty description={t('signature.key.problem.no-profile')} />;

  const p = reading && 'probe' in reading ? reading.probe : null;
  const skew = p?.skewSeconds ?? null;
  const abs = skew === null ? 0 : Math.abs(skew);
  const time = (ms: number) => new Intl.DateTimeFormat(lang, { timeStyle: 'medium' }).format(new Date(ms));
  const skewText =
    skew === null ? t('signature.clock.noReading') : Math.abs(skew) < 1 ? t('signature.clock.inStep') : t(skew > 0 ? 'signature.clock.serverAhead' : 'signature.clock.serverBehind', { seconds: formatAbsSeconds(lang, abs, 1) });

  return (
    <Flex vertical gap={16}>
      <Card
        size="small"
        title={t('signature.clock.title', { profile: profile.name })}
        data-testid="sig-clock"
        extra={
          <Flex gap={12} align="center">
            <label className="sig-field-inline">
              <Switch size="small" checked={live} onChange={setLive} data-testid="clock-live" />
              <span>{t('signature.clock.live', { seconds: CLOCK_REFRESH_MS / 1000 })}</span>
            </label>
            <Button size="small" icon={<ReloadOutlined />} loading={busy} onClick={() => void probe()} data-testid="clock-refresh">
              {t('signature.clock.refresh')}
            </Button>
          </Flex>
        }
      >
        <Typography.Paragraph type="secondary">{t('signature.clock.intro')}</Typography.Paragraph>
        {reading && 'error' in reading ? (
          <Alert type="error" showIcon title={t('signature.clock.failed')} description={describeError(t, reading.error)} />
        ) : null}
        {p?.error ? <Alert type="warning" showIcon title={t('signature.clock.noReading')} description={<span className="sig-detail">{p.error}</span>} style={{ marginBottom: 12 }} data-testid="clock-error" /> : null}
        {p ? (
          <Flex vertical gap={12}>
            <div data-testid="clock-skew" data-skew={skew ?? ''}>
              <Typography.Text strong style={{ fontSize: 16 }}>
                {skewText}
              </Typography.Text>
            </div>
            <SkewGauge seconds={skew} windowSeconds={WINDOW_SECONDS} warnSeconds={CLOCK_WARN_SECONDS} label={`${skewText} ${t('signature.skew.window', { seconds: WINDOW_SECONDS })}`} testId="clock-gauge" />
            {skew !== null && abs > WINDOW_SECONDS ? (
              <Alert type="error" showIcon title={t('signature.clock.outsideTitle')} description={t('signature.clock.outsideBody', { seconds: WINDOW_SECONDS })} data-testid="clock-alert" data-level="error" />
            ) : skew !== null && abs > CLOCK_WARN_SECONDS ? (
              <Alert
                type="warning"
                showIcon
                title={t('signature.clock.warnTitle', { seconds: formatAbsSeconds(lang, abs, 0) })}
                description={t('signature.clock.warnBody', { window: WINDOW_SECONDS })}
                data-testid="clock-alert"
                data-level="warning"
              />
            ) : skew !== null ? (
              <Alert type="success" showIcon title={t('signature.clock.okTitle')} data-testid="clock-alert" data-level="ok" />
            ) : null}
            <Descriptions
              size="small"
              column={{ xs: 1, md: 2 }}
              bordered
              items={[
                { key: 'server', label: t('signature.clock.serverDate'), children: p.serverDate ? <code data-testid="clock-server-date">{p.serverDate}</code> : t('signature.verify.none') },
                { key: 'local', label: t('signature.clock.localDate'), children: <code>{new Date(p.localTime).toUTCString()}</code> },
                { key: 'rtt', label: t('signature.clock.roundTrip'), children: t('signature.clock.ms', { ms: p.roundTripMs }) },
                { key: 'status', label: t('signature.clock.httpStatus'), children: p.httpStatus ?? t('signature.verify.none') },
                { key: 'at', label: t('signature.clock.checkedAt'), children: time(reading!.at) },
                { key: 'url', label: t('signature.clock.server'), children: <code className="sig-break">{profile.baseUrl}</code> },
              ]}
            />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('signature.clock.precision')}
            </Typography.Text>
          </Flex>
        ) : !reading ? (
          <Typography.Text type="secondary">{t('signature.clock.reading')}</Typography.Text>
        ) : null}
      </Card>
      <VariantProbe profile={profile} />
    </Flex>
  );
}

function VariantProbe({ profile }: { profile: ProfileView }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ value: VariantProbeView } | { error: IpcError } | null>(null);
  useEffect(() => setResult(null), [profile.id]);

  const run = async () => {
    setBusy(true);
    const r = await call((api) => api.signature.probeVariant({ profileId: profile.id }));
    setBusy(false);
    setResult(r.ok ? { value: r.value } : { error: r.error });
  };

  type Row = VariantProbeView['results'][number];
  const columns: TableColumnsType<Row> = [
    { key: 'variant', title: t('signature.probe.variant'), render: (_: unknown, r) => <Typography.Text strong>{t(`signature.variant.${r.variant}`)}</Typography.Text> },
    {
      key: 'outcome',
      title: t('signature.probe.outcome'),
      render: (_: unknown, r) => (
        <Tag color={r.outcome === 'accepted' ? 'success' : r.outcome === 'rejected' ? 'error' : 'default'} data-testid="probe-outcome" data-outcome={r.outcome}>
          {t(`signature.probe.outcomeName.${r.outcome}`)}
        </Tag>
      ),
    },
    { key: 'http', title: t('signature.clock.httpStatus'), render: (_: unknown, r) => r.httpStatus ?? '—' },
    { key: 'code', title: t('signature.probe.providerCode'), render: (_: unknown, r) => r.providerCode ?? '—' },
    { key: 'message', title: t('signature.parts.note'), render: (_: unknown, r) => (r.gatewayRejected ? t('signature.probe.gatewayRejected') : r.message ? <span className="sig-detail">{r.message}</span> : null) },
  ];

  return (
    <Card size="small" title={t('signature.probe.title')} data-testid="sig-probe">
      <Typography.Paragraph type="secondary">{t('signature.probe.intro')}</Typography.Paragraph>
      <Button icon={<QuestionCircleOutlined />} loading={busy} onClick={() => void run()} data-testid="probe-run">
        {t('signature.probe.run')}
      </Button>
      {result && 'error' in result ? <Alert type="error" showIcon title={t('signature.probe.failed')} description={describeError(t, result.error)} style={{ marginTop: 12 }} /> : null}
      {result && 'value' in result ? (
        <div style={{ marginTop: 12 }} data-testid="probe-result" data-accepted={result.value.accepted.join(' ')}>
          <Alert
            type={result.value.accepted.length > 0 ? 'success' : 'warning'}
            showIcon
            title={
              result.value.accepted.length === 0
                ? t('signature.probe.none')
                : result.value.accepted.length === 2
                  ? t('signature.probe.both')
                  : t('signature.probe.accepts', { variant: t(`signature.variant.${result.value.accepted[0]!}`) })
            }
            style={{ marginBottom: 12 }}
          />
          <Table<Row> size="small" rowKey="variant" pagination={false} columns={columns} dataSource={result.value.results} />
        </div>
      ) : null}
    </Card>
  );
}
