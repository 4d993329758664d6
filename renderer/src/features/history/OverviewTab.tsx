// The overview: calls per day by outcome (stacked bars) and units spent (a line on a second axis)
// for a range of days (last 30 by default) and a profile, with the totals above the chart.
import { lazy, Suspense, useMemo, useState } from 'react';
import { Alert, Button, DatePicker, Select, Spin, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { OverviewCounts } from '../../../../common/history-types';
import { describeError } from '../../app/api';
import { useOverview } from './data';
import { currentLanguage } from '../../i18n';
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type { ChartOption } from './EChart';
import { formatCount, utcOffsetMinutes } from './history-model';
import type { Lookups } from './use-lookups';

// ECharts is the console's largest library and only this tab draws with it: its own chunk, loaded when the tab is first shown.
const EChart = lazy(() => import('./EChart').then((m) => ({ default: m.EChart })));

type Bucket = Exclude<keyof OverviewCounts, 'total' | 'units'>;

/** Stacking order, bottom up, and colours (answered green … in progress blue). */
export const BUCKETS: { key: Bucket; color: string }[] = [
  { key: 'answered', color: '#52c41a' },
  { key: 'noAnswer', color: '#faad14' },
  { key: 'busy', color: '#fa8c16' },
  { key: 'otherFailures', color: '#ff4d4f' },
  { key: 'unknown', color: '#8c8c8c' },
  { key: 'rejected', color: '#a8071a' },
  { key: 'inProgress', color: '#1677ff' },
];
const UNITS_COLOR = '#722ed1';

function lastDays(n: number): [Dayjs, Dayjs] {
  const today = dayjs();
  return [today.subtract(n - 1, 'day').startOf('day'), today.startOf('day')];
}

export function OverviewTab({ lookups }: { lookups: Lookups }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => lastDays(30));
  const [profileId, setProfileId] = useState<string | null>(null);
  const input = {
    from: range[0].startOf('day').valueOf(),
    to: range[1].add(1, 'day').startOf('day').valueOf(),
    profileId,
    utcOffsetMinutes: utcOffsetMinutes(),
  };
  // The chart keeps the last figures while those of another range or profile load.
  const { data, error, isFetching: loading, refetch } = useOverview(input);

  const option = useMemo<ChartOption>(() => {
    const days = data?.days ?? [];
    const weekday = new Intl.DateTimeFormat(lang === 'zh-CN' ? 'zh-CN' : 'en-GB', { weekday: 'short' });
    const labels = days.map((d) => `${d.day.slice(5)}\n${weekday.format(new Date(d.start))}`);
    const bars: BarSeriesOption[] = BUCKETS.map((b) => ({
      type: 'bar',
      name: t(`history.overview.bucket.${b.key}`),
      stack: 'calls',
      barMaxWidth: 28,
      itemStyle: { color: b.color },
      emphasis: { focus: 'series' },
      data: days.map((d) => d[b.key]),
    }));
    const line: LineSeriesOption = {
      type: 'line',
      name: t('history.overview.unitsSpent'),
      yAxisIndex: 1,
      symbolSize: 5,
      itemStyle: { color: UNITS_COLOR },
      lineStyle: { width: 2 },
      data: days.map((d) => d.units),
    };
    return {
      aria: { enabled: true, label: { description: t('history.overview.chartLabel') } },
      animation: false,
      grid: { left: 48, right: 56, top: 48, bottom: 48 },
      legend: { top: 0, type: 'plain', itemWidth: 14, itemHeight: 10 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: { type: 'category', data: labels, axisTick: { alignWithLabel: true } },
      yAxis: [
        { type: 'value', name: t('history.overview.calls'), minInterval: 1, nameTextStyle: { align: 'right' } },
        { type: 'value', name: t('history.overview.units'), minInterval: 1, splitLine: { show: false }, nameTextStyle: { align: 'left' } },
      ],
      series: [...bars, line],
    };
  }, [data, t, lang]);

  const totals = data?.totals;
  return (
    <div className="history-tab history-overview" data-testid="overview">
      <div className="history-toolbar">
        <DatePicker.RangePicker
          value={range}
          allowClear={false}
          onChange={(v) => v && v[0] && v[1] && setRange([v[0], v[1]])}
          presets={[
            { label: t('history.filters.last7'), value: lastDays(7) },
            { label: t('history.filters.last30'), value: lastDays(30) },
            { label: t('history.overview.last90'), value: lastDays(90) },
            { label: t('history.overview.last365'), value: lastDays(365) },
          ]}
          aria-label={t('history.filters.dates')}
          data-testid="overview-range"
        />
        <Select<string | null>
          value={profileId}
          onChange={setProfileId}
          style={{ width: 220 }}
          aria-label={t('history.filters.profile')}
          options={[{ value: null, label: t('history.overview.allProfiles') }, ...lookups.profiles.map((p) => ({ value: p.id, label: p.name }))]}
          data-testid="overview-profile"
        />
        <Button icon={<ReloadOutlined />} onClick={() => void refetch()} loading={loading}>
          {t('history.exchanges.reload')}
        </Button>
      </div>
      {error ? (
        <Alert type="error" showIcon title={t('history.overview.loadFailed')} description={describeError(t, error)} style={{ marginBottom: 12 }} />
      ) : null}
      <div className="history-totals" data-testid="overview-totals">
        <div className="history-total-card" data-bucket="total">
          <span className="history-total-label">{t('history.overview.total')}</span>
          <span className="history-total-value" data-testid="overview-total-total">
            {totals ? formatCount(lang, totals.total) : '—'}
          </span>
        </div>
        {BUCKETS.map((b) => (
          <div key={b.key} className="history-total-card" data-bucket={b.key}>
            <span className="history-total-label">
              <i style={{ background: b.color }} aria-hidden />
              {t(`history.overview.bucket.${b.key}`)}
            </span>
            <span className="history-total-value" data-testid={`overview-total-${b.key}`}>
              {totals ? formatCount(lang, totals[b.key]) : '—'}
            </span>
          </div>
        ))}
        <div className="history-total-card" data-bucket="units">
          <span className="history-total-label">
            <i style={{ background: UNITS_COLOR }} aria-hidden />
            {t('history.overview.unitsSpent')}
          </span>
          <span className="history-total-value" data-testid="overview-total-units">
            {totals ? formatCount(lang, totals.units) : '—'}
          </span>
        </div>
      </div>
      <div className="history-chart">
        <div className="history-chart-canvas">
          <Suspense fallback={<Spin />}>
            <EChart option={option} height="100%" label={t('history.overview.chartLabel')} testId="overview-chart" />
          </Suspense>
        </div>
        {loading && !data ? (
          <div className="history-chart-overlay">
            <Spin />
          </div>
        ) : data && data.totals.total === 0 ? (
          <div className="history-chart-overlay">
            <Typography.Text type="secondary">{t('history.overview.empty')}</Typography.Text>
          </div>
        ) : null}
      </div>
    </div>
  );
}
