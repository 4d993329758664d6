// Every captured exchange (sends, status queries, balance checks, raw console requests), newest
// first, in a virtualised list loaded by cursor: filter by operation, select several for a HAR file,
// open one in the inspector.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Checkbox, Empty, Segmented, Spin, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { ExchangeRecord, Operation } from '../../../../common/records';
import { describeError } from '../../app/api';
import { ask } from '../../app/query';
import { currentLanguage } from '../../i18n';
import { ExportHarButton, pathOf, statusText } from './exchange-actions';
import { statusColor } from './ExchangeList';
import { TimeCell } from './MessageList';
import { InspectorDrawer } from './Inspector';
import type { Lookups } from './use-lookups';

const PAGE = 200;
const ROW = 40;
const OPERATIONS: Operation[] = ['send', 'status', 'balance', 'receipt', 'raw'];

export function ExchangesTab({ lookups, active }: { lookups: Lookups; active: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const [operation, setOperation] = useState<Operation | 'all'>('all');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [inspected, setInspected] = useState<ExchangeRecord | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const filter = operation === 'all' ? {} : { operation };
  const list = useInfiniteQuery({
    queryKey: ['exchanges.list', filter],
    queryFn: ({ pageParam }) => ask((api) => api.exchanges.list({ ...filter, limit: PAGE, cursor: pageParam, order: 'newest' })),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // As loaded, until "Reload": loading it again would fetch every page.
    staleTime: Infinity,
    gcTime: 0,
  });
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.rows) ?? [], [list.data]);
  const { error, hasNextPage: more, isFetching: loading, fetchNextPage, refetch } = list;

  useEffect(() => setSelected(new Set()), [operation]);

  const virtualizer = useVirtualizer({
    count: rows.length + 1,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW,
    overscan: 8,
    scrollMargin: ROW,
    scrollPaddingStart: ROW,
    getItemKey: (i) => rows[i]?.id ?? 'footer',
  });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (last >= rows.length - 1 && more && !loading && !error) void fetchNextPage();
  }, [last, rows.length, more, loading, error, fetchNextPage]);

  const toggle = (id: number, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allShown = rows.length > 0 && rows.every((r) => selected.has(r.id));

  return (
    <div className="history-tab" data-testid="exchanges-tab">
      <div className="history-toolbar">
        <Segmented<Operation | 'all'>
          value={operation}
          onChange={setOperation}
          options={[{ value: 'all', label: t('history.exchanges.all') }, ...OPERATIONS.map((o) => ({ value: o, label: t(`history.operation.${o}`) }))]}
          aria-label={t('history.exchanges.operation')}
          data-testid="exchanges-operation"
        />
        <Checkbox
          checked={allShown}
          indeterminate={!allShown && selected.size > 0}
          disabled={!rows.length}
          onChange={(e) => setSelected(e.target.checked ? new Set(rows.map((r) => r.id)) : new Set())}
        >
          {t('history.exchanges.selectLoaded', { count: rows.length })}
        </Checkbox>
        <span style={{ flex: 1 }} />
        <Button icon={<ReloadOutlined />} onClick={() => void refetch()}>
          {t('history.exchanges.reload')}
        </Button>
        <ExportHarButton ids={[...selected]} />
      </div>
      <div className="history-list" role="grid" aria-label={t('history.exchanges.label')} data-testid="exchanges-list">
        <div className="history-body" ref={scrollRef}>
          <div role="rowgroup" className="history-head-group">
            <div role="row" className="history-xrow history-head">
              <span role="columnheader" />
              <span role="columnheader" className="history-cell">
                {t('history.column.created')}
              </span>
              <span role="columnheader" className="history-cell">
                {t('history.exchanges.operation')}
              </span>
              <span role="columnheader" className="history-cell">
                {t('history.exchanges.requestLine')}
              </span>
              <span role="columnheader" className="history-cell">
                {t('history.exchanges.status')}
              </span>
              <span role="columnheader" className="history-cell history-num">
                {t('history.exchanges.time')}
              </span>
              <span role="columnheader" className="history-cell">
                {t('history.column.profile')}
              </span>
            </div>
          </div>
          {error && !rows.length ? (
            <div className="history-placeholder">
              <Typography.Text type="danger">{describeError(t, error)}</Typography.Text>
              <Button onClick={() => void refetch()}>{t('common.retry')}</Button>
            </div>
          ) : !rows.length && loading ? (
            <div className="history-placeholder">
              <Spin />
            </div>
          ) : !rows.length ? (
            <div className="history-placeholder">
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.exchanges.empty')} />
            </div>
          ) : (
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((v) => {
                const e = rows[v.index];
                if (!e) {
                  return (
                    <div key="footer" className="history-footer" style={{ transform: `translateY(${v.start - ROW}px)` }}>
                      <span className="history-footer-text history-muted">{more || loading ? <Spin size="small" /> : t('history.exchanges.end')}</span>
                    </div>
                  );
                }
                return (
                  <div
                    key={e.id}
                    role="row"
                    className="history-xrow"
                    style={{ transform: `translateY(${v.start - ROW}px)` }}
                    onClick={() => setInspected(e)}
                    data-testid="exchange-row"
                    data-exchange-id={e.id}
                  >
                    <span role="gridcell" className="history-cell" onClick={(ev) => ev.stopPropagation()}>
                      <Checkbox checked={selected.has(e.id)} onChange={(ev) => toggle(e.id, ev.target.checked)} aria-label={t('history.exchanges.select', { id: e.id })} />
                    </span>
                    <TimeCell lang={lang} at={e.startedAt} withSeconds />
                    <span role="gridcell" className="history-cell">
                      <Tag color="blue" className="history-tag">
                        {t(`history.operation.${e.operation}`)}
                      </Tag>
                    </span>
                    <span role="gridcell" className="history-cell history-text">
                      <Button type="link" size="small" className="history-link-cell" onClick={() => setInspected(e)}>
                        {e.method} {pathOf(e.url)}
                      </Button>
                    </span>
                    <span role="gridcell" className="history-cell">
                      <Tag color={statusColor(e)} className="history-tag" title={statusText(t, e)}>
                        {statusText(t, e)}
                      </Tag>
                    </span>
                    <span role="gridcell" className="history-cell history-num">
                      {Math.round(e.timings.totalMs)} ms
                    </span>
                    <span role="gridcell" className="history-cell history-muted">
                      {e.profile ? lookups.profileName(e.profile) : '—'}
                    </span>
                  </div>
                );
              })}
            </div>
          )}
        </div>
      </div>
      <InspectorDrawer exchange={active ? inspected : null} onClose={() => setInspected(null)} />
    </div>
  );
}
