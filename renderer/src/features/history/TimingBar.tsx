// An exchange's timings as a picture: one horizontal bar split into DNS, connect, TLS, waiting for
// the first byte and receiving, each segment as wide as its share of the total, with a legend that
// gives the milliseconds. A request that got no reply shows its wait in the error colour.
import { Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ExchangeTimings } from '../../../../common/records';

export type Phase = 'dns' | 'connect' | 'tls' | 'wait' | 'receive';

/** Phase names are protocol words, the same in both languages; the legend's texts are translated. */
const PHASE_COLORS: Record<Phase, string> = {
  dns: '#13c2c2',
  connect: '#fa8c16',
  tls: '#722ed1',
  wait: '#52c41a',
  receive: '#1677ff',
};

export interface Segment {
  phase: Phase;
  start: number;
  ms: number;
}

/** The marks (ms since the start) as consecutive segments; a missing mark (no DNS for an IP, a reused socket) is skipped. */
export function segmentsOf(timings: ExchangeTimings): Segment[] {
  const out: Segment[] = [];
  let at = 0;
  const mark = (phase: Phase, end: number | null) => {
    if (end === null || end < at) return;
    out.push({ phase, start: at, ms: end - at });
    at = end;
  };
  mark('dns', timings.dnsMs);
  mark('connect', timings.connectMs);
  mark('tls', timings.tlsMs);
  if (timings.firstByteMs !== null) {
    mark('wait', timings.firstByteMs);
    mark('receive', timings.totalMs);
  } else {
    mark('wait', timings.totalMs);
  }
  return out;
}

const fmt = (ms: number) => (ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toFixed(1).replace(/\.0$/, '')} ms`);

export function TimingBar({ timings, replied }: { timings: ExchangeTimings; replied: boolean }) {
  const { t } = useTranslation();
  const segments = segmentsOf(timings);
  const total = Math.max(timings.totalMs, 0.001);
  const label = (phase: Phase) => t(`history.timing.${phase}`);
  return (
    <figure className="history-timing" data-testid="timing-bar" aria-label={t('history.timing.label', { total: fmt(timings.totalMs) })} style={{ margin: 0 }}>
      <div className="history-timing-track" role="img" aria-label={segments.map((s) => `${label(s.phase)} ${fmt(s.ms)}`).join(', ')}>
        {segments.map((s, i) => (
          <Tooltip key={`${s.phase}-${i}`} title={t('common.labelled', { label: label(s.phase), value: fmt(s.ms) })}>
            <span
              className="history-timing-seg"
              data-phase={s.phase}
              style={{
                left: `${(s.start / total) * 100}%`,
                width: `max(${(s.ms / total) * 100}%, 2px)`,
                background: !replied && s.phase === 'wait' ? '#ff4d4f' : PHASE_COLORS[s.phase],
              }}
            />
          </Tooltip>
        ))}
      </div>
      <figcaption className="history-timing-legend">
        {segments.map((s, i) => (
          <span key={`${s.phase}-${i}`} className="history-timing-key">
            <i style={{ background: !replied && s.phase === 'wait' ? '#ff4d4f' : PHASE_COLORS[s.phase] }} aria-hidden />
            {label(s.phase)} <b>{fmt(s.ms)}</b>
          </span>
        ))}
        <Typography.Text strong className="history-timing-total">
          {t('history.timing.total')} {fmt(timings.totalMs)}
        </Typography.Text>
      </figcaption>
    </figure>
  );
}
