// Runs of saved requests (from the Requests screen or `callout run`): newest first; one opens with
// each request's result, its assertions and its exchange.
import { useState } from 'react';
import { Button, Empty, List, Spin, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../app/api';
import { useRuns } from './data';
import { currentLanguage } from '../../i18n';
import { RunResults, RunSummaryLine } from '../workbench/RunResults';
import { formatTime } from './history-model';
import type { Lookups } from './use-lookups';

export function RunsTab({ lookups }: { lookups: Lookups }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const [open, setOpen] = useState<number | null>(null);
  const { runs, run } = useRuns(open);
  return (
    <div className="history-tab history-runs" data-testid="runs-tab">
      <div className="history-toolbar">
        <Typography.Text type="secondary">{t('history.runs.intro')}</Typography.Text>
        <span style={{ flex: 1 }} />
        <Button icon={<ReloadOutlined />} onClick={() => void runs.refetch()}>
          {t('history.exchanges.reload')}
        </Button>
      </div>
      <div className="history-runs-body">
        <div className="history-runs-list">
          {runs.error ? <Typography.Text type="danger">{describeError(t, runs.error)}</Typography.Text> : null}
          {runs.data && !runs.data.length ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.runs.none')} /> : null}
          <List
            size="small"
            dataSource={runs.data ?? []}
            loading={runs.isLoading}
            renderItem={(r) => (
              <List.Item className={open === r.id ? 'history-run-open' : undefined} onClick={() => setOpen(r.id)} data-testid="run-row" data-run-id={r.id}>
                <div style={{ minWidth: 0 }}>
                  <RunSummaryLine run={r} />
                  <div className="history-muted history-hint">
                    #{r.id} · {formatTime(lang, r.startedAt, true)} · {lookups.profileName(r.profile)}
                  </div>
                </div>
              </List.Item>
            )}
          />
        </div>
        <div className="history-runs-detail" data-testid="run-detail">
          {open === null ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.runs.pick')} />
          ) : run.data ? (
            <>
              <RunSummaryLine run={run.data} />
              <RunResults results={run.data.results} />
            </>
          ) : run.error ? (
            <Typography.Text type="danger">{describeError(t, run.error)}</Typography.Text>
          ) : (
            <Spin />
          )}
        </div>
      </div>
    </div>
  );
}
