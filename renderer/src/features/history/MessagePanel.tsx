// The side panel of one message: its details, its state timeline and every exchange that belongs to
// it (opening one shows the inspector). A deliberate "Send again" always asks first: it places a new
// real call, and after an unknown outcome the first one may have been placed too.
import { useEffect, useState } from 'react';
import { Alert, Button, Descriptions, Drawer, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { AlertOutlined, ReloadOutlined, RedoOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ExchangeRecord, MessageRecord } from '../../../../common/records';
import { isSettled, maySendAgain } from '../../../../common/domain/status';
import { describeError, describeProviderCode, describeReason, type IpcError } from '../../app/api';
import { messageQuery } from '../../app/query';
import { currentLanguage } from '../../i18n';
import { ExchangeList } from './ExchangeList';
import {
  billingWords,
  formatDuration,
  laterSendWords,
  formatTime,
  OUTCOME_COLORS,
  outcomeExplanation,
  outcomeLabel,
  STATE_COLORS,
  stateLabel,
} from './history-model';
import { MessageTimeline } from './MessageTimeline';
import { TeachDrawer } from '../dialects/TeachDrawer';
import type { Lookups } from './use-lookups';
import { useFeedback } from '../../app/feedback';
import { withProviderMessage } from '../../i18n/punctuation';
import { useRefreshStatus, useSendAgain } from './data';
import { openIncident } from '../oncall/open-incident';

/**
 * The reply to teach from: the newest status reply or receipt that carries the value not recognised
 * (a later reply may no longer say it: the provider forgot the call, or answered something else),
 * else the newest one.
 */
function lastReply(exchanges: ExchangeRecord[], value: string): ExchangeRecord | undefined {
  const replies = [...exchanges].reverse().filter((e) => (e.operation === 'status' && e.status !== null && e.status < 300) || e.operation === 'receipt');
  const says = (e: ExchangeRecord) => ((e.operation === 'receipt' ? e.requestBody : e.responseBody) ?? '').includes(value);
  return replies.find(says) ?? replies[0];
}

export interface MessagePanelProps {
  id: number | null;
  open: boolean;
  onClose: () => void;
  lookups: Lookups;
  onOpenExchange: (exchange: ExchangeRecord) => void;
  /** Show another message (the one this re-sent, or the new send). */
  onShowMessage: (id: number) => void;
}

export function MessagePanel({ id, open, onClose, lookups, onOpenExchange, onShowMessage }: MessagePanelProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { message, modal } = useFeedback();
  // Loaded again whenever main pushes a change to this message (live-updates.ts).
  const { data: detail, isLoading: loading, error, refetch } = useQuery({ ...messageQuery(id ?? 0), enabled: open && id !== null });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  // Per archive file: the exchanges of this message read from it that are ticked for HAR.
  const [archivedSelected, setArchivedSelected] = useState<Record<string, Set<number>>>({});
  const [teaching, setTeaching] = useState<number | null>(null);
  const m = detail?.message ?? null;
  useEffect(() => {
    setSelected(new Set());
    setArchivedSelected({});
  }, [id]);

  const refresh = useRefreshStatus(
    (e) => void message.error(describeError(t, e)),
    () => void refetch(),
  );
  const again = useSendAgain();

  const sendAgain = (target: MessageRecord) => {
    modal.confirm({
      title: t('history.again.title', { mobile: target.mobile }),
      content: (
        <div data-testid="send-again-confirm">
          <p>{target.outcome === 'unknown' ? t('history.again.bodyUnknown') : t('history.again.bodyFailed')}</p>
          <Typography.Paragraph type="secondary" ellipsis={{ rows: 3 }} style={{ marginBottom: 0 }}>
            {target.content}
          </Typography.Paragraph>
        </div>
      ),
      okText: t('history.again.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        const sent = await again.mutateAsync(target.id).catch((e: IpcError) => void message.error(describeError(t, e)));
        if (!sent) return;
        void message.success(t('history.again.sent', { mobile: sent.message.mobile }));
        onShowMessage(sent.message.id);
      },
    });
  };

  let body;
  if (error && !detail) {
    body = (
      <Alert
        type="error"
        showIcon
        title={t('history.detail.loadFailed')}
        description={describeError(t, error)}
        action={<Button onClick={() => void refetch()}>{t('common.retry')}</Button>}
      />
    );
  } else if (!m || !detail) {
    body = <Skeleton active paragraph={{ rows: 8 }} />;
  } else {
    // An unknown outcome offers it in its timeline entry, where it says why the outcome is unknown.
    // A later send of the same text to the same number is the way forward: it is offered instead.
    const later = detail.later;
    const offerAgain = maySendAgain(m) && m.outcome !== 'unknown' && !later;
    const billing = billingWords(t, m);
    const teachFrom = m.reason?.code === 'unmapped-state' ? lastReply(detail.exchanges, m.reason.params.value) : undefined;
    body = (
      <div data-testid="message-panel" data-message-id={m.id} data-outcome={m.outcome} data-state={m.state}>
        <Space wrap size={[8, 8]} style={{ marginBottom: 12 }}>
          <Tooltip title={outcomeExplanation(t, m.outcome)}>
            <Tag color={OUTCOME_COLORS[m.outcome]} data-testid="panel-outcome">
              {outcomeLabel(t, m.outcome)}
            </Tag>
          </Tooltip>
          <Tag color={STATE_COLORS[m.state]} data-testid="panel-state">
            {stateLabel(t, m.state)}
          </Tag>
          {m.smsid && !isSettled(m) && lookups.profiles.find((p) => p.id === m.profile)?.dialect.status !== null ? (
            <Button size="small" icon={<ReloadOutlined />} loading={refresh.isPending} onClick={() => refresh.mutate(m.id)} data-testid="refresh-status">
              {t('history.detail.refresh')}
            </Button>
          ) : null}
          {offerAgain ? (
            <Button size="small" icon={<RedoOutlined />} loading={again.isPending} onClick={() => sendAgain(m)} data-testid="send-again">
              {t('history.again.button')}
            </Button>
          ) : null}
        </Space>
        {later ? (
          <Alert
            type={later.outcome === 'accepted' ? 'success' : 'info'}
            showIcon
            title={laterSendWords(t, lang, later, m.createdAt)}
            action={
              <Button size="small" type="primary" onClick={() => onShowMessage(later.id)} data-testid="open-later-send">
                {t('history.later.open')}
              </Button>
            }
            style={{ marginBottom: 12 }}
            data-testid="later-send"
            data-later-id={later.id}
          />
        ) : null}
        {m.outcome === 'unknown' ? <Alert type="warning" showIcon title={outcomeExplanation(t, 'unknown')} style={{ marginBottom: 12 }} /> : null}
        {m.reason?.code === 'unmapped-state' && !isSettled(m) ? (
          <Alert
            type="warning"
            showIcon
            title={t('dialects.unmapped.title')}
            description={describeReason(t, m.reason)}
            action={
              teachFrom ? (
                <Button size="small" onClick={() => setTeaching(teachFrom.id)} data-testid="map-unmapped">
                  {t('dialects.unmapped.map')}
                </Button>
              ) : null
            }
            style={{ marginBottom: 12 }}
            data-testid="unmapped-alert"
          />
        ) : null}
        <div className="history-panel-summary">
          <Typography.Text strong copyable className="history-mobile" style={{ fontSize: 16 }}>
            {m.mobile}
          </Typography.Text>
          <div data-testid="panel-text">{m.content}</div>
          {detail.incident ? (
            <div className="history-panel-incident">
              <Typography.Text type="secondary">{t('history.detail.incident')}</Typography.Text>
              <Button
                type="link"
                size="small"
                icon={<AlertOutlined />}
                className="history-panel-incident-link"
                onClick={() => openIncident(detail.incident!.id)}
                data-testid="open-incident"
              >
                {t('history.detail.incidentLink', { id: detail.incident.id, title: detail.incident.title })}
              </Button>
            </div>
          ) : null}
        </div>
        <Typography.Title level={5} style={{ marginTop: 16 }}>
          {t('history.detail.timeline')}
        </Typography.Title>
        <MessageTimeline message={m} events={detail.events} onSendAgain={later ? null : () => sendAgain(m)} sendingAgain={again.isPending} />
        <Typography.Title level={5} style={{ marginTop: 4 }}>
          {t('history.detail.details')}
        </Typography.Title>
        <Descriptions
          size="small"
          column={1}
          bordered
          styles={{ label: { width: 128 } }}
          items={[
            { key: 'template', label: t('history.column.template'), children: lookups.templateName(m.templateId) ?? t('templates.none', { ns: 'msg' }) },
            { key: 'profile', label: t('history.column.profile'), children: lookups.profileName(m.profile) },
            {
              key: 'units',
              label: t('history.column.units'),
              children: (
                <span data-testid="panel-units" data-units={billing.units ?? ''}>
                  {billing.value} <Typography.Text type="secondary">· {billing.why}</Typography.Text>
                </span>
              ),
            },
            ...(m.code !== null
              ? [
                  {
                    key: 'code',
                    label: t('history.detail.code'),
                    children: `${m.code} · ${withProviderMessage(lang, describeProviderCode(t, m.code).meaning, m.providerMsg)}`,
                  },
                ]
              : []),
            ...(m.smsid
              ? [
                  {
                    key: 'smsid',
                    label: 'smsid',
                    children: (
                      <Typography.Text copyable code>
                        {m.smsid}
                      </Typography.Text>
                    ),
                  },
                ]
              : []),
            { key: 'duration', label: t('history.column.duration'), children: formatDuration(t, m.duration) },
            ...(m.attempts !== null ? [{ key: 'attempts', label: t('history.detail.attempts'), children: String(m.attempts) }] : []),
            { key: 'created', label: t('history.column.created'), children: formatTime(lang, m.createdAt, true) },
            ...(m.endedAt !== null ? [{ key: 'ended', label: t('history.detail.ended'), children: formatTime(lang, m.endedAt, true) }] : []),
            ...(m.resendOf !== null
              ? [
                  {
                    key: 'resend',
                    label: t('history.detail.resendOf'),
                    children: (
                      <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onShowMessage(m.resendOf!)}>
                        #{m.resendOf}
                      </Button>
                    ),
                  },
                ]
              : []),
          ]}
        />
        {detail.exchanges.length > 0 || detail.archived.length === 0 ? (
          <>
            <Typography.Title level={5} style={{ marginTop: 20 }}>
              {t('history.detail.exchanges', { count: detail.exchanges.length })}
            </Typography.Title>
            <ExchangeList exchanges={detail.exchanges} selected={selected} onSelectedChange={setSelected} onOpen={onOpenExchange} />
          </>
        ) : null}
        {detail.archived.map((a) => (
          <div key={a.archive} data-testid="message-archived-exchanges" data-archive={a.archive}>
            <Typography.Title level={5} style={{ marginTop: 20, marginBottom: 4 }}>
              {t('history.detail.archivedExchanges', { count: a.exchanges.length })}
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
              {t('history.detail.archivedIn', { name: a.archive })}
            </Typography.Paragraph>
            <ExchangeList
              archive={a.archive}
              exchanges={a.exchanges}
              selected={archivedSelected[a.archive] ?? new Set()}
              onSelectedChange={(ids) => setArchivedSelected((all) => ({ ...all, [a.archive]: ids }))}
              onOpen={onOpenExchange}
            />
          </div>
        ))}
      </div>
    );
  }

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={560}
      mask={false}
      title={m ? t('history.detail.title', { mobile: m.mobile, id: m.id }) : t('history.detail.loading')}
      extra={loading ? <Typography.Text type="secondary">{t('history.detail.loading')}</Typography.Text> : null}
    >
      {body}
      <TeachDrawer exchangeId={teaching} onClose={() => setTeaching(null)} />
    </Drawer>
  );
}
