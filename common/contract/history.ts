// History: messages and exchanges, found and exported; the raw console; the store's retention.
import { z } from 'zod';
import { VERDICTS } from '../capture';
import { CALL_STATES, OUTCOMES } from '../domain/status';
import type {
  ArchiveInfo,
  ArchivePlan,
  ArchiveState,
  ExchangePage,
  HistoryPage,
  Overview,
  RetentionPreview,
  RetentionResult,
  RetentionSettings,
  VacuumResult,
} from '../history-types';
import { archiveName, id, lang, messageId, none, op, utcOffsetMinutes } from './define';
import { OPERATIONS, type ExchangeRecord } from '../records';
import { CODE_TARGETS } from './workbench';

export interface StoreStatus {
  retention: RetentionSettings;
  /** Bytes of captured exchanges (headers and bodies) and their count. */
  usage: { bytes: number; exchanges: number };
  /** The database file (with its WAL) on disk, in bytes: exchanges are stored packed, so far less than `usage.bytes`. */
  fileBytes: number;
  /**
   * Exchanges stored before an upgrade made them small: `packing` them (so far, of all of them),
   * then `indexing` them for search a call at a time; null when none are left.
   */
  packing: { step: 'packing' | 'indexing'; done: number; total: number } | null;
  /** Packing finished and left space inside the file that compacting it once gives back. */
  compactAdvised: boolean;
  recovered: { movedTo: string; reason: string; kind?: 'database' | 'wal' } | null;
  /** Archiving old months: the one running (in this process), the last one done, and why the last one failed. */
  archive: ArchiveState;
}

/** A month on the user's wall clock, "2026-03". */
const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'archive-month');

const retentionSettings = z
  .object({
    exchangeDays: z.number().int().min(1, 'retention-days-range').max(36_500, 'retention-days-range').nullable(),
    exchangeMaxBytes: z
      .number()
      .int()
      .min(1024 * 1024, 'retention-size-range')
      .max(1024 ** 4, 'retention-size-range')
      .nullable(),
  })
  .strict();

export const historyFilter = z
  .object({
    states: z.array(z.enum(CALL_STATES)).max(CALL_STATES.length).optional(),
    outcomes: z.array(z.enum(OUTCOMES)).max(OUTCOMES.length).optional(),
    from: z.number().int().min(0).optional(),
    to: z.number().int().min(0).optional(),
    profiles: z.array(id).max(100).optional(),
    templates: z.array(id).max(1000).optional(),
    search: z.string().max(200).optional(),
    mobile: z.string().max(40).optional(),
  })
  .strict();

/** HTTP statuses: one (404), a class (4xx), or "none" (no reply came). */
export const statusFilter = z.union([z.number().int().min(100).max(599), z.enum(['1xx', '2xx', '3xx', '4xx', '5xx', 'none'])]);

/** The exchange list: by message, operation, profile, HTTP status, provider code, time, and words in the URL, headers and bodies. */
export const exchangeQuery = z
  .object({
    messageId: messageId.optional(),
    operation: z.enum(OPERATIONS).optional(),
    operations: z.array(z.enum(OPERATIONS)).max(OPERATIONS.length).optional(),
    profiles: z.array(id).max(100).optional(),
    statuses: z.array(statusFilter).max(20).optional(),
    providerCodes: z.array(z.number().int().min(-1_000_000).max(1_000_000)).max(20).optional(),
    /** Only the exchanges the capture proxy recorded (a backend's requests). */
    captured: z.boolean().optional(),
    /** Only captured exchanges with one of these overall verdicts. */
    verdicts: z.array(z.enum(VERDICTS)).min(1).max(VERDICTS.length).optional(),
    from: z.number().int().min(0).optional(),
    to: z.number().int().min(0).optional(),
    search: z.string().max(200).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
    cursor: z.string().max(1000).nullable().optional(),
    order: z.enum(['newest', 'oldest']).optional(),
    /** Read from this archive (read-only) instead of the live store. */
    archive: archiveName.optional(),
  })
  .strict();

export const historyOps = {
  /** A page of history (keyset pagination: pass back `nextCursor` with the same filter and order). */
  'history.page': op<HistoryPage>()(
    z
      .object({
        filter: historyFilter.default({}),
        limit: z.number().int().min(1).max(1000).optional(),
        cursor: z.string().max(1000).nullable().optional(),
        order: z.enum(['newest', 'oldest']).optional(),
        withTotal: z.boolean().optional(),
      })
      .strict(),
  ),
  /** Calls per day by outcome, and units spent, for the chosen range (the overview chart). */
  'history.overview': op<Overview>()(
    z.object({ from: z.number().int().min(0), to: z.number().int().min(0), profileId: id.nullable().optional(), utcOffsetMinutes }).strict(),
  ),
  /** The filtered history as CSV (UTF-8 with BOM), at most `limit` rows (default 100,000). */
  'history.exportCsv': op<{ csv: string; rows: number; capped: boolean }>()(
    z.object({ filter: historyFilter.default({}), lang, utcOffsetMinutes, limit: z.number().int().min(1).max(1_000_000).optional() }).strict(),
  ),

  'exchanges.list': op<ExchangePage>()(exchangeQuery),
  'exchanges.get': op<ExchangeRecord>()(z.object({ id: messageId, archive: archiveName.optional() }).strict()),
  /** The exchange's request as cURL (or Node fetch, Python requests, Go: `target`), redacted (the key shows as [REDACTED]). */
  'exchanges.curl': op<{ command: string }>()(
    z.object({ id: messageId, target: z.enum(CODE_TARGETS).default('curl'), archive: archiveName.optional() }).strict(),
  ),
  /**
   * Puts the request as cURL (or code, `target`) WITH the real key on the clipboard, from main: the
   * key never comes back to the renderer. Needs an explicit confirmation.
   */
  'exchanges.copyCurlWithKey': op<{ copied: true }>()(
    z
      .object({
        id: messageId,
        target: z.enum(CODE_TARGETS).default('curl'),
        confirm: z.literal(true, { error: 'confirm-required' }),
        archive: archiveName.optional(),
      })
      .strict(),
  ),
  /** Selected exchanges as a HAR 1.2 file (redacted: no API Key). */
  'exchanges.exportHar': op<{ json: string; entries: number }>()(
    z.object({ ids: z.array(messageId).min(1).max(10_000), archive: archiveName.optional() }).strict(),
  ),

  'store.status': op<StoreStatus>()(none),
  'store.setRetention': op<RetentionSettings>()(retentionSettings),
  /** What these settings would delete now (by age, then by size) and leave; nothing is deleted. */
  'store.previewRetention': op<RetentionPreview>()(retentionSettings),
  'store.applyRetention': op<RetentionResult>()(none),
  'store.vacuum': op<VacuumResult>()(none),
  /** What archiving the months before `before` would move out of the live store; nothing is moved. */
  'store.previewArchive': op<ArchivePlan>()(z.object({ before: month, utcOffsetMinutes }).strict()),
  /**
   * Starts moving the exchanges of the months before `before` to a new archive file (read-only,
   * searchable); its progress and result are in store.status. Messages stay in the live store.
   */
  'store.archive': op<{ name: string; exchanges: number }>()(
    z.object({ before: month, utcOffsetMinutes, confirm: z.literal(true, { error: 'confirm-required' }) }).strict(),
  ),
  /** The archive files, and the folder that holds them. */
  'store.archives': op<{ folder: string; archives: ArchiveInfo[] }>()(none),
};
