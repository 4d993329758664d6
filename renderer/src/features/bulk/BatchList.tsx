// Past batches, newest first: open one to see its progress and results, or remove a finished one.
import type { HTMLAttributes } from 'react';
import { Button, Card, Empty, Flex, Table, Tag } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../../common/contract';
import type { BatchListRow, BatchRecord } from '../../../../common/bulk-types';
import { batchStanding } from '../../../../common/domain/batches';
import { describeError } from '../../app/api';
import { currentLanguage } from '../../i18n';
import { formatDateTime, formatNumber, STATUS_COLORS } from './bulk-model';
import { useFeedback } from '../../app/feedback';
import { useRemoveBatch } from './use-bulk-data';

export interface BatchListProps {
  batches: BatchListRow[] | null;
  profiles: ProfileView[];
  openId: number | null;
  onOpen: (batch: BatchRecord) => void;
  onRemoved: (id: number) => void;
}

export function BatchList({ batches, profiles, openId, onOpen, onRemoved }: BatchListProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { modal, message } = useFeedback();
  const removing = useRemoveBatch();

  const remove = (b: BatchRecord) => {
    modal.confirm({
      title: t('bulk.list.confirmRemove', { name: b.name }),
      content: t('bulk.list.confirmRemoveBody'),
      okText: t('bulk.list.remove'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        await removing.mutateAsync(b.id).then(
          () => onRemoved(b.id),
          (e) => void message.error(describeError(t, e)),
        );
      },
    });
  };

  return (
    <Card size="small" title={t('bulk.list.title')} data-testid="batch-list" style={{ marginTop: 16 }}>
      <Table<BatchListRow>
        size="small"
        rowKey="id"
        loading={batches === null}
        dataSource={batches ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('bulk.list.empty')} /> }}
        pagination={{ pageSize: 8, hideOnSinglePage: true, showSizeChanger: false, size: 'small' }}
        rowClassName={(b) => (b.id === openId ? 'bulk-row-open' : '')}
        onRow={(b) => ({ 'data-testid': 'batch-row', 'data-batch-id': b.id, 'data-status': b.status }) as HTMLAttributes<HTMLTableRowElement>}
        columns={[
          { key: 'name', title: t('bulk.list.col.name'), dataIndex: 'name', ellipsis: true },
          {
            key: 'status',
            title: t('bulk.list.col.status'),
            width: 150,
            render: (_, b) =>
              batchStanding(b) === 'calling' ? (
                <Tag color="processing" data-testid="batch-row-status" data-standing="calling">
                  {t('bulk.standing.calling', { count: b.calling })}
                </Tag>
              ) : (
                <Tag color={STATUS_COLORS[b.status]} data-testid="batch-row-status" data-standing={b.status}>
                  {t(`bulk.status.${b.status}`)}
                </Tag>
              ),
          },
          { key: 'total', title: t('bulk.list.col.total'), width: 90, render: (_, b) => formatNumber(lang, b.total) },
          { key: 'profile', title: t('bulk.list.col.profile'), width: 140, render: (_, b) => profiles.find((p) => p.id === b.profile)?.name ?? b.profile },
          { key: 'created', title: t('bulk.list.col.created'), width: 160, render: (_, b) => formatDateTime(lang, b.createdAt) },
          {
            key: 'actions',
            title: t('bulk.list.col.actions'),
            width: 170,
            render: (_, b) => (
              <Flex gap={4}>
                <Button size="small" onClick={() => onOpen(b)} disabled={b.id === openId} aria-label={t('bulk.list.openLabel', { name: b.name })}>
                  {t('bulk.list.open')}
                </Button>
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => remove(b)}
                  disabled={b.status === 'running'}
                  aria-label={t('bulk.list.removeLabel', { name: b.name })}
                />
              </Flex>
            ),
          },
        ]}
      />
    </Card>
  );
}
