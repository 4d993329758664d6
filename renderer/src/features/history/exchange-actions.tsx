// What a tester does with exchanges: copy one as cURL (redacted), copy it with the real API Key
// (main writes that to the clipboard itself after an explicit confirmation; the key never comes
// here), and export a selection as a HAR 1.2 file.
import { useState } from 'react';
import { App, Button, Space, Tooltip } from 'antd';
import { CopyOutlined, DownloadOutlined, KeyOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ExchangeRecord } from '../../../../common/records';
import { call, describeError } from '../../app/api';
import { copyText, downloadText } from '../../app/browser-io';
import { fileStamp } from './history-model';

/** "200 OK", or the transport error ("timeout") when no reply came. */
export function statusText(t: TFunction, e: Pick<ExchangeRecord, 'status' | 'statusText' | 'error'>): string {
  if (e.status !== null) return `${e.status}${e.statusText ? ` ${e.statusText}` : ''}`;
  if (e.error) return t('history.inspector.noReplyShort', { kind: e.error.kind });
  return '—';
}

export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

export function useHarExport(): { exporting: boolean; exportHar: (ids: number[]) => Promise<void> } {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [exporting, setExporting] = useState(false);
  const exportHar = async (ids: number[]) => {
    if (!ids.length) return;
    setExporting(true);
    const r = await call((api) => api.exchanges.exportHar({ ids }));
    setExporting(false);
    if (!r.ok) {
      void message.error(describeError(t, r.error));
      return;
    }
    downloadText(`callout-exchanges-${fileStamp()}.har`, r.value.json, 'application/json');
    void message.success(t('history.har.done', { count: r.value.entries }));
  };
  return { exporting, exportHar };
}

export function ExportHarButton({ ids, size }: { ids: number[]; size?: 'small' | 'middle' }) {
  const { t } = useTranslation();
  const { exporting, exportHar } = useHarExport();
  return (
    <Button size={size} icon={<DownloadOutlined />} disabled={!ids.length} loading={exporting} onClick={() => void exportHar(ids)} data-testid="export-har">
      {ids.length > 1 ? t('history.har.exportN', { count: ids.length }) : t('history.har.export')}
    </Button>
  );
}

export function CopyCurlButtons({ exchange }: { exchange: ExchangeRecord }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busy, setBusy] = useState<'plain' | 'key' | null>(null);

  const copyRedacted = async () => {
    setBusy('plain');
    const r = await call((api) => api.exchanges.curl({ id: exchange.id }));
    setBusy(null);
    if (!r.ok) {
      void message.error(describeError(t, r.error));
      return;
    }
    if ((await copyText(r.value.command)) !== 'failed') void message.success(t('history.curl.copied'));
    else void message.warning(t('history.curl.copyFailed'));
  };

  const copyWithKey = () => {
    modal.confirm({
      title: t('history.curl.keyConfirmTitle'),
      content: (
        <div data-testid="curl-key-confirm">
          <p>{t('history.curl.keyConfirmBody')}</p>
          <p style={{ marginBottom: 0 }}>{t('history.curl.keyConfirmCare')}</p>
        </div>
      ),
      okText: t('history.curl.keyConfirmOk'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        setBusy('key');
        const r = await call((api) => api.exchanges.copyCurlWithKey({ id: exchange.id, confirm: true }));
        setBusy(null);
        if (r.ok) void message.success(t('history.curl.keyCopied'));
        else void message.error(describeError(t, r.error));
      },
    });
  };

  const noProfile = exchange.profile === null;
  return (
    <Space size={8} wrap>
      <Button icon={<CopyOutlined />} loading={busy === 'plain'} onClick={() => void copyRedacted()} data-testid="copy-curl">
        {t('history.curl.copy')}
      </Button>
      <Tooltip title={noProfile ? t('history.curl.noProfile') : t('history.curl.keyHelp')}>
        <Button icon={<KeyOutlined />} loading={busy === 'key'} disabled={noProfile} onClick={copyWithKey} data-testid="copy-curl-key">
          {t('history.curl.copyWithKey')}
        </Button>
      </Tooltip>
    </Space>
  );
}
