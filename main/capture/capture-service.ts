// The capture proxy as a service (built once in services.ts; started and stopped through the
// contract by the app and `callout capture`): runs the proxy, checks each exchange it passes
// (checks.ts) with the key of the chosen profile, redacts it and stores it in history marked
// "captured" with its checks. Only one proxy runs at a time per Callout.
import type { CaptureInfo, CaptureStatus } from '../../common/capture';
import type { Exchange } from '../../common/records';
import { keyCarriers, type Dialect } from '../../common/dialects';
import { fail } from '../errors';
import type { ExchangeRepository } from '../store';
import { REDACTED, Redactor } from '../voice/redaction';
import { checkExchange, voiceOperation, type CheckKey } from './checks';
import { DEFAULT_MAX_KEPT_BYTES, startCaptureProxy, type CaptureProxy, type ProxiedExchange } from './proxy';
import { systemClock, type Clock } from '../clock';

export interface CaptureServiceDeps {
  exchanges: ExchangeRepository;
  templates: () => readonly { name: string; content: string; approved: boolean }[];
  /** The key, API ID, variant and dialect of a profile (main only; the key never leaves main). */
  checkKey: (profileId: string) => Promise<CheckKey>;
  /** Told after each stored exchange (push event: History refreshes). */
  onChange: (status: CaptureStatus, exchangeId: number | null) => void;
  onStoreHealth?: (error: unknown | null) => void;
  log?: (error: unknown) => void;
  /** Default systemClock. */
  clock?: Clock;
}

export interface CaptureStart {
  target: string;
  port?: number;
  profileId?: string | null;
  maxKeptBytes?: number;
}

const idle = (): CaptureStatus => ({
  running: false,
  url: null,
  port: null,
  target: null,
  profileId: null,
  key: 'none',
  startedAt: null,
  counts: { exchanges: 0, pass: 0, warn: 0, fail: 0, skip: 0, unstored: 0 },
});

export class CaptureService {
  private proxy: CaptureProxy | null = null;
  private state: CaptureStatus = idle();
  private starting: Promise<CaptureStatus> | null = null;

  constructor(private readonly deps: CaptureServiceDeps) {}

  status(): CaptureStatus {
    return structuredClone(this.state);
  }

  async start(input: CaptureStart): Promise<CaptureStatus> {
    if (this.proxy || this.starting) throw fail('capture-running', { url: this.state.url ?? '' });
    this.starting = this.open(input);
    try {
      return await this.starting;
    } finally {
      this.starting = null;
    }
  }

  private async open(input: CaptureStart): Promise<CaptureStatus> {
    let target: URL;
    try {
      target = new URL(input.target);
    } catch {
      throw fail('capture-target', { value: input.target.slice(0, 200) });
    }
    if ((target.protocol !== 'http:' && target.protocol !== 'https:') || target.search || target.hash || target.username || target.password) {
      throw fail('capture-target', { value: input.target.slice(0, 200) });
    }
    const key = input.profileId ? await this.deps.checkKey(input.profileId) : null;
    const maxKeptBytes = input.maxKeptBytes ?? DEFAULT_MAX_KEPT_BYTES;
    // The key, and whatever travels where the profile's dialect puts one (a wrong key is someone's key too).
    const redactor = new Redactor(key ? [key.apiKey] : [], keyCarriers(key?.dialect));
    const record = (x: ProxiedExchange) => {
      try {
        this.record(x, target, key, redactor, maxKeptBytes);
      } catch (error) {
        // Whatever went wrong reading it, the exchange is counted as not stored (never silently lost).
        this.state.counts.unstored++;
        this.deps.log?.(error);
        this.deps.onChange(this.status(), null);
      }
    };
    try {
      this.proxy = await startCaptureProxy({ target, port: input.port ?? 0, maxKeptBytes, onExchange: record, clock: this.deps.clock });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
      throw fail('capture-listen', { port: input.port ?? 0, detail: code });
    }
    this.state = {
      ...idle(),
      running: true,
      url: this.proxy.url,
      port: this.proxy.port,
      target: target.toString().replace(/\/$/, ''),
      profileId: input.profileId ?? null,
      key: key ? 'profile' : 'none',
      startedAt: (this.deps.clock ?? systemClock).now(),
    };
    this.deps.onChange(this.status(), null);
    return this.status();
  }

  async stop(): Promise<CaptureStatus> {
    const proxy = this.proxy;
    this.proxy = null;
    if (proxy) await proxy.close();
    const last = { ...this.state, running: false };
    this.state = { ...idle(), counts: last.counts };
    this.deps.onChange(this.status(), null);
    return this.status();
  }

  async close(): Promise<void> {
    const proxy = this.proxy;
    this.proxy = null;
    await proxy?.close();
  }

  private record(x: ProxiedExchange, target: URL, key: CheckKey | null, redactor: Redactor, maxKeptBytes: number): void {
    // A tunnel's bytes are encrypted: counted, never kept.
    const requestBody = x.mode === 'tunnel' || x.request.bytes === 0 ? null : x.request.kept.toString('utf8');
    const responseBody = x.mode === 'tunnel' || x.answeredBy !== 'target' ? null : x.response.kept.toString('utf8');
    const requestCut = x.request.kept.length < x.request.bytes && x.mode !== 'tunnel';
    const responseCut = x.response.kept.length < x.response.bytes && x.mode !== 'tunnel';
    const verdicts =
      x.mode === 'tunnel'
        ? {
            verdict: 'skip' as const,
            checks: [{ check: 'rules' as const, verdict: 'skip' as const, code: 'tunnel' as const, params: { authority: x.url.slice(0, 300) } }],
          }
        : checkExchange(
            {
              mode: x.mode,
              method: x.method,
              url: x.url,
              providerUrl: x.upstreamUrl,
              headers: x.requestHeaders,
              body: requestBody,
              bodyCut: requestCut,
              status: x.answeredBy === 'target' ? x.status : null,
              responseHeaders: x.answeredBy === 'target' ? x.responseHeaders : null,
              responseBody,
              responseCut,
              error: x.answeredBy === 'target' ? null : (x.error?.kind ?? 'network'),
              maxBytes: maxKeptBytes,
            },
            { target, key, templates: this.deps.templates(), now: new Date(x.startedAt) },
          );
    const info: CaptureInfo = {
      mode: x.mode,
      sentTo: x.url.slice(0, 2000),
      hostForwarded: x.hostForwarded,
      answeredBy: x.answeredBy,
      request: { bytes: x.request.bytes, kept: x.mode === 'tunnel' ? 0 : x.request.kept.length },
      response: { bytes: x.response.bytes, kept: x.mode === 'tunnel' ? 0 : x.response.kept.length },
      verdict: verdicts.verdict,
      checks: verdicts.checks,
    };
    const op = x.mode === 'tunnel' ? 'tunnel' : operationOf(x.upstreamUrl, target, key?.dialect);
    const exchange: Exchange = {
      operation: op,
      method: x.method,
      url: x.mode === 'tunnel' ? x.url : x.upstreamUrl,
      requestHeaders: x.requestHeaders.map(([n, v]) => [n, /^proxy-authorization$/i.test(n) ? REDACTED : v]),
      requestBody,
      status: x.status,
      statusText: x.statusText,
      responseHeaders: x.answeredBy === 'target' ? x.responseHeaders : null,
      responseBody,
      error: x.error,
      startedAt: x.startedAt,
      timings: { dnsMs: null, connectMs: null, tlsMs: null, firstByteMs: x.firstByteMs, totalMs: x.totalMs },
    };
    const redacted = redactor.exchange(exchange);
    const counts = this.state.counts;
    let id: number | null = null;
    try {
      id = this.deps.exchanges.insert(redacted, { profile: key ? (this.state.profileId ?? null) : null, capture: redactInfo(info, redactor) });
      counts.exchanges++;
      counts[info.verdict]++;
      this.deps.onStoreHealth?.(null);
    } catch (error) {
      counts.unstored++;
      this.deps.onStoreHealth?.(error);
      this.deps.log?.(error);
    }
    this.deps.onChange(this.status(), id);
  }
}

function operationOf(url: string, target: URL, dialect?: Dialect): Exchange['operation'] {
  try {
    const u = new URL(url);
    return (u.host === target.host ? voiceOperation(u, target, dialect) : null) ?? 'raw';
  } catch {
    return 'raw';
  }
}

/** The checks' texts quote what the backend sent (a URL, an account, a value): the key goes nowhere, in any of its forms. */
function redactInfo(info: CaptureInfo, redactor: Redactor): CaptureInfo {
  // Each text on its own (a password in a query the checks quote goes too), names included.
  const texts = (value: unknown): unknown => {
    if (typeof value === 'string') return redactor.text(redactor.queryFields(value));
    if (Array.isArray(value)) return value.map(texts);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactor.text(k), texts(v)]));
    return value;
  };
  return texts(info) as CaptureInfo;
}
