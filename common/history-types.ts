// Types of history, the overview chart, the exchange list and retention: shared by main and the renderer.
import type { Verdict } from './capture';
import type { CallState, Outcome } from './domain/status';
import type { ExchangeRecord, MessageRecord, Operation } from './records';

export interface HistoryFilter {
  states?: CallState[];
  outcomes?: Outcome[];
  /** created_at ≥ from (ms since the epoch). */
  from?: number;
  /** created_at < to (ms since the epoch): the range is half-open. */
  to?: number;
  /** Profile ids. */
  profiles?: string[];
  /** Template ids. */
  templates?: string[];
  /**
   * Text or number: words separated by spaces must all appear (in the number or the text), in any
   * order, ignoring ASCII case. A query that looks like a phone number ("138 0013-8000",
   * "+86 138…") is one run of digits, matched inside the number or the text.
   */
  search?: string;
  /** Part of the mobile number only (digits; spaces, dashes and a +86 prefix are ignored). */
  mobile?: string;
}

export type HistoryOrder = 'newest' | 'oldest';

export interface HistoryPageRequest {
  /** 1–1000, default 100. */
  limit?: number;
  /** From the previous page's `nextCursor`, with the same filter and order. */
  cursor?: string | null;
  order?: HistoryOrder;
  /** Also count the filter's rows (see count()). */
  withTotal?: boolean;
}

export interface HistoryPage {
  rows: MessageRecord[];
  /** null at the end. */
  nextCursor: string | null;
  total?: number;
  /** `total` is a lower bound: counting stopped at a cap. */
  totalCapped?: boolean;
  /**
   * Set when this page stopped at its scan window before filling up: rows were checked down to
   * (newest first; up to, oldest first) this created_at. Continue with `nextCursor`.
   */
  searchedTo?: number;
}

export interface HistoryCount {
  count: number;
  /** The count stopped at a cap: there are at least `count`. */
  capped: boolean;
}

/** Chart buckets of the overview. */
export interface OverviewCounts {
  answered: number;
  noAnswer: number;
  busy: number;
  /** Declined by the callee, phone off, unreachable, number does not exist, failed. */
  otherFailures: number;
  /** Outcome unknown (the request may have reached the provider), or a state the provider did not say. */
  unknown: number;
  /** Refused by the provider (result code) or never sent. */
  rejected: number;
  /** Sending, or accepted and not ended yet. */
  inProgress: number;
  total: number;
  /** Units billed for answered calls. */
  units: number;
}

export interface OverviewDay extends OverviewCounts {
  /** Local date, YYYY-MM-DD. */
  day: string;
  /** The local midnight that starts the day, in ms since the epoch. */
  start: number;
}

export interface OverviewRequest {
  /** Widened to the start of its local day. */
  from: number;
  /** Exclusive; widened to the end of its local day. */
  to: number;
  profileId?: string | null;
  /** Minutes east of UTC: +480 for China (that is -new Date().getTimezoneOffset()). */
  utcOffsetMinutes: number;
}

export interface Overview {
  days: OverviewDay[];
  totals: OverviewCounts;
}

/** An HTTP status, a class of them, or "none": no reply came. */
export type StatusFilter = number | '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'none';

export interface ExchangeQuery {
  messageId?: number;
  operation?: Operation;
  /** Any of these operations. */
  operations?: Operation[];
  /** Profile ids. */
  profiles?: string[];
  statuses?: StatusFilter[];
  /** The provider's result code in the reply. */
  providerCodes?: number[];
  /** Only the exchanges the capture proxy recorded (a backend's requests). */
  captured?: boolean;
  /** Only captured exchanges with one of these overall verdicts. */
  verdicts?: Verdict[];
  /** started_at ≥ from. */
  from?: number;
  /** started_at < to. */
  to?: number;
  /**
   * Words that must all appear (in any order, ignoring ASCII case) in the URL, the headers or a
   * body of either half. Stored exchanges are redacted: the key is never found.
   */
  search?: string;
  limit?: number;
  /** Read from this archive file (its name in the archives folder) instead of the live store. */
  archive?: string;
  cursor?: string | null;
  order?: HistoryOrder;
}

export interface ExchangePage {
  rows: ExchangeRecord[];
  nextCursor: string | null;
  /**
   * Set when the page stopped at its scan window before filling up (as for messages): rows were
   * checked down to (newest first; up to, oldest first) this started_at. Continue with `nextCursor`.
   */
  searchedTo?: number;
}

export interface RetentionSettings {
  /** Delete exchanges that started more than this many days ago; null keeps them. */
  exchangeDays: number | null;
  /** Delete the oldest exchanges until their headers and bodies add up to at most this many bytes; null: no cap. */
  exchangeMaxBytes: number | null;
}

export interface RetentionResult {
  /** Exchanges deleted because they were older than exchangeDays. */
  deletedByAge: number;
  /** Exchanges deleted (oldest first) to bring the total under exchangeMaxBytes. */
  deletedBySize: number;
  /** Bytes of headers and bodies left. */
  remainingBytes: number;
  remainingExchanges: number;
  /** The database file (with its WAL) before and after: freed pages go back at once once the file was compacted. */
  fileBytesBefore: number;
  fileBytesAfter: number;
}

/** What retention settings would delete (by age, then by size) and leave, before anything is deleted. */
export interface RetentionPreview {
  byAge: { exchanges: number; bytes: number };
  bySize: { exchanges: number; bytes: number };
  remaining: { exchanges: number; bytes: number };
}

export interface VacuumResult {
  bytesBefore: number;
  bytesAfter: number;
  ms: number;
}

/** Why an archive file cannot be opened (archive-failed's kinds that a listed file can have). */
export type ArchiveProblem = 'unreadable' | 'too-new' | 'not-archive' | 'not-found';

/** What archiving the months before `before` would move out of the live store. */
export interface ArchivePlan {
  /** The first month kept in the live store ("2026-03"). */
  before: string;
  /** Its first instant (the user's wall clock). */
  cutoff: number;
  exchanges: number;
  /** Bytes of their headers and bodies. */
  bytes: number;
  /** The first and last month holding one of them (null when none). */
  from: string | null;
  to: string | null;
}

/** An archive file in the data directory's archives folder. */
export interface ArchiveInfo {
  name: string;
  /** The file's size on disk. */
  bytes: number;
  from: string | null;
  to: string | null;
  exchanges: number | null;
  createdAt: number | null;
  /** Set when Callout cannot open it (the rest is null). */
  problem: ArchiveProblem | null;
}

export interface ArchiveProgress {
  name: string;
  /** Copying to the archive, then removing from the live store what the archive now holds. */
  phase: 'copying' | 'removing';
  done: number;
  total: number;
}

export interface ArchiveResult {
  name: string;
  exchanges: number;
  /** Bytes of their headers and bodies. */
  bytes: number;
  /** Removed from the live store (fewer when retention deleted some meanwhile). */
  removed: number;
  from: string;
  to: string;
  /** The archive file on disk. */
  archiveBytes: number;
  /** The live store's file (with its WAL) before and after. */
  storeBytesBefore: number;
  storeBytesAfter: number;
}

/** The archive running now (this process), the last one finished, and why the last one failed. */
export interface ArchiveState {
  running: ArchiveProgress | null;
  last: ArchiveResult | null;
  error: { code: string; params: Record<string, unknown> } | null;
}
