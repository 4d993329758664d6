// What the retention settings as typed would delete now, before anything is saved or applied: how
// many exchanges and bytes go by age, how many more go (oldest first) to stay within the size cap,
// and what stays, in words and as one bar split in those three parts.
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RetentionPreview, RetentionSettings } from '../../../../common/history-types';
import { currentLanguage } from '../../i18n';
import { formatBytes, formatCount } from './history-model';

const PARTS = [
  { key: 'byAge', color: '#cf1322' },
  { key: 'bySize', color: '#fa8c16' },
  { key: 'remaining', color: '#1677ff' },
] as const;

export function RetentionPreviewView({ preview, settings }: { preview: RetentionPreview; settings: RetentionSettings }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const n = (x: number) => formatCount(lang, x);
  const gone = { exchanges: preview.byAge.exchanges + preview.bySize.exchanges, bytes: preview.byAge.bytes + preview.bySize.bytes };
  const total = gone.bytes + preview.remaining.bytes;
  const lines: { key: (typeof PARTS)[number]['key']; text: string }[] = [];
  if (preview.byAge.exchanges > 0)
    lines.push({
      key: 'byAge',
      text: t('history.store.preview.byAge', { n: n(preview.byAge.exchanges), bytes: formatBytes(preview.byAge.bytes), days: settings.exchangeDays }),
    });
  if (preview.bySize.exchanges > 0)
    lines.push({
      key: 'bySize',
      text: t('history.store.preview.bySize', {
        n: n(preview.bySize.exchanges),
        bytes: formatBytes(preview.bySize.bytes),
        cap: formatBytes(settings.exchangeMaxBytes ?? 0),
      }),
    });
  lines.push({
    key: 'remaining',
    text: t('history.store.preview.remaining', {
      count: preview.remaining.exchanges,
      n: n(preview.remaining.exchanges),
      bytes: formatBytes(preview.remaining.bytes),
    }),
  });
  return (
    <Alert
      type={gone.exchanges > 0 ? 'warning' : 'info'}
      showIcon
      data-testid="retention-preview"
      data-deletes={gone.exchanges}
      title={
        gone.exchanges > 0
          ? t('history.store.preview.deletes', { count: gone.exchanges, n: n(gone.exchanges), bytes: formatBytes(gone.bytes) })
          : t('history.store.preview.nothing')
      }
      description={
        <>
          {total > 0 ? (
            <div
              role="img"
              aria-label={lines.map((l) => l.text).join(' ')}
              data-testid="retention-preview-bar"
              style={{ display: 'flex', height: 10, borderRadius: 5, overflow: 'hidden', margin: '6px 0 8px', background: '#f0f0f0' }}
            >
              {PARTS.map((p) => {
                const bytes = preview[p.key].bytes;
                return bytes > 0 ? (
                  <div key={p.key} data-part={p.key} style={{ width: `${(bytes / total) * 100}%`, minWidth: 3, background: p.color }} />
                ) : null;
              })}
            </div>
          ) : null}
          {lines.map((l) => (
            <div key={l.key} data-testid={`retention-preview-${l.key}`} style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
              <span aria-hidden style={{ width: 8, height: 8, borderRadius: 2, flex: 'none', background: PARTS.find((p) => p.key === l.key)!.color }} />
              <Typography.Text>{l.text}</Typography.Text>
            </div>
          ))}
          {gone.exchanges > 0 ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('history.store.preview.messagesKept')}
            </Typography.Text>
          ) : null}
        </>
      }
    />
  );
}
