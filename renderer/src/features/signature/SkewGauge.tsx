// The clock window drawn: an axis in seconds, the ±window as a band (and an optional ±warning
// band inside it), and the measured skew as a marker. A skew off the scale is pinned to its edge
// with an arrow. The picture has a text equivalent (aria-label) for screen readers.
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n';

export interface SkewGaugeProps {
  /** Seconds; null when there is no reading. */
  seconds: number | null;
  windowSeconds: number;
  /** A narrower band inside the window where the skew is fine (e.g. 60 s). */
  warnSeconds?: number;
  /** The accessible summary of the reading. */
  label: string;
  testId?: string;
}

const W = 520;
const H = 88;
const PAD = 36;
const AXIS_Y = 52;

export function formatSeconds(lang: string, seconds: number, digits = 0): string {
  return new Intl.NumberFormat(lang, { signDisplay: 'exceptZero', maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(seconds);
}

/** A number of seconds without a sign (for sentences that say "ahead" or "behind"). */
export function formatAbsSeconds(lang: string, seconds: number, digits = 0): string {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: digits }).format(Math.abs(seconds));
}

export function SkewGauge({ seconds, windowSeconds, warnSeconds, label, testId }: SkewGaugeProps) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n.language);
  const abs = seconds === null ? 0 : Math.abs(seconds);
  // The scale: the window and a margin, widened for a reading beyond it (up to 4 windows).
  const range = Math.max(windowSeconds * 1.5, Math.min(abs * 1.2, windowSeconds * 4));
  const x = (s: number) => PAD + ((s + range) / (2 * range)) * (W - 2 * PAD);
  const within = seconds !== null && abs <= windowSeconds;
  const warn = seconds !== null && warnSeconds !== undefined && abs > warnSeconds && within;
  const offScale = seconds !== null && abs > range;
  const markerX = seconds === null ? null : x(Math.max(-range, Math.min(range, seconds)));
  const color = seconds === null ? '#8c8c8c' : !within ? '#cf1322' : warn ? '#d48806' : '#389e0d';
  const unit = t('signature.gauge.unit');
  const tick = (s: number) => `${formatSeconds(lang, s)} ${unit}`;
  const ticks = [-windowSeconds, 0, windowSeconds];
  const minorTicks = warnSeconds ? [-warnSeconds, warnSeconds] : [];

  return (
    <figure className="sig-gauge" data-testid={testId} data-seconds={seconds ?? ''} data-within={within ? 'true' : 'false'} style={{ margin: 0 }}>
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={label} style={{ maxWidth: W + 120, display: 'block' }}>
        {/* outside the window */}
        <rect x={PAD} y={AXIS_Y - 12} width={W - 2 * PAD} height={24} rx={4} fill="#fff1f0" stroke="#ffccc7" />
        {/* the window */}
        <rect x={x(-windowSeconds)} y={AXIS_Y - 12} width={x(windowSeconds) - x(-windowSeconds)} height={24} fill="#f6ffed" stroke="#b7eb8f" />
        {warnSeconds ? <rect x={x(-warnSeconds)} y={AXIS_Y - 12} width={x(warnSeconds) - x(-warnSeconds)} height={24} fill="#d9f7be" /> : null}
        <line x1={x(0)} x2={x(0)} y1={AXIS_Y - 12} y2={AXIS_Y + 12} stroke="#8c8c8c" strokeDasharray="2 2" />
        {ticks.map((s) => (
          <g key={s}>
            <line x1={x(s)} x2={x(s)} y1={AXIS_Y + 12} y2={AXIS_Y + 16} stroke="#8c8c8c" />
            <text x={x(s)} y={AXIS_Y + 30} textAnchor="middle" fontSize={12.5} fill="#595959">
              {tick(s)}
            </text>
          </g>
        ))}
        {minorTicks.map((s) => (
          <line key={s} x1={x(s)} x2={x(s)} y1={AXIS_Y + 12} y2={AXIS_Y + 15} stroke="#bfbfbf" />
        ))}
        {markerX !== null && seconds !== null ? (
          <g data-testid={testId ? `${testId}-marker` : undefined}>
            <line x1={markerX} x2={markerX} y1={AXIS_Y - 16} y2={AXIS_Y + 12} stroke={color} strokeWidth={3} />
            <path d={`M ${markerX - 7} ${AXIS_Y - 26} L ${markerX + 7} ${AXIS_Y - 26} L ${markerX} ${AXIS_Y - 16} Z`} fill={color} />
            <text
              x={Math.max(PAD, Math.min(W - PAD, markerX))}
              y={AXIS_Y - 31}
              textAnchor={markerX < PAD + 40 ? 'start' : markerX > W - PAD - 40 ? 'end' : 'middle'}
              fontSize={14}
              fontWeight={600}
              fill={color}
            >
              {offScale ? (seconds < 0 ? '« ' : '') : ''}
              {`${formatSeconds(lang, seconds, 1)} ${unit}`}
              {offScale ? (seconds > 0 ? ' »' : '') : ''}
            </text>
          </g>
        ) : (
          <text x={W / 2} y={AXIS_Y - 22} textAnchor="middle" fontSize={13} fill="#8c8c8c">
            {t('signature.gauge.noReading')}
          </text>
        )}
      </svg>
      <figcaption className="sig-gauge-legend">
        <span className="sig-legend-swatch" style={{ background: '#f6ffed', borderColor: '#b7eb8f' }} />
        {t('signature.gauge.window', { seconds: windowSeconds })}
        <span className="sig-legend-swatch" style={{ background: '#fff1f0', borderColor: '#ffccc7', marginInlineStart: 16 }} />
        {t('signature.gauge.outside')}
        {warnSeconds ? (
          <>
            <span className="sig-legend-swatch" style={{ background: '#d9f7be', borderColor: '#b7eb8f', marginInlineStart: 16 }} />
            {t('signature.gauge.comfortable', { seconds: warnSeconds })}
          </>
        ) : null}
      </figcaption>
    </figure>
  );
}
