// The history list: a virtualised grid (only the rows in view, plus a few, are in the DOM, whatever
// the number loaded), the next page loaded when its end comes into view, and the keyboard: arrows,
// Page Up/Down, Home/End move the selection, Enter opens the message.
import { memo, useCallback, useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { Button, Empty, Spin, Tag, Tooltip, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, SearchOutlined } from '@ant-design/icons';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { HistoryOrder } from '../../../../common/history-types';
import type { MessageRecord } from '../../../../common/records';
import { describeError } from '../../app/api';
import { currentLanguage, type Language } from '../../i18n';
import {
  billingWords,
  formatCount,
  formatDuration,
  formatTime,
  OUTCOME_COLORS,
  outcomeExplanation,
  outcomeLabel,
  STATE_COLORS,
  stateLabel,
  timeParts,
} from './history-model';
import type { HistoryList } from './use-history-list';
import type { Lookups } from './use-lookups';

export const ROW_HEIGHT = 40;
/** The column header sits (sticky) at the top of the scrolling box, so its columns line up with the rows'. */
const HEADER_HEIGHT = 40;

export interface MessageListProps {
  list: HistoryList;
  lookups: Lookups;
  order: HistoryOrder;
  onOrderChange: (order: HistoryOrder) => void;
  selectedId: number | null;
  /** `open`: the user asked to see the message (click, Enter), not only moved to it. */
  onSelect: (id: number, open: boolean) => void;
  filtered: boolean;
  onClearFilters: () => void;
}

interface RowProps {
  m: MessageRecord;
  index: number;
  top: number;
  selected: boolean;
  lang: Language;
  profile: string;
  template: string | null;
  onSelect: (id: number, open: boolean) => void;
}

const Row = memo(function Row({ m, index, top, selected, lang, profile, template, onSelect }: RowProps) {
  const { t } = useTranslation();
  return (
    <div
      role="row"
      id={`history-row-${m.id}`}
      aria-rowindex={index + 2}
      aria-selected={selected}
      className={`history-row${selected ? ' history-row-selected' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      onClick={() => onSelect(m.id, true)}
      data-testid="history-row"
      data-message-id={m.id}
      data-outcome={m.outcome}
      data-state={m.state}
    >
      <TimeCell lang={lang} at={m.createdAt} />
      <span role="gridcell" className="history-cell history-mobile" data-testid="row-mobile">
        {m.mobile}
      </span>
      <span role="gridcell" className="history-cell history-text" title={m.content} data-testid="row-text">
        {m.content}
      </span>
      <span role="gridcell" className="history-cell history-muted" title={template ?? undefined}>
        {template ?? '—'}
      </span>
      <span role="gridcell" className="history-cell history-muted" title={profile}>
        {profile}
      </span>
      <UnitsCell m={m} />
      <span role="gridcell" className="history-cell">
        <Tooltip title={outcomeExplanation(t, m.outcome)}>
          <Tag color={OUTCOME_COLORS[m.outcome]} className="history-tag" data-testid="row-outcome">
            {outcomeLabel(t, m.outcome)}
          </Tag>
        </Tooltip>
      </span>
      <span role="gridcell" className="history-cell">
        <Tag color={STATE_COLORS[m.state]} className="history-tag" data-testid="row-state" title={stateLabel(t, m.state)}>
          {stateLabel(t, m.state)}
        </Tag>
      </span>
      <span role="gridcell" className="history-cell history-num">
        {m.duration !== null ? formatDuration(t, m.duration) : '—'}
      </span>
    </div>
  );
});

/**
 * A time: date, weekday and time of day in parts (a narrow list stacks the date above the time and
 * leaves the weekday to the title, which keeps the whole).
 */
export function TimeCell({ lang, at, withSeconds = false }: { lang: Language; at: number; withSeconds?: boolean }) {
  const p = timeParts(lang, at, withSeconds);
  return (
    <span role="gridcell" className="history-cell history-time" title={formatTime(lang, at, withSeconds)}>
      <span className="history-date">{p.date}</span> <span className="history-weekday">{p.weekday}</span> <span className="history-clock">{p.time}</span>
    </span>
  );
}

/** Units a message cost: billing is on answer only, so a refused send or an unanswered call shows 0, an open call "—". */
function UnitsCell({ m }: { m: MessageRecord }) {
  const { t } = useTranslation();
  const billing = billingWords(t, m);
  return (
    <span
      role="gridcell"
      className={`history-cell history-num${billing.units ? '' : ' history-muted'}`}
      title={billing.why}
      data-testid="row-units"
      data-units={billing.units ?? ''}
    >
      {billing.value}
    </span>
  );
}

export function MessageList({ list, lookups, order, onOrderChange, selectedId, onSelect, filtered, onClearFilters }: MessageListProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const scrollRef = useRef<HTMLDivElement>(null);
  const { rows, loading, loadingMore, error, hasMore, stalled, searchedTo, loadMore } = list;

  const virtualizer = useVirtualizer({
    count: rows.length + 1,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    scrollMargin: HEADER_HEIGHT,
    scrollPaddingStart: HEADER_HEIGHT,
    getItemKey: (i) => rows[i]?.id ?? 'footer',
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;

  // The end of the list in view: load the next page.
  useEffect(() => {
    if (lastIndex >= rows.length - 1 && hasMore && !loading) loadMore(true);
  }, [lastIndex, rows.length, hasMore, loading, loadMore]);

  // A new filter or order starts at the top.
  const firstId = rows[0]?.id;
  const wasLoading = useRef(loading);
  useEffect(() => {
    if (wasLoading.current && !loading) scrollRef.current?.scrollTo({ top: 0 });
    wasLoading.current = loading;
  }, [loading, firstId]);

  const activeIndex = useMemo(() => (selectedId === null ? -1 : rows.findIndex((m) => m.id === selectedId)), [rows, selectedId]);

  const moveTo = useCallback(
    (index: number, open: boolean) => {
      const i = Math.max(0, Math.min(rows.length - 1, index));
      const m = rows[i];
      if (!m) return;
      onSelect(m.id, open);
      virtualizer.scrollToIndex(i, { align: 'auto' });
    },
    [rows, onSelect, virtualizer],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!rows.length) return;
    const page = Math.max(1, Math.floor(((scrollRef.current?.clientHeight ?? 400) - HEADER_HEIGHT) / ROW_HEIGHT) - 1);
    const from = activeIndex < 0 ? -1 : activeIndex;
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveTo(from + 1, false),
      ArrowUp: () => moveTo(Math.max(0, from - 1), false),
      PageDown: () => moveTo(from + page, false),
      PageUp: () => moveTo(from - page, false),
      Home: () => moveTo(0, false),
      End: () => moveTo(rows.length - 1, false),
      Enter: () => moveTo(Math.max(0, from), true),
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  };

  const sortLabel = order === 'newest' ? t('history.list.sortNewest') : t('history.list.sortOldest');
  const header = (
    <div role="row" className="history-row history-head" aria-rowindex={1}>
      <span role="columnheader" className="history-cell" aria-sort={order === 'newest' ? 'descending' : 'ascending'}>
        <Tooltip title={t('history.list.sortHelp')}>
          <Button
            type="text"
            size="small"
            className="history-sort"
            onClick={() => onOrderChange(order === 'newest' ? 'oldest' : 'newest')}
            data-testid="history-sort"
            data-order={order}
            aria-label={t('common.labelled', { label: t('history.column.created'), value: sortLabel })}
          >
            {t('history.column.created')} {order === 'newest' ? <ArrowDownOutlined aria-hidden /> : <ArrowUpOutlined aria-hidden />}
          </Button>
        </Tooltip>
      </span>
      <span role="columnheader" className="history-cell">
        {t('history.column.mobile')}
      </span>
      <span role="columnheader" className="history-cell">
        {t('history.column.text')}
      </span>
      <span role="columnheader" className="history-cell">
        {t('history.column.template')}
      </span>
      <span role="columnheader" className="history-cell">
        {t('history.column.profile')}
      </span>
      <span role="columnheader" className="history-cell history-num">
        {t('history.column.units')}
      </span>
      <span role="columnheader" className="history-cell">
        {t('history.column.outcome')}
      </span>
      <span role="columnheader" className="history-cell">
        {t('history.column.state')}
      </span>
      <span role="columnheader" className="history-cell history-num">
        {t('history.column.duration')}
      </span>
    </div>
  );

  const footer = () => {
    if (loadingMore || (hasMore && !stalled)) {
      return (
        <span className="history-footer-text">
          <Spin size="small" /> {searchedTo !== null ? t('history.list.searchingFrom', { time: formatTime(lang, searchedTo) }) : t('history.list.loadingMore')}
        </span>
      );
    }
    if (hasMore && stalled) {
      return (
        <span className="history-footer-text">
          {searchedTo !== null ? t('history.list.searchedTo', { time: formatTime(lang, searchedTo) }) : t('history.list.more')}
          <Button size="small" icon={<SearchOutlined />} onClick={() => loadMore(false)} data-testid="history-keep-searching">
            {t('history.list.keepSearching')}
          </Button>
        </span>
      );
    }
    return <span className="history-footer-text history-muted">{t('history.list.end', { count: rows.length, n: formatCount(lang, rows.length) })}</span>;
  };

  let body;
  if (loading) {
    body = (
      <div className="history-placeholder" data-testid="history-loading">
        <Spin />
        <Typography.Text type="secondary">{t('history.list.loading')}</Typography.Text>
      </div>
    );
  } else if (error && rows.length === 0) {
    body = (
      <div className="history-placeholder" data-testid="history-error">
        <Typography.Text type="danger">{t('history.list.loadFailed')}</Typography.Text>
        <Typography.Text type="secondary">{describeError(t, error)}</Typography.Text>
        <Button onClick={list.reload}>{t('common.retry')}</Button>
      </div>
    );
  } else if (rows.length === 0 && !hasMore) {
    body = (
      <div className="history-placeholder" data-testid="history-empty">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={filtered ? t('history.list.noMatch') : t('history.list.empty')} />
        {filtered ? <Button onClick={onClearFilters}>{t('history.filters.clear')}</Button> : null}
      </div>
    );
  }

  return (
    <div
      className="history-list"
      role="grid"
      aria-label={t('history.list.label')}
      aria-rowcount={list.total !== null && !list.totalCapped ? list.total + 1 : -1}
      aria-activedescendant={selectedId !== null && activeIndex >= 0 ? `history-row-${selectedId}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="history-list"
      data-first-page-ms={list.firstPageMs ?? undefined}
      data-loaded={rows.length}
    >
      <div className="history-body" ref={scrollRef} data-testid="history-scroll">
        <div role="rowgroup" className="history-head-group">
          {header}
        </div>
        <div role="rowgroup">
          {body ?? (
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((v) => {
                const m = rows[v.index];
                const top = v.start - HEADER_HEIGHT;
                if (!m) {
                  return (
                    <div key="footer" className="history-footer" style={{ transform: `translateY(${top}px)` }} data-testid="history-footer">
                      {footer()}
                    </div>
                  );
                }
                return (
                  <Row
                    key={m.id}
                    m={m}
                    index={v.index}
                    top={top}
                    selected={m.id === selectedId}
                    lang={lang}
                    profile={lookups.profileName(m.profile)}
                    template={lookups.templateName(m.templateId)}
                    onSelect={onSelect}
                  />
                );
              })}
            </div>
          )}
        </div>
      </div>
      {error && rows.length > 0 ? (
        <div className="history-inline-error" role="alert">
          <Typography.Text type="danger">{describeError(t, error)}</Typography.Text>
          <Button size="small" onClick={() => loadMore(false)}>
            {t('common.retry')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
