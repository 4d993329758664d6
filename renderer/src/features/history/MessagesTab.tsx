// The messages of History: filters, the virtualised list with its total, CSV export of the filtered
// set, and the side panel of the selected message (with its exchanges in the inspector).
import { useCallback, useMemo, useState } from 'react';
import { Button, Tooltip, Typography } from 'antd';
import { FileExcelOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { HistoryOrder } from '../../../../common/history-types';
import type { ExchangeRecord } from '../../../../common/records';
import { describeError } from '../../app/api';
import { useExportHistoryCsv } from './data';
import { currentLanguage } from '../../i18n';
import { downloadText } from '../../app/browser-io';
import { fileStamp, formatCount, utcOffsetMinutes } from './history-model';
import { cleanFilter, isFiltered } from './history-filter';
import { HistoryFilters, NO_FILTERS, rangeToTimes, type FilterValues } from './HistoryFilters';
import { InspectorDrawer } from './Inspector';
import { MessageList } from './MessageList';
import { MessagePanel } from './MessagePanel';
import { useHistoryList } from './use-history-list';
import type { Lookups } from './use-lookups';
import { useFeedback } from '../../app/feedback';

/** `active`: the tab is shown (its drawers close while another tab is). */
export function MessagesTab({ lookups, active }: { lookups: Lookups; active: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const { message } = useFeedback();
  const [values, setValues] = useState<FilterValues>(NO_FILTERS);
  const [order, setOrder] = useState<HistoryOrder>('newest');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [panelOpen, setPanelOpen] = useState(false);
  const [inspected, setInspected] = useState<ExchangeRecord | null>(null);

  const filter = useMemo(
    () =>
      cleanFilter({
        search: values.search,
        outcomes: values.outcomes,
        states: values.states,
        profiles: values.profiles,
        templates: values.templates,
        ...rangeToTimes(values.range),
      }),
    [values],
  );
  const list = useHistoryList(filter, order);
  const filtered = isFiltered(filter);

  const onSelect = useCallback((id: number, open: boolean) => {
    setSelectedId(id);
    if (open) setPanelOpen(true);
  }, []);

  const exporting = useExportHistoryCsv(
    () => ({ filter, lang, utcOffsetMinutes: utcOffsetMinutes() }),
    ({ csv, rows, capped }) => {
      downloadText(`callout-history-${fileStamp()}.csv`, csv, 'text/csv;charset=utf-8');
      if (capped) void message.warning(t('history.csv.capped', { count: rows, n: formatCount(lang, rows) }));
      else void message.success(t('history.csv.done', { count: rows, n: formatCount(lang, rows) }));
    },
    (e) => void message.error(describeError(t, e)),
  );

  let count: string;
  if (list.loading || (list.counting && list.total === null)) count = t('history.list.counting');
  else if (list.total === null) count = t('history.list.loaded', { count: list.rows.length, n: formatCount(lang, list.rows.length) });
  else if (list.totalCapped) count = t('history.list.totalAtLeast', { count: list.total, n: formatCount(lang, list.total) });
  else count = t('history.list.total', { count: list.total, n: formatCount(lang, list.total) });

  return (
    <div className="history-tab" data-testid="messages-tab">
      <HistoryFilters values={values} onChange={setValues} lookups={lookups} />
      <div className="history-toolbar">
        <Typography.Text type="secondary" data-testid="history-total" role="status" aria-live="polite">
          {count}
        </Typography.Text>
        <Typography.Text type="secondary" className="history-hint">
          {t('history.list.keyboardHint')}
        </Typography.Text>
        <span style={{ flex: 1 }} />
        <Tooltip title={t('history.csv.help')}>
          <Button
            icon={<FileExcelOutlined />}
            loading={exporting.isPending}
            disabled={list.loading || (list.total === 0 && list.rows.length === 0)}
            onClick={() => exporting.mutate()}
            data-testid="export-csv"
          >
            {t('history.csv.export')}
          </Button>
        </Tooltip>
      </div>
      <MessageList
        list={list}
        lookups={lookups}
        order={order}
        onOrderChange={setOrder}
        selectedId={selectedId}
        onSelect={onSelect}
        filtered={filtered}
        onClearFilters={() => setValues(NO_FILTERS)}
      />
      <MessagePanel
        id={selectedId}
        open={active && panelOpen && selectedId !== null}
        onClose={() => setPanelOpen(false)}
        lookups={lookups}
        onOpenExchange={setInspected}
        onShowMessage={(id) => onSelect(id, true)}
      />
      <InspectorDrawer exchange={active ? inspected : null} onClose={() => setInspected(null)} />
    </div>
  );
}
