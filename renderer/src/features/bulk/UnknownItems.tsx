// Items whose outcome is unknown (Callout stopped mid-send, a timeout, a 500): the call may have been
// placed. Nothing resends them by itself: a person chooses to send them again (after an explicit
// confirmation that someone may be called twice) or not to send them.
import { useEffect, useState, type HTMLAttributes } from 'react';
import { Alert, App, Button, Card, Checkbox, Flex, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BatchItemView, BatchProgress } from '../../../../common/bulk-types';
import { call, describeError } from '../../app/api';
import { formatDateTime } from './bulk-model';
import { currentLanguage } from '../../i18n';

export interface UnknownItemsProps {
  batchId: number;
  progress: BatchProgress;
  onProgress: (p: BatchProgress) => void;
  onRefetch: () => void;
}

export function UnknownItems({ batchId, progress, onRefetch }: UnknownItemsProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { modal, message } = App.useApp();
  const [items, setItems] = useState<BatchItemView[] | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let live = true;
    void call((api) => api.bulk.unknown({ batchId })).then((r) => {
      if (!live) return;
      if (r.ok) {
        setItems(r.value);
        setSelected((s) => s.filter((id) => r.value.some((i) => i.id === id)));
      } else void message.error(describeError(t, r.error));
    });
    return () => {
      live = false;
    };
  }, [batchId, progress.unknown, generation, message, t]);

  const done = () => {
    setSelected([]);
    setGeneration((g) => g + 1);
    onRefetch();
  };

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
        const r = await call((api) => api.bulk.requeue({ batchId, itemIds: ids, confirm: true }));
        if (r.ok) {
          void message.success(t('bulk.unknown.requeued', { count: r.value.requeued }));
          done();
        } else void message.error(describeError(t, r.error));
      },
    });
  };

  const skip = async () => {
    const r = await call((api) => api.bulk.skip({ batchId, itemIds: selected }));
    if (r.ok) {
      void message.success(t('bulk.unknown.skipped', { count: r.value.skipped }));
      done();
    } else void message.error(describeError(t, r.error));
  };

  return (
    <Card size="small" title={t('bulk.unknown.title', { count: progress.unknown })} className="bulk-unknown" data-testid="unknown-items" style={{ marginBottom: 16 }}>
      <Alert type="warning" showIcon title={t('bulk.unknown.explain')} style={{ marginBottom: 12 }} />
      <Table<BatchItemView>
        size="small"
        rowKey="id"
        loading={items === null}
        dataSource={items ?? []}
        pagination={{ pageSize: 5, showSizeChanger: false, size: 'small', hideOnSinglePage: true }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        onRow={(i) => ({ 'data-testid': 'unknown-row', 'data-item-id': i.id, 'data-row': i.rowNumber }) as HTMLAttributes<HTMLTableRowElement>}
        columns={[
          { key: 'row', title: t('bulk.items.col.row'), dataIndex: 'rowNumber', width: 70 },
          { key: 'mobile', title: t('bulk.items.col.mobile'), dataIndex: 'mobile', width: 130 },
          { key: 'content', title: t('bulk.items.col.content'), dataIndex: 'content', ellipsis: true },
          { key: 'when', title: t('bulk.unknown.when'), width: 150, render: (_, i) => formatDateTime(lang, i.sentAt ?? i.updatedAt) },
          { key: 'why', title: t('bulk.unknown.why'), width: 200, render: (_, i) => t(`bulk.unknown.kind.${knownKind(i.errorKind)}`) },
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

type UnknownKind = 'interrupted' | 'timeout' | 'provider' | 'internal' | 'other';

/** Why an outcome is unknown, in a few kinds the UI can name. */
function knownKind(errorKind: string | null): UnknownKind {
  if (!errorKind) return 'other';
  if (errorKind === 'interrupted' || errorKind === 'crashed') return 'interrupted';
  if (errorKind.includes('timeout') || errorKind === 'reset' || errorKind === 'aborted') return 'timeout';
  if (errorKind === 'provider-error' || errorKind === 'unreadable-reply') return 'provider';
  if (errorKind === 'internal') return 'internal';
  return 'other';
}
