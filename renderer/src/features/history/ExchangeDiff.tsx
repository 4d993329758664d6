// Two exchanges side by side: their request lines and statuses, headers paired by name, and both
// bodies compared JSON-aware (see exchange-diff.ts), changed lines marked on both sides.
import { Fragment, useMemo } from 'react';
import { Drawer, Empty, Segmented, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExchangeRecord } from '../../../../common/records';
import { useExchangePair } from './data';
import { headerValue } from './body-format';
import { pathOf, statusText } from './exchange-actions';
import { canonicalBody, diffHeaders, diffText, type DiffRow, type HeaderRow } from './exchange-diff';
import { Redacted } from './Inspector';

type Half = 'request' | 'response';

function Rows({ rows, testId }: { rows: (DiffRow | HeaderRow)[]; testId: string }) {
  const { t } = useTranslation();
  if (!rows.length) return <Typography.Text type="secondary">{t('history.diff.nothing')}</Typography.Text>;
  return (
    <div className="history-diff-grid" data-testid={testId}>
      {rows.map((r, i) => (
        <Fragment key={i}>
          <div className={`history-diff-cell history-diff-${r.kind === 'added' ? 'empty' : r.kind}`} data-kind={r.kind} data-side="left">
            {'name' in r ? <b>{r.name}: </b> : null}
            {r.left !== null ? <Redacted text={r.left} /> : ''}
          </div>
          <div
            className={`history-diff-cell history-diff-${r.kind === 'removed' ? 'empty' : r.kind === 'changed' ? 'changed' : r.kind === 'added' ? 'added' : 'same'}`}
            data-kind={r.kind}
            data-side="right"
          >
            {'name' in r && r.right !== null ? <b>{r.name}: </b> : null}
            {r.right !== null ? <Redacted text={r.right} /> : ''}
          </div>
        </Fragment>
      ))}
    </div>
  );
}

function Compare({ left, right }: { left: ExchangeRecord; right: ExchangeRecord }) {
  const { t } = useTranslation();
  const [half, setHalf] = useState<Half>('response');
  const [onlyChanges, setOnlyChanges] = useState<'all' | 'changes'>('all');
  const view = useMemo(() => {
    const headers =
      half === 'request' ? diffHeaders(left.requestHeaders, right.requestHeaders) : diffHeaders(left.responseHeaders ?? [], right.responseHeaders ?? []);
    const body = (e: ExchangeRecord) =>
      half === 'request'
        ? canonicalBody(e.requestBody, headerValue(e.requestHeaders, 'content-type'))
        : canonicalBody(e.responseBody, headerValue(e.responseHeaders, 'content-type'));
    return { headers, body: diffText(body(left), body(right)) };
  }, [left, right, half]);
  const keep = <R extends DiffRow>(rows: R[]) => (onlyChanges === 'changes' ? rows.filter((r) => r.kind !== 'same') : rows);
  const changed = view.headers.filter((r) => r.kind !== 'same').length + view.body.filter((r) => r.kind !== 'same').length;
  const line = (e: ExchangeRecord) => (
    <div className="history-diff-title">
      <Tag>#{e.id}</Tag>
      <Typography.Text code>
        {e.method} {pathOf(e.url)}
      </Typography.Text>
      <Tag color={e.status === null || e.status >= 400 ? 'red' : 'green'}>{statusText(t, e)}</Tag>
    </div>
  );
  return (
    <div data-testid="exchange-diff">
      <div className="history-toolbar">
        <Segmented<Half>
          value={half}
          onChange={setHalf}
          options={[
            { value: 'request', label: <span data-testid="diff-request">{t('history.inspector.request')}</span> },
            { value: 'response', label: <span data-testid="diff-response">{t('history.inspector.response')}</span> },
          ]}
        />
        <Segmented<'all' | 'changes'>
          value={onlyChanges}
          onChange={setOnlyChanges}
          options={[
            { value: 'all', label: t('history.diff.all') },
            { value: 'changes', label: <span data-testid="diff-only-changes">{t('history.diff.onlyChanges')}</span> },
          ]}
        />
        <Typography.Text type="secondary" data-testid="diff-count">
          {t('history.diff.count', { count: changed })}
        </Typography.Text>
      </div>
      <div className="history-diff-grid history-diff-heads">
        {line(left)}
        {line(right)}
      </div>
      <Typography.Title level={5}>{t('history.inspector.headers')}</Typography.Title>
      <Rows rows={keep(view.headers)} testId="diff-headers" />
      <Typography.Title level={5}>{t('history.inspector.body')}</Typography.Title>
      <Typography.Paragraph type="secondary" className="history-hint">
        {t('history.diff.jsonAware')}
      </Typography.Paragraph>
      <Rows rows={keep(view.body)} testId="diff-body" />
    </div>
  );
}

export function ExchangeDiffDrawer({ ids, archive, onClose }: { ids: [number, number] | null; archive?: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [a, b] = useExchangePair(ids, archive);
  return (
    <Drawer
      open={ids !== null}
      onClose={onClose}
      size={Math.min(1200, Math.max(720, window.innerWidth - 120))}
      title={t('history.diff.title', { left: ids?.[0] ?? '', right: ids?.[1] ?? '' })}
      destroyOnHidden
      data-testid="diff-drawer"
    >
      {a?.data && b?.data ? <Compare left={a.data} right={b.data} /> : a?.error || b?.error ? <Empty /> : <Spin />}
    </Drawer>
  );
}
