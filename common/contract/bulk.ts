// Bulk sends from a spreadsheet: import, validate, create a batch, run it under the provider's limits.
import { z } from 'zod';
import type { BatchItemView, BatchProgress, BatchListRow, BatchRecord, ImportView, RecentlyCalledView, RowIssue } from '../bulk-types';
import { ISSUE_KINDS, ITEM_STATUSES } from '../bulk-types';
import { event, id, lang, op, utcOffsetMinutes } from './define';
import { base64Length, IMPORT_LIMITS } from '../domain/import-limits';
import { EVENT_CHANNELS } from './channels';

const batchId = z.number().int().positive();
const mapping = z.record(z.string().max(200), z.string().max(100)).refine((m) => Object.keys(m).length <= 200, 'too-many-columns');

export const bulkOps = {
  /** Reads a spreadsheet (CSV or XLSX, sent as base64), maps its columns and validates every row. */
  'bulk.open': op<ImportView>()(
    z
      .object({
        templateId: id,
        file: z.object({ name: z.string().trim().min(1).max(255), base64: z.string().max(base64Length(IMPORT_LIMITS.fileBytes), 'file-too-large') }).strict(),
        mapping: mapping.optional(),
        profileId: id.optional(),
        /** An id of the caller's choosing: importProgress pushes carry it, bulk.cancelOpen names it. */
        requestId: z.string().min(1).max(64).optional(),
      })
      .strict(),
  ),
  /** Stops reading a file opened with this requestId (the open fails with import-cancelled). */
  'bulk.cancelOpen': op<{ cancelled: boolean }>()(z.object({ requestId: z.string().min(1).max(64) }).strict()),
  'bulk.remap': op<ImportView>()(z.object({ importId: z.string().max(64), mapping, templateId: id.optional() }).strict()),
  'bulk.issues': op<RowIssue[]>()(
    z
      .object({
        importId: z.string().max(64),
        kind: z.enum(ISSUE_KINDS).optional(),
        offset: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(1000).optional(),
      })
      .strict(),
  ),
  'bulk.create': op<BatchRecord>()(
    z
      .object({
        importId: z.string().max(64),
        profileId: id,
        duplicates: z.enum(['none', 'same-text', 'same-mobile']),
        name: z.string().trim().max(100).optional(),
      })
      .strict(),
  ),
  /** Rows of an import called with the same text in the last 30 minutes (History): said before the list is started. */
  'bulk.recentlyCalled': op<RecentlyCalledView>()(z.object({ importId: z.string().max(64) }).strict()),
  'bulk.discard': op<{ discarded: boolean }>()(z.object({ importId: z.string().max(64) }).strict()),
  'bulk.list': op<BatchListRow[]>()(
    z
      .object({ limit: z.number().int().min(1).max(500).optional() })
      .strict()
      .optional(),
  ),
  'bulk.progress': op<BatchProgress>()(z.object({ batchId }).strict()),
  'bulk.start': op<BatchProgress>()(z.object({ batchId }).strict()),
  'bulk.pause': op<BatchProgress>()(z.object({ batchId }).strict()),
  'bulk.resume': op<BatchProgress>()(z.object({ batchId }).strict()),
  'bulk.cancel': op<BatchProgress>()(z.object({ batchId }).strict()),
  'bulk.items': op<BatchItemView[]>()(
    z
      .object({
        batchId,
        status: z.enum(ITEM_STATUSES).optional(),
        offset: z.number().int().min(0).optional(),
        limit: z.number().int().min(1).max(1000).optional(),
      })
      .strict(),
  ),
  /** Items whose outcome is unknown (in flight when Callout stopped, or a timeout): for a person to decide. */
  'bulk.unknown': op<BatchItemView[]>()(z.object({ batchId }).strict()),
  /** Sends chosen unknown items again: only with a person's confirmation. */
  'bulk.requeue': op<{ requeued: number }>()(
    z.object({ batchId, itemIds: z.array(z.number().int().positive()).min(1).max(100_000), confirm: z.literal(true, { error: 'confirm-required' }) }).strict(),
  ),
  'bulk.skip': op<{ skipped: number }>()(z.object({ batchId, itemIds: z.array(z.number().int().positive()).min(1).max(100_000) }).strict()),
  /**
   * The results: the sheet's own columns plus what became of each row, in `lang` and local time
   * (`utcOffsetMinutes` from the renderer), as CSV text or XLSX bytes (base64) — History's conventions.
   */
  'bulk.export': op<{ fileName: string; format: 'csv' | 'xlsx'; rows: number; text?: string; base64?: string }>()(
    z.object({ batchId, lang, utcOffsetMinutes, format: z.enum(['csv', 'xlsx']).default('csv') }).strict(),
  ),
  'bulk.remove': op<{ removed: boolean }>()(z.object({ batchId }).strict()),
};

/** How far reading a file has got (bulk.open with a requestId): a few times a second. */
export interface ImportProgress {
  requestId: string;
  phase: 'reading' | 'unpacking' | 'parsing';
  bytes: number;
  totalBytes: number;
  rows: number;
}

export const bulkEvents = {
  importProgress: event<ImportProgress>()(EVENT_CHANNELS.importProgress),
  /** A batch's progress (at most a few times a second, and at once when its status changes). */
  bulkProgress: event<BatchProgress>()(EVENT_CHANNELS.bulkProgress),
};
