// What a tester does with exchanges: copy one as cURL (redacted), copy it with the real API Key
// (main writes that to the clipboard itself after an explicit confirmation; the key never comes
// here), and export a selection as a HAR 1.2 file.
import { useState } from 'react';
import { Button, Select, Space, Tooltip } from 'antd';
import { CopyOutlined, DownloadOutlined, KeyOutlined, RetweetOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { CodeTarget } from '../../../../common/contract';
import type { ExchangeRecord } from '../../../../common/records';
import { describeError, type IpcError } from '../../app/api';
import { consoleShell } from '../../app/browser-transport';
import { copyText, downloadText } from '../../app/browser-io';
import { openInWorkbench } from '../workbench/workbench-store';
import { fileStamp } from './history-model';
import { useFeedback } from '../../app/feedback';
import { useCopyExchange, useExportHar, useReplayRequest } from './data';

const LANGUAGES: { value: CodeTarget; label: string }[] = [
  { value: 'curl', label: 'cURL' },
  { value: 'node', label: 'Node fetch' },
  { value: 'python', label: 'Python requests' },
  { value: 'go', label: 'Go' },
];

/** Opens the exchange's request in the raw client, to send it again as it was or changed. */
export function ReplayButton({ exchange }: { exchange: ExchangeRecord }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const replay = useReplayRequest(
    exchange.id,
    exchange.archive,
    (r) => openInWorkbench({ request: r.request, ...(r.profileId ? { profileId: r.profileId } : {}), environmentId: null }),
    (e) => void message.error(describeError(t, e)),
  );
  return (
    <Tooltip title={t('history.inspector.replayHelp')}>
      <Button icon={<RetweetOutlined />} loading={replay.isPending} onClick={() => replay.mutate()} data-testid="replay">
        {t('workbench.openInRawClient', { ns: 'msg' })}
      </Button>
    </Tooltip>
  );
}

/** "200 OK", or the transport error ("timeout") when no reply came. */
export function statusText(t: TFunction, e: Pick<ExchangeRecord, 'status' | 'statusText' | 'error'>): string {
  if (e.status !== null) return `${e.status}${e.statusText ? ` ${e.statusText}` : ''}`;
  if (e.error) return t('history.inspector.noReplyShort', { what: t(`transportShort.${e.error.kind}`, { ns: 'msg' }) });
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

export function ExportHarButton({ ids, size, archive }: { ids: number[]; size?: 'small' | 'middle'; archive?: string }) {
  const { t } = useTranslation();
  const { message } = useFeedback();
  const exporting = useExportHar(
    ids,
    archive,
    (har) => {
      downloadText(`callout-exchanges-${fileStamp()}.har`, har.json, 'application/json');
      void message.success(t('history.har.done', { count: har.entries }));
    },
    (e) => void message.error(describeError(t, e)),
  );
  return (
    <Button
      size={size}
      icon={<DownloadOutlined />}
      disabled={!ids.length}
      loading={exporting.isPending}
      onClick={() => exporting.mutate()}
      data-testid="export-har"
    >
      {ids.length > 1 ? t('history.har.exportN', { count: ids.length }) : t('history.har.export')}
    </Button>
  );
}

export function CopyCurlButtons({ exchange }: { exchange: ExchangeRecord }) {
  const { t } = useTranslation();
  const { message, modal } = useFeedback();
  const failed = (e: IpcError) => void message.error(describeError(t, e));
  const [target, setTarget] = useState<CodeTarget>('curl');
  // Main puts the command with the key on the clipboard itself: the key never comes to this window.
  const { copy, copyKey } = useCopyExchange(
    exchange.id,
    exchange.archive,
    target,
    async (curl) => {
      if ((await copyText(curl.command)) !== 'failed') void message.success(t('history.curl.copied'));
      else void message.warning(t('history.curl.copyFailed'));
    },
    () => void message.success(t('history.curl.keyCopied')),
    failed,
  );

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
      onOk: () => copyKey.mutate(),
    });
  };

  const noProfile = exchange.profile === null;
  // In a browser (`callout ui`) main's clipboard is not this person's: the key is never copied there.
  const desktopOnly = consoleShell().kind === 'browser';
  const keyTip = desktopOnly
    ? describeError(t, { code: 'unavailable', params: { kind: 'browser-key-copy' } })
    : noProfile
      ? t('error.exchange-without-profile', { ns: 'msg' })
      : t('history.curl.keyHelp');
  return (
    <Space size={8} wrap>
      <Space.Compact>
        <Select<CodeTarget>
          value={target}
          onChange={setTarget}
          options={LANGUAGES}
          style={{ width: 150 }}
          aria-label={t('history.curl.language')}
          data-testid="copy-language"
        />
        <Button icon={<CopyOutlined />} loading={copy.isPending} onClick={() => copy.mutate()} data-testid="copy-curl">
          {t('history.curl.copy')}
        </Button>
      </Space.Compact>
      <Tooltip title={keyTip}>
        <Button
          icon={<KeyOutlined />}
          loading={copyKey.isPending}
          disabled={noProfile || desktopOnly}
          onClick={copyWithKey}
          data-testid="copy-curl-key"
          data-desktop-only={desktopOnly || undefined}
        >
          {t('history.curl.copyWithKey')}
        </Button>
      </Tooltip>
    </Space>
  );
}
