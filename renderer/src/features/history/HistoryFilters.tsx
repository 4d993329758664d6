// The filter bar of the history list: search (any part of a number, or words of the text), outcome
// and state (several each), a date range with quick choices, profile and template.
import { useEffect, useMemo, useRef, useState } from 'react';
import { AutoComplete, Button, DatePicker, Input, Select, Tooltip } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { matchText } from '../../../../common/domain/search';
import { contactsQuery } from '../dial/use-dial-data';
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

  // Names typed in any way a person types them (王工 by "wg", "wang"...): contacts and templates whose
  // name matches are offered; picking one filters by its number, or by the template.
  const contacts = useQuery(contactsQuery).data;
  const suggestions = useMemo(() => {
    const q = text.trim();
    if (q.length < 1 || /^[\d\s+()-]+$/.test(q)) return [];
    const people = (contacts ?? []).filter((c) => matchText(c.name, q)).slice(0, 6);
    const templates = lookups.templates.filter((x) => x.name && matchText(x.name, q)).slice(0, 6);
    const groups = [];
    if (people.length) {
      groups.push({
        label: t('history.filters.suggestContacts'),
        options: people.map((c) => ({
          value: `contact:${c.mobile}`,
          label: (
            <span data-testid="history-suggestion">
              {c.name} · {c.mobile}
            </span>
          ),
        })),
      });
    }
    if (templates.length) {
      groups.push({
        label: t('history.filters.suggestTemplates'),
        options: templates.map((x) => ({ value: `template:${x.id}`, label: <span data-testid="history-suggestion">{x.name}</span> })),
      });
    }
    return groups;
  }, [text, contacts, lookups.templates, t]);

  const pick = (key: string) => {
    if (key.startsWith('contact:')) {
      const mobile = key.slice('contact:'.length);
      setText(mobile);
      onChange({ ...values, search: mobile });
    } else if (key.startsWith('template:')) {
      setText('');
      onChange({ ...values, search: '', templates: [...new Set([...values.templates, key.slice('template:'.length)])] });
    }
  };
  const byName = (input: string, option?: { label?: unknown }) => typeof option?.label === 'string' && matchText(option.label, input) !== null;

  const today = dayjs();
  const presets = [
    { label: t('history.filters.today'), value: [today.startOf('day'), today.endOf('day')] as [Dayjs, Dayjs] },
    { label: t('history.filters.yesterday'), value: [today.subtract(1, 'day').startOf('day'), today.subtract(1, 'day').endOf('day')] as [Dayjs, Dayjs] },
    { label: t('history.filters.last7'), value: [today.subtract(6, 'day').startOf('day'), today.endOf('day')] as [Dayjs, Dayjs] },
    { label: t('history.filters.last30'), value: [today.subtract(29, 'day').startOf('day'), today.endOf('day')] as [Dayjs, Dayjs] },
    { label: t('history.filters.thisMonth'), value: [today.startOf('month'), today.endOf('day')] as [Dayjs, Dayjs] },
  ];

  const any =
    values.search !== '' ||
    values.outcomes.length > 0 ||
    values.states.length > 0 ||
    values.range !== null ||
    values.profiles.length > 0 ||
    values.templates.length > 0;

  return (
    <div className="history-filters" role="search" aria-label={t('history.filters.label')}>
      <AutoComplete
        value={text}
        options={suggestions}
        onChange={(v: string) => setText(v)}
        onSelect={(key: string) => pick(key)}
        // Enter searches the text as typed; ↓ then Enter picks a suggestion.
        defaultActiveFirstOption={false}
        popupMatchSelectWidth={320}
        style={{ width: 270 }}
      >
        <Input
          allowClear
          prefix={<SearchOutlined aria-hidden />}
          placeholder={t('history.filters.searchPlaceholder')}
          aria-label={t('history.filters.search')}
          onPressEnter={() => onChange({ ...values, search: text })}
          data-testid="history-search"
          maxLength={200}
        />
      </AutoComplete>
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
        filterOption={byName}
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
        filterOption={byName}
        style={{ width: 190 }}
        data-testid="history-filter-template"
      />
      <Tooltip title={t('history.filters.clear')}>
        <Button
          icon={<ClearOutlined />}
          disabled={!any}
          onClick={() => onChange(NO_FILTERS)}
          aria-label={t('history.filters.clear')}
          data-testid="history-clear-filters"
        />
      </Tooltip>
    </div>
  );
}
