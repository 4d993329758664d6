// Every captured exchange (sends, status queries, balance checks, raw client requests, and what a
// backend sent through the capture proxy), newest first, in a virtualised list loaded by cursor: found
// by operation, profile, HTTP status, provider code, time and words in the URL, headers and bodies, or
// to the capture proxy's exchanges (with their verdicts); select several for a HAR file or two to
// compare side by side; open one in the inspector. The capture proxy's switch is in the toolbar.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Checkbox, DatePicker, Empty, Input, Segmented, Select, Spin, Tag, Typography } from 'antd';
import { DiffOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { ExchangeQuery, StatusFilter } from '../../../../common/history-types';
import { OPERATIONS, type ExchangeRecord, type Operation } from '../../../../common/records';
import { describeError } from '../../app/api';
import { useArchives, useExchangeList } from './data';
import type { ArchiveInfo } from '../../../../common/history-types';
import { currentLanguage } from '../../i18n';
import { ExportHarButton, pathOf, statusText } from './exchange-actions';
import { statusColor } from './ExchangeList';
import { TimeCell } from './MessageList';
import { formatTime, monthRange } from './history-model';
import { ExchangeDiffDrawer } from './ExchangeDiff';
import { InspectorDrawer } from './Inspector';
import { VerdictTag } from './CaptureChecks';
import { CapturePanel } from './CapturePanel';
import type { Lookups } from './use-lookups';

const PAGE = 200;
const ROW = 40;
const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'none'] as const;
const CODES = [2, 400, 401, 402, 403, 404, 500];

/** A status typed or picked: a class (4xx), "none" (no reply), or a number. */
function statusOf(value: string): StatusFilter | null {
  const v = value.trim().toLowerCase();
  if ((STATUS_CLASSES as readonly string[]).includes(v)) return v as StatusFilter;
  return /^[1-5]\d\d$/.test(v) ? Number(v) : null;
}

interface Filters {
  operations: Operation[];
  profiles: string[];
  statuses: string[];
  codes: string[];
  range: [Dayjs | null, Dayjs | null] | null;
  search: string;
}

const NO_FILTERS: Filters = { operations: [], profiles: [], statuses: [], codes: [], range: null, search: '' };

function toQuery(f: Filters): ExchangeQuery {
  const q: ExchangeQuery = {};
  if (f.operations.length) q.operations = f.operations;
  if (f.profiles.length) q.profiles = f.profiles;
  const statuses = f.statuses.map(statusOf).filter((x): x is StatusFilter => x !== null);
  if (statuses.length) q.statuses = statuses;
  const codes = f.codes.map((c) => Number(c.trim())).filter((n) => Number.isInteger(n));
  if (codes.length) q.providerCodes = codes;
  if (f.range?.[0]) q.from = f.range[0].startOf('day').valueOf();
  if (f.range?.[1]) q.to = f.range[1].endOf('day').valueOf() + 1;
  if (f.search.trim()) q.search = f.search.trim();
  return q;
}

/** Whose exchanges: all, the capture proxy's, or only those of them a check did not pass. */
type Source = 'all' | 'captured' | 'problems';
const SOURCE_QUERY: Record<Source, ExchangeQuery> = { all: {}, captured: { captured: true }, problems: { captured: true, verdicts: ['fail', 'warn'] } };

export function ExchangesTab({
  lookups,
  active,
  archive,
  onArchive,
}: {
  lookups: Lookups;
  active: boolean;
  /** The archive file read (read-only), or null for the live store. */
  archive: ArchiveInfo | null;
  onArchive: (archive: ArchiveInfo | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [searchText, setSearchText] = useState('');
  const [source, setSource] = useState<Source>('all');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [inspected, setInspected] = useState<ExchangeRecord | null>(null);
  const [comparing, setComparing] = useState<[number, number] | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const filter = useMemo(() => ({ ...toQuery(filters), ...SOURCE_QUERY[source], ...(archive ? { archive: archive.name } : {}) }), [filters, source, archive]);
  const archives = useArchives(active);
  const readable = (archives.data?.archives ?? []).filter((a) => a.problem === null);
  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }));
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_FILTERS) || source !== 'all';
  const list = useExchangeList(filter, PAGE);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.rows) ?? [], [list.data]);
  const { error, hasNextPage: more, isFetching: loading, fetchNextPage, refetch } = list;

  useEffect(() => setSelected(new Set()), [filter]);
  // A page that stopped at its scan window with nothing to show yet: go on looking.
  const searchedTo = list.data?.pages.at(-1)?.searchedTo;
  useEffect(() => {
    if (!rows.length && more && !loading && !error) void fetchNextPage();
  }, [rows.length, more, loading, error, fetchNextPage]);

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
      {archive ? (
        <Alert
          type="info"
          showIcon
          className="history-archive-banner"
          data-testid="archive-banner"
          title={t('history.exchanges.archiveBanner', { name: archive.name, months: monthRange(lang, archive.from, archive.to) })}
          action={
            <Button size="small" onClick={() => onArchive(null)} data-testid="archive-close">
              {t('history.exchanges.backToLive')}
            </Button>
          }
        />
      ) : null}
      <div className="history-toolbar">
        {readable.length || archive ? (
          <Select<string>
            value={archive?.name ?? ''}
            onChange={(name) => onArchive(readable.find((a) => a.name === name) ?? null)}
            options={[
              { value: '', label: t('history.exchanges.live') },
              ...readable.map((a) => ({ value: a.name, label: monthRange(lang, a.from, a.to), title: a.name })),
            ]}
            aria-label={t('history.exchanges.where')}
            popupMatchSelectWidth={false}
            style={{ width: 170 }}
            data-testid="exchanges-archive"
          />
        ) : null}
        <Input.Search
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
          onSearch={(v) => set({ search: v })}
          allowClear
          placeholder={t('history.exchanges.search')}
          aria-label={t('history.exchanges.search')}
          style={{ width: 220 }}
          data-testid="exchanges-search"
        />
        <Select<Operation[]>
          mode="multiple"
          value={filters.operations}
          onChange={(operations) => set({ operations })}
          options={OPERATIONS.map((o) => ({ value: o, label: t(`history.operation.${o}`) }))}
          placeholder={t('history.exchanges.operation')}
          aria-label={t('history.exchanges.operation')}
          style={{ minWidth: 130 }}
          maxTagCount="responsive"
          data-testid="exchanges-operation"
        />
        <Segmented<Source>
          value={source}
          onChange={setSource}
          options={(['all', 'captured', 'problems'] as const).map((s) => ({ value: s, label: t(`history.capture.source.${s}`) }))}
          aria-label={t('history.capture.source.label')}
          data-testid="exchanges-source"
        />
        <Select<string[]>
          mode="tags"
          value={filters.statuses}
          onChange={(statuses) => set({ statuses: statuses.filter((x) => statusOf(x) !== null) })}
          options={STATUS_CLASSES.map((c) => ({ value: c, label: c === 'none' ? t('history.exchanges.noReply') : c }))}
          placeholder={t('history.exchanges.status')}
          aria-label={t('history.exchanges.status')}
          style={{ minWidth: 120 }}
          maxTagCount="responsive"
          data-testid="exchanges-status"
        />
        <Select<string[]>
          mode="tags"
          value={filters.codes}
          onChange={(codes) => set({ codes: codes.filter((x) => /^-?\d+$/.test(x.trim())) })}
          options={CODES.map((c) => ({ value: String(c), label: String(c) }))}
          placeholder={t('history.exchanges.code')}
          aria-label={t('history.exchanges.code')}
          style={{ minWidth: 120 }}
          maxTagCount="responsive"
          data-testid="exchanges-code"
        />
        <Select<string[]>
          mode="multiple"
          value={filters.profiles}
          onChange={(profiles) => set({ profiles })}
          options={lookups.profiles.map((p) => ({ value: p.id, label: p.name }))}
          placeholder={t('history.column.profile')}
          aria-label={t('history.column.profile')}
          style={{ minWidth: 120 }}
          maxTagCount="responsive"
          data-testid="exchanges-profile"
        />
        <DatePicker.RangePicker
          value={filters.range}
          onChange={(range) => set({ range })}
          allowEmpty={[true, true]}
          style={{ width: 240 }}
          aria-label={t('history.exchanges.range')}
        />
        {filtered ? (
          <Button
            onClick={() => {
              setFilters(NO_FILTERS);
              setSource('all');
              setSearchText('');
            }}
          >
            {t('history.exchanges.clear')}
          </Button>
        ) : null}
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
        <CapturePanel />
        <Button
          icon={<DiffOutlined />}
          disabled={selected.size !== 2}
          onClick={() => setComparing([...selected].sort((a, b) => a - b) as [number, number])}
          data-testid="exchanges-compare"
        >
          {t('history.exchanges.compare')}
        </Button>
        <ExportHarButton ids={[...selected]} {...(archive ? { archive: archive.name } : {})} />
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
              {more || loading ? (
                <span className="history-muted">
                  <Spin size="small" /> {searchedTo ? t('history.exchanges.searchedTo', { time: formatTime(lang, searchedTo, true) }) : null}
                </span>
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={filtered ? t('history.exchanges.noMatch') : t('history.exchanges.empty')} />
              )}
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
                      <Checkbox
                        checked={selected.has(e.id)}
                        onChange={(ev) => toggle(e.id, ev.target.checked)}
                        aria-label={t('history.exchanges.select', { id: e.id })}
                      />
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
                    <span role="gridcell" className={e.capture ? 'history-cell history-verdict-cell' : 'history-cell'}>
                      {/* The verdict first: in a narrow window the status is the part cut short. */}
                      {e.capture ? <VerdictTag capture={e.capture} /> : null}
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
      <ExchangeDiffDrawer ids={active ? comparing : null} {...(archive ? { archive: archive.name } : {})} onClose={() => setComparing(null)} />
    </div>
  );
}
