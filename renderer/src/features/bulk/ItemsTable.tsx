// Every item of a batch with what became of it, filtered by status and paged from main. Loaded again
// as the batch progresses (each progress main pushes); the page shown stays until the next one is here.
import { useState, type HTMLAttributes } from 'react';
import { Card, Segmented, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BatchItemView, BatchProgress, ItemStatus } from '../../../../common/bulk-types';
import { describeReason } from '../../app/api';
import { currentLanguage } from '../../i18n';
import { formatNumber, ITEM_COLORS } from './bulk-model';
import { useBatchItems } from './use-bulk-data';
import { withAside } from '../../i18n/punctuation';

type Filter = 'all' | ItemStatus;
const FILTERS: Filter[] = ['all', 'accepted', 'rejected', 'unknown', 'queued', 'skipped', 'cancelled'];
const PAGE_SIZE = 10;

function countOf(p: BatchProgress, f: Filter): number {
  switch (f) {
    case 'all':
      return p.total;
    case 'in_flight':
      return p.inFlight;
    default:
      return p[f];
  }
}

export function ItemsTable({ batchId, progress }: { batchId: number; progress: BatchProgress }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const input = { batchId, ...(filter === 'all' ? {} : { status: filter }), offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE };
  const { data: items } = useBatchItems(input);

  return (
    <Card size="small" title={t('bulk.items.title')} data-testid="batch-items">
      <Segmented<Filter>
        value={filter}
        onChange={(f) => {
          setFilter(f);
          setPage(1);
        }}
        options={FILTERS.map((f) => ({ value: f, label: withAside(lang, t(`bulk.items.filter.${f}`), formatNumber(lang, countOf(progress, f))) }))}
        style={{ marginBottom: 12 }}
        data-testid="items-filter"
      />
      <Table<BatchItemView>
        size="small"
        rowKey="id"
        loading={items === undefined}
        dataSource={items ?? []}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: countOf(progress, filter), onChange: setPage, showSizeChanger: false, size: 'small' }}
        onRow={(i) => ({ 'data-testid': 'item-row', 'data-status': i.status, 'data-row': i.rowNumber }) as HTMLAttributes<HTMLTableRowElement>}
        columns={[
          { key: 'row', title: t('bulk.items.col.row'), dataIndex: 'rowNumber', width: 70 },
          { key: 'mobile', title: t('bulk.items.col.mobile'), dataIndex: 'mobile', width: 130 },
          { key: 'content', title: t('bulk.items.col.content'), dataIndex: 'content', ellipsis: true },
          {
            key: 'status',
            title: t('bulk.items.col.status'),
            width: 130,
            render: (_, i) => <Tag color={ITEM_COLORS[i.status]}>{t(`bulk.itemStatus.${i.status}`)}</Tag>,
          },
          {
            key: 'call',
            title: t('bulk.items.col.call'),
            width: 260,
            render: (_, i) =>
              i.status === 'accepted' && i.state ? (
                <span>
                  {t(`state.${i.state}`, { ns: 'msg' })}
                  {i.duration ? <Typography.Text type="secondary">{` · ${t('bulk.time.seconds', { count: i.duration })}`}</Typography.Text> : null}
                </span>
              ) : i.status === 'skipped' && i.errorKind !== 'invalid-row' && i.errorKind !== 'duplicate' ? (
                <Typography.Text type="secondary">{t('bulk.items.skippedByPerson')}</Typography.Text>
              ) : i.reason ? (
                <Typography.Text type="secondary">{describeReason(t, i.reason)}</Typography.Text>
              ) : i.code !== null ? (
                t('bulk.items.code', { code: i.code })
              ) : null,
          },
        ]}
      />
    </Card>
  );
}
