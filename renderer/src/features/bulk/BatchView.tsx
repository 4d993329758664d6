// One batch, live: its progress bar and figures (from main:bulk-progress), pause / resume / cancel,
// why it stopped (insufficient balance: recharge then resume; credentials: stopped), the items whose
// outcome is unknown for a person to decide, every item's result, and the results as CSV.
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Flex, Progress, Skeleton, Space, Statistic, Tag, Tooltip, Typography } from 'antd';
import { CaretRightOutlined, CloseCircleOutlined, DownloadOutlined, PauseOutlined, PlusCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../../common/contract';
import type { BatchProgress, BatchRecord } from '../../../../common/bulk-types';
import { describeError, describeReason } from '../../app/api';
import { downloadBase64, downloadText } from '../../app/browser-io';
import { utcOffsetMinutes } from '../history/history-model';
import { navigate } from '../../app/navigation';
import { revealTop } from '../../app/reveal';
import { useSandboxChange } from '../sandbox/use-sandbox';
import { currentLanguage } from '../../i18n';
import { formatDateTime, formatDuration, formatNumber, STATUS_COLORS, stopSeverity } from './bulk-model';
import { batchStanding, finishedPercent } from '../../../../common/domain/batches';
import { ItemsTable } from './ItemsTable';
import { UnknownItems } from './UnknownItems';
import { progressQuery } from './live';
import { useBalanceUnits, useBatchAction, useExportBatch } from './use-bulk-data';
import { useFeedback } from '../../app/feedback';

export interface BatchViewProps {
  batch: BatchRecord;
  profiles: ProfileView[];
}

type Action = 'start' | 'pause' | 'resume' | 'cancel';

export function BatchView({ batch, profiles }: BatchViewProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { modal, message } = useFeedback();
  // Fetched when opened, then kept up to date by main's pushes (applyBulkProgress).
  const { data: progress, error, refetch } = useQuery(progressQuery(batch.id));
  const [balance, setBalance] = useState<number | null>(null);
  const profile = profiles.find((p) => p.id === batch.profile) ?? null;
  // The card's top in view when it opens (the wizard's last step may have been scrolled down) and when
  // the batch stops (402, a pause): why it stopped is said at the top of the card.
  const card = useRef<HTMLDivElement>(null);
  const stopped = progress?.status === 'paused' || progress?.status === 'cancelled';
  useEffect(() => {
    revealTop(card.current);
  }, [stopped, progress?.pausedReason]);

  const act = useBatchAction(batch.id, (e) => {
    void message.error(describeError(t, e));
    void refetch();
  });
  const busy = (action: Action) => act.isPending && act.variables === action;
  const exporting = useExportBatch(
    // The sheet's own columns and each row's result, in this language and local time (History's conventions).
    () => ({ batchId: batch.id, lang, utcOffsetMinutes: utcOffsetMinutes() }),
    ({ fileName, text, base64 }) => {
      if (base64 !== undefined) downloadBase64(fileName, base64, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      else downloadText(fileName, text ?? '', 'text/csv;charset=utf-8');
      void message.success(t('bulk.exported', { name: fileName }));
    },
    (e) => void message.error(describeError(t, e)),
  );
  const balanceUnitsOf = useBalanceUnits();

  const confirmCancel = () => {
    modal.confirm({
      title: t('bulk.confirmCancel.title', { name: batch.name }),
      content: <span data-testid="confirm-cancel-body">{t('bulk.confirmCancel.body', { count: progress?.queued ?? 0 })}</span>,
      okText: t('bulk.confirmCancel.ok'),
      okButtonProps: { danger: true },
      cancelText: t('bulk.confirmCancel.keep'),
      onOk: () => act.mutate('cancel'),
    });
  };

  const checkBalance = async () => {
    const units = await balanceUnitsOf(batch.profile);
    if (units !== null) setBalance(units);
    else void message.warning(t('bulk.report.balanceUnknown'));
  };

  if (!progress) {
    return (
      <Card data-testid="batch-view" data-batch-id={batch.id}>
        {error ? (
          <Alert
            type="error"
            showIcon
            title={t('bulk.batch.loadFailed')}
            description={describeError(t, error)}
            action={<Button onClick={() => void refetch()}>{t('common.retry')}</Button>}
          />
        ) : (
          <Skeleton active />
        )}
      </Card>
    );
  }

  const p = progress;
  const status = p.status;
  const running = status === 'running';
  // Nothing left to send, but calls still ring: not "done" yet.
  const standing = batchStanding(p);
  const percent = finishedPercent(p);

  return (
    <Card
      ref={card}
      data-testid="batch-view"
      data-batch-id={batch.id}
      data-status={status}
      data-standing={standing}
      data-reason={p.pausedReason ?? ''}
      title={
        <Flex align="center" gap={8} style={{ minWidth: 0 }}>
          <Typography.Text strong ellipsis style={{ maxWidth: 360 }} title={batch.name}>
            {batch.name}
          </Typography.Text>
          <Tag color={standing === 'calling' ? 'processing' : STATUS_COLORS[status]} data-testid="batch-status" data-standing={standing}>
            {standing === 'calling' ? t('bulk.standing.calling', { count: p.calling }) : t(`bulk.status.${status}`)}
          </Tag>
        </Flex>
      }
      extra={
        <Flex gap={8} wrap>
          {status === 'draft' ? (
            <Button type="primary" icon={<CaretRightOutlined />} onClick={() => act.mutate('start')} loading={busy('start')} data-testid="batch-start">
              {t('bulk.action.start')}
            </Button>
          ) : null}
          {running ? (
            <Button icon={<PauseOutlined />} onClick={() => act.mutate('pause')} loading={busy('pause')} data-testid="batch-pause">
              {t('bulk.action.pause')}
            </Button>
          ) : null}
          {status === 'paused' ? (
            <Button type="primary" icon={<CaretRightOutlined />} onClick={() => act.mutate('resume')} loading={busy('resume')} data-testid="batch-resume">
              {t('bulk.action.resume')}
            </Button>
          ) : null}
          {status === 'draft' || running || status === 'paused' ? (
            <Button danger icon={<CloseCircleOutlined />} onClick={confirmCancel} loading={busy('cancel')} data-testid="batch-cancel">
              {t('bulk.action.cancel')}
            </Button>
          ) : null}
          <Space.Compact>
            <Tooltip title={t('bulk.exportHelp')}>
              <Button
                icon={<DownloadOutlined />}
                onClick={() => exporting.mutate('csv')}
                loading={exporting.isPending && exporting.variables === 'csv'}
                data-testid="batch-export"
              >
                {t('bulk.action.export')}
              </Button>
            </Tooltip>
            <Button onClick={() => exporting.mutate('xlsx')} loading={exporting.isPending && exporting.variables === 'xlsx'} data-testid="batch-export-xlsx">
              {t('bulk.action.exportXlsx')}
            </Button>
          </Space.Compact>
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        {t('bulk.batch.meta', { profile: profile?.name ?? batch.profile, created: formatDateTime(lang, batch.createdAt), total: formatNumber(lang, p.total) })}
      </Typography.Paragraph>

      {status === 'paused' || status === 'cancelled' ? (
        <StopBanner
          progress={p}
          balance={balance}
          sandbox={profile?.builtin === true}
          onCheckBalance={() => void checkBalance()}
          onBalance={setBalance}
          onResume={() => act.mutate('resume')}
        />
      ) : null}

      <div className="bulk-progress" data-testid="batch-progress" data-percent={percent}>
        <Progress
          percent={percent}
          success={{ percent: p.total ? Math.floor((p.answered / p.total) * 1000) / 10 : 0 }}
          status={running || standing === 'calling' ? 'active' : status === 'cancelled' ? 'exception' : status === 'done' ? 'success' : 'normal'}
          aria-label={t('bulk.figures.progressLabel')}
        />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('bulk.figures.progressLegend', {
            handled: formatNumber(lang, p.total - p.remaining - p.calling),
            total: formatNumber(lang, p.total),
            answered: formatNumber(lang, p.answered),
          })}
        </Typography.Text>
      </div>

      <div className="bulk-figure-grid" data-testid="batch-figures">
        <Figure name="sent" value={p.sent} title={t('bulk.figures.sent')} />
        <Figure name="accepted" value={p.accepted} title={t('bulk.figures.accepted')} />
        <Figure name="answered" value={p.answered} title={t('bulk.figures.answered')} color="#389e0d" />
        <Figure
          name="refused"
          value={p.refusedNow}
          title={t('bulk.figures.refused')}
          color={p.refusedNow ? '#cf1322' : undefined}
          hint={t('bulk.figures.refusedHint')}
          note={p.refusedSends ? t('bulk.figures.refusedInAll', { count: p.refusedSends }) : undefined}
        />
        <Figure name="failed" value={p.failed} title={t('bulk.figures.failed')} color={p.failed ? '#cf1322' : undefined} hint={t('bulk.figures.failedHint')} />
        <Figure
          name="unknown"
          value={p.unknown}
          title={t('bulk.figures.unknown')}
          color={p.unknown ? '#d46b08' : undefined}
          hint={t('bulk.figures.unknownHint')}
        />
        <Figure name="remaining" value={p.remaining} title={t('bulk.figures.remaining')} />
        <Figure name="rate" value={p.ratePerMinute} title={t('bulk.figures.rate')} />
        <Figure name="eta" value={p.etaMs === null ? '—' : formatDuration(t, p.etaMs)} title={t('bulk.figures.eta')} />
      </div>
      <Typography.Paragraph type="secondary" className="bulk-figure-line" data-testid="batch-figure-line">
        {t('bulk.figures.line', {
          calling: formatNumber(lang, p.calling),
          skipped: formatNumber(lang, p.skipped),
          cancelled: formatNumber(lang, p.cancelled),
          inUse: formatNumber(lang, p.governor.inUse),
          limit: formatNumber(lang, p.governor.limit),
          perHour: formatNumber(lang, p.governor.perHour),
        })}
      </Typography.Paragraph>

      {p.unknown > 0 ? <UnknownItems batchId={batch.id} progress={p} /> : null}

      <ItemsTable batchId={batch.id} progress={p} />
    </Card>
  );
}

function Figure({
  name,
  title,
  value,
  color,
  hint,
  note,
}: {
  name: string;
  title: string;
  value: number | string;
  color?: string;
  hint?: string;
  note?: string;
}) {
  const label = hint ? (
    <Tooltip title={hint}>
      <span className="bulk-figure-hint">{title}</span>
    </Tooltip>
  ) : (
    title
  );
  return (
    <div className="bulk-figure" data-testid={`figure-${name}`} data-value={value}>
      <Statistic title={label} value={value} styles={color ? { content: { color } } : undefined} />
      {note ? (
        <Typography.Text type="secondary" className="bulk-figure-note" data-testid={`figure-${name}-note`}>
          {note}
        </Typography.Text>
      ) : null}
    </div>
  );
}

/** Why the batch stopped, in the user's language, with what to do next. */
function StopBanner({
  progress,
  balance,
  sandbox,
  onCheckBalance,
  onBalance,
  onResume,
}: {
  progress: BatchProgress;
  balance: number | null;
  /** The batch runs on the built-in Sandbox: top it up or register the template here, no provider console. */
  sandbox: boolean;
  onCheckBalance: () => void;
  onBalance: (units: number) => void;
  onResume: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { message } = useFeedback();
  const topUp = useSandboxChange((api, add: number) => api.sandbox.setBalance({ add }));
  const reason = progress.pausedReason;
  const key = reason ?? 'user';
  const title = progress.status === 'cancelled' ? t(`bulk.stop.cancelled.${key === 'credentials' ? 'credentials' : 'other'}`) : t(`bulk.stop.title.${key}`);
  const action =
    reason === 'insufficient-balance' ? (
      <Flex vertical gap={6} align="flex-end">
        {sandbox ? (
          <Button
            size="small"
            icon={<PlusCircleOutlined />}
            loading={topUp.isPending}
            // Enough for every row left (at least the Sandbox's 10 free units).
            onClick={() =>
              topUp.mutate(Math.max(10, progress.unitsRemaining), {
                onSuccess: (v) => onBalance(v.account.balance),
                onError: (e) => void message.error(describeError(t, e)),
              })
            }
            data-testid="stop-sandbox-topup"
          >
            {t('sandbox.links.topUp')}
          </Button>
        ) : null}
        <Button size="small" icon={<ReloadOutlined />} onClick={onCheckBalance} data-testid="stop-check-balance">
          {t('bulk.stop.checkBalance')}
        </Button>
        {progress.status === 'paused' ? (
          <Button size="small" type="primary" onClick={onResume}>
            {t('bulk.action.resume')}
          </Button>
        ) : null}
      </Flex>
    ) : reason === 'content-not-approved' && sandbox ? (
      <Button size="small" onClick={() => navigate('sandbox')} data-testid="stop-sandbox-register">
        {t('sandbox.links.register')}
      </Button>
    ) : undefined;
  return (
    <Alert
      type={progress.status === 'cancelled' && reason !== 'credentials' ? 'info' : stopSeverity(reason)}
      showIcon
      role="status"
      data-testid="stop-banner"
      data-reason={key}
      title={title}
      description={
        <>
          {progress.statusReason ? <div>{describeReason(t, progress.statusReason)}</div> : null}
          {sandbox && reason === 'insufficient-balance' ? <div>{t('bulk.stop.sandboxTopUp')}</div> : null}
          {sandbox && reason === 'content-not-approved' ? <div>{t('bulk.stop.sandboxRegister')}</div> : null}
          {reason === 'insufficient-balance' && balance !== null ? (
            <div data-testid="stop-balance">
              {t('bulk.stop.balanceNow', { units: formatNumber(lang, balance), needed: formatNumber(lang, progress.unitsRemaining) })}
            </div>
          ) : null}
        </>
      }
      action={action}
      style={{ marginBottom: 16 }}
    />
  );
}
