// Storage → Archive old months: for the person who wants to keep every exchange without keeping it
// in the live store. Pick the first month to keep; see what would move; archive it (confirmed), with
// its progress; then the archive files, each opened (read-only) in the Exchanges tab.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Empty, List, Progress, Select, Space, Tag, Typography } from 'antd';
import { FolderOpenOutlined, InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { StoreStatus } from '../../../../common/contract';
import type { ArchiveInfo } from '../../../../common/history-types';
import { describeError, type IpcError } from '../../app/api';
import { useFeedback } from '../../app/feedback';
import { currentLanguage } from '../../i18n';
import { useQueryClient } from '@tanstack/react-query';
import { useArchivePlan, useArchives } from './data';
import { exchangeKeys } from './history-push';
import { formatBytes, formatCount, monthLabel, monthRange } from './history-model';
import { monthStartOffsetMinutes } from '../../../../common/domain/months';

/** The current month and the 35 before it, newest first ("2026-11", "2026-10", …). */
function recentMonths(now: Date): string[] {
  const out: string[] = [];
  for (let i = 0; i < 36; i++) {
    const d = new Date(now.getFullYear(), now.getMonth() - i, 1);
    out.push(`${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`);
  }
  return out;
}

type ArchiveMutation = {
  mutate: (input: { before: string; utcOffsetMinutes: number }) => void;
  isPending: boolean;
};

export function ArchiveSection({ status, start, onOpen }: { status: StoreStatus; start: ArchiveMutation; onOpen: (archive: ArchiveInfo) => void }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { modal } = useFeedback();
  const months = useMemo(() => recentMonths(new Date()), []);
  // Keeps the current month and the three before it, unless another is picked.
  const [before, setBefore] = useState(months[3]!);
  const offset = monthStartOffsetMinutes(before);
  const running = status.archive.running;
  const plan = useArchivePlan(true, before, offset);
  const archives = useArchives(true);
  const { refetch: refetchArchives } = archives;
  const { refetch: refetchPlan } = plan;
  const last = status.archive.last;
  const client = useQueryClient();
  // An archive that ended is listed, and the plan read again; the exchange lists loaded before it
  // (the live store's no longer holds what moved) are read again.
  const ended = last ? `${last.name}:${last.removed}` : null;
  useEffect(() => {
    if (running) return;
    void refetchArchives();
    void refetchPlan();
    if (ended) void client.invalidateQueries({ queryKey: exchangeKeys.all });
  }, [running, ended, refetchArchives, refetchPlan, client]);

  const p = plan.data;
  const confirm = () => {
    if (!p) return;
    modal.confirm({
      title: t('history.store.archive.confirm', { count: p.exchanges, n: formatCount(lang, p.exchanges) }),
      content: t('history.store.archive.confirmHelp'),
      okText: t('history.store.archive.start'),
      cancelText: t('common.cancel'),
      onOk: () => start.mutate({ before, utcOffsetMinutes: offset }),
    });
  };

  return (
    <section data-testid="archive-section">
      <Typography.Title level={5}>{t('history.store.archive.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('history.store.archive.help')}</Typography.Paragraph>
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Space wrap>
          <span id="archive-before-label">{t('history.store.archive.before')}</span>
          <Select<string>
            value={before}
            onChange={setBefore}
            options={months.map((m) => ({ value: m, label: monthLabel(lang, m) }))}
            aria-labelledby="archive-before-label"
            style={{ width: 140 }}
            disabled={running !== null}
            data-testid="archive-before"
          />
        </Space>
        {plan.error ? <Typography.Text type="danger">{describeError(t, plan.error as IpcError)}</Typography.Text> : null}
        {p ? (
          <Typography.Text data-testid="archive-plan">
            {p.exchanges > 0
              ? t('history.store.archive.plan', {
                  count: p.exchanges,
                  n: formatCount(lang, p.exchanges),
                  bytes: formatBytes(p.bytes),
                  months: monthRange(lang, p.from, p.to),
                })
              : t('history.store.archive.planNone', { month: monthLabel(lang, p.before) })}
          </Typography.Text>
        ) : null}
        <Button
          icon={<InboxOutlined />}
          onClick={confirm}
          disabled={!p || p.exchanges === 0 || running !== null}
          loading={start.isPending}
          data-testid="archive-start"
        >
          {t('history.store.archive.start')}
        </Button>
        {running ? (
          <Alert
            type="info"
            showIcon
            data-testid="archive-running"
            title={
              running.phase === 'copying'
                ? t('archive.copying', { ns: 'msg', name: running.name, done: formatCount(lang, running.done), total: formatCount(lang, running.total) })
                : t('archive.removing', { ns: 'msg', done: formatCount(lang, running.done), total: formatCount(lang, running.total) })
            }
            description={
              <>
                <Progress
                  percent={Math.floor((((running.phase === 'copying' ? 0 : running.total) + running.done) / Math.max(1, 2 * running.total)) * 100)}
                  size="small"
                  aria-label={t('history.store.archive.title')}
                  data-testid="archive-progress"
                />
                <Typography.Text type="secondary">{t('history.store.archive.runningHelp')}</Typography.Text>
              </>
            }
          />
        ) : null}
        {!running && last ? (
          <Alert
            type="success"
            showIcon
            data-testid="archive-result"
            title={t('history.store.archive.done', {
              count: last.exchanges,
              n: formatCount(lang, last.exchanges),
              months: monthRange(lang, last.from, last.to),
              name: last.name,
              size: formatBytes(last.archiveBytes),
            })}
            description={t('archive.storeFile', { ns: 'msg', before: formatBytes(last.storeBytesBefore), after: formatBytes(last.storeBytesAfter) })}
          />
        ) : null}
        {!running && status.archive.error ? (
          <Alert
            type="warning"
            showIcon
            data-testid="archive-error"
            title={t('history.store.archive.failed')}
            description={describeError(t, status.archive.error as IpcError)}
          />
        ) : null}
        <Typography.Text strong>{t('history.store.archive.list')}</Typography.Text>
        {archives.error ? <Typography.Text type="danger">{describeError(t, archives.error as IpcError)}</Typography.Text> : null}
        {archives.data ? (
          <>
            {archives.data.archives.length ? (
              <List
                size="small"
                bordered
                data-testid="archive-list"
                dataSource={archives.data.archives}
                renderItem={(a) => (
                  <List.Item
                    data-testid="archive-item"
                    data-archive={a.name}
                    actions={[
                      <Button
                        key="open"
                        size="small"
                        icon={<FolderOpenOutlined />}
                        disabled={a.problem !== null}
                        onClick={() => onOpen(a)}
                        data-testid="archive-open"
                      >
                        {t('history.store.archive.open')}
                      </Button>,
                    ]}
                  >
                    <List.Item.Meta
                      title={<span className="history-archive-name">{a.name}</span>}
                      description={
                        a.problem ? (
                          <Typography.Text type="danger">
                            {describeError(t, { code: 'archive-failed', params: { kind: a.problem, name: a.name } } as IpcError)}
                          </Typography.Text>
                        ) : (
                          <Space size={4} wrap>
                            <Tag>{monthRange(lang, a.from, a.to)}</Tag>
                            <span>
                              {t('history.store.archive.count', {
                                count: a.exchanges ?? 0,
                                n: formatCount(lang, a.exchanges ?? 0),
                                size: formatBytes(a.bytes),
                              })}
                            </span>
                          </Space>
                        )
                      }
                    />
                  </List.Item>
                )}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('archive.none', { ns: 'msg' })} />
            )}
            <Typography.Text type="secondary" copyable={{ text: archives.data.folder }} data-testid="archive-folder">
              {t('history.store.archive.folder', { folder: archives.data.folder })}
            </Typography.Text>
            <Typography.Text type="secondary">{t('history.store.archive.folderHelp')}</Typography.Text>
          </>
        ) : null}
      </Space>
    </section>
  );
}
