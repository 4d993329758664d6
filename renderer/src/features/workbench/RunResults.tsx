// A run's results: one row per request, what each assertion expected and found, why a request was
// not sent or got no reply, and its exchange in the inspector. Shown after a run, and in History.
import { useState } from 'react';
import { Alert, Button, List, Space, Tag, Typography } from 'antd';
import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { AssertionResult, ResultOutcome, RunResultView, RunSummary } from '../../../../common/contract';
import type { ExchangeRecord } from '../../../../common/records';
import { describeError, describeReason } from '../../app/api';
import { useOpenExchange } from './data';
import { InspectorDrawer } from '../history/Inspector';

export function OutcomeTag({ outcome }: { outcome: ResultOutcome | 'running' }) {
  const { t } = useTranslation();
  const color = outcome === 'passed' ? 'green' : outcome === 'failed' ? 'red' : outcome === 'running' ? 'blue' : 'orange';
  return (
    <Tag color={color} data-testid="outcome-tag" data-outcome={outcome}>
      {t(`workbench.outcome.${outcome}`)}
    </Tag>
  );
}

/** "status = 200", "$.code = 2", "$.smsid exists" */
export function AssertionLine({ r }: { r: AssertionResult }) {
  const { t } = useTranslation();
  const a = r.assertion;
  const what =
    a.kind === 'status'
      ? t('workbench.assertion.status', { ns: 'msg', value: a.equals })
      : a.kind === 'code'
        ? t('workbench.assertion.code', { ns: 'msg', value: a.equals })
        : a.kind === 'json-exists'
          ? t('workbench.assertion.exists', { ns: 'msg', path: a.path })
          : t('workbench.assertion.equals', { ns: 'msg', path: a.path, value: r.expected ?? a.equals });
  return (
    <div className="wb-assertion-result" data-testid="assertion-result" data-passed={r.passed}>
      {r.passed ? <CheckCircleFilled className="wb-pass" /> : <CloseCircleFilled className="wb-fail" />}
      <code>{what}</code>
      {!r.passed ? (
        <Typography.Text type="danger">{t('workbench.assert.found', { actual: r.actual ?? t('workbench.assertion.nothing', { ns: 'msg' }) })}</Typography.Text>
      ) : null}
    </div>
  );
}

export function RunSummaryLine({ run }: { run: RunSummary }) {
  const { t } = useTranslation();
  return (
    <Space wrap size={8} data-testid="run-summary">
      <OutcomeTag outcome={run.status} />
      <Typography.Text strong>{run.collectionName}</Typography.Text>
      {run.environmentName ? <Tag>{run.environmentName}</Tag> : null}
      <Typography.Text type="secondary">{t('workbench.run.counts', { passed: run.passed, failed: run.failed, errored: run.errored })}</Typography.Text>
    </Space>
  );
}

export function RunResults({ results }: { results: RunResultView[] }) {
  const { t } = useTranslation();
  const [inspected, setInspected] = useState<ExchangeRecord | null>(null);
  const open = useOpenExchange(setInspected);
  return (
    <>
      {open.error ? <Alert type="error" showIcon title={describeError(t, open.error)} style={{ marginBottom: 8 }} /> : null}
      <List
        size="small"
        dataSource={results}
        data-testid="run-results"
        renderItem={(r) => (
          <List.Item
            data-testid="run-result"
            data-outcome={r.outcome}
            actions={
              r.exchangeId !== null
                ? [
                    <Button key="open" size="small" type="link" onClick={() => open.mutate(r.exchangeId!)} data-testid="run-result-open">
                      {t('workbench.run.openExchange', { id: r.exchangeId })}
                    </Button>,
                  ]
                : []
            }
          >
            <div className="wb-result">
              <Space wrap size={8}>
                {r.outcome === 'passed' ? (
                  <CheckCircleFilled className="wb-pass" />
                ) : r.outcome === 'failed' ? (
                  <CloseCircleFilled className="wb-fail" />
                ) : (
                  <ExclamationCircleFilled className="wb-error" />
                )}
                <Typography.Text strong>{r.name}</Typography.Text>
                {r.status !== null ? <Tag>{r.status}</Tag> : null}
                {r.providerCode !== null ? <Tag color="blue">{t('provider.short', { ns: 'msg', code: r.providerCode })}</Tag> : null}
                {r.ms !== null ? <Typography.Text type="secondary">{Math.round(r.ms)} ms</Typography.Text> : null}
              </Space>
              {r.problem ? (
                <Typography.Paragraph type="danger" className="wb-result-why">
                  {describeError(t, r.problem)}
                </Typography.Paragraph>
              ) : null}
              {r.failure ? (
                <Typography.Paragraph type="warning" className="wb-result-why">
                  {describeReason(t, r.failure.reason)}
                </Typography.Paragraph>
              ) : null}
              {r.assertions.map((a, i) => (
                <AssertionLine key={i} r={a} />
              ))}
            </div>
          </List.Item>
        )}
      />
      <InspectorDrawer exchange={inspected} onClose={() => setInspected(null)} />
    </>
  );
}
