// Incidents: the list (state, title, severity, when, who acknowledged), one incident's alerts,
// steps and calls, Acknowledge / Resolve (with a name remembered on this machine), the chat summary
// and the CSV; and "Paste an alert" for an alert copied from a monitoring page.
import { useEffect, useState } from 'react';
import { Alert, Button, Card, Descriptions, Empty, Flex, Input, Modal, Skeleton, Table, Tag, Typography } from 'antd';
import { CheckOutlined, CopyOutlined, DownloadOutlined, SnippetsOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { MESSAGES_NS } from '../../../../common/messages';
import type { IncidentCallRecord, IncidentRecord } from '../../../../common/paging/records';
import type { AlertPreview } from '../../../../common/contract/paging';
import type { IpcError } from '../../app/api';
import { copyText, downloadText } from '../../app/browser-io';
import { describeReason } from '../../app/api';
import { ErrorView } from './ErrorView';
import { rememberName, rememberedName, useAck, useExport, useIncident, useIncidents, usePaste, usePreview, useResolve } from './data';
import { IssueList } from './RoutesTab';
import { useIncidentRequest } from './open-incident';

const STATE_COLOR: Record<IncidentRecord['state'], string> = { triggered: 'red', acknowledged: 'gold', resolved: 'green', held: 'default' };

export function when(ms: number | null, lang: string): string {
  if (ms === null) return '—';
  return new Date(ms).toLocaleString(lang, { month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
}

function say(t: TFunction, key: string, params: object = {}): string {
  return (t as unknown as (k: string, o: object) => string)(key, { ...params, ns: MESSAGES_NS });
}

export function IncidentsTab() {
  const { t, i18n } = useTranslation();
  const incidents = useIncidents();
  const request = useIncidentRequest();
  const [selected, setSelected] = useState<number | null>(request.id);
  const [pasting, setPasting] = useState(false);
  const list = incidents.data ?? [];
  useEffect(() => {
    if (selected === null && list.length) setSelected(list[0]!.id);
  }, [list, selected]);
  // Asked by another screen (History) while this tab is open, or before it opened.
  const { id: requested, done } = request;
  useEffect(() => {
    if (requested === null) return;
    setSelected(requested);
    done();
  }, [requested, done]);

  return (
    <div data-testid="incidents-tab">
      <ErrorView error={incidents.error} />
      <Flex justify="space-between" align="center" gap={12} style={{ marginBottom: 8 }}>
        <Typography.Text type="secondary">{t('oncall.incidents.intro')}</Typography.Text>
        <Button icon={<SnippetsOutlined />} onClick={() => setPasting(true)} data-testid="paste-open">
          {t('oncall.paste.open')}
        </Button>
      </Flex>
      {incidents.isPending ? <Skeleton active /> : null}
      {incidents.data && list.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('oncall.incidents.empty')} /> : null}
      {list.length ? (
        <div className="oncall-incidents">
          <div className="oncall-list" role="listbox" aria-label={t('oncall.incidents.listLabel')} data-testid="incident-list">
            {list.map((i) => (
              <div
                key={i.id}
                role="option"
                tabIndex={0}
                aria-selected={i.id === selected}
                className="oncall-incident-row"
                data-testid="incident-row"
                data-state={i.state}
                onClick={() => setSelected(i.id)}
                onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && setSelected(i.id)}
              >
                <Flex gap={6} align="center">
                  <Tag color={STATE_COLOR[i.state]} style={{ marginInlineEnd: 0 }}>
                    {t(`oncall.state.${i.state}`)}
                  </Tag>
                  {i.severity ? <Tag style={{ marginInlineEnd: 0 }}>{i.severity}</Tag> : null}
                  <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineStart: 'auto' }}>
                    {when(i.openedAt, i18n.language)}
                  </Typography.Text>
                </Flex>
                <span className="oncall-title-line" title={i.title}>
                  {i.title}
                </span>
                {i.acknowledgedBy ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {t('oncall.incidents.ackedBy', { name: i.acknowledgedBy })}
                  </Typography.Text>
                ) : null}
              </div>
            ))}
          </div>
          {selected !== null ? <IncidentDetailCard id={selected} /> : null}
        </div>
      ) : null}
      <PasteDialog open={pasting} onClose={() => setPasting(false)} onReceived={(id) => setSelected(id)} />
    </div>
  );
}

function callResult(t: TFunction, c: IncidentCallRecord): string {
  if (c.result) return say(t, `paging.result.${c.result}`);
  return t('oncall.incidents.calling');
}

function IncidentDetailCard({ id }: { id: number }) {
  const { t, i18n } = useTranslation();
  const detail = useIncident(id);
  const ack = useAck();
  const resolve = useResolve();
  const exporter = useExport();
  const [who, setWho] = useState(rememberedName);
  const [summary, setSummary] = useState<string | null>(null);
  const lang = i18n.language === 'zh-CN' ? 'zh-CN' : 'en';
  useEffect(() => setSummary(null), [id]);

  if (detail.isPending) return <Skeleton active />;
  if (detail.error) return <ErrorView error={detail.error} />;
  const { incident, alerts, calls, steps, nextAt } = detail.data;
  const open = incident.state === 'triggered' || incident.state === 'held';
  const byName = who.trim();
  const act = (kind: 'ack' | 'resolve') => {
    rememberName(byName);
    (kind === 'ack' ? ack : resolve).mutate({ id, by: byName });
  };
  const exportIt = (then: (r: { csv: string; summary: string }) => void) =>
    exporter.mutate({ id, lang, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }, { onSuccess: then });

  return (
    <Card
      size="small"
      title={<span className="oncall-title-line">{incident.title}</span>}
      data-testid="incident-detail"
      data-incident-id={incident.id}
      data-state={incident.state}
      data-ended={incident.ended ?? ''}
    >
      <ErrorView error={ack.error ?? resolve.error ?? exporter.error} />
      <Descriptions size="small" column={2} style={{ marginBottom: 8 }}>
        <Descriptions.Item label={t('oncall.incidents.state')}>
          <Tag color={STATE_COLOR[incident.state]}>{t(`oncall.state.${incident.state}`)}</Tag>
          {incident.ended ? (
            <Typography.Text type="secondary" data-testid="incident-ended">
              {t(`oncall.ended.${incident.ended}`)}
            </Typography.Text>
          ) : null}
        </Descriptions.Item>
        <Descriptions.Item label={t('oncall.incidents.opened')}>{when(incident.openedAt, i18n.language)}</Descriptions.Item>
        {incident.acknowledgedBy ? (
          <Descriptions.Item
            label={t('oncall.incidents.acked')}
          >{`${incident.acknowledgedBy} · ${when(incident.acknowledgedAt, i18n.language)}`}</Descriptions.Item>
        ) : null}
        {incident.resolvedAt ? (
          <Descriptions.Item
            label={t('oncall.incidents.resolved')}
          >{`${incident.resolvedBy ?? t('oncall.incidents.byAlert')} · ${when(incident.resolvedAt, i18n.language)}`}</Descriptions.Item>
        ) : null}
        {nextAt ? <Descriptions.Item label={t('oncall.incidents.next')}>{when(nextAt, i18n.language)}</Descriptions.Item> : null}
      </Descriptions>
      {incident.resolutionCall ? (
        <Alert
          type={incident.resolutionCall === 'placed' || incident.resolutionCall === 'due' ? 'info' : 'warning'}
          showIcon
          title={say(t, `paging.resolution.${incident.resolutionCall}`)}
          style={{ marginBottom: 8 }}
          data-testid="incident-resolution-call"
        />
      ) : null}
      <Flex gap={8} wrap align="center" style={{ marginBottom: 8 }}>
        <Input
          value={who}
          onChange={(e) => setWho(e.target.value)}
          placeholder={t('oncall.incidents.who')}
          aria-label={t('oncall.incidents.who')}
          style={{ width: 140 }}
          data-testid="incident-who"
        />
        <Button
          type="primary"
          icon={<CheckOutlined />}
          disabled={!open || !byName}
          loading={ack.isPending}
          onClick={() => act('ack')}
          data-testid="incident-ack"
        >
          {t('oncall.incidents.ack')}
        </Button>
        <Button
          icon={<StopOutlined />}
          disabled={incident.state === 'resolved' || !byName}
          loading={resolve.isPending}
          onClick={() => act('resolve')}
          data-testid="incident-resolve"
        >
          {t('oncall.incidents.resolve')}
        </Button>
        <Button icon={<CopyOutlined />} onClick={() => exportIt((r) => (setSummary(r.summary), void copyText(r.summary)))} data-testid="incident-copy">
          {t('oncall.incidents.copy')}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={() => exportIt((r) => downloadText(`incident-${id}.csv`, r.csv, 'text/csv'))} data-testid="incident-csv">
          CSV
        </Button>
      </Flex>
      {summary ? (
        <Alert
          type="success"
          showIcon
          title={t('oncall.incidents.copied')}
          description={<span data-testid="incident-summary">{summary}</span>}
          style={{ marginBottom: 8 }}
        />
      ) : null}
      <Typography.Text strong>{t('oncall.incidents.calls', { count: calls.length })}</Typography.Text>
      <Table<IncidentCallRecord>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={calls}
        data-testid="incident-calls"
        scroll={{ x: 560 }}
        locale={{ emptyText: t('oncall.incidents.noCalls') }}
        onRow={(c) =>
          ({ 'data-testid': 'incident-call', 'data-result': c.result ?? '', 'data-resolution': String(c.resolution) }) as React.HTMLAttributes<HTMLElement>
        }
        columns={[
          { title: t('oncall.incidents.time'), dataIndex: 'startedAt', render: (v: number) => when(v, i18n.language), width: 120 },
          {
            title: t('oncall.incidents.step'),
            render: (_, c) => (c.resolution ? say(t, 'paging.resolutionCall') : `${c.stepIndex + 1}${c.round > 0 ? ` (${c.round + 1})` : ''} · ${c.attempt}`),
            width: 70,
          },
          { title: t('oncall.incidents.person'), render: (_, c) => c.name ?? c.mobile },
          {
            title: t('oncall.incidents.result'),
            render: (_, c) => (
              <span>
                {callResult(t, c)}
                {c.reason ? <Typography.Text type="secondary"> · {describeReason(t, c.reason)}</Typography.Text> : null}
              </span>
            ),
          },
          { title: t('oncall.incidents.duration'), dataIndex: 'duration', render: (v: number | null) => (v === null ? '—' : `${v}s`), width: 70 },
          {
            title: 'smsid',
            dataIndex: 'smsid',
            render: (v: string | null) => (
              <Typography.Text copyable={v ? { text: v } : false} style={{ fontSize: 12 }}>
                {v ? v.slice(0, 10) : '—'}
              </Typography.Text>
            ),
          },
        ]}
      />
      <Typography.Text strong style={{ display: 'block', marginTop: 8 }}>
        {t('oncall.incidents.steps', { count: steps.length })}
      </Typography.Text>
      <ul className="oncall-timeline" data-testid="incident-steps">
        {steps.map((s) => (
          <li key={s.id}>
            {t('oncall.incidents.stepLine', { step: s.stepIndex + 1, round: s.round + 1, at: when(s.startedAt, i18n.language) })}
            {s.lateMs > 0 ? ` ${say(t, 'paging.late', { minutes: Math.round(s.lateMs / 60000) })}` : ''}
          </li>
        ))}
      </ul>
      <Typography.Text strong style={{ display: 'block', marginTop: 8 }}>
        {t('oncall.incidents.alerts', { count: alerts.length })}
      </Typography.Text>
      <ul className="oncall-timeline" data-testid="incident-alerts">
        {alerts.map((a) => (
          <li key={a.id}>
            <Tag color={a.status === 'firing' ? 'red' : 'green'}>{t(`oncall.alertStatus.${a.status}`)}</Tag>
            {a.alert.annotations.summary ?? a.alert.labels.alertname ?? a.fingerprint}{' '}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {Object.entries(a.alert.labels)
                .map(([k, v]) => `${k}=${v}`)
                .join(', ')}
            </Typography.Text>
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** The intake's own reason for an unreadable paste (`paging.intake.<problem>`), shown under the general text. */
function intakeProblem(t: TFunction, error: IpcError | null): string | null {
  if (!error || error.code !== 'paging' || error.params.kind !== 'alert-invalid' || !error.params.problem) return null;
  const { field, problem, limit } = error.params;
  return say(t, `paging.intake.${problem}`, { limit, field: !field || field === '$' ? t('oncall.paste.thePost') : field });
}

function PasteDialog({ open, onClose, onReceived }: { open: boolean; onClose: () => void; onReceived: (id: number) => void }) {
  const { t } = useTranslation();
  const paste = usePaste();
  const preview = usePreview();
  const [text, setText] = useState('');
  const [shown, setShown] = useState<AlertPreview | null>(null);
  const edit = (value: string) => {
    setText(value);
    setShown(null);
    paste.reset();
    preview.reset();
  };
  const submit = () => {
    preview.reset();
    paste.mutate(text, {
      onSuccess: (incident) => {
        if (incident) onReceived(incident.id);
        setText('');
        setShown(null);
        onClose();
      },
    });
  };
  const look = () => {
    paste.reset();
    preview.mutate(text, { onSuccess: setShown });
  };
  const error = paste.error ?? preview.error;
  const problem = intakeProblem(t, error);
  return (
    <Modal
      open={open}
      title={t('oncall.paste.title')}
      onCancel={onClose}
      destroyOnHidden
      width={640}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('common.cancel')}
        </Button>,
        <Button key="preview" onClick={look} disabled={!text.trim()} loading={preview.isPending} data-testid="paste-preview">
          {t('oncall.paste.preview')}
        </Button>,
        <Button key="submit" type="primary" onClick={submit} disabled={!text.trim()} loading={paste.isPending} data-testid="paste-submit">
          {t('oncall.paste.submit')}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary">{t('oncall.paste.help')}</Typography.Paragraph>
      <Input.TextArea
        value={text}
        onChange={(e) => edit(e.target.value)}
        rows={shown ? 6 : 10}
        aria-label={t('oncall.paste.title')}
        status={error ? 'error' : undefined}
        data-testid="paste-text"
        style={{ fontFamily: 'monospace', fontSize: 12 }}
      />
      <div style={{ marginTop: 8 }}>
        <ErrorView
          error={error}
          detail={
            problem ? (
              <Typography.Text type="danger" strong role="alert" data-testid="paste-error">
                {problem}
              </Typography.Text>
            ) : null
          }
        />
      </div>
      {shown ? <PreviewView preview={shown} /> : null}
    </Modal>
  );
}

/** What receiving the pasted alert would do: the route and why, the call's text and its warnings. Nobody is called. */
function PreviewView({ preview }: { preview: AlertPreview }) {
  const { t } = useTranslation();
  return (
    <div data-testid="paste-preview-result" style={{ marginTop: 8 }}>
      <Typography.Text type="secondary">{t('oncall.paste.nobodyCalled')}</Typography.Text>
      <Descriptions size="small" column={1} style={{ marginTop: 4 }}>
        <Descriptions.Item label={t('oncall.paste.alert')}>
          {preview.group.title || '—'}
          {preview.group.severity ? <Tag style={{ marginLeft: 8 }}>{preview.group.severity}</Tag> : null}
        </Descriptions.Item>
        <Descriptions.Item label={t('oncall.paste.route')}>
          <span data-testid="paste-preview-route">{preview.route ? preview.route.name : t('oncall.paste.noRoute')}</span>
        </Descriptions.Item>
      </Descriptions>
      {preview.joins !== null ? (
        <Alert type="info" showIcon title={t('oncall.paste.joins', { id: preview.joins })} style={{ marginBottom: 8 }} data-testid="paste-preview-joins" />
      ) : null}
      <Typography.Text type="secondary">{t('oncall.paste.why')}</Typography.Text>
      <ol className="oncall-timeline" data-testid="paste-preview-why">
        {preview.why.map((w, n) => (
          <li key={n}>{say(t, `paging.route.${w.code}`, w.params)}</li>
        ))}
      </ol>
      {preview.text !== null ? (
        <>
          <Typography.Text type="secondary">{t('oncall.paste.said')}</Typography.Text>
          <div className="oncall-preview" data-testid="paste-preview-text">
            {preview.text}
          </div>
        </>
      ) : null}
      <IssueList issues={preview.errors} type="error" testId="paste-preview" />
      <IssueList issues={preview.warnings} type="warning" testId="paste-preview" />
    </div>
  );
}
