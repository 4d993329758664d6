// The Bulk send screen: a new send from a spreadsheet (file, mapping, validation report), or one
// batch followed live; past batches below.
import { useState } from 'react';
import { Alert, Button, Flex, Skeleton, Typography } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BatchRecord } from '../../../../common/bulk-types';
import { describeError } from '../../app/api';
import { navigate } from '../../app/navigation';
import { BatchList } from './BatchList';
import { BatchView } from './BatchView';
import { ImportWizard } from './ImportWizard';
import { batchesQuery } from './live';
import { useBulkData } from './use-bulk-data';
import './bulk.css';

export function BulkScreen() {
  const { t } = useTranslation();
  const { data, loading, error, reload } = useBulkData();
  const client = useQueryClient();
  const batches = useQuery(batchesQuery).data ?? null;
  const reloadBatches = () => void client.invalidateQueries({ queryKey: batchesQuery.queryKey });
  const [open, setOpen] = useState<BatchRecord | null>(null);
  const openBatch = open ? (batches?.find((b) => b.id === open.id) ?? open) : null;

  return (
    <section aria-labelledby="bulk-title" className="bulk-screen">
      <Flex align="flex-start" justify="space-between" gap={24} style={{ marginBottom: 16 }}>
        <div style={{ minWidth: 0 }}>
          <Typography.Title level={3} id="bulk-title" style={{ marginTop: 0, marginBottom: 4 }}>
            {t('bulk.title')}
          </Typography.Title>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0, maxWidth: 820 }}>
            {t('bulk.intro')}
          </Typography.Paragraph>
        </div>
        {openBatch ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(null)} data-testid="new-import">
            {t('bulk.action.new')}
          </Button>
        ) : null}
      </Flex>

      {error ? (
        <Alert
          type="error"
          showIcon
          title={t('bulk.loadFailed')}
          description={describeError(t, error)}
          action={
            <Button icon={<ReloadOutlined />} onClick={reload}>
              {t('common.retry')}
            </Button>
          }
          style={{ marginBottom: 16 }}
        />
      ) : null}

      {loading && !data ? <Skeleton active /> : null}

      {data && openBatch ? <BatchView key={openBatch.id} batch={openBatch} profiles={data.profiles} /> : null}

      {data && !openBatch ? (
        data.templates.some((x) => x.approved) ? (
          <ImportWizard
            data={data}
            onStarted={(batch) => {
              setOpen(batch);
              reloadBatches();
            }}
          />
        ) : (
          <Alert
            type="info"
            showIcon
            data-testid="bulk-no-templates"
            title={t('bulk.noTemplates.title')}
            description={t('bulk.noTemplates.body')}
            action={<Button onClick={() => navigate('templates')}>{t('bulk.noTemplates.open')}</Button>}
          />
        )
      ) : null}

      <BatchList
        batches={batches}
        profiles={data?.profiles ?? []}
        openId={openBatch?.id ?? null}
        onOpen={(b) => setOpen(b)}
        onRemoved={(id) => {
          if (open?.id === id) setOpen(null);
          reloadBatches();
        }}
      />
    </section>
  );
}
