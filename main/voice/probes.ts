/**
 * Probes for the signature workbench:
 * - the server's clock, read from the `Date` header of a harmless HEAD request;
 * - which signature variant the gateway accepts, asked with a harmless balance query per variant.
 */
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { VoiceClient, type ProviderEndpoint } from './client';
import { transportErrorKind } from './transport';
import { systemClock, type Clock } from '../clock';
import { parseHttpDate, SIGNATURE_VARIANTS } from '../signing';
import {
  coder,
  type ClockProbe,
  type ClockProbeError,
  type ClockProbeErrorParams,
  type VariantProbeResult,
  type VariantProbe,
} from '../../common/signature-types';
export type { ClockProbe, ClockProbeError, VariantProbeResult, VariantProbe } from '../../common/signature-types';

const clockError = coder<ClockProbeErrorParams>();

export interface ClockProbeOptions {
  /** Whole probe, connect included. Default 5000. */
  timeoutMs?: number;
  /** Default HEAD; GET for servers that mishandle HEAD. */
  method?: 'HEAD' | 'GET';
  signal?: AbortSignal;
  /** The local time and the timeout. Default systemClock. */
  clock?: Clock;
}

export const DEFAULT_PROBE_TIMEOUT_MS = 5_000;

/**
 * Read the server's clock from the `Date` header of one request to `baseUrl` (no credentials, no
 * redirects followed; the body, if any, is discarded). Never throws for network problems: they
 * come back in `error`. Throws TypeError for a URL that is not http(s).
 */
export function probeServerClock(baseUrl: string, options: ClockProbeOptions = {}): Promise<ClockProbe> {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`probeServerClock: the URL must be http or https, got ${url.protocol}`);
  url.hash = '';
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const lib = url.protocol === 'https:' ? https : http;
  const clock = options.clock ?? systemClock;
  const startWall = clock.now();
  const t0 = performance.now();

  return new Promise<ClockProbe>((resolve) => {
    let settled = false;
    const finish = (r: { serverDate: string | null; httpStatus: number | null; error: ClockProbeError | null }): void => {
      if (settled) return;
      settled = true;
      timer.cancel();
      options.signal?.removeEventListener('abort', onAbort);
      const roundTripMs = Math.round((performance.now() - t0) * 10) / 10;
      const localTime = Math.round(startWall + roundTripMs / 2);
      const parsed = r.serverDate === null ? null : parseHttpDate(r.serverDate, clock.date());
      const serverTime = parsed ? parsed.getTime() : null;
      const skewSeconds = serverTime === null ? null : Math.round((serverTime - localTime) / 100) / 10;
      let error = r.error;
      if (error === null && r.serverDate === null) error = clockError('no-date-header', {});
      else if (error === null && serverTime === null) error = clockError('bad-date-header', { value: (r.serverDate ?? '').slice(0, 100) });
      resolve({ serverDate: r.serverDate, serverTime, localTime, roundTripMs, skewSeconds, httpStatus: r.httpStatus, error });
    };

    const req = lib.request(url, {
      method: options.method ?? 'HEAD',
      agent: false,
      headers: { Accept: '*/*', 'User-Agent': 'Callout clock probe' },
    });
    // Listening first: destroying the request (timeout, cancel) emits an error, reported once by finish.
    req.on('error', (e: NodeJS.ErrnoException) => {
      finish({ serverDate: null, httpStatus: null, error: clockError('transport', { kind: transportErrorKind(e) }) });
    });
    const timer = clock.setTimeout(() => {
      req.destroy();
      finish({ serverDate: null, httpStatus: null, error: clockError('timeout', { ms: timeoutMs }) });
    }, timeoutMs);
    const onAbort = (): void => {
      req.destroy();
      finish({ serverDate: null, httpStatus: null, error: clockError('transport', { kind: 'aborted' }) });
    };
    if (options.signal?.aborted) {
      onAbort();
      return;
    }
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('response', (res) => {
      const date = res.headers.date ?? null;
      // The Date header is what we came for: settle on the headers, then drain and drop the body.
      finish({ serverDate: date, httpStatus: res.statusCode ?? null, error: null });
      res.resume();
      res.on('error', () => undefined);
    });
    req.end();
  });
}

/**
 * Ask the gateway which variant it accepts: one balance query (harmless: it places no call and
 * costs nothing) signed with each variant, one after the other, no retries. `endpoint.signing` is
 * ignored (each variant is tried).
 */
export async function probeSignatureVariant(endpoint: ProviderEndpoint, options: { signal?: AbortSignal; clock?: Clock } = {}): Promise<VariantProbe> {
  const results: VariantProbeResult[] = [];
  for (const variant of SIGNATURE_VARIANTS) {
    const client = new VoiceClient({ ...endpoint, signing: variant }, { retries: 0, clock: options.clock });
    const r = await client.balance(options.signal);
    const exchange = r.exchanges.at(-1) ?? null;
    const httpStatus = exchange?.status ?? null;
    const gatewayRejected = r.failure?.kind === 'signature-rejected';
    const providerCode = r.reply?.code ?? null;
    const outcome: VariantProbeResult['outcome'] = gatewayRejected ? 'rejected' : r.reply !== null ? 'accepted' : 'undetermined';
    results.push({
      variant,
      httpStatus,
      gatewayRejected,
      providerCode,
      outcome,
      reason: outcome === 'undetermined' ? (r.failure?.reason ?? null) : null,
      exchange,
    });
  }
  return { accepted: results.filter((r) => r.outcome === 'accepted').map((r) => r.variant), results };
}
