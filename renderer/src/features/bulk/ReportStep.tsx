// Step 3: the validation report before anything is sent. Counts per kind of problem, every problem
// with its row number (paged from main), the choice for repeated rows, and the rows and units to send
// against the balance. "Create and start" asks once more, then creates the batch and starts it.
import { useState, type HTMLAttributes } from 'react';
import { Alert, Button, Card, Flex, Input, Radio, Statistic, Table, Tag, Typography } from 'antd';
import { WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ProfileView, TemplateView } from '../../../../common/contract';
import { ISSUE_KINDS, type BatchRecord, type DuplicatePolicy, type ImportView, type IssueKind, type RowIssue } from '../../../../common/bulk-types';
import { describeError, type IpcError } from '../../app/api';
import { currentLanguage } from '../../i18n';
import { timeParts } from '../history/history-model';
import { BLOCKING_KINDS, DUPLICATE_POLICIES, formatNumber, issueText } from './bulk-model';
import { useFeedback } from '../../app/feedback';
import { withAside } from '../../i18n/punctuation';
import { recentlyCalled, useCreateBatch, useImportIssues, useStartBatch } from './use-bulk-data';

export interface ReportStepProps {
  view: ImportView;
  template: TemplateView;
  profile: ProfileView;
  balanceUnits: number | null;
  onRefreshBalance: () => void;
  policy: DuplicatePolicy;
  onPolicy: (p: DuplicatePolicy) => void;
  name: string;
  onName: (name: string) => void;
  onBack: () => void;
  onDiscard: () => void;
  onStarted: (batch: BatchRecord) => void;
}

type KindFilter = 'all' | IssueKind;
const PAGE_SIZE = 10;

export function ReportStep(props: ReportStepProps) {
  const { view, template, profile, balanceUnits, policy, name } = props;
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { modal, message } = useFeedback();
  const report = view.report;
  const totals = report.totals;
  const [kind, setKind] = useState<KindFilter>('all');
  const [page, setPage] = useState(1);
  const totalIssues = kind === 'all' ? ISSUE_KINDS.reduce((n, k) => n + report.issueCounts[k], 0) : report.issueCounts[kind];
  const input = { importId: view.importId, ...(kind === 'all' ? {} : { kind }), offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE };
  // The mapping is part of the key: another mapping (same import) finds other problems.
  const { data: issues, error: issuesError } = useImportIssues(input, view.mapping);
  // Created, then started (each once: a start places real calls).
  const creating = useCreateBatch();
  const starting = useStartBatch();

  const toSend = totals.toSend[policy];
  const units = totals.units[policy];
  const enough = balanceUnits === null ? null : units <= balanceUnits;

  const start = async () => {
    // Numbers of this list called with the very same text a short while ago (History): said before anyone's phone rings again.
    const recent = await recentlyCalled(view.importId);
    modal.confirm({
      title: t('bulk.confirmStart.title', { count: toSend }),
      content: (
        <Flex vertical gap={4} data-testid="confirm-start-body">
          {recent && recent.rows > 0 ? (
            <Alert
              type="warning"
              showIcon
              data-testid="confirm-start-recent"
              data-rows={recent.rows}
              title={t('bulk.confirmStart.recentTitle')}
              description={t('bulk.confirmStart.recent', {
                count: recent.rows,
                minutes: recent.windowMinutes,
                time: recent.latestAt === null ? '' : timeParts(lang, recent.latestAt).time,
                mobiles: recent.mobiles.join(lang === 'zh-CN' ? '、' : ', ') + (recent.rows > recent.mobiles.length ? (lang === 'zh-CN' ? '等' : '…') : ''),
              })}
              style={{ marginBottom: 8 }}
            />
          ) : null}
          <span>{t('bulk.confirmStart.body', { profile: profile.name, template: template.name })}</span>
          <span>{t('bulk.confirmStart.units', { units: formatNumber(lang, units) })}</span>
          <span>{t('bulk.confirmStart.control')}</span>
        </Flex>
      ),
      okText: t('bulk.confirmStart.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        const created = await creating
          .mutateAsync({ importId: view.importId, profileId: profile.id, duplicates: policy, ...(name.trim() ? { name: name.trim() } : {}) })
          .catch((e: IpcError) => void message.error(describeError(t, e)));
        if (!created) return;
        await starting.mutateAsync(created.id).catch((e: IpcError) => void message.error(t('bulk.startFailed', { error: describeError(t, e) })));
        props.onStarted(created);
      },
    });
  };

  const kindOptions: { value: KindFilter; label: string; count: number }[] = [
    { value: 'all', label: t('bulk.issue.all'), count: ISSUE_KINDS.reduce((n, k) => n + report.issueCounts[k], 0) },
    ...ISSUE_KINDS.filter((k) => report.issueCounts[k] > 0).map((k) => ({ value: k, label: t(`bulk.issue.kind.${k}`), count: report.issueCounts[k] })),
  ];

  return (
    <div data-testid="report-step">
      <Flex gap={16} wrap className="bulk-figures" data-testid="report-totals">
        <Stat id="total-rows" title={t('bulk.report.rows')} value={totals.rows} />
        <Stat id="total-valid" title={t('bulk.report.valid')} value={totals.valid} />
        <Stat id="total-invalid" title={t('bulk.report.invalid')} value={totals.invalid} color={totals.invalid ? '#cf1322' : undefined} />
        <Stat id="total-duplicates" title={t('bulk.report.duplicates')} value={totals.duplicates} />
        <Stat id="total-same-mobile" title={t('bulk.report.sameMobile')} value={totals.sameMobile - totals.duplicates} />
      </Flex>

      <Card size="small" title={t('bulk.report.issuesTitle')} style={{ marginTop: 16 }} data-testid="issues-card">
        {kindOptions[0]!.count === 0 ? (
          <Alert type="success" showIcon title={t('bulk.report.noIssues')} data-testid="no-issues" />
        ) : (
          <>
            <Radio.Group
              value={kind}
              onChange={(e) => {
                setKind(e.target.value as KindFilter);
                setPage(1);
              }}
              optionType="button"
              buttonStyle="solid"
              size="small"
              aria-label={t('bulk.report.filterLabel')}
              options={kindOptions.map((o) => ({ value: o.value, label: withAside(lang, o.label, formatNumber(lang, o.count)) }))}
              data-testid="issue-filter"
              style={{ marginBottom: 12 }}
            />
            {issuesError ? <Alert type="error" showIcon title={describeError(t, issuesError)} style={{ marginBottom: 12 }} /> : null}
            <Table<RowIssue>
              size="small"
              rowKey={(i) => `${i.row}-${i.kind}-${i.column ?? ''}`}
              loading={issues === undefined && !issuesError}
              dataSource={issues ?? []}
              onRow={(i) => ({ 'data-testid': 'issue-row', 'data-row': i.row, 'data-kind': i.kind }) as HTMLAttributes<HTMLTableRowElement>}
              pagination={{ current: page, pageSize: PAGE_SIZE, total: totalIssues, onChange: setPage, showSizeChanger: false, size: 'small' }}
              columns={[
                { key: 'row', title: t('bulk.report.col.row'), dataIndex: 'row', width: 80 },
                {
                  key: 'kind',
                  title: t('bulk.report.col.kind'),
                  width: 200,
                  render: (_, i) => <Tag color={BLOCKING_KINDS.has(i.kind) ? 'red' : 'gold'}>{t(`bulk.issue.kind.${i.kind}`)}</Tag>,
                },
                { key: 'text', title: t('bulk.report.col.detail'), render: (_, i) => issueText(t, i) },
              ]}
            />
          </>
        )}
      </Card>

      <Flex gap={16} wrap style={{ marginTop: 16 }} align="stretch">
        <Card size="small" title={t('bulk.report.duplicatesTitle')} style={{ flex: '1 1 420px' }} data-testid="duplicates-card">
          <Radio.Group
            value={policy}
            onChange={(e) => props.onPolicy(e.target.value as DuplicatePolicy)}
            aria-label={t('bulk.report.duplicatesTitle')}
            data-testid="duplicate-policy"
          >
            <Flex vertical gap={8}>
              {DUPLICATE_POLICIES.map((p) => (
                <Radio key={p} value={p} data-policy={p}>
                  <span>{t(`bulk.policy.${p}`)}</span>
                  <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                    {t('bulk.policy.effect', { rows: formatNumber(lang, totals.toSend[p]), units: formatNumber(lang, totals.units[p]) })}
                  </Typography.Text>
                </Radio>
              ))}
            </Flex>
          </Radio.Group>
        </Card>

        <Card
          size="small"
          title={t('bulk.report.sendTitle')}
          style={{ flex: '1 1 420px' }}
          data-testid="send-summary"
          data-to-send={toSend}
          data-units={units}
          data-enough={enough === null ? 'unknown' : String(enough)}
        >
          <Flex gap={24} wrap>
            <Stat id="to-send" title={t('bulk.report.toSend')} value={toSend} />
            <Stat id="units" title={t('bulk.report.units')} value={units} />
            <Stat id="balance" title={t('bulk.report.balance')} value={balanceUnits ?? '—'} />
          </Flex>
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0' }}>
            {t('bulk.report.unitsRule')}
          </Typography.Paragraph>
          {enough === false ? (
            <Alert
              type="warning"
              showIcon
              icon={<WarningOutlined />}
              data-testid="balance-warning"
              title={t('bulk.report.notEnoughTitle')}
              description={t('bulk.report.notEnoughBody', { balance: formatNumber(lang, balanceUnits ?? 0), units: formatNumber(lang, units) })}
              action={
                <Button size="small" onClick={props.onRefreshBalance}>
                  {t('bulk.report.checkBalance')}
                </Button>
              }
            />
          ) : enough === null ? (
            <Alert
              type="info"
              showIcon
              title={t('bulk.report.balanceUnknown')}
              action={
                <Button size="small" onClick={props.onRefreshBalance}>
                  {t('bulk.report.checkBalance')}
                </Button>
              }
            />
          ) : null}
        </Card>
      </Flex>

      <Flex gap={16} align="flex-end" wrap style={{ marginTop: 16 }}>
        <label className="bulk-name" htmlFor="bulk-name">
          <span>{t('bulk.report.name')}</span>
          <Input
            id="bulk-name"
            value={name}
            maxLength={100}
            onChange={(e) => props.onName(e.target.value)}
            placeholder={view.fileName}
            style={{ width: 320 }}
          />
        </label>
        <span style={{ flex: 1 }} />
        <Button onClick={props.onBack}>{t('bulk.back')}</Button>
        <Button onClick={props.onDiscard} data-testid="discard-import">
          {t('bulk.report.discard')}
        </Button>
        <Button
          type="primary"
          onClick={() => void start()}
          disabled={toSend === 0}
          loading={creating.isPending || starting.isPending}
          data-testid="create-start"
        >
          {t('bulk.report.createStart', { count: toSend })}
        </Button>
      </Flex>
      {toSend === 0 ? <Alert type="error" showIcon title={t('bulk.report.nothingToSend')} style={{ marginTop: 12 }} /> : null}
    </div>
  );
}

function Stat({ id, title, value, color }: { id: string; title: string; value: number | string; color?: string }) {
  return (
    <div data-testid={id} data-value={value}>
      <Statistic title={title} value={value} styles={color ? { content: { color } } : undefined} />
    </div>
  );
}
