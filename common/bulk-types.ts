// Types of bulk sends, contacts and quick dial that main and the renderer share.
import type { CallState } from './domain/status';
import type { MessageRecord } from './records';
import type { Reason } from './reasons';
import type { IssueKind, StopReason } from './vocabulary';
export { ISSUE_KINDS, type IssueKind, type StopReason } from './vocabulary';

export const BATCH_STATUSES = ['draft', 'running', 'paused', 'cancelled', 'done'] as const;

export const ITEM_STATUSES = ['queued', 'in_flight', 'accepted', 'rejected', 'unknown', 'skipped', 'cancelled'] as const;

export type BatchStatus = (typeof BATCH_STATUSES)[number];

export type ItemStatus = (typeof ITEM_STATUSES)[number];

export interface BatchRecord {
  id: number;
  profile: string;
  templateId: string | null;
  name: string;
  status: BatchStatus;
  pausedReason: StopReason | null;
  /** Why it stopped, in full (rendered in the reader's language). */
  statusReason: Reason | null;
  total: number;
  owner: string | null;
  createdAt: number;
  startedAt: number | null;
  endedAt: number | null;
  updatedAt: number;
  /** The sheet's header (its own column names), when the batch was made from a sheet. */
  columns: string[] | null;
}

/** A batch as the list shows it: with how many of its calls still ring (a batch done sending may still be calling). */
export interface BatchListRow extends BatchRecord {
  calling: number;
}

export interface BatchItemRecord {
  id: number;
  batchId: number;
  rowNumber: number;
  mobile: string;
  content: string;
  units: number;
  status: ItemStatus;
  messageId: number | null;
  code: number | null;
  errorKind: string | null;
  /** Why it was skipped, refused or is unknown (rendered in the reader's language). */
  reason: Reason | null;
  updatedAt: number;
  /** The row's own cells in the sheet (null for batches made before they were kept). */
  cells: string[] | null;
}

/** An item with what became of its call (from the linked message). */
export interface BatchItemView extends BatchItemRecord {
  smsid: string | null;
  state: CallState | null;
  duration: number | null;
  sentAt: number | null;
  endedAt: number | null;
  /** Sends made for this row that the provider refused (each is a rejected row in History; nothing was placed or charged). */
  refusedSends: number;
}

/** Item counts by status, plus the calls of accepted items by how they ended. */
export interface BatchCounts {
  total: number;
  queued: number;
  inFlight: number;
  accepted: number;
  rejected: number;
  unknown: number;
  skipped: number;
  cancelled: number;
  /** Accepted items whose call was answered. */
  answered: number;
  /** Accepted items whose call ended without an answer (no answer, busy, off, ...). */
  notAnswered: number;
  /** Accepted items whose call has not ended yet. */
  calling: number;
  /** Units of the items still to send (queued + in flight). */
  unitsRemaining: number;
  /**
   * Sends of this batch the provider refused (402, 403, a bad number...): History lists each as a
   * rejected message; no call was placed and nothing was charged. A row refused with 402 or 403 goes
   * back to the queue, so this can be more than `rejected` (rows).
   */
  refusedSends: number;
  /**
   * Rows whose latest send was refused: still not sent. A row sent after its refusal (after a
   * top-up, an approval) no longer counts here, though History keeps the refused send.
   */
  refusedNow: number;
}

export interface ContactRecord {
  id: number;
  name: string;
  /** Normalised 11-digit mainland mobile. */
  mobile: string;
  favourite: boolean;
  note: string;
  /** The template last used to call this contact, and the values it was filled with. */
  lastTemplateId: string | null;
  lastValues: string[] | null;
  lastCalledAt: number | null;
  createdAt: number;
  updatedAt: number;
  /** Groups this contact belongs to (ids). */
  groupIds: number[];
}

export interface ContactGroupRecord {
  id: number;
  name: string;
  /** Members in order (an escalation list calls them in this order). */
  memberIds: number[];
  createdAt: number;
  updatedAt: number;
}

export interface ContactFields {
  id?: number;
  name: string;
  mobile: string;
  favourite?: boolean;
  note?: string;
}

export interface DialSettingsRecord {
  /** '*' (all profiles) or a profile id. */
  scope: string;
  /** Calls to one number at most per rolling minute / hour / day; null = no limit. */
  perMinute: number | null;
  perHour: number | null;
  perDay: number | null;
  /** Local time 'HH:MM'; both null = no quiet hours. */
  quietStart: string | null;
  quietEnd: string | null;
  updatedAt: number;
}

/** Column (by header name, or 1-based column number) → 'mobile', a marker label, or a marker position (1-based). */
export type MappingSpec = Record<string, string>;

/** Column indexes: the mobile column, and the column that fills each marker, in marker order. */
export interface ColumnMapping {
  mobile: number;
  markers: number[];
}

export interface RowIssue {
  /** Row number in the file (the header is row 1). */
  row: number;
  kind: IssueKind;
  /** The column concerned, when there is one. */
  column?: string;
  /** For bad-mobile: the number as written. For missing-value: the variable's label. */
  value?: string;
  /** For bad-mobile: why (empty, wrong-length, ...). For duplicates: the earlier row. For too-long: the length. */
  detail?: string | number;
}

export type DuplicatePolicy = 'none' | 'same-text' | 'same-mobile';

export interface ValidationTotals {
  rows: number;
  valid: number;
  invalid: number;
  /** Valid rows repeating an earlier row's number AND text. */
  duplicates: number;
  /** Valid rows repeating an earlier row's number (whatever the text; duplicates included). */
  sameMobile: number;
  /** Rows that would be sent, and their units (upper bound: a unit is charged only when answered), per duplicate policy. */
  toSend: Record<DuplicatePolicy, number>;
  units: Record<DuplicatePolicy, number>;
}

export interface ValidationReport {
  templateId: string;
  columns: string[];
  mapping: { mobile: string; markers: string[] };
  totals: ValidationTotals;
  issueCounts: Record<IssueKind, number>;
  /** The first `maxIssues` issues in row order; `issuesOmitted` says how many more there are. */
  issues: RowIssue[];
  issuesOmitted: number;
  /** The first filled texts, as they would be sent. */
  preview: { row: number; mobile: string; content: string; length: number; units: number }[];
  /** Set when a balance was given: would the units of the rows to send (no duplicates skipped) exceed it? */
  balance?: { units: number; enough: Record<DuplicatePolicy, boolean> };
}

export interface ImportView {
  importId: string;
  fileName: string;
  format: 'csv' | 'xlsx';
  /** How a CSV was decoded; null for XLSX. */
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'gb18030' | null;
  columns: string[];
  /** The first rows as read, for the mapping screen. */
  sample: string[][];
  /** What Callout guessed; `mapping` is what the report used. */
  suggested: MappingSpec;
  mapping: MappingSpec;
  templateId: string;
  report: ValidationReport;
}

/** Rows of a list about to be called that were called with the same text in the last 30 minutes. */
export interface RecentlyCalledView {
  rows: number;
  latestAt: number | null;
  mobiles: string[];
  windowMinutes: number;
}

export interface BatchProgress {
  batchId: number;
  status: BatchRecord['status'];
  pausedReason: StopReason | null;
  /** Why it stopped, in full (rendered in the reader's language). */
  statusReason: Reason | null;
  total: number;
  /** Items whose request went out (accepted + rejected + unknown). */
  sent: number;
  accepted: number;
  /** Accepted items whose call was answered / ended unanswered / has not ended. */
  answered: number;
  notAnswered: number;
  calling: number;
  rejected: number;
  /** Sends the provider refused, as History lists them (see BatchCounts.refusedSends). */
  refusedSends: number;
  /** Rows whose latest send was refused, not sent since (see BatchCounts.refusedNow). */
  refusedNow: number;
  /** Rejected by the provider plus calls that ended without an answer. */
  failed: number;
  unknown: number;
  skipped: number;
  cancelled: number;
  queued: number;
  inFlight: number;
  /** Still to send: queued + in flight. */
  remaining: number;
  unitsRemaining: number;
  /** Sends started in the last minute (real time). */
  ratePerMinute: number;
  /** Time left at that rate (ms), null when nothing is being sent. */
  etaMs: number | null;
  /** The profile's governor: limit and calls holding a line now. */
  governor: { limit: number; inUse: number; perHour: number; startsInWindow: number };
  at: number;
}

export type LimitKind = 'per-minute' | 'per-hour' | 'per-day' | 'quiet-hours';

export interface DialPolicy {
  perMinute: number | null;
  perHour: number | null;
  perDay: number | null;
  /** Local 'HH:MM'; start after end means overnight (22:00–08:00). */
  quietHours: { start: string; end: string } | null;
}

export interface DialRefusal {
  limit: LimitKind;
  mobile: string;
  /** Calls already counted in the window, and the limit (null for quiet hours). */
  count: number | null;
  max: number | null;
  /** When the limit frees up (epoch ms). */
  freesAt: number;
  /** For a "call until answered" plan: this limit would be broken by call `call` of `attempts`. */
  plan?: { attempts: number; call: number };
}

export interface ContactInput {
  id?: number;
  name: string;
  mobile: string;
  favourite?: boolean;
  note?: string;
}

export interface ContactMatch {
  contact: ContactRecord;
  /** Higher is a better match of the text (the list is ordered favourites first, then recent, then this). */
  score: number;
  matched: 'all' | 'name' | 'initials' | 'pinyin' | 'mobile' | 'note';
}

export interface DialRequest {
  profileId: string;
  /** Who to call, in order: contacts or bare numbers. With more than one, an escalation list. */
  targets?: ({ contactId: number } | { mobile: string })[];
  /** Or a contact group, called in its order. */
  groupId?: number;
  templateId?: string | null;
  /** Values for the template's markers; default: the first contact's last values for this template. */
  values?: string[];
  /** Or the exact text (no template filling). */
  content?: string;
  /** Calls per target until one is answered (1 = call once). Default 1, at most 10. */
  attempts?: number;
  /** Seconds between the end of a call nobody answered and the next attempt to the same person. Default 60 for one person, 20 for a list (common/domain/dial-defaults.ts). */
  pauseSeconds?: number;
  /** A person confirmed calling despite per-number limits and quiet hours. */
  override?: boolean;
}

export interface DialTarget {
  contactId: number | null;
  name: string | null;
  mobile: string;
}

export type DialPhase = 'calling' | 'ended' | 'waiting' | 'refused' | 'next-target' | 'done';

export interface DialAttempt {
  targetIndex: number;
  attempt: number;
  mobile: string;
  messageId: number | null;
  outcome: MessageRecord['outcome'] | 'not-sent';
  state: MessageRecord['state'] | null;
  code: number | null;
  /** Why it failed or is unknown (rendered in the reader's language). */
  reason: Reason | null;
  startedAt: number;
  endedAt: number | null;
}

export type DialStatus = 'answered' | 'not-answered' | 'refused' | 'unknown' | 'failed' | 'cancelled';

export interface DialResult {
  runId: string;
  status: DialStatus;
  /** Who answered. */
  answered: (DialTarget & { targetIndex: number; messageId: number }) | null;
  targets: DialTarget[];
  attempts: DialAttempt[];
  refusals: DialRefusal[];
}

export interface DialProgress {
  runId: string;
  phase: DialPhase;
  targetIndex: number;
  target: DialTarget;
  targets: number;
  attempt: number;
  maxAttempts: number;
  messageId: number | null;
  state: MessageRecord['state'] | null;
  /** While waiting: when the next attempt starts (epoch ms). */
  nextAttemptAt: number | null;
  /** What the run does next, and when; null when nothing follows (the last call of the run). */
  next: DialNext | null;
  refusals: DialRefusal[];
  result: DialResult | null;
}

/**
 * The run's next call: who, which of their attempts, and when (epoch ms). While a call rings, `at` is null:
 * the call that follows if this one is not answered (busy and the like move to the next person at once).
 */
export interface DialNext {
  targetIndex: number;
  target: DialTarget;
  attempt: number;
  at: number | null;
  /** While a call rings and the next is the same person: the pause after this call ends (seconds). */
  afterSeconds: number | null;
}

/** Before calling: what would be called, the text, and what the limits say. */
export interface DialPlan {
  targets: DialTarget[];
  content: string;
  templateId: string | null;
  values: string[] | null;
  attempts: number;
  pauseSeconds: number;
  refusals: DialRefusal[];
}

export type DialStart = { started: true; runId: string; plan: DialPlan } | { started: false; plan: DialPlan };
