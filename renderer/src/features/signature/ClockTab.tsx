// Clock: this computer's clock against the profile's server (its Date header), read every 5 s
// while the tab is shown, with the ±300 s window drawn. And the variant probe: which string to
// sign does this gateway accept?
import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Empty, Flex, Switch, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { QuestionCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ProfileView, VariantProbeView } from '../../../../common/contract';
import { describeError, describeReason } from '../../app/api';
import { useGatewayClock, useProbeVariant } from './data';
import { currentLanguage } from '../../i18n';
import { sayClockError } from './messages';
import { formatAbsSeconds, SkewGauge } from './SkewGauge';
import { CLOCK_WINDOW_SECONDS, outsideWindow, probeLikelyCause } from './probe-cause';

export const CLOCK_REFRESH_MS = 5_000;
export const CLOCK_WARN_SECONDS = 60;
const WINDOW_SECONDS = CLOCK_WINDOW_SECONDS;

export interface ClockTabProps {
  profile: ProfileView | null;
  /** The Clock tab is shown: only then is the clock read. */
  active: boolean;
}

export function ClockTab({ profile, active }: ClockTabProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const [live, setLive] = useState(true);
  const profileId = profile?.id ?? null;
  // Read when the tab is shown, then every 5 s while live and the window is visible (and again when it
  // becomes visible). Each profile has its own reading.
  const reading = useGatewayClock(profileId, { active, live, refreshMs: CLOCK_REFRESH_MS });

  if (!profile) return <Empty description={t('signature.key.problem.no-profile')} />;

  const p = reading.data ?? null;
  const skew = p?.skewSeconds ?? null;
  const abs = skew === null ? 0 : Math.abs(skew);
  const time = (ms: number) => new Intl.DateTimeFormat(lang, { timeStyle: 'medium' }).format(new Date(ms));
  const skewText =
    skew === null
      ? t('signature.clock.noReading')
      : Math.abs(skew) < 1
        ? t('signature.clock.inStep')
        : t(skew > 0 ? 'signature.clock.serverAhead' : 'signature.clock.serverBehind', { seconds: formatAbsSeconds(lang, abs, 1) });

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
            <Button size="small" icon={<ReloadOutlined />} loading={reading.isFetching} onClick={() => void reading.refetch()} data-testid="clock-refresh">
              {t('signature.clock.refresh')}
            </Button>
          </Flex>
        }
      >
        <Typography.Paragraph type="secondary">{t('signature.clock.intro')}</Typography.Paragraph>
        {reading.error ? <Alert type="error" showIcon title={t('signature.clock.failed')} description={describeError(t, reading.error)} /> : null}
        {p?.error ? (
          <Alert
            type="warning"
            showIcon
            title={t('signature.clock.noReading')}
            description={sayClockError(t, p.error)}
            style={{ marginBottom: 12 }}
            data-testid="clock-error"
            data-error={p.error.code}
          />
        ) : null}
        {p ? (
          <Flex vertical gap={12}>
            <div data-testid="clock-skew" data-skew={skew ?? ''}>
              <Typography.Text strong style={{ fontSize: 16 }}>
                {skewText}
              </Typography.Text>
            </div>
            <SkewGauge
              seconds={skew}
              windowSeconds={WINDOW_SECONDS}
              warnSeconds={CLOCK_WARN_SECONDS}
              label={`${skewText} ${t('signature.skew.window', { seconds: WINDOW_SECONDS })}`}
              testId="clock-gauge"
            />
            {outsideWindow(skew) ? (
              <Alert
                type="error"
                showIcon
                title={t('signature.clock.outsideTitle')}
                description={t('signature.clock.outsideBody', { seconds: WINDOW_SECONDS })}
                data-testid="clock-alert"
                data-level="error"
              />
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
                {
                  key: 'server',
                  label: t('signature.clock.serverDate'),
                  children: p.serverDate ? <code data-testid="clock-server-date">{p.serverDate}</code> : t('signature.verify.none'),
                },
                { key: 'local', label: t('signature.clock.localDate'), children: <code>{new Date(p.localTime).toUTCString()}</code> },
                { key: 'rtt', label: t('signature.clock.roundTrip'), children: t('signature.clock.ms', { ms: p.roundTripMs }) },
                { key: 'status', label: t('signature.clock.httpStatus'), children: p.httpStatus ?? t('signature.verify.none') },
                { key: 'at', label: t('signature.clock.checkedAt'), children: time(reading.dataUpdatedAt) },
                { key: 'url', label: t('signature.clock.server'), children: <code className="sig-break">{profile.baseUrl}</code> },
              ]}
            />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('signature.clock.precision')}
            </Typography.Text>
          </Flex>
        ) : reading.isPending ? (
          <Typography.Text type="secondary">{t('signature.clock.reading')}</Typography.Text>
        ) : null}
      </Card>
      {/* Keyed by profile: another profile starts without an answer. */}
      <VariantProbe key={profile.id} profile={profile} skew={skew} />
    </Flex>
  );
}

function VariantProbe({ profile, skew }: { profile: ProfileView; skew: number | null }) {
  const { t } = useTranslation();
  // An action, not a reading: each run asks the gateway again and stores its exchanges.
  const probe = useProbeVariant(profile.id);

  type Row = VariantProbeView['results'][number];
  const columns: TableColumnsType<Row> = [
    {
      key: 'variant',
      title: t('signature.probe.variant'),
      render: (_: unknown, r) => <Typography.Text strong>{t(`signature.variant.${r.variant}`)}</Typography.Text>,
    },
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
    {
      key: 'reason',
      title: t('signature.parts.note'),
      render: (_: unknown, r) =>
        r.gatewayRejected ? t('signature.probe.gatewayRejected') : r.reason ? <span data-testid="probe-reason">{describeReason(t, r.reason)}</span> : null,
    },
  ];

  return (
    <Card size="small" title={t('signature.probe.title')} data-testid="sig-probe">
      <Typography.Paragraph type="secondary">{t('signature.probe.intro')}</Typography.Paragraph>
      <Button icon={<QuestionCircleOutlined />} loading={probe.isPending} onClick={() => probe.mutate()} data-testid="probe-run">
        {t('signature.probe.run')}
      </Button>
      {probe.error ? (
        <Alert type="error" showIcon title={t('signature.probe.failed')} description={describeError(t, probe.error)} style={{ marginTop: 12 }} />
      ) : null}
      {probe.data ? <ProbeAnswer answer={probe.data} columns={columns} skew={skew} /> : null}
    </Card>
  );
}

function ProbeAnswer({
  answer,
  columns,
  skew,
}: {
  answer: VariantProbeView;
  columns: TableColumnsType<VariantProbeView['results'][number]>;
  skew: number | null;
}) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const accepted = answer.accepted;
  // Neither variant with the clock outside the window: the clock shown above is the likely cause.
  const cause = probeLikelyCause(accepted, skew);
  return (
    <div style={{ marginTop: 12 }} data-testid="probe-result" data-accepted={accepted.join(' ')} data-cause={cause ?? undefined}>
      <Alert
        type={accepted.length > 0 ? 'success' : 'warning'}
        showIcon
        title={
          accepted.length === 0
            ? t('signature.probe.none')
            : accepted.length === 2
              ? t('signature.probe.both')
              : t('signature.probe.accepts', { variant: t(`signature.variant.${accepted[0]!}`) })
        }
        description={
          cause === 'clock' && skew !== null
            ? t('signature.probe.noneClock', { seconds: formatAbsSeconds(lang, Math.abs(skew), 1), window: WINDOW_SECONDS })
            : undefined
        }
        style={{ marginBottom: 12 }}
      />
      <Table size="small" rowKey="variant" pagination={false} columns={columns} dataSource={answer.results} />
    </div>
  );
}
