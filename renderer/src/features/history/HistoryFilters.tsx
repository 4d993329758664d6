// The filter bar of the history list: search (any part of a number, or words of the text), outcome
// and state (several each), a date range with quick choices, profile and template.
import { useEffect, useRef, useState } from 'react';
import { Button, DatePicker, Input, Select, Tooltip } from 'antd';
import { ClearOutlined, SearchOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useTranslation } from 'react-i18next';
import { CALL_STATES, OUTCOMES, type CallState, type Outcome } from '../../../../common/domain/status';
import { outcomeLabel, stateLabel } from './history-model';
import type { Lookups } from './use-lookups';

export interface FilterValues {
  search: string;
  outcomes: Outcome[];
  states: CallState[];
  range: [Dayjs, Dayjs] | null;
  profiles: string[];
  templates: string[];
}

export const NO_FILTERS: FilterValues = { search: '', outcomes: [], states: [], range: null, profiles: [], templates: [] };

/** Whole local days: from the first day's midnight to the midnight after the last (exclusive). */
export function rangeToTimes(range: [Dayjs, Dayjs] | null): { from?: number; to?: number } {
  if (!range) return {};
  return { from: range[0].startOf('day').valueOf(), to: range[1].add(1, 'day').startOf('day').valueOf() };
}

/** Typing settles for this long before the list asks main. */
export const SEARCH_DEBOUNCE_MS = 250;

export interface HistoryFiltersProps {
  values: FilterValues;
  onChange: (values: FilterValues) => void;
  lookups: Lookups;
}

export function HistoryFilters({ values, onChange, lookups }: HistoryFiltersProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(values.search);
  const latest = useRef(values);
  latest.current = values;

  // Cleared from outside (the "clear filters" button): show it.
  useEffect(() => setText(values.search), [values.search]);

  // Debounced search.
  useEffect(() => {
    if (text === latest.current.search) return;
    const timer = window.setTimeout(() => onChange({ ...latest.current, search: text }), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, onChange]);

  const today = dayjs();
  const presets = [
    { label: t('history.filters.today'), value: [today.startOf('day'), today.endOf('day')] as [Dayjs, Dayjs] },
    { label: t('history.filters.yesterday'), value: [today.subtract(1, 'day').startOf('day'), today.subtract(1, 'day').endOf('day')] as [Dayjs, Dayjs] },
    { label: t('history.filters.last7'), value: [today.subtract(6, 'day').startOf('day'), today.endOf('day')] as [Dayjs, Dayjs] },
    { label: t('history.filters.last30'), value: [today.subtract(29, 'day').startOf('day'), today.endOf('day')] as [Dayjs, Dayjs] },
    { label: t('history.filters.thisMonth'), value: [today.startOf('month'), today.endOf('day')] as [Dayjs, Dayjs] },
  ];

  const any =
    values.search !== '' || values.outcomes.length > 0 || values.states.length > 0 || values.range !== null || values.profiles.length > 0 || values.templates.length > 0;

  return (
    <div className="history-filters" role="search" aria-label={t('history.filters.label')}>
      <Input
        allowClear
        prefix={<SearchOutlined aria-hidden />}
        placeholder={t('history.filters.searchPlaceholder')}
        aria-label={t('history.filters.search')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onPressEnter={() => onChange({ ...values, search: text })}
        style={{ width: 270 }}
        data-testid="history-search"
        maxLength={200}
      />
      <Select<Outcome[]>
        mode="multiple"
        allowClear
        maxTagCount="responsive"
        placeholder={t('history.filters.outcome')}
        aria-label={t('history.filters.outcome')}
        value={values.outcomes}
        onChange={(outcomes) => onChange({ ...values, outcomes })}
        options={OUTCOMES.map((o) => ({ value: o, label: outcomeLabel(t, o) }))}
        style={{ width: 190 }}
        data-testid="history-filter-outcome"
      />
      <Select<CallState[]>
        mode="multiple"
        allowClear
        maxTagCount="responsive"
        placeholder={t('history.filters.state')}
        aria-label={t('history.filters.state')}
        value={values.states}
        onChange={(states) => onChange({ ...values, states })}
        options={CALL_STATES.map((s) => ({ value: s, label: stateLabel(t, s) }))}
        style={{ width: 190 }}
        data-testid="history-filter-state"
      />
      <DatePicker.RangePicker
        value={values.range}
        onChange={(range) => onChange({ ...values, range: range && range[0] && range[1] ? [range[0], range[1]] : null })}
        presets={presets}
        allowEmpty={[false, false]}
        aria-label={t('history.filters.dates')}
        style={{ width: 250 }}
        data-testid="history-filter-dates"
      />
      <Select<string[]>
        mode="multiple"
        allowClear
        maxTagCount="responsive"
        placeholder={t('history.filters.profile')}
        aria-label={t('history.filters.profile')}
        value={values.profiles}
        onChange={(profiles) => onChange({ ...values, profiles })}
        options={lookups.profiles.map((p) => ({ value: p.id, label: p.name }))}
        style={{ width: 190 }}
        data-testid="history-filter-profile"
      />
      <Select<string[]>
        mode="multiple"
        allowClear
        maxTagCount="responsive"
        placeholder={t('history.filters.template')}
        aria-label={t('history.filters.template')}
        value={values.templates}
        onChange={(templates) => onChange({ ...values, templates })}
        options={lookups.templates.map((tpl) => ({ value: tpl.id, label: tpl.name }))}
        optionFilterProp="label"
        style={{ width: 190 }}
        data-testid="history-filter-template"
      />
      <Tooltip title={t('history.filters.clear')}>
        <Button icon={<ClearOutlined />} disabled={!any} onClick={() => onChange(NO_FILTERS)} aria-label={t('history.filters.clear')} data-testid="history-clear-filters" />
      </Tooltip>
    </div>
  );
}
