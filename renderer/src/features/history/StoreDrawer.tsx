// Storage of History: how much the captured exchanges take, how long to keep them (days, or a size
// cap: the oldest go first), applying that now, and compacting the database file (vacuum) with its
// size before and after. Messages themselves are never deleted here.
import { useEffect, useState } from 'react';
import { Alert, Button, Checkbox, Descriptions, Drawer, InputNumber, Progress, Space, Spin, Typography } from 'antd';
import { ClearOutlined, CompressOutlined, SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { describeError, type IpcError } from '../../app/api';
import { useRetentionPreview, useStore } from './data';
import { RetentionPreviewView } from './RetentionPreview';
import type { ArchiveInfo, RetentionSettings } from '../../../../common/history-types';
import { ArchiveSection } from './ArchiveSection';
import { currentLanguage } from '../../i18n';
import { DatabaseNotice } from './DatabaseNotice';
import { formatBytes, formatCount } from './history-model';
import { useFeedback } from '../../app/feedback';

const MB = 1024 * 1024;

export function StoreDrawer({ open, onClose, onOpenArchive }: { open: boolean; onClose: () => void; onOpenArchive: (archive: ArchiveInfo) => void }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { message } = useFeedback();
  const failed = (e: IpcError) => void message.error(describeError(t, e));
  const { status: statusQuery, save, apply, vacuum, archive } = useStore(open, failed, () => void message.success(t('history.store.saved')));
  const { data: status, error } = statusQuery;
  const [keepDays, setKeepDays] = useState(false);
  const [days, setDays] = useState<number | null>(90);
  const [capSize, setCapSize] = useState(false);
  const [sizeMb, setSizeMb] = useState<number | null>(500);
  const { reset: resetApplied } = apply;
  const { reset: resetVacuumed } = vacuum;
  const applied = apply.data;
  const vacuumed = vacuum.data;

  // The form shows the settings as stored, each time they are loaded.
  useEffect(() => {
    if (!status) return;
    const { exchangeDays, exchangeMaxBytes } = status.retention;
    setKeepDays(exchangeDays !== null);
    if (exchangeDays !== null) setDays(exchangeDays);
    setCapSize(exchangeMaxBytes !== null);
    if (exchangeMaxBytes !== null) setSizeMb(Math.max(1, Math.round(exchangeMaxBytes / MB)));
  }, [status]);

  useEffect(() => {
    if (!open) return;
    resetApplied();
    resetVacuumed();
  }, [open, resetApplied, resetVacuumed]);

  // The settings as typed: what Save stores and what the preview shows.
  const typed: RetentionSettings = {
    exchangeDays: keepDays ? (days ?? 90) : null,
    exchangeMaxBytes: capSize ? Math.round((sizeMb ?? 500) * MB) : null,
  };
  const dirty = status !== undefined && (typed.exchangeDays !== status.retention.exchangeDays || typed.exchangeMaxBytes !== status.retention.exchangeMaxBytes);
  const preview = useRetentionPreview(open && status !== undefined, typed);

  return (
    <Drawer open={open} onClose={onClose} size={520} title={t('history.store.title')}>
      <div data-testid="store-drawer">
        {status?.recovered ? <DatabaseNotice recovered={status.recovered} /> : null}
        {error ? <Alert type="error" showIcon title={describeError(t, error)} style={{ marginBottom: 12 }} /> : null}
        {!status && !error ? <Spin /> : null}
        {status ? (
          <>
            <Typography.Title level={5} style={{ marginTop: 0 }}>
              {t('history.store.usage')}
            </Typography.Title>
            <Descriptions
              size="small"
              column={1}
              bordered
              items={[
                {
                  key: 'count',
                  label: t('history.store.exchanges'),
                  children: <span data-testid="store-count">{formatCount(lang, status.usage.exchanges)}</span>,
                },
                { key: 'bytes', label: t('history.store.bytes'), children: <span data-testid="store-bytes">{formatBytes(status.usage.bytes)}</span> },
                {
                  key: 'file',
                  label: t('history.store.fileSize'),
                  children: <span data-testid="store-file-bytes">{formatBytes(status.fileBytes)}</span>,
                },
              ]}
            />
            {status.packing ? (
              <Alert
                type="info"
                showIcon
                style={{ marginTop: 12 }}
                data-testid="store-packing"
                title={t('history.store.packing.title')}
                description={
                  <>
                    <Progress
                      percent={Math.floor((status.packing.done / Math.max(1, status.packing.total)) * 100)}
                      size="small"
                      aria-label={t('history.store.packing.title')}
                      data-testid="store-packing-progress"
                    />
                    <div>
                      {t(status.packing.step === 'indexing' ? 'history.store.packing.indexing' : 'history.store.packing.progress', {
                        done: formatCount(lang, status.packing.done),
                        total: formatCount(lang, status.packing.total),
                      })}
                    </div>
                    <Typography.Text type="secondary">{t('history.store.packing.help')}</Typography.Text>
                  </>
                }
              />
            ) : null}
            <Typography.Title level={5}>{t('history.store.retention')}</Typography.Title>
            <Typography.Paragraph type="secondary">{t('history.store.retentionHelp')}</Typography.Paragraph>
            <Space orientation="vertical" size={12} style={{ width: '100%' }}>
              <Space wrap>
                <Checkbox checked={keepDays} onChange={(e) => setKeepDays(e.target.checked)} data-testid="retention-days-on">
                  {t('history.store.byAge')}
                </Checkbox>
                <InputNumber
                  min={1}
                  max={36500}
                  precision={0}
                  value={days}
                  disabled={!keepDays}
                  onChange={(v) => setDays(v)}
                  suffix={t('history.store.daysUnit')}
                  aria-label={t('history.store.byAge')}
                  style={{ width: 140 }}
                  data-testid="retention-days"
                />
              </Space>
              <Space wrap>
                <Checkbox checked={capSize} onChange={(e) => setCapSize(e.target.checked)} data-testid="retention-size-on">
                  {t('history.store.bySize')}
                </Checkbox>
                <InputNumber
                  min={1}
                  max={1024 * 1024}
                  precision={0}
                  value={sizeMb}
                  disabled={!capSize}
                  onChange={(v) => setSizeMb(v)}
                  suffix="MB"
                  aria-label={t('history.store.bySize')}
                  style={{ width: 140 }}
                  data-testid="retention-size"
                />
              </Space>
              {preview.data ? <RetentionPreviewView preview={preview.data} settings={typed} /> : null}
              <Space wrap>
                <Button
                  type="primary"
                  icon={<SaveOutlined />}
                  onClick={() => save.mutate(typed)}
                  loading={save.isPending}
                  disabled={!dirty}
                  data-testid="retention-save"
                >
                  {t('history.store.save')}
                </Button>
                <Button icon={<ClearOutlined />} onClick={() => apply.mutate()} loading={apply.isPending} disabled={dirty} data-testid="retention-apply">
                  {t('history.store.apply')}
                </Button>
              </Space>
              {applied ? (
                <Alert
                  type="success"
                  showIcon
                  data-testid="retention-result"
                  title={t('history.store.applied', { age: formatCount(lang, applied.deletedByAge), size: formatCount(lang, applied.deletedBySize) })}
                  description={
                    <>
                      <div>
                        {t('history.store.left', {
                          count: applied.remainingExchanges,
                          n: formatCount(lang, applied.remainingExchanges),
                          bytes: formatBytes(applied.remainingBytes),
                        })}
                      </div>
                      <div data-testid="retention-file">
                        {applied.fileBytesAfter < applied.fileBytesBefore || applied.deletedByAge + applied.deletedBySize === 0
                          ? t('history.store.file', { before: formatBytes(applied.fileBytesBefore), after: formatBytes(applied.fileBytesAfter) })
                          : t('history.store.fileKept', { size: formatBytes(applied.fileBytesAfter) })}
                      </div>
                    </>
                  }
                />
              ) : null}
            </Space>
            <ArchiveSection status={status} start={archive} onOpen={onOpenArchive} />
            <Typography.Title level={5}>{t('history.store.vacuumTitle')}</Typography.Title>
            <Typography.Paragraph type="secondary">{t('history.store.vacuumHelp')}</Typography.Paragraph>
            <Space orientation="vertical" size={12} style={{ width: '100%' }}>
              {status.compactAdvised && !vacuumed ? (
                <Alert type="info" showIcon data-testid="compact-advised" title={t('history.store.compactAdvised')} />
              ) : null}
              <Button icon={<CompressOutlined />} onClick={() => vacuum.mutate()} loading={vacuum.isPending} data-testid="vacuum">
                {vacuum.isPending ? t('history.store.vacuuming') : t('history.store.vacuum')}
              </Button>
              {vacuumed ? (
                <Alert
                  type="success"
                  showIcon
                  data-testid="vacuum-result"
                  title={t('history.store.vacuumed', { before: formatBytes(vacuumed.bytesBefore), after: formatBytes(vacuumed.bytesAfter) })}
                  description={t('history.store.vacuumTime', { ms: Math.round(vacuumed.ms) })}
                />
              ) : null}
            </Space>
          </>
        ) : null}
      </div>
    </Drawer>
  );
}
