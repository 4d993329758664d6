// A short list of exchanges (those of one message, in the live store or in one archive): each with a
// check box for the HAR export, its operation, request line, status and total time; opening one
// shows it in the inspector.
import { Button, Checkbox, Empty, Tag, Typography } from 'antd';
import { RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ExchangeRecord } from '../../../../common/records';
import { currentLanguage } from '../../i18n';
import { ExportHarButton, pathOf, statusText } from './exchange-actions';
import { formatTime } from './history-model';

export interface ExchangeListProps {
  exchanges: ExchangeRecord[];
  selected: ReadonlySet<number>;
  onSelectedChange: (ids: Set<number>) => void;
  onOpen: (exchange: ExchangeRecord) => void;
  /** The archive file these exchanges are read from (read-only), if not the live store. */
  archive?: string;
}

export function statusColor(e: ExchangeRecord): string {
  if (e.status === null) return 'red';
  if (e.status >= 400) return 'red';
  if (e.status >= 300) return 'orange';
  return 'green';
}

export function ExchangeList({ exchanges, selected, onSelectedChange, onOpen, archive }: ExchangeListProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  if (!exchanges.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.exchanges.none')} />;
  const all = exchanges.every((e) => selected.has(e.id));
  const toggle = (id: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelectedChange(next);
  };
  return (
    <div data-testid="message-exchanges">
      <div className="history-exchange-tools">
        <Checkbox
          checked={all}
          indeterminate={!all && exchanges.some((e) => selected.has(e.id))}
          onChange={(e) => onSelectedChange(e.target.checked ? new Set(exchanges.map((x) => x.id)) : new Set())}
        >
          {t('history.exchanges.selectAll')}
        </Checkbox>
        <ExportHarButton ids={exchanges.filter((e) => selected.has(e.id)).map((e) => e.id)} size="small" archive={archive} />
      </div>
      <ul className="history-exchange-list">
        {exchanges.map((e) => (
          <li key={e.id} className="history-exchange-item" data-testid="exchange-item" data-exchange-id={e.id}>
            <Checkbox
              checked={selected.has(e.id)}
              onChange={(ev) => toggle(e.id, ev.target.checked)}
              aria-label={t('history.exchanges.select', { id: e.id })}
            />
            <Button
              type="text"
              className="history-exchange-open"
              onClick={() => onOpen(e)}
              aria-label={t('history.exchanges.open', { id: e.id })}
              data-testid="exchange-open"
            >
              <Tag color="blue" style={{ marginInlineEnd: 0 }}>
                {t(`history.operation.${e.operation}`)}
              </Tag>
              <Typography.Text code className="history-exchange-line">
                {e.method} {pathOf(e.url)}
              </Typography.Text>
              <Tag color={statusColor(e)} style={{ marginInlineEnd: 0 }}>
                {statusText(t, e)}
              </Tag>
              <span className="history-muted">{Math.round(e.timings.totalMs)} ms</span>
              <span className="history-muted history-exchange-time">{formatTime(lang, e.startedAt, true)}</span>
              <RightOutlined aria-hidden className="history-muted" />
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
