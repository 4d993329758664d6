// The Sandbox screen: the built-in sandbox provider driven from the app, through main (never its
// HTTP admin endpoints). Its balance (top up, or empty it to see a 402), the user's own templates
// (register them, approved now or after the review delay), how it behaves (speed, signature gateway,
// clock, review delay, reply shape), fault switches, and the requests it received.
import { useState, type HTMLAttributes } from 'react';
import { Alert, Button, Card, Empty, Flex, InputNumber, Select, Segmented, Skeleton, Space, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { ClearOutlined, PlusCircleOutlined, ReloadOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  SANDBOX_FAULT_CODES,
  SANDBOX_FAULT_KINDS,
  SANDBOX_SIGNATURE_MODES,
  SANDBOX_TIME_SCALES,
  type SandboxFaultInput,
  type SandboxFaultKind,
} from '../../../../common/contract/sandbox';
import type { SandboxLibraryEntry, SandboxRequestView, SandboxView } from '../../../../common/contract';
import { describeError } from '../../app/api';
import { navigate } from '../../app/navigation';
import { currentLanguage, type Language } from '../../i18n';
import { formatCount } from '../../i18n/numbers';
import { formatTime, timeParts } from '../history/history-model';
import { MarkedContent } from '../templates/MarkedContent';
import { SANDBOX_POLL_MS, sandboxQuery, sandboxRequestsQuery, useSandboxChange } from './use-sandbox';
import { useFeedback } from '../../app/feedback';
import './sandbox.css';
import '../templates/templates.css';
import { withAside } from '../../i18n/punctuation';

/** A review's end: the time of day when it is today, else the whole date and time. */
function shortTime(lang: Language, ms: number): string {
  const same = new Date(ms).toDateString() === new Date().toDateString();
  return same ? timeParts(lang, ms).time : formatTime(lang, ms);
}

const REQUESTS_SHOWN = 100;

export function SandboxScreen() {
  const { t } = useTranslation();
  const state = useQuery({ ...sandboxQuery, refetchInterval: SANDBOX_POLL_MS });
  const view = state.data;

  return (
    <section aria-labelledby="sandbox-title" className="sandbox-screen" data-testid="sandbox-screen">
      <Typography.Title level={3} id="sandbox-title" style={{ marginTop: 0, marginBottom: 4 }}>
        {t('sandbox.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 860, marginBottom: 4 }}>
        {t('sandbox.intro')}
      </Typography.Paragraph>
      {view ? (
        <Typography.Paragraph type="secondary" className="sandbox-address" data-testid="sandbox-address">
          {t('sandbox.address', { url: view.baseUrl, apiId: view.apiId })}
        </Typography.Paragraph>
      ) : null}
      {state.error && !view ? (
        <Alert
          type="error"
          showIcon
          title={t('sandbox.loadFailed')}
          description={describeError(t, state.error)}
          action={
            <Button icon={<ReloadOutlined />} onClick={() => void state.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : null}
      {!view && !state.error ? <Skeleton active /> : null}
      {view ? (
        <div className="sandbox-grid">
          <BalanceCard view={view} />
          <SettingsCard view={view} />
          <TemplatesCard view={view} />
          <FaultsCard view={view} />
          <RequestsCard />
        </div>
      ) : null}
    </section>
  );
}

/** Says a failed change in words (a toast), the sandbox's view stays as it was. */
function useFailure() {
  const { t } = useTranslation();
  const { message } = useFeedback();
  return (e: Parameters<typeof describeError>[1]) => void message.error(`${t('sandbox.changeFailed')} ${describeError(t, e)}`);
}

function BalanceCard({ view }: { view: SandboxView }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { message } = useFeedback();
  const failed = useFailure();
  const [amount, setAmount] = useState<number | null>(10);
  const change = useSandboxChange((api, input: { add?: number; set?: number }) => api.sandbox.setBalance(input));
  const a = view.account;

  const topUp = () => {
    if (!amount) return;
    change.mutate(
      { add: amount },
      {
        onSuccess: (v) =>
          void message.success(
            t('sandbox.balance.toppedUp', { units: t('sandbox.balance.value', { count: v.account.balance, n: formatCount(lang, v.account.balance) }) }),
          ),
        onError: failed,
      },
    );
  };

  return (
    <Card size="small" title={t('sandbox.balance.title')} className="sandbox-card" data-testid="sandbox-balance-card">
      <Statistic
        value={t('sandbox.balance.value', { count: a.balance, n: formatCount(lang, a.balance) })}
        styles={a.balance === 0 ? { content: { color: '#cf1322' } } : undefined}
        data-testid="sandbox-balance"
        data-units={a.balance}
      />
      <Typography.Paragraph type="secondary" className="sandbox-note">
        {t('sandbox.balance.reserved', { calls: formatCount(lang, a.activeCalls), units: formatCount(lang, a.reserved) })}
      </Typography.Paragraph>
      <Flex gap={8} wrap align="center">
        <Space.Compact>
          <Space.Addon>{t('sandbox.balance.amount')}</Space.Addon>
          <InputNumber
            min={1}
            max={1_000_000}
            precision={0}
            value={amount}
            onChange={(v) => setAmount(v)}
            onPressEnter={topUp}
            aria-label={t('sandbox.balance.amount')}
            data-testid="sandbox-topup-amount"
            style={{ width: 110 }}
          />
        </Space.Compact>
        <Button
          type="primary"
          icon={<PlusCircleOutlined />}
          onClick={topUp}
          disabled={!amount}
          loading={change.isPending && change.variables?.add !== undefined}
          data-testid="sandbox-topup"
        >
          {t('sandbox.balance.topUp')}
        </Button>
        <Tooltip title={t('sandbox.balance.emptyHelp')}>
          <Button
            onClick={() => change.mutate({ set: 0 }, { onSuccess: () => void message.info(t('sandbox.balance.emptied')), onError: failed })}
            disabled={a.balance === 0}
            data-testid="sandbox-empty"
          >
            {t('sandbox.balance.empty')}
          </Button>
        </Tooltip>
      </Flex>
    </Card>
  );
}

function SettingsCard({ view }: { view: SandboxView }) {
  const { t } = useTranslation();
  const failed = useFailure();
  const change = useSandboxChange(
    (
      api,
      input: {
        timeScale?: number;
        signatureMode?: (typeof SANDBOX_SIGNATURE_MODES)[number];
        clockOffsetSeconds?: number;
        reviewDelayMs?: number;
        dialect?: string;
      },
    ) => api.sandbox.setSettings(input),
  );
  const s = view.settings;
  const set = (input: Parameters<typeof change.mutate>[0]) => change.mutate(input, { onError: failed });
  const scales = SANDBOX_TIME_SCALES.includes(s.timeScale as (typeof SANDBOX_TIME_SCALES)[number])
    ? SANDBOX_TIME_SCALES
    : [...SANDBOX_TIME_SCALES, s.timeScale];
  const scaleLabel = (x: number) =>
    SANDBOX_TIME_SCALES.includes(x as (typeof SANDBOX_TIME_SCALES)[number])
      ? t(`sandbox.settings.scale.${x as (typeof SANDBOX_TIME_SCALES)[number]}`)
      : `×${Math.round(1 / x)}`;

  return (
    <Card size="small" title={t('sandbox.settings.title')} className="sandbox-card" data-testid="sandbox-settings">
      <dl className="sandbox-settings">
        <dt>
          <Tooltip title={t('sandbox.settings.timeScaleHelp')}>
            <span className="sandbox-hint">{t('sandbox.settings.timeScale')}</span>
          </Tooltip>
        </dt>
        <dd>
          <Segmented<number>
            value={s.timeScale}
            options={scales.map((x) => ({ value: x, label: scaleLabel(x) }))}
            onChange={(timeScale) => set({ timeScale })}
            aria-label={t('sandbox.settings.timeScale')}
            data-testid="sandbox-time-scale"
          />
        </dd>
        <dt>
          <Tooltip title={t('sandbox.settings.signatureHelp')}>
            <span className="sandbox-hint">{t('sandbox.settings.signature')}</span>
          </Tooltip>
        </dt>
        <dd>
          <Select
            value={s.signatureMode}
            options={SANDBOX_SIGNATURE_MODES.map((m) => ({ value: m, label: t(`sandbox.settings.signatureMode.${m}`) }))}
            onChange={(signatureMode) => set({ signatureMode })}
            aria-label={t('sandbox.settings.signature')}
            data-testid="sandbox-signature"
            style={{ width: '100%', maxWidth: 200 }}
          />
        </dd>
        <dt>
          <Tooltip title={t('sandbox.settings.clockOffsetHelp')}>
            <span className="sandbox-hint">{t('sandbox.settings.clockOffset')}</span>
          </Tooltip>
        </dt>
        <dd>
          <Space.Compact>
            <InputNumber
              key={`clock-${s.clockOffsetSeconds}`}
              defaultValue={s.clockOffsetSeconds}
              min={-86_400}
              max={86_400}
              precision={0}
              onBlur={(e) => {
                const v = Number(e.target.value);
                if (Number.isInteger(v) && v !== s.clockOffsetSeconds) set({ clockOffsetSeconds: v });
              }}
              onPressEnter={(e) => (e.target as HTMLInputElement).blur()}
              aria-label={t('sandbox.settings.clockOffset')}
              data-testid="sandbox-clock-offset"
              style={{ width: 110 }}
            />
            <Space.Addon>{t('sandbox.settings.seconds')}</Space.Addon>
          </Space.Compact>
        </dd>
        <dt>
          <Tooltip title={t('sandbox.settings.reviewDelayHelp')}>
            <span className="sandbox-hint">{t('sandbox.settings.reviewDelay')}</span>
          </Tooltip>
        </dt>
        <dd>
          <Space.Compact>
            <InputNumber
              key={`review-${s.reviewDelayMs}`}
              defaultValue={Math.round(s.reviewDelayMs / 60_000)}
              min={0}
              max={24 * 60}
              precision={0}
              onBlur={(e) => {
                const v = Number(e.target.value);
                if (Number.isInteger(v) && v * 60_000 !== s.reviewDelayMs) set({ reviewDelayMs: v * 60_000 });
              }}
              onPressEnter={(e) => (e.target as HTMLInputElement).blur()}
              aria-label={t('sandbox.settings.reviewDelay')}
              data-testid="sandbox-review-delay"
              style={{ width: 110 }}
            />
            <Space.Addon>{t('sandbox.settings.minutes')}</Space.Addon>
          </Space.Compact>
        </dd>
        <dt>
          <Tooltip title={t('sandbox.settings.dialectHelp')}>
            <span className="sandbox-hint">{t('sandbox.settings.dialect')}</span>
          </Tooltip>
        </dt>
        <dd>
          {/* The built-in dialects main lists, named as everywhere (the message catalog's dialect.<id>). */}
          <Select
            value={s.dialect}
            options={view.dialects.map((d) => ({ value: d, label: t(`dialect.${d}.name`, { ns: 'msg', defaultValue: d }) }))}
            onChange={(dialect) => set({ dialect })}
            disabled={view.dialects.length < 2}
            aria-label={t('sandbox.settings.dialect')}
            data-testid="sandbox-dialect"
            style={{ width: '100%', maxWidth: 280 }}
          />
        </dd>
      </dl>
    </Card>
  );
}

function TemplatesCard({ view }: { view: SandboxView }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { message } = useFeedback();
  const failed = useFailure();
  const register = useSandboxChange((api, input: { templateIds: string[]; approve: 'now' | 'review' }) => api.sandbox.registerTemplates(input));
  const approve = useSandboxChange((api, templateId: string) => api.sandbox.approveTemplate({ templateId }));
  const busy = (id: string) =>
    (register.isPending && register.variables?.templateIds.length === 1 && register.variables.templateIds[0] === id) ||
    (approve.isPending && approve.variables === id);
  const nameOf = (e: SandboxLibraryEntry) => e.name || t('sandbox.templates.unnamed');
  const library = new Set(view.library.map((l) => l.content));
  const demo = view.templates.filter((x) => !library.has(x.content));
  const unregistered = view.library.filter((l) => l.sandbox?.status !== 'approved');

  const registerOne = (e: SandboxLibraryEntry, mode: 'now' | 'review') =>
    register.mutate(
      { templateIds: [e.templateId], approve: mode },
      {
        onSuccess: (v) => {
          const after = v.library.find((l) => l.templateId === e.templateId)?.sandbox;
          if (after?.status === 'pending' && after.reviewDueAt)
            void message.info(t('sandbox.templates.registeredForReview', { name: nameOf(e), time: shortTime(lang, after.reviewDueAt) }));
          else void message.success(t('sandbox.templates.registered', { name: nameOf(e) }));
        },
        onError: failed,
      },
    );

  const columns: TableColumnsType<SandboxLibraryEntry> = [
    { key: 'name', title: t('sandbox.templates.column.name'), width: 140, render: (_: unknown, e) => <Typography.Text strong>{nameOf(e)}</Typography.Text> },
    { key: 'text', title: t('sandbox.templates.column.text'), render: (_: unknown, e) => <MarkedContent content={e.content} clamp /> },
    {
      key: 'status',
      title: t('sandbox.templates.column.status'),
      width: 160,
      render: (_: unknown, e) =>
        !e.sandbox ? (
          <Tag data-testid="sandbox-template-status" data-status="none">
            {t('sandbox.templates.status.none')}
          </Tag>
        ) : e.sandbox.status === 'pending' ? (
          <Tag color="gold" data-testid="sandbox-template-status" data-status="pending">
            {t('sandbox.templates.status.pending', { time: e.sandbox.reviewDueAt ? shortTime(lang, e.sandbox.reviewDueAt) : '—' })}
          </Tag>
        ) : (
          <Tag color="success" data-testid="sandbox-template-status" data-status="approved">
            {t('sandbox.templates.status.approved')}
          </Tag>
        ),
    },
    {
      key: 'actions',
      title: t('sandbox.templates.column.actions'),
      width: 240,
      render: (_: unknown, e) =>
        e.sandbox?.status === 'approved' ? (
          <Button size="small" type="link" onClick={() => navigate('send')} data-testid="sandbox-open-send">
            {t('sandbox.templates.openSend')}
          </Button>
        ) : e.sandbox?.status === 'pending' ? (
          <Button
            size="small"
            type="primary"
            loading={busy(e.sandbox.id)}
            onClick={() =>
              approve.mutate(e.sandbox!.id, { onSuccess: () => void message.success(t('sandbox.templates.approved', { name: nameOf(e) })), onError: failed })
            }
            data-testid="sandbox-approve"
          >
            {t('sandbox.templates.approve')}
          </Button>
        ) : (
          <Space wrap size={4}>
            <Button size="small" type="primary" loading={busy(e.templateId)} onClick={() => registerOne(e, 'now')} data-testid="sandbox-register">
              {t('sandbox.templates.register')}
            </Button>
            <Button size="small" onClick={() => registerOne(e, 'review')} data-testid="sandbox-register-review">
              {t('sandbox.templates.registerForReview')}
            </Button>
          </Space>
        ),
    },
  ];

  return (
    <Card
      size="small"
      title={t('sandbox.templates.title')}
      className="sandbox-card sandbox-wide"
      data-testid="sandbox-templates"
      extra={
        unregistered.length > 1 ? (
          <Button
            size="small"
            onClick={() =>
              register.mutate(
                { templateIds: unregistered.map((l) => l.templateId), approve: 'now' },
                { onSuccess: () => void message.success(t('sandbox.templates.allRegistered', { count: unregistered.length })), onError: failed },
              )
            }
            data-testid="sandbox-register-all"
          >
            {t('sandbox.templates.registerAll')}
          </Button>
        ) : null
      }
    >
      <Typography.Paragraph type="secondary" className="sandbox-note">
        {t('sandbox.templates.help')}
      </Typography.Paragraph>
      {view.library.length ? (
        <Table<SandboxLibraryEntry>
          rowKey="templateId"
          size="small"
          columns={columns}
          dataSource={view.library}
          pagination={false}
          tableLayout="fixed"
          onRow={(e) => ({ 'data-testid': 'sandbox-library-row', 'data-template-id': e.templateId }) as HTMLAttributes<HTMLElement>}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sandbox.templates.empty')}>
          <Button onClick={() => navigate('templates')}>{t('sandbox.templates.openLibrary')}</Button>
        </Empty>
      )}
      {demo.length ? (
        <div className="sandbox-demo" data-testid="sandbox-demo-templates">
          <Typography.Text type="secondary">{t('sandbox.templates.notInLibrary')}</Typography.Text>
          <ul>
            {demo.map((d) => (
              <li key={d.id}>
                <Typography.Text>{d.name}</Typography.Text>{' '}
                {d.status === 'approved' ? (
                  <Tag color="success">{t('sandbox.templates.status.approved')}</Tag>
                ) : (
                  <>
                    <Tag color="gold">{t('sandbox.templates.status.pending', { time: d.reviewDueAt ? shortTime(lang, d.reviewDueAt) : '—' })}</Tag>
                    <Button size="small" type="link" onClick={() => approve.mutate(d.id, { onError: failed })}>
                      {t('sandbox.templates.approve')}
                    </Button>
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  );
}

function FaultsCard({ view }: { view: SandboxView }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { message } = useFeedback();
  const failed = useFailure();
  const [kind, setKind] = useState<SandboxFaultKind>('timeout');
  const [op, setOp] = useState<'all' | 'send' | 'status' | 'balance'>('send');
  const [times, setTimes] = useState<number | null>(1);
  const [code, setCode] = useState<(typeof SANDBOX_FAULT_CODES)[number]>(500);
  const [delayMs, setDelayMs] = useState<number | null>(3000);
  const add = useSandboxChange((api, fault: SandboxFaultInput) => api.sandbox.setFault({ fault }));
  const clear = useSandboxChange((api, _: null) => api.sandbox.clearFaults());

  const fault = (): SandboxFaultInput => ({
    kind,
    ...(op !== 'all' ? { op } : {}),
    ...(times ? { times } : {}),
    ...(kind === 'code' ? { code } : {}),
    ...(kind === 'delay' ? { delayMs: delayMs ?? 0 } : {}),
  });
  const describe = (f: SandboxView['faults'][number]) => {
    const name = t(`sandbox.faults.kindName.${f.kind}`);
    const what =
      f.kind === 'code'
        ? withAside(lang, name, t('sandbox.faults.codeValue', { code: f.code }))
        : f.kind === 'delay'
          ? withAside(lang, name, t('sandbox.faults.delayValue', { ms: formatCount(lang, f.delayMs ?? 0) }))
          : name;
    const left = f.remaining === null ? t('sandbox.faults.untilCleared') : t('sandbox.faults.left', { count: f.remaining });
    return t('sandbox.faults.active', { kind: what, op: t(`sandbox.faults.opName.${f.op ?? 'all'}`), left });
  };

  return (
    <Card
      size="small"
      title={t('sandbox.faults.title')}
      className="sandbox-card sandbox-wide"
      data-testid="sandbox-faults"
      extra={
        view.faults.length ? (
          <Button
            size="small"
            icon={<ClearOutlined />}
            onClick={() => clear.mutate(null, { onSuccess: () => void message.success(t('sandbox.faults.cleared')), onError: failed })}
            data-testid="sandbox-faults-clear"
          >
            {t('sandbox.faults.clear')}
          </Button>
        ) : null
      }
    >
      <Typography.Paragraph type="secondary" className="sandbox-note">
        {t('sandbox.faults.help')}
      </Typography.Paragraph>
      <Flex gap={8} wrap align="center" className="sandbox-fault-form">
        <Select
          value={kind}
          onChange={setKind}
          options={SANDBOX_FAULT_KINDS.map((k) => ({ value: k, label: t(`sandbox.faults.kindName.${k}`) }))}
          aria-label={t('sandbox.faults.kind')}
          data-testid="sandbox-fault-kind"
          style={{ width: 300 }}
        />
        {kind === 'code' ? (
          <Select
            value={code}
            onChange={setCode}
            options={SANDBOX_FAULT_CODES.map((c) => ({ value: c, label: t('sandbox.faults.codeValue', { code: c }) }))}
            aria-label={t('sandbox.faults.code')}
            data-testid="sandbox-fault-code"
            style={{ width: 120 }}
          />
        ) : null}
        {kind === 'delay' ? (
          <Space.Compact>
            <InputNumber
              min={0}
              max={600_000}
              step={500}
              precision={0}
              value={delayMs}
              onChange={setDelayMs}
              aria-label={t('sandbox.faults.delay')}
              style={{ width: 120 }}
            />
            <Space.Addon>{t('sandbox.faults.ms')}</Space.Addon>
          </Space.Compact>
        ) : null}
        <Select
          value={op}
          onChange={setOp}
          options={(['all', 'send', 'status', 'balance'] as const).map((o) => ({ value: o, label: t(`sandbox.faults.opName.${o}`) }))}
          aria-label={t('sandbox.faults.op')}
          data-testid="sandbox-fault-op"
          style={{ width: 140 }}
        />
        <Space.Compact>
          <Space.Addon>{t('sandbox.faults.times')}</Space.Addon>
          <InputNumber
            min={1}
            max={1000}
            precision={0}
            value={times}
            onChange={setTimes}
            placeholder={t('sandbox.faults.timesPlaceholder')}
            aria-label={t('sandbox.faults.times')}
            data-testid="sandbox-fault-times"
            style={{ width: 130 }}
          />
        </Space.Compact>
        <Button
          type="primary"
          icon={<ThunderboltOutlined />}
          loading={add.isPending}
          onClick={() => add.mutate(fault(), { onSuccess: () => void message.success(t('sandbox.faults.added')), onError: failed })}
          data-testid="sandbox-fault-add"
        >
          {t('sandbox.faults.add')}
        </Button>
      </Flex>
      <div className="sandbox-fault-list" data-testid="sandbox-fault-list" aria-live="polite">
        {view.faults.length ? (
          view.faults.map((f, i) => (
            <Tag key={i} color="volcano" data-testid="sandbox-fault">
              {describe(f)}
            </Tag>
          ))
        ) : (
          <Typography.Text type="secondary">{t('sandbox.faults.none')}</Typography.Text>
        )}
      </div>
    </Card>
  );
}

function RequestsCard() {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const q = useQuery({ ...sandboxRequestsQuery(REQUESTS_SHOWN), refetchInterval: SANDBOX_POLL_MS });
  const requests = q.data?.requests ?? [];
  const columns: TableColumnsType<SandboxRequestView> = [
    // Fixed widths for the short columns, the rest for the answer, so that the whole row fits the card
    // at 1024 px: the time of day (the whole date in its title, and shown when it was not today).
    { key: 'seq', title: t('sandbox.requests.column.seq'), dataIndex: 'seq', width: 48 },
    {
      key: 'time',
      title: t('sandbox.requests.column.time'),
      width: 84,
      render: (_: unknown, r) => {
        const p = timeParts(lang, r.at, true);
        return (
          <span title={formatTime(lang, r.at, true)} data-testid="sandbox-request-time">
            {new Date(r.at).toDateString() === new Date().toDateString() ? p.time : `${p.date} ${p.time}`}
          </span>
        );
      },
    },
    { key: 'op', title: t('sandbox.requests.column.op'), width: 88, render: (_: unknown, r) => t(`sandbox.requests.opName.${r.op ?? 'other'}`) },
    {
      key: 'mobile',
      title: t('sandbox.requests.column.mobile'),
      width: 108,
      render: (_: unknown, r) => <span className="sandbox-mono">{r.mobile ?? '—'}</span>,
    },
    {
      key: 'signature',
      title: t('sandbox.requests.column.signature'),
      width: 104,
      render: (_: unknown, r) =>
        r.signature === null ? (
          '—'
        ) : r.signature.valid ? (
          <Tag color="success">{t('sandbox.requests.signatureValid')}</Tag>
        ) : (
          <Tag color="error" className="sandbox-tag-wrap">
            {t('sandbox.requests.signatureInvalid', { reason: r.signature.reason ?? '?' })}
          </Tag>
        ),
    },
    {
      key: 'fault',
      title: t('sandbox.requests.column.fault'),
      width: 96,
      ellipsis: true,
      render: (_: unknown, r) => (r.fault ? <Tag color="volcano">{t(`sandbox.faults.kindName.${r.fault}`)}</Tag> : '—'),
    },
    {
      key: 'answer',
      title: t('sandbox.requests.column.answer'),
      onCell: () => ({ 'data-testid': 'sandbox-request-answer' }) as HTMLAttributes<HTMLElement>,
      render: (_: unknown, r) =>
        r.response ? (
          r.response.code !== null ? (
            t('sandbox.requests.answer', { status: r.response.httpStatus, code: r.response.code })
          ) : (
            t('sandbox.requests.answerHttp', { status: r.response.httpStatus })
          )
        ) : r.withheld ? (
          <Typography.Text type="warning">{t('sandbox.requests.withheld', { code: r.withheld.code })}</Typography.Text>
        ) : (
          <Typography.Text type="secondary">{t('sandbox.requests.noAnswer')}</Typography.Text>
        ),
    },
  ];
  return (
    <Card
      size="small"
      title={t('sandbox.requests.title')}
      className="sandbox-card sandbox-wide"
      data-testid="sandbox-requests"
      extra={
        q.data ? (
          <Typography.Text type="secondary">{t('sandbox.requests.total', { count: q.data.total, n: formatCount(lang, q.data.total) })}</Typography.Text>
        ) : null
      }
    >
      <Typography.Paragraph type="secondary" className="sandbox-note">
        {t('sandbox.requests.help')}
      </Typography.Paragraph>
      <Table<SandboxRequestView>
        rowKey="seq"
        size="small"
        columns={columns}
        dataSource={requests}
        loading={q.isPending}
        pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
        tableLayout="fixed"
        expandable={{
          expandedRowRender: (r) => (
            <div>
              <Typography.Text type="secondary">{t('sandbox.requests.body')}</Typography.Text>
              <pre className="sandbox-pre">{`${r.method} ${r.path}\n${JSON.stringify(r.body, null, 2)}`}</pre>
            </div>
          ),
        }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('sandbox.requests.empty')} /> }}
        onRow={(r) => ({ 'data-testid': 'sandbox-request', 'data-op': r.op ?? '', 'data-code': r.response?.code ?? '' }) as HTMLAttributes<HTMLElement>}
      />
    </Card>
  );
}
