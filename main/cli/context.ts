// What every command of the CLI gets: where to write, the session (handler table and events), the
// provider flags, the words in the user's language, option parsers, and how to print a result.
import type { FailureView } from '../../common/contract';
import { CliFailure, EXIT, usage, type CliIo } from './io';
import type { CliSession, ProviderFlags } from './session';
import type { CliWords } from './text';

/** Option parsers that refuse a bad value with a clear usage error. */
export function parsers(words: CliWords) {
  return {
    seconds(name: string) {
      return (value: string): number => {
        const n = Number(value);
        if (!Number.isFinite(n) || n <= 0 || n > 3600) throw usage('badSeconds', { flag: name, value });
        return n;
      };
    },
    /** A duration in milliseconds: seconds (90, 90s), minutes (10m) or hours (1h), from 1 s to 24 h. */
    duration(name: string) {
      return (value: string): number => {
        const m = /^\s*(\d+(?:\.\d+)?)\s*(s|m|h)?\s*$/i.exec(value);
        const unit = { s: 1000, m: 60_000, h: 3_600_000 }[(m?.[2] ?? 's').toLowerCase() as 's' | 'm' | 'h'];
        const ms = m ? Math.round(Number(m[1]) * unit) : NaN;
        if (!(ms >= 1000 && ms <= 24 * 3_600_000)) throw usage('badDuration', { flag: name, value });
        return ms;
      };
    },
    int(name: string, min: number, max: number) {
      return (value: string): number => {
        const n = Number(value);
        if (!Number.isInteger(n) || n < min || n > max) throw usage('badInt', { flag: name, value, min, max });
        return n;
      };
    },
    oneOf<T extends string>(name: string, allowed: readonly T[]) {
      return (value: string): T => {
        if (!(allowed as readonly string[]).includes(value)) throw usage('oneOf', { flag: name, allowed: allowed.join(', '), value });
        return value as T;
      };
    },
    words,
  };
}

/** A duration the user gave (--wait-timeout), in words: "10 min", "90 s", "1 h". */
export function durationText(words: CliWords, ms: number): string {
  if (ms % 3_600_000 === 0) return words.t('cli:hours', { n: ms / 3_600_000 });
  if (ms % 60_000 === 0) return words.t('cli:minutes', { n: ms / 60_000 });
  return words.t('cli:seconds', { n: Math.round(ms / 1000) });
}

/** What a command needs from `runCli`. */
export interface CommandContext {
  io: CliIo;
  session: CliSession;
  flags: () => ProviderFlags;
  json: () => boolean;
  words: CliWords;
  parse: ReturnType<typeof parsers>;
  /** Prints the value (JSON, or the human text) on stdout. */
  emit(value: unknown, human: () => string): void;
  /** Prints the value a script reads (JSON, or the human text), then fails with one line on stderr. */
  printAndFail(value: unknown, human: (() => string) | null, failure: CliFailure): never;
}

/** The failure of a request that got no usable reply: exit 3 for a rejected signature, else 4 (never resent). */
export function failureOfView(words: CliWords, failure: FailureView, extra: Record<string, unknown> = {}): CliFailure {
  const exit = failure.kind === 'signature-rejected' ? EXIT.rejected : EXIT.transport;
  const said = words.reason(failure.reason);
  return new CliFailure(
    exit,
    failure.kind,
    { key: failure.outcome === 'unknown' ? 'cli:notResent' : 'cli:plain', params: { text: said } },
    { ...extra, outcome: failure.outcome, message: said },
  );
}

/** The provider refused (exit 3): its code's meaning and what to do. */
export function providerRejection(words: CliWords, code: number | null, extra: Record<string, unknown> = {}): CliFailure {
  return new CliFailure(
    EXIT.rejected,
    'provider',
    { key: 'cli:providerAnswered', params: { code: code ?? '—', meaning: words.providerCode(code) } },
    { code, ...extra },
  );
}
