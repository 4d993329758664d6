// Items whose outcome is unknown (Callout stopped mid-send, a timeout, a 500): the call may have been
// placed. Nothing resends them by itself: a person chooses to send them again (after an explicit
// confirmation that someone may be called twice) or not to send them.
import { useEffect, useState, type HTMLAttributes } from 'react';
import { Alert, Button, Card, Checkbox, Flex, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BatchItemView, BatchProgress } from '../../../../common/bulk-types';
import { describeError, describeReason } from '../../app/api';
import { currentLanguage } from '../../i18n';
import { formatDateTime } from './bulk-model';
import { useUnknownItems } from './use-bulk-data';
import { useFeedback } from '../../app/feedback';

export interface UnknownItemsProps {
  batchId: number;
  progress: BatchProgress;
}

export function UnknownItems({ batchId, progress }: UnknownItemsProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { modal, message } = useFeedback();
  // Loaded again when their number changes (applyBulkProgress), and with the batch once a person decided.
  const unknown = useUnknownItems(batchId);
  const { data: items, error } = unknown.items;
  const [selected, setSelected] = useState<number[]>([]);

  useEffect(() => {
    if (items) setSelected((s) => s.filter((id) => items.some((i) => i.id === id)));
  }, [items]);

  const requeue = () => {
    const ids = [...selected];
    let confirmed = false;
    const instance = modal.confirm({
      title: t('bulk.unknown.confirmTitle', { count: ids.length }),
      width: 520,
      content: (
        <Flex vertical gap={8} data-testid="confirm-requeue-body">
          <span>{t('bulk.unknown.confirmBody')}</span>
          <Checkbox
            data-testid="confirm-requeue-check"
            onChange={(e) => {
              confirmed = e.target.checked;
              instance.update({ okButtonProps: { danger: true, disabled: !confirmed } });
            }}
          >
            {t('bulk.unknown.confirmCheck')}
          </Checkbox>
        </Flex>
      ),
      okText: t('bulk.unknown.confirmOk', { count: ids.length }),
      okButtonProps: { danger: true, disabled: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        if (!confirmed) return;
        await unknown.requeue.mutateAsync(ids).then(
          (r) => {
            void message.success(t('bulk.unknown.requeued', { count: r.requeued }));
            setSelected([]);
          },
          (e) => void message.error(describeError(t, e)),
        );
      },
    });
  };

  const skip = async () => {
    await unknown.skip.mutateAsync(selected).then(
      (r) => {
        void message.success(t('bulk.unknown.skipped', { count: r.skipped }));
        setSelected([]);
      },
      (e) => void message.error(describeError(t, e)),
    );
  };

  return (
    <Card
      size="small"
      title={t('bulk.unknown.title', { count: progress.unknown })}
      className="bulk-unknown"
      data-testid="unknown-items"
      style={{ marginBottom: 16 }}
    >
      <Alert type="warning" showIcon title={t('bulk.unknown.explain')} style={{ marginBottom: 12 }} />
      {error ? <Alert type="error" showIcon title={describeError(t, error)} style={{ marginBottom: 12 }} /> : null}
      <Table<BatchItemView>
        size="small"
        rowKey="id"
        loading={items === undefined && !error}
        dataSource={items ?? []}
        pagination={{ pageSize: 5, showSizeChanger: false, size: 'small', hideOnSinglePage: true }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        onRow={(i) => ({ 'data-testid': 'unknown-row', 'data-item-id': i.id, 'data-row': i.rowNumber }) as HTMLAttributes<HTMLTableRowElement>}
        columns={[
          { key: 'row', title: t('bulk.items.col.row'), dataIndex: 'rowNumber', width: 70 },
          { key: 'mobile', title: t('bulk.items.col.mobile'), dataIndex: 'mobile', width: 130 },
          { key: 'content', title: t('bulk.items.col.content'), dataIndex: 'content', ellipsis: true },
          { key: 'when', title: t('bulk.unknown.when'), width: 150, render: (_, i) => formatDateTime(lang, i.sentAt ?? i.updatedAt) },
          { key: 'why', title: t('bulk.unknown.why'), width: 280, render: (_, i) => (i.reason ? describeReason(t, i.reason) : null) },
        ]}
      />
      <Flex gap={8} justify="flex-end" align="center" style={{ marginTop: 8 }}>
        <Typography.Text type="secondary">{t('bulk.unknown.selected', { count: selected.length })}</Typography.Text>
        <Button onClick={() => void skip()} disabled={selected.length === 0} data-testid="unknown-skip">
          {t('bulk.unknown.skip')}
        </Button>
        <Button danger onClick={requeue} disabled={selected.length === 0} data-testid="unknown-requeue">
          {t('bulk.unknown.requeue')}
        </Button>
      </Flex>
    </Card>
  );
}
